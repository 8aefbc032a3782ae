"""Benchmark: complete C&C: Ancients Imperial Rome battles per minute, random bot against random bot.

Drives the game's generator directly (the same rules code a Session runs,
without save/replay bookkeeping): every decision is answered by a uniformly
random option from a seeded generator, cycling through all 24 battles. Runs
on ``workers`` processes (default 2, the machine's core count for the team).

    python benchmarks/bench_ccancients_rome.py [seconds] [workers]
    python benchmarks/bench_ccancients_rome.py duel [games] [battle ...]
    python benchmarks/bench_ccancients_rome.py ratios [games per battle] [battle ...]
    python benchmarks/bench_ccancients_rome.py bare [games per battle] [battle ...]

``ratios`` plays the same seeded battles through the Session (as ``ancients simulate`` does:
RandomBot, checkpoints) with the code as it was before the throughput work of issue 11 item 5
and with the code now, game by game in one process, and prints a table: battles per CPU minute
(one core) before and after and their ratio, per battle and overall, and decisions per CPU
second (the logs of each pair must be identical, or it stops). ``bare`` does the same for the
rules alone: the generator driven without a Session (no checkpoints, no RandomBot).

Measured on the team's shared 2-core machine (issue 11 item 5), four seeded battles each of
First Bedriacum, Tigranocerte, Edessa and Milvian Bridge: before 10,788 decisions per CPU
second (First Bedriacum 364 battles per CPU minute), after 16,383 (538); ratio 1.52 overall,
1.43-1.66 by battle, 1.3-2.0 between runs under load. Before, a Session's set-up listed and
checked all 57 battle files and parsed units, terrain and deck again (about half the time of
a random battle); now stores without variants share them. Of the rest, about a fifth is
the core's RandomBot deriving its stream for each decision, outside the rules.

Second round (issue 11 item 5 again). The Session had meanwhile gained checkpoints (a copy of
the state at the start of each turn and before each choice of a unit to move or to battle, for
cheap undo and fork), and they cost more than the rules: through the Session the ratio had fallen
to 1.06, random self-play ran about 3,100-3,300 decisions per CPU second against 12,000 without
the copies, and the garbage collector, scanning the copies kept, took about 40% of the time
(with it switched off 8,400 decisions per CPU second against 4,900). Now: the copies name the slots of a unit and an army, share what never changes in play (order
plans, scenario switches, the deck's card set, the board's terrain until it changes) and take no
deep copies; a stage checkpoint comes once a unit can act and before every second choice (the
same resumes; a fork replays at most a few answers more, its median cost unchanged at about
0.25 ms); RandomBot computes the one number it draws (``chance.spawned_below``) instead of building
two streams for it, the same answers. The reference plays the old code of both rounds
(``benchmarks/_cca_reference.py``). Three runs on the loaded 2-core machine, three seeded battles
each of First Bedriacum, Tigranocerte, Edessa and Milvian Bridge: overall ratio 2.19, 2.28, 2.09;
by battle 1.85-2.49 (First Bedriacum 1.90-2.18, Tigranocerte 2.06-2.28, Edessa 2.38-2.49, Milvian
Bridge 1.85-2.33); before 2,852-3,174 decisions per CPU second (88-98 battles per CPU minute), after
5,964-7,036 (185-218). ``bare``: 1.30 (13,215 against 17,235 decisions per CPU second, the rules
alone). With ``gc.freeze()`` after the first game (what a study worker could do) random self-play
ran another 13-17% faster; not done here.

``duel`` plays the game's greedy bot (its cheap ``score_option``, ties broken
at random, exactly as ``ancients_kit.bots.GreedyBot`` without forking) against
the random bot, greedy taking each side in turn, and reports win rates.
"""

from __future__ import annotations

import multiprocessing as mp
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import Any


def _play(scenario: str, seed: int, store: Any = None) -> tuple[str | None, int]:
    """One random battle driven bare: (winner, decisions); ``store`` defaults to one shared store."""
    winner, n, _ = _bare(scenario, seed, store if store is not None else _store())
    return winner, n


