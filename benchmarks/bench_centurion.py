"""Centurion throughput: complete random-vs-random games per minute.

Figures:

- ``basic_games_per_minute``: Basic Games (``cen:basic.*``) played to the end
  by two random bots through the full session protocol, averaged over the
  four Basic Game deployments (target: at least 300 a minute on a 2-core
  machine);
- ``full_games_per_minute``: one Full Simulation scenario (``numidia``) the
  same way, when the Full Simulation rules are installed;
- ``decisions_per_second`` for each, and the mean decisions per game;
- ``bare_ratio``: the Basic Game driven without session or bot (the rules
  generator answered directly with the same random choices) over the session
  figure -- the protocol's overhead, machine-independent;
- ``*_games_per_cpu_minute``: the same per CPU minute of this process
  (``time.process_time``), steadier than wall-clock on a shared machine;
- ``*_search_share``: the share of that CPU time spent in the movement search
  (``movement.reachable``);
- ``basic_score_options_speedup``: the greedy heuristic's scores of every
  choice of a destination hex in a seeded Basic Game, option by option
  (``score_option``) over all at once (``score_options``), and whether they
  are the same (``basic_score_options_same_scores``); the search's rollouts
  spent about a quarter of their time on these scores. Measured with both
  cores busy: 4.5-4.8 over 50 passes (86 decisions, 5,115 options), 3.2-6.7
  over 20;
- ``full_search_speedup``: in one seeded Full Simulation game, the plain
  (hex, facing) Dial search the engine used before (kept as the reference in
  ``games/centurion/tests/test_movement_speed.py``) over the engine's search,
  both run on every position the game asks about -- machine-independent.

- ``search_*_search_us``: microseconds per reachable search (the search alone,
  ``reach.reachable``), Basic Game and Full Simulation, on the positions the
  Movement Phase searched in seeded random games (:func:`search_times`);
  ``python -m benchmarks.bench_centurion search OLD_MOVEMENT_PY [rounds]``
  times an older ``movement.py`` beside it, position by position, with the
  ratio (issue 25 item 4: the search moved onto the core's engine,
  ``results/engine-speed.md``).

Run with ``python -m benchmarks.bench_centurion [seconds]`` (or ``python -m benchmarks centurion``);
``python -m benchmarks.bench_centurion ratios [rounds] [games]`` prints only the before/after
table (:func:`ratio_rounds`): per scenario and overall, the ratio of every round and the median
games per CPU minute on one core before and after.

Measured on the team's shared 2-core machine, numidia and the four Basic
deployments, random vs random:

- before the integer-node search (0cfe9b0, machine nearly idle): 573 Basic and
  60 Full games a minute, about 60% of the Full CPU time in ``_reach_full``;
- after it (others' jobs running): 840-960 Basic and 135-170 Full games a
  minute; the search takes ~30% (Basic) and ~35-45% (Full) of the CPU time,
  a quarter of the latter in the Full Simulation's hooks (stacking limit,
  blocked and stop hexes); ``full_search_speedup`` about 4 (5-6.5 on the
  Full search alone, hooks excluded).
- squares joined in the Movement Phase (MoveHooks.extra_cost, cen:full.square)
  cost some of that: numidia 144.7 games a minute (30 s, 49% in the search).
  Then the Full Simulation's hooks read per-position facts cached by
  (state.rev, Player-Turn), option look-ups, fire fields and deployment zones
  are cached, and the charge measure reuses the phase's own search: 180.9,
  then 204.0 games a minute (30 s runs; 8 s run of this module: 212 Full,
  1021 Basic, full_search_speedup 3.4, Full search share 44%), with the same
  game logs (digests of 48 seeded random games in six scenarios). With
  units also leaving squares in the Movement Phase and the stacking limit
  answered at once for empty hexes: 213.8 (30 s).
- ``full_before_after`` (issue 11 item 5; ``ratios``): the same seeded Full Simulation games
  through the Session with the target queries' ``_reference`` twins and with the new ones
  (fire targets and deserter hexes without generator walks, adjacent hexes from a table):
  ratio 1.1 (numidia 1.22, pharsalus 0.96, within the noise of a shared machine), logs
  identical. The Full Simulation is not doubled: a sampling profile puts about 45% of its
  time in the Movement Phase's (hex, facing) search and its hooks, already optimised
  (``full_search_speedup``), and the rest spread thinly over the phase's option building,
  melee and fire targets.
- Second pass (``ratio_rounds``; the reference code also swaps back the copies, the memo and
  the destination filter below). A cProfile of seeded numidia and pharsalus games showed
  the largest cost was not the search but the session checkpoint at every choice of a unit
  to move: ``CenturionState.copy`` took about 56% of the CPU time (``copy.deepcopy`` of
  ``state.extra`` rebuilding every hex through ``__reduce_ex__``, a ``setattr`` loop per
  unit), and the garbage collector about 30% (a game keeps hundreds of checkpoint copies, so
  full collections walk them again and again); the (hex, facing) search took about 18-25%,
  Attack Allocation about 12%. Changed: ``state._copy_extra`` (deepcopy's result, order and
  sharing, hexes and frozensets of plain values kept as they are), a straight-line unit
  copier, Attack Allocation's memo of each unit's fire and melee targets and its stop at the
  first eligible unit when only "is there one?" is asked, ``MoveHooks.destination_check``
  (cen:barb.warrior worked out once per unit, not at every reachable hex). The search itself
  is unchanged (same code, so no new reference for it). Four rounds of two games per
  scenario on the shared 2-core machine (others' jobs running), games per CPU minute, one
  core: numidia 31.6 -> 45.7 (ratios 1.53, 1.36, 1.41, 1.36), pharsalus 42.0 -> 59.5
  (1.42, 1.35, 1.42, 1.62), overall 1.48, 1.35, 1.41, 1.46 (median 1.44); one game each of
  numidia, pharsalus, carrhae and gaul: 1.60, 1.33, 1.15, 2.23 (gaul: the warrior rule).
  Logs identical in every pair. Still short of 2x: what is left is the checkpoint copies
  and the collector's walks over them (about a quarter of the time), the search (a quarter)
  and many small costs; the copies now do little more than allocate the objects an
  independent copy needs (about 270 per checkpoint, most of them units, their contact sets
  and stack lists), and fewer of them would mean fewer checkpoints (slower undo and fork)
  or a change to the session's checkpoint contract.
- Third pass: fewer checkpoints, as the C&C engine does. The Full Simulation's Movement Phase
  is a checkpoint only at the choices of a unit made while the number of the side's units
  moved is a multiple of ``sequence.MOVE_CHECKPOINT_EVERY`` (read from the state, so a resumed
  game checkpoints alike; the reference code sets it back to 1). In the longest game of
  ``python -m benchmarks checkpoints`` (philippi, 1,484 answers) that keeps 472, 253, 177 and
  144 checkpoints for every 1, 2, 3 and 4 units moved; undo at its end 39 ms (every unit),
  55, 48 and 32 ms (noise of a loaded machine: undo there replays from the last Player-Turn),
  all under the 100 ms target. A profile at 4 puts the copies at about 9% of the CPU time and
  the collector at about 5%; the (hex, facing) search is now the largest part (about 29%).
  Three rounds of two games per scenario, games per CPU minute on one core, logs identical in
  every pair: at 3 numidia 38.8 -> 66.6 (1.76, 1.58, 2.05), pharsalus 55.4 -> 108.8 (1.97,
  1.40, 2.37), overall 1.84, 1.50, 2.19 (median 1.84); at 4 numidia 40.5 -> 84.2 (2.22, 2.31,
  1.91), pharsalus 56.2 -> 89.7 (1.54, 1.40, 2.37), overall 1.89, 1.85, 2.09 (median 1.89).
  Kept at 6: 106 checkpoints in philippi, undo at its end 22 ms (4: 12 ms, the machine
  quieter then), at 90% 11 ms; three rounds: numidia 38.5 -> 104.3 (2.37, 2.02, 3.42),
  pharsalus 53.6 -> 128.1 (2.82, 1.96, 2.39), overall 2.53, 1.99, 2.91 (median 2.53); an
  earlier pair of rounds 2.32, 1.89; a later three 2.42, 2.34, 2.28 (numidia 44.8 -> 98.5,
  pharsalus 49.3 -> 112.7). The target 2x is met at the median, not in every round
  on this loaded machine. What is left is the search (about a third of the time now).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

from ancients_kit.bots import GreedyBot, RandomBot, play_out
from ancients_kit.chance import Rng
from ancients_kit.log import Log
from ancients_kit.session import Context, Session

from ancients_games.centurion import GAME

BASIC = ("basic-civil-war", "basic-carrhae", "basic-gaul", "basic-servile-war")
FULL = "numidia"
MAX_DECISIONS = 50_000


def _games(scenarios: tuple[str, ...], seconds: float, options: dict[str, Any] | None = None) -> dict[str, float]:
    from ancients_games.centurion import movement

    search = [0.0]
    fast = movement.reachable

    def timed(state: Any, unit: Any, hooks: Any = None) -> Any:
        t0 = time.process_time()
        try:
            return fast(state, unit, hooks)
        finally:
            search[0] += time.process_time() - t0

    games = decisions = unfinished = 0
    start = time.perf_counter()
    cpu0 = time.process_time()
    seed = 1
    movement.reachable = timed  # type: ignore[assignment]
    try:
        while time.perf_counter() - start < seconds or games < len(scenarios):
            sc = scenarios[games % len(scenarios)]
            s = Session(GAME, sc, seed=seed, options=options)
            out = play_out(s, RandomBot(), max_decisions=MAX_DECISIONS)
            unfinished += out is None
            decisions += len(s.answers)
            games += 1
            seed += 1
    finally:
        movement.reachable = fast  # type: ignore[assignment]
    dt = time.perf_counter() - start
    cpu = time.process_time() - cpu0
    return {
        "games": games,
        "games_per_minute": round(games / dt * 60, 1),
        "games_per_cpu_minute": round(games / cpu * 60, 1) if cpu else 0.0,
        "search_share": round(search[0] / cpu, 2) if cpu else 0.0,
        "decisions_per_second": round(decisions / dt),
        "mean_decisions": round(decisions / games, 1),
        "unfinished": unfinished,
    }


def _search_speedup(scenario: str = FULL, seed: int = 1) -> float | None:
    """Plain reference search time over the engine's, on every search of one game."""
    try:
        from ancients_games.centurion.tests.test_movement_speed import _ref_reach
    except ImportError:  # tests not installed
        return None
    from ancients_games.centurion import movement

    fast = movement.reachable
    spent = [0.0, 0.0]

    def both(state: Any, unit: Any, hooks: Any = None) -> Any:
        t0 = time.process_time()
        _ref_reach(state, unit, hooks)
        t1 = time.process_time()
        r = fast(state, unit, hooks)
        spent[0] += t1 - t0
        spent[1] += time.process_time() - t1
        return r

    movement.reachable = both  # type: ignore[assignment]
    try:
        play_out(Session(GAME, scenario, seed=seed, options={"version": "full"}), RandomBot(),
                 max_decisions=MAX_DECISIONS)
    finally:
        movement.reachable = fast  # type: ignore[assignment]
    return round(spent[0] / spent[1], 1) if spent[1] else None


def _bare(seconds: float) -> float:
    """Basic Games per minute driving the rules generator directly."""
    from ancients_kit.data import DataStore

    store = DataStore(GAME.package)
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games < 2:
        sc = BASIC[games % len(BASIC)]
        ctx = Context(store, {o.name: o.default for o in GAME.option_specs(store, sc)}, games + 1, Log())
        state = GAME.setup(ctx, sc)
        gen = GAME.play(ctx, state)
        rng = Rng(games + 1)
        try:
            d = next(gen)
            while True:
                d = gen.send(d.options[rng.below(len(d.options))].key)
        except StopIteration:
            pass
        games += 1
    return games / (time.perf_counter() - start) * 60


# ------------------------------------------------------------------ before/after (issue 11 item 5)
RATIO_SCENARIOS = ("numidia", "pharsalus")


@contextmanager
def reference_code() -> Iterator[None]:
    """The Full Simulation as it was before issue 11 item 5: the target queries' ``_reference``
    twins, checkpoint copies by ``copy.deepcopy`` and a ``setattr`` loop per unit
    (``_centurion_reference.copy_unit``), Attack Allocation without its memo of targets and asking
    for every eligible unit where one would do, and the Movement Phase asking
    ``refuse_destination`` at every reachable hex (no ``destination_check``), and a session
    checkpoint at every choice of a unit to move (``MOVE_CHECKPOINT_EVERY`` 1)."""
    import copy

    from ancients_games.centurion import state as st
    from ancients_games.centurion.full import allocation, fire_phase, movement_hooks, sequence as seq, units

    try:
        from benchmarks import _centurion_reference as reference
    except ImportError:  # run as a script from benchmarks/
        import _centurion_reference as reference  # type: ignore[no-redef]

    # each name where the rules look it up: fire targets are asked by Attack Allocation and the fire phases
    saved = (allocation.fire_targets, fire_phase.fire_targets, units.deserter_hexes, units.adjacent, st._copy_unit,
             st._copy_extra, allocation.memo_targets, allocation.eligible, movement_hooks._destination_check,
             seq.MOVE_CHECKPOINT_EVERY)
    eligible = allocation.eligible
    allocation.fire_targets = fire_phase.fire_targets = reference.fire_targets
    units.deserter_hexes = reference.deserter_hexes
    units.adjacent = lambda h: h.neighbors()
    st._copy_unit = reference.copy_unit
    st._copy_extra = copy.deepcopy
    allocation.memo_targets = reference.memo_targets
    allocation.eligible = lambda *a, first=False, memo=None: eligible(*a, memo=memo)  # every eligible unit, as before
    movement_hooks._destination_check = None  # hooks made in reference games filter hex by hex, as before
    seq.MOVE_CHECKPOINT_EVERY = 1  # a checkpoint at every choice of a unit to move, as before
    try:
        yield
    finally:
        (allocation.fire_targets, fire_phase.fire_targets, units.deserter_hexes, units.adjacent, st._copy_unit,
         st._copy_extra, allocation.memo_targets, allocation.eligible, movement_hooks._destination_check,
         seq.MOVE_CHECKPOINT_EVERY) = saved