def _bare(scenario: str, seed: int, store: Any) -> tuple[str | None, int, str]:
    """(winner, decisions, log digest) of one random battle driven bare."""
    from ancients_games.ccancients_rome import GAME
    from ancients_kit.chance import Rng
    from ancients_kit.log import Log
    from ancients_kit.session import Context

    ctx = Context(store, {"turn_limit": 150}, seed, Log())
    state = GAME.setup(ctx, scenario)
    gen = GAME.play(ctx, state)
    rng = Rng(seed * 7919 + 1)
    n = 0
    try:
        d = next(gen)
        while True:
            opts = d.options
            n += 1
            d = gen.send(opts[rng.below(len(opts))].key)
    except StopIteration as stop:
        return stop.value.winner, n, ctx.log.digest()


_STORE: Any = None


def _store() -> Any:
    global _STORE
    if _STORE is None:
        from ancients_games.ccancients_rome import GAME
        from ancients_kit.data import DataStore

        _STORE = DataStore(GAME.package)
    return _STORE


def _worker(args: tuple[list[str], int, float]) -> tuple[int, int, float]:
    scenarios, offset, seconds = args
    end = time.perf_counter() + seconds
    cpu0 = time.process_time()
    games = decisions = 0
    i = offset
    while time.perf_counter() < end:
        _, n = _play(scenarios[i % len(scenarios)], 1000 + i)
        games += 1
        decisions += n
        i += 2
    return games, decisions, time.process_time() - cpu0


def run(seconds: float = 10.0, workers: int = 2) -> dict[str, Any]:
    """Play random battles for ``seconds`` on ``workers`` processes; return the rates."""
    from ancients_games.ccancients_rome import GAME
    from ancients_games.ccancients_rome.scenario import list_battles

    scenarios = [b.rsplit(".", 1)[-1] for b in list_battles(_store())]
    del GAME
    t0 = time.perf_counter()
    if workers <= 1:
        results = [_worker((scenarios, 0, seconds))]
    else:
        with mp.get_context("fork").Pool(workers) as pool:
            results = pool.map(_worker, [(scenarios, k, seconds) for k in range(workers)])
    elapsed = time.perf_counter() - t0
    games = sum(g for g, _, _ in results)
    decisions = sum(d for _, d, _ in results)
    cpu = sum(c for _, _, c in results)
    return {
        "benchmark": "ccancients_rome random-vs-random battles",
        "workers": workers,
        "seconds": round(elapsed, 2),
        "battles": games,
        "battles_per_minute": round(games * 60 / elapsed, 1),
        "decisions_per_second": round(decisions / elapsed, 1),
        # CPU time is what the battles cost whatever else the machine runs: per core, and for
        # ``workers`` idle cores
        "battles_per_cpu_minute": round(games * 60 / cpu, 1) if cpu else 0.0,
        "battles_per_minute_if_cores_idle": round(games * 60 / cpu * workers, 1) if cpu else 0.0,
        "target_battles_per_minute": 1000,
        # the same seeded battles through the Session, code before issue 11 item 5 against now
        "session_before_after": ratios(2),
    }


def _duel(scenario: str, seed: int, greedy_first: bool) -> tuple[str | None, str, int]:
    """One battle, greedy against random; returns (winner, greedy side, turns)."""
    from ancients_games.ccancients_rome import GAME
    from ancients_kit.chance import Rng
    from ancients_kit.log import Log
    from ancients_kit.session import Context

    ctx = Context(_store(), {"turn_limit": 150, "first_strike": "auto"}, seed, Log())
    state = GAME.setup(ctx, scenario)
    greedy = state.sides[0 if greedy_first else 1]
    gen = GAME.play(ctx, state)
    rng = Rng(seed * 7919 + 3)
    try:
        d = next(gen)
        while True:
            opts = d.options
            if len(opts) == 1:
                key = opts[0].key
            elif d.side == greedy:
                scores = [GAME.score_option(state, d, o.key) or 0.0 for o in opts]
                top = max(scores)
                best = [o.key for o, sc in zip(opts, scores) if sc == top]
                key = best[rng.below(len(best))]
            else:
                key = opts[rng.below(len(opts))].key
            d = gen.send(key)
    except StopIteration as stop:
        return stop.value.winner, greedy, state.b.turn