def _full_game(scenario: str, seed: int, reference: bool) -> tuple[float, int, str]:
    t0 = time.process_time()
    with reference_code() if reference else nullcontext():
        s = Session(GAME, scenario, seed=seed, options={"version": "full"})
        play_out(s, RandomBot(), max_decisions=MAX_DECISIONS)
    return time.process_time() - t0, len(s.answers), s.log.digest()


def ratios(games: int = 3, scenarios: tuple[str, ...] = RATIO_SCENARIOS) -> dict[str, Any]:
    """Before/after Full Simulation games per CPU minute through the Session, the same seeds
    alternating; every pair of games must log alike."""
    from benchmarks._paired import paired

    return paired(_full_game, scenarios, games, 3000, "games")


def ratio_rounds(rounds: int = 3, games: int = 2, scenarios: tuple[str, ...] = RATIO_SCENARIOS) -> dict[str, Any]:
    """:func:`ratios` ``rounds`` times over: per scenario and overall, each round's
    before/after ratio and the median games per CPU minute (one core) before and after."""
    runs = [ratios(games, scenarios) for _ in range(rounds)]
    key_b, key_a = "before_games_per_cpu_minute", "after_games_per_cpu_minute"
    out: dict[str, Any] = {}
    for sc in scenarios:
        out[sc] = {"ratios": [r[sc]["ratio"] for r in runs],
                   key_b: round(statistics.median(r[sc][key_b] for r in runs), 1),
                   key_a: round(statistics.median(r[sc][key_a] for r in runs), 1)}
    overall = [r["ratio"] for r in runs]
    out["overall"] = {"ratios": overall, "min": min(overall), "median": round(statistics.median(overall), 2),
                      "max": max(overall)}
    out["games_per_scenario_and_round"] = games
    out["logs_identical"] = all(r["logs_identical"] for r in runs)
    return out


def print_ratio_rounds(got: dict[str, Any]) -> None:
    """The before/after table: games per CPU minute on one core, ratio per round."""
    print("Centurion Full Simulation, random self-play through the Session, one core (CPU time of this")
    print("process), the same seeded games with the reference (old) code and the new, logs compared:")
    print(f"  {'scenario':12} {'before g/min':>13} {'after g/min':>12}  ratio per round")
    for sc, row in got.items():
        if sc in ("overall", "games_per_scenario_and_round", "logs_identical"):
            continue
        print(f"  {sc:12} {row['before_games_per_cpu_minute']:13} {row['after_games_per_cpu_minute']:12}  "
              f"{', '.join(f'{r:.2f}' for r in row['ratios'])}")
    o = got["overall"]
    print(f"  {'overall':12} {'':13} {'':12}  {', '.join(f'{r:.2f}' for r in o['ratios'])}"
          f"  (min {o['min']:.2f}, median {o['median']:.2f}, max {o['max']:.2f})")
    print(f"  logs identical: {got['logs_identical']}")


def score_options_speedup(scenario: str = "basic-civil-war", seed: int = 7, rounds: int = 50) -> dict[str, Any]:
    """``Game.score_options`` (one distance map for a whole choice of hex) against
    ``score_option`` called option by option, on every choice of a destination hex
    in a seeded greedy Basic Game: the CPU time of ``rounds`` passes of each over
    the same decisions, in this process (their ratio is machine-independent).
    These scores are what the search's rollouts spend much of their time on."""
    s = Session(GAME, scenario, seed=seed)
    bot = GreedyBot()
    found = []
    while s.decision is not None:
        d = s.decision
        if d.kind == "move.hex":
            found.append((s.state.copy(), d))
        s.answer(bot.choose(s, d))
    n_opts = sum(len(d.options) for _, d in found)

    def one_by_one() -> float:
        t = time.process_time()
        for _ in range(rounds):
            for st, d in found:
                [GAME.score_option(st, d, o.key) for o in d.options]
        return time.process_time() - t

    def batched() -> float:
        t = time.process_time()
        for _ in range(rounds):
            for st, d in found:
                GAME.score_options(st, d)
        return time.process_time() - t

    same = all(GAME.score_options(st, d) == [GAME.score_option(st, d, o.key) for o in d.options] for st, d in found)
    before, after = one_by_one(), batched()
    return {"decisions": len(found), "options": n_opts, "same_scores": same,
            "speedup": round(before / after, 2) if after else None}