def duel(games: int = 20, battles: tuple[str, ...] = ("tigranocerte", "edessa", "milvian-bridge")) -> dict[str, Any]:
    """Greedy against random, ``games`` battles per scenario, greedy on each side half the time."""
    t0 = time.perf_counter()
    out: dict[str, Any] = {"benchmark": "ccancients_rome greedy vs random", "games_per_battle": games}
    total = [0, 0, 0]
    for b in battles:
        w = l = dr = 0
        for i in range(games):
            winner, greedy, _ = _duel(b, 500 + i, i % 2 == 0)
            if winner is None:
                dr += 1
            elif winner == greedy:
                w += 1
            else:
                l += 1
        out[b] = {"greedy_wins": w, "random_wins": l, "draws": dr, "greedy_win_rate": round(w / games, 2)}
        total = [total[0] + w, total[1] + l, total[2] + dr]
    out["total"] = {"greedy_wins": total[0], "random_wins": total[1], "draws": total[2],
                    "greedy_win_rate": round(total[0] / (games * len(battles)), 3)}
    out["seconds"] = round(time.perf_counter() - t0, 1)
    return out


# ------------------------------------------------------------------ before/after (issue 11 item 5)
# Random self-play through the Session, as ``ancients simulate`` plays, with the code as it was
# before the throughput work (every new store parsing and checking all 57 battle files, units,
# terrain and deck; geometry and lines of sight computed afresh; and the second round's old code,
# _cca_reference) against the code now, game for game in the same process, alternating so that
# load on a shared machine hits both alike.

RATIO_BATTLES = ("first-bedriacum", "tigranocerte", "edessa", "milvian-bridge")


def _shared() -> list[Any]:
    """Every process-wide cache of the rules (dicts and lists)."""
    from ancients_games.ccancients_rome import orders, packaged, protocol, scenario, terrain

    return [scenario._PACKAGED, scenario._LISTED, packaged._DOCS, terrain._GEOMETRY, terrain._BETWEEN,
            terrain._DISTANCES, terrain._MIRRORED, orders._LABELS, protocol._OPTIONS]


def _distance_reference(board: Any, a: str, b: str) -> int:
    """The distance as the old code worked it out: from the axial coordinates, every time."""
    q1, r1 = board.axial[a]
    q2, r2 = board.axial[b]
    dq, dr = q1 - q2, r1 - r2
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@contextmanager
def reference_code() -> Iterator[None]:
    """Run the rules as they were before issue 11 item 5: each hot function's ``_reference``
    (or ``_``-prefixed uncached twin) in place of the cached one, nothing shared between games.
    (Only the order step's labels made once per card, not per question, cannot be undone.)"""
    from ancients_games.ccancients_rome import orders, protocol
    from ancients_games.ccancients_rome.terrain import Board
    from ancients_kit.session import Option

    saved = (Board.between, Board.distance, orders._label, protocol._option)
    caches = _shared()
    kept = [c.copy() for c in caches]
    for c in caches:
        c.clear()  # the next Session sets up as the old code did
    Board.between = Board._between  # type: ignore[method-assign]
    Board.distance = _distance_reference  # type: ignore[method-assign]
    orders._label = orders._label_reference
    protocol._option = Option  # type: ignore[assignment]
    try:
        with _second_round():
            yield
    finally:
        Board.between, Board.distance, orders._label, protocol._option = saved  # type: ignore[method-assign]
        for c, k in zip(caches, kept):
            c.clear()
            c.extend(k) if isinstance(c, list) else c.update(k)


def _second_round() -> Any:
    """The state copies, terrain look-up and RandomBot stream as they were before the second round."""
    try:
        from benchmarks._cca_reference import patched
    except ImportError:  # run as a script from benchmarks/
        from _cca_reference import patched  # type: ignore[no-redef]
    return patched()


def _session_game(scenario: str, seed: int, reference: bool) -> tuple[float, int, str]:
    """One random battle through the Session: (CPU seconds, decisions, log digest)."""
    from ancients_games.ccancients_rome import GAME
    from ancients_kit.bots import RandomBot, play_out
    from ancients_kit.session import Session

    t0 = time.process_time()
    with reference_code() if reference else nullcontext():
        s = Session(GAME, scenario, seed=seed)
        play_out(s, RandomBot(), max_decisions=50_000)
    return time.process_time() - t0, len(s.answers), s.log.digest()