# ------------------------------------------------------------------ the reachable search alone (issue 25 item 4)
SEARCH_SCENARIOS = {"basic": (("basic-civil-war", 1), ("basic-gaul", 2)), "full": (("numidia", 1), ("pharsalus", 2))}


def search_positions(per_game: int = 300) -> dict[str, list[tuple[Any, str, Any]]]:
    """Every position the Movement Phase searched in seeded random games (the first
    ``per_game`` of each), as (state copy, unit id, hooks), Basic Game and Full Simulation."""
    from ancients_games.centurion import movement

    out: dict[str, list[tuple[Any, str, Any]]] = {}
    fast = movement.reachable
    for version, games in SEARCH_SCENARIOS.items():
        got: list[tuple[Any, str, Any]] = []
        for scenario, seed in games:
            mine: list[tuple[Any, str, Any]] = []

            def record(state: Any, unit: Any, hooks: Any = None, _mine: list = mine) -> Any:
                if len(_mine) < per_game:
                    _mine.append((state.copy(), unit.id, hooks))
                return fast(state, unit, hooks)

            movement.reachable = record  # type: ignore[assignment]
            try:
                options = None if version == "basic" else {"version": "full"}
                play_out(Session(GAME, scenario, seed=seed, options=options), RandomBot(), max_decisions=MAX_DECISIONS)
            finally:
                movement.reachable = fast  # type: ignore[assignment]
            got.extend(mine)
        out[version] = got
    return out


def _old_search(path: str) -> Any:
    """``reachable(state, unit, hooks)`` of an older ``games/centurion/movement.py`` saved at
    ``path`` (``git show b182898:games/centurion/movement.py > /tmp/old.py``): loaded from
    that file as a module of its own, beside the code of this tree, for a paired timing."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("centurion_movement_before", path)
    assert spec is not None and spec.loader is not None
    old = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(old)
    return old.reachable


def search_times(old_path: str | None = None, runs: int = 5, per_game: int = 300) -> dict[str, Any]:
    """Microseconds per reachable search, Basic Game and Full Simulation, on
    :func:`search_positions`: each position searched ``runs`` times and the least time kept (a
    busy machine slows a run, never speeds one), summed over the positions. With ``old_path``
    (an older ``movement.py``, see :func:`_old_search`), the old search too, alternating with
    the new one position by position, its costs checked equal, and the ratio new / old."""
    from ancients_games.centurion.reach import reachable

    old = _old_search(old_path) if old_path else None
    clock = time.perf_counter
    out: dict[str, Any] = {}
    for version, positions in search_positions(per_game).items():
        spent = [0.0, 0.0]
        for state, uid, hooks in positions:
            unit = state.units[uid]
            if old is not None:
                assert list(old(state, unit, hooks).cost.items()) == list(reachable(state, unit, hooks).cost.items())
            least = [float("inf"), float("inf")]
            for r in range(runs):
                for k in ((0, 1) if r % 2 else (1, 0)):
                    if k == 1 and old is None:
                        continue
                    t0 = clock()
                    (reachable if k == 0 else old)(state, unit, hooks)
                    least[k] = min(least[k], clock() - t0)
            spent[0] += least[0]
            spent[1] += least[1] if old is not None else 0.0
        n = len(positions)
        out[f"{version}_positions"] = n
        out[f"{version}_search_us"] = round(spent[0] / n * 1e6, 1)
        if old is not None:
            out[f"{version}_search_us_before"] = round(spent[1] / n * 1e6, 1)
            out[f"{version}_search_after_over_before"] = round(spent[0] / spent[1], 3)
    return out


def run(seconds: float = 6.0) -> dict[str, Any]:
    out: dict[str, Any] = {}
    so = score_options_speedup()
    out["basic_score_options_speedup"] = so["speedup"]
    out["basic_score_options_same_scores"] = so["same_scores"]
    basic = _games(BASIC, seconds)
    out.update({f"basic_{k}": v for k, v in basic.items()})
    bare = _bare(seconds / 2)
    out["basic_bare_games_per_minute"] = round(bare, 1)
    out["bare_ratio"] = round(bare / basic["games_per_minute"], 2) if basic["games_per_minute"] else None
    out["basic_target_met"] = basic["games_per_minute"] >= 300
    out.update({f"search_{k}": v for k, v in search_times(runs=3, per_game=150).items()})
    try:
        full = _games((FULL,), seconds, options={"version": "full"})
        out.update({f"full_{k}": v for k, v in full.items()})
        out["full_scenario"] = FULL
        out["full_search_speedup"] = _search_speedup()
        ba = ratios(2)
        out["full_before_after"] = ba
        out["full_ratio_overall"] = ba["ratio"]
        for sc in RATIO_SCENARIOS:
            out[f"full_ratio_{sc}"] = ba[sc]["ratio"]
            out[f"full_{sc}_games_per_cpu_minute_before_after"] = (
                ba[sc]["before_games_per_cpu_minute"], ba[sc]["after_games_per_cpu_minute"])
    except Exception as exc:  # the Full Simulation may not be installed yet
        out["full_error"] = f"{type(exc).__name__}: {exc}"
    return out


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "ratios":
        rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
        per = int(sys.argv[3]) if len(sys.argv) > 3 else 2
        print_ratio_rounds(ratio_rounds(rounds, per))
        sys.exit(0)
    if len(sys.argv) > 1 and sys.argv[1] == "search":
        rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
        for r in range(rounds):
            print(f"  round {r + 1}: {search_times(sys.argv[2] if len(sys.argv) > 2 else None)}")
        sys.exit(0)
    secs = float(sys.argv[1]) if len(sys.argv) > 1 else 6.0
    for k, v in run(secs).items():
        print(f"  {k:34} {v}")