def ratios(games_per_battle: int = 4, battles: tuple[str, ...] = RATIO_BATTLES) -> dict[str, Any]:
    """Before/after battles per CPU minute through the Session; every pair of games must log alike."""
    return _before_after(_session_game, "ccancients_rome random self-play through the Session, before/after",
                         games_per_battle, battles)


def _before_after(play: Any, what: str, games_per_battle: int, battles: tuple[str, ...]) -> dict[str, Any]:
    """Besides :func:`_paired.paired`'s figures per battle and overall, the overall battles per CPU
    minute before and after (one core: CPU time is what a battle costs whatever else runs)."""
    try:
        from benchmarks._paired import paired
    except ImportError:  # run as a script from benchmarks/
        from _paired import paired  # type: ignore[no-redef]
    out: dict[str, Any] = {"benchmark": what, "games_per_battle": games_per_battle}
    got = paired(play, battles, games_per_battle, 2000, "battles")
    out.update(got)
    for when in ("before", "after"):
        minutes = sum(games_per_battle / got[b][f"{when}_battles_per_cpu_minute"] for b in battles)
        out[f"{when}_battles_per_cpu_minute"] = round(games_per_battle * len(battles) / minutes, 1)
    return out


def _bare_game(scenario: str, seed: int, reference: bool) -> tuple[float, int, str]:
    """One random battle driven bare (the generator, no Session: no checkpoints, no RandomBot), with
    a store of its own as a Session has: (CPU seconds, decisions, log digest)."""
    from ancients_games.ccancients_rome import GAME
    from ancients_kit.data import DataStore

    t0 = time.process_time()
    with reference_code() if reference else nullcontext():
        _, n, digest = _bare(scenario, seed, DataStore(GAME.package))
    return time.process_time() - t0, n, digest


def bare_ratios(games_per_battle: int = 4, battles: tuple[str, ...] = RATIO_BATTLES) -> dict[str, Any]:
    """:func:`ratios` for the rules alone: the generator driven bare, before and after."""
    return _before_after(_bare_game, "ccancients_rome random self-play, rules alone (no Session), before/after",
                         games_per_battle, battles)


def ratio_table(r: dict[str, Any]) -> str:
    """:func:`ratios` as a table: per battle and overall, before and after, one core."""
    rows = [f"C&C random self-play through the Session, {r['games_per_battle']} seeded battles each, "
            "code before issue 11 item 5 against now (CPU time, one core)",
            f"{'battle':18} {'before b/min':>12} {'after b/min':>12} {'after dec/s':>12} {'ratio':>6}"]
    for b, v in r.items():
        if isinstance(v, dict):
            rows.append(f"{b:18} {v['before_battles_per_cpu_minute']:12.1f} {v['after_battles_per_cpu_minute']:12.1f} "
                        f"{v['after_decisions_per_cpu_second']:12,} {v['ratio']:6.2f}")
    rows.append(f"{'overall':18} {r['before_battles_per_cpu_minute']:12.1f} {r['after_battles_per_cpu_minute']:12.1f} "
                f"{r['after_decisions_per_cpu_second']:12,} {r['ratio']:6.2f}")
    rows.append(f"decisions per CPU second: before {r['before_decisions_per_cpu_second']:,}, after "
                f"{r['after_decisions_per_cpu_second']:,}; logs identical game for game: {r['logs_identical']}")
    return "\n".join(rows)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "ratios":
        n = int(sys.argv[2]) if len(sys.argv) > 2 else 4
        result = ratios(n, tuple(sys.argv[3:]) or RATIO_BATTLES)
        print(ratio_table(result))
        print(result)
        raise SystemExit(0)
    if len(sys.argv) > 1 and sys.argv[1] == "bare":
        n = int(sys.argv[2]) if len(sys.argv) > 2 else 4
        result = bare_ratios(n, tuple(sys.argv[3:]) or RATIO_BATTLES)
        print(ratio_table(result).replace("through the Session", "driven bare (rules alone, no Session)"))
        print(result)
        raise SystemExit(0)
    if len(sys.argv) > 1 and sys.argv[1] == "duel":
        n = int(sys.argv[2]) if len(sys.argv) > 2 else 20
        print(duel(n, tuple(sys.argv[3:]) or ("tigranocerte", "edessa", "milvian-bridge")))
    else:
        secs = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
        w = int(sys.argv[2]) if len(sys.argv) > 2 else 2
        print(run(secs, w))
