"""Balance studies: many bot games of one scenario, recorded, resumable, parallel.

A study is a :class:`StudySpec` (game, scenario, bots per side, options,
variants) played for game numbers ``0 .. n-1``; game ``i`` uses the seed
``seed + i``. Each finished game becomes a :class:`Record` (seed, bots,
variant hash, winner, length, margin, log digest, elapsed time), which is all
that is needed to play the same game again (:func:`replay_record`).

Records are streamed to a JSON-lines file in game order, one line per game,
flushed as soon as the game and every game before it are done; running the
same study again reads the file, keeps what matches and plays only what is
missing. An interrupted run therefore loses at most the games in flight.

Where games are played does not change what they are: :func:`run_study` plays
them in this process (``jobs=1``), in a pool of worker processes
(``jobs=N``), or on a Dask distributed cluster (``dask=ADDRESS`` or
``dask="local"``); the records are the same in every case but for
``elapsed``. Nothing here knows any game: everything goes through the
decision protocol and :class:`~ancients_kit.plugin.Outcome`.

A study's bots are bot specs (``greedy``, ``mcts:200``: see
:mod:`ancients_kit.bots`), part of its key. While it runs, :func:`run_study`
tells a ``progress`` callback of every finished game and a ``heartbeat`` of
the answers of the games in play, a few times a second, from worker processes
too (through a queue): a search bot takes minutes over one game.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import queue as queues
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

import attrs

from ancients_kit import stats
from ancients_kit.bots import EndlessGame, make_bot, play_out
from ancients_kit.data import Variant
from ancients_kit.errors import GameError
from ancients_kit.outputs import OutputRefused, check_output
from ancients_kit.plugin import Game, find_game
from ancients_kit.session import Session

__all__ = [
    "HEARTBEAT_EVERY",
    "RECORD_FORMAT",
    "Comparison",
    "Heartbeat",
    "Progress",
    "Record",
    "SimulationStats",
    "StudyError",
    "StudySpec",
    "Summary",
    "compare",
    "play_game",
    "read_records",
    "replay_record",
    "run_study",
    "simulate",
    "summarize",
    "variants_hash",
]

RECORD_FORMAT = "ancients-kit/study-record/1"

MAX_RECORD_LINE = 64 * 1024
"""A record line longer than this is damaged, not a record."""


class StudyError(GameError):
    """A study cannot run as asked (a records file for another study ...)."""


def variants_hash(variants: Sequence[Variant]) -> str:
    """One short hash naming a set of variants (``original`` for none)."""
    if not variants:
        return "original"
    h = hashlib.sha256()
    for v in variants:
        h.update(v.digest.encode())
        h.update(b"\n")
    return h.hexdigest()[:16]


@attrs.frozen
class StudySpec:
    """What a study plays: the same for every one of its games."""

    game: str
    scenario: str
    bots: Mapping[str, str]
    """Side -> bot name (every side the game has)."""
    options: Mapping[str, Any] = attrs.field(factory=dict)
    variants: tuple[Variant, ...] = ()
    max_decisions: int = 200_000
    strict: bool = True
    """A game still going after ``max_decisions`` answers is an error (else recorded unfinished)."""

    @property
    def variant(self) -> str:
        return variants_hash(self.variants)

    def key(self) -> dict[str, Any]:
        """What a record must match to belong to this study."""
        return {
            "game": self.game,
            "scenario": self.scenario,
            "bots": dict(sorted(self.bots.items())),
            "options": {k: str(v) for k, v in sorted(self.options.items())},
            "variant": self.variant,
        }


@attrs.frozen
class Record:
    """One finished (or abandoned) bot game of a study."""

    index: int
    seed: int
    game: str
    scenario: str
    bots: Mapping[str, str]
    options: Mapping[str, str]
    variant: str
    winner: str | None
    """Winning side, ``None`` for a draw."""
    finished: bool
    level: str
    turn: int
    decisions: int
    scores: Mapping[str, float]
    margin: float
    """First side's score minus the second's (the game's own figures)."""
    log_sha256: str
    elapsed: float
    """Seconds the game took to play (the only field that varies run to run)."""

    def to_json(self) -> dict[str, Any]:
        return {"format": RECORD_FORMAT, **attrs.asdict(self)}

    def same_game(self, other: Record) -> bool:
        """Equal in everything but the time it took."""
        return attrs.evolve(self, elapsed=0.0) == attrs.evolve(other, elapsed=0.0)

    @classmethod
    def from_json(cls, data: Mapping[str, Any], where: str) -> Record:
        if not isinstance(data, Mapping) or data.get("format") != RECORD_FORMAT:
            raise StudyError(f"{where}: not a study record")
        fields = {f.name: f for f in attrs.fields(cls)}
        missing = sorted(set(fields) - set(data))
        if missing:
            raise StudyError(f"{where}: record lacks {', '.join(missing)}")
        try:
            return cls(
                index=_int(data["index"]),
                seed=_int(data["seed"]),
                game=str(data["game"]),
                scenario=str(data["scenario"]),
                bots={str(k): str(v) for k, v in dict(data["bots"]).items()},
                options={str(k): str(v) for k, v in dict(data["options"]).items()},
                variant=str(data["variant"]),
                winner=None if data["winner"] is None else str(data["winner"]),
                finished=bool(data["finished"]),
                level=str(data["level"]),
                turn=_int(data["turn"]),
                decisions=_int(data["decisions"]),
                scores={str(k): float(v) for k, v in dict(data["scores"]).items()},
                margin=float(data["margin"]),
                log_sha256=str(data["log_sha256"]),
                elapsed=float(data["elapsed"]),
            )
        except (TypeError, ValueError) as exc:
            raise StudyError(f"{where}: damaged record ({exc})") from None


def _int(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError(f"expected a whole number, got {v!r}")
    return v


# -- one game ------------------------------------------------------------------------------


_IN_PROCESS: dict[str, Any] = {}
"""Games of this process by name: those handed over as objects
(:func:`simulate`, usable only with ``jobs=1``) and those
already looked up in the plugin registry."""


def _session_and_bots(spec: StudySpec, seed: int) -> tuple[Any, Any]:
    game = _IN_PROCESS.get(spec.game)
    if game is None:  # looking a game up scans the installed entry points: once per process
        game = _IN_PROCESS[spec.game] = find_game(spec.game)
    session = Session(game, spec.scenario, seed=seed, options=dict(spec.options), variants=spec.variants)
    return session, {side: make_bot(kind) for side, kind in spec.bots.items()}


class _Beat:
    """``on_answer`` of :func:`~ancients_kit.bots.play_out` that reports how many answers
    game ``index`` has had, at most once every ``every`` seconds (and after its first)."""

    def __init__(self, index: int, send: Callable[[int, int], None], every: float) -> None:
        self.index = index
        self.send = send
        self.every = every
        self.last = float("-inf")

    def __call__(self, session: Any, decision: Any, key: str) -> None:
        now = time.monotonic()
        if now - self.last >= self.every:
            self.last = now
            self.send(self.index, len(session.answers))


def play_game(spec: StudySpec, index: int, seed: int, *,
              on_answers: Callable[[int, int], None] | None = None) -> Record:
    """Play game ``index`` of ``spec`` (seed ``seed + index``) to its end.

    ``on_answers(index, answers)``, if given, hears how far the game has got, at
    most every :data:`HEARTBEAT_EVERY` seconds (it only listens: the game is the same)."""
    t0 = time.perf_counter()
    session, bots = _session_and_bots(spec, seed + index)
    beat = _Beat(index, on_answers, HEARTBEAT_EVERY) if on_answers is not None else None
    out = play_out(session, bots, max_decisions=spec.max_decisions, on_answer=beat)
    if out is None and spec.strict:
        raise EndlessGame(
            f"the game did not end within {spec.max_decisions} decisions",
            game=spec.game, scenario=spec.scenario, seed=session.seed, answer=len(session.answers),
        )
    sides = session.game.sides(session.state)
    scores = {k: float(v) for k, v in sorted(out.scores.items())} if out is not None else {}
    margin = 0.0
    if len(sides) >= 2 and sides[0] in scores and sides[1] in scores:
        margin = scores[sides[0]] - scores[sides[1]]
    return Record(
        index=index,
        seed=seed + index,
        game=spec.game,
        scenario=spec.scenario,
        bots=dict(sorted(spec.bots.items())),
        options={k: str(v) for k, v in sorted(spec.options.items())},
        variant=spec.variant,
        winner=out.winner if out is not None else None,
        finished=out is not None,
        level=out.level if out is not None else "",
        turn=out.turn if out is not None else 0,
        decisions=len(session.answers),
        scores=scores,
        margin=margin,
        log_sha256=session.log.digest(),
        elapsed=round(time.perf_counter() - t0, 6),
    )


def replay_record(record: Record, variants: Sequence[Variant] = ()) -> Any:
    """Play a recorded game again and check it is the same game; returns its Session.

    ``variants`` are the variant files the study ran with (their hash must be
    the record's). The bots are deterministic, so the same seed gives the same
    answers; the log digest proves it.
    """
    if variants_hash(variants) != record.variant:
        raise StudyError(
            f"game {record.index}: recorded with variant {record.variant}, given {variants_hash(variants)}"
        )
    spec = StudySpec(record.game, record.scenario, record.bots, record.options, tuple(variants))
    session, bots = _session_and_bots(spec, record.seed)
    play_out(session, bots, max_decisions=spec.max_decisions)
    if session.log.digest() != record.log_sha256:
        raise StudyError(f"game {record.index} (seed {record.seed}) no longer plays as recorded: the rules changed")
    return session


# -- records files ------------------------------------------------------------------------


def read_records(path: Path, spec: StudySpec | None = None) -> tuple[dict[int, Record], int]:
    """The records in ``path`` (by game number) and how many bytes of it are sound.

    A last line cut short by an interrupted run is not counted (the caller
    truncates it away); any other damage, or a record of another study, is an
    error naming the file and the line.
    """
    if not path.exists():
        return {}, 0
    if not path.is_file():
        raise StudyError(f"{path}: records must be a regular file")
    out: dict[int, Record] = {}
    sound = 0
    want = spec.key() if spec is not None else None
    with path.open("rb") as fh:
        for no, raw in enumerate(fh, start=1):
            if not raw.endswith(b"\n"):
                break  # an interrupted write: the rest is dropped
            where = f"{path}, line {no}"
            if len(raw) > MAX_RECORD_LINE:
                raise StudyError(f"{where}: line too long for a record")
            try:
                data = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                raise StudyError(f"{where}: not a JSON record ({exc})") from None
            rec = Record.from_json(data, where)
            if want is not None:
                got = {k: getattr(rec, k) for k in want}
                got["bots"] = dict(sorted(got["bots"].items()))
                if got != want:
                    diff = ", ".join(k for k in want if got[k] != want[k])
                    raise StudyError(f"{where}: a record of another study (differs in {diff}); use another --records file")
            if rec.index in out:
                raise StudyError(f"{where}: game {rec.index} recorded twice")
            out[rec.index] = rec
            sound += len(raw)
    return out, sound


class _RecordWriter:
    """Appends records in game order, each line flushed as soon as it can be."""

    def __init__(self, path: Path | None, done: Mapping[int, Record], sound: int) -> None:
        self.path = path
        self.fh = None
        self.pending: dict[int, Record] = {}
        self.done = set(done)
        self.next = 0
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0)
            self.fh = os.fdopen(os.open(path, flags, 0o666), "ab")
            if self.fh.tell() != sound:
                self.fh.truncate(sound)
                self.fh.seek(sound)
        self._advance()

    def _advance(self) -> None:
        while self.next in self.done:
            self.next += 1

    def add(self, rec: Record) -> None:
        self.pending[rec.index] = rec
        while self.next in self.pending:
            r = self.pending.pop(self.next)
            if self.fh is not None:
                self.fh.write((json.dumps(r.to_json(), sort_keys=True) + "\n").encode())
                self.fh.flush()
            self.done.add(self.next)
            self._advance()

    def close(self) -> None:
        # Games finished out of order ahead of a gap (interrupted) are kept too:
        # order is only a convenience, the reader keys records by game number.
        for i in sorted(self.pending):
            if self.fh is not None:
                self.fh.write((json.dumps(self.pending[i].to_json(), sort_keys=True) + "\n").encode())
        self.pending.clear()
        if self.fh is not None:
            self.fh.flush()
            os.fsync(self.fh.fileno())
            self.fh.close()
            self.fh = None


# -- running ------------------------------------------------------------------------------

Progress = Callable[[int, int], None]
"""Called with (games done, games in the study) after every game."""

Heartbeat = Callable[[Mapping[int, int]], None]
"""Called while games are being played with the answers each game in play has had so
far (game number -> answers), at most about every :data:`HEARTBEAT_EVERY` seconds:
what a progress display shows when one game takes minutes (a search bot)."""

HEARTBEAT_EVERY = 0.5
"""Seconds between two reports of a game's answers (:data:`Heartbeat`)."""


class _Playing:
    """The answers of the games in play, passed on to a :data:`Heartbeat`."""

    def __init__(self, heartbeat: Heartbeat | None) -> None:
        self.heartbeat = heartbeat
        self.answers: dict[int, int] = {}

    def update(self, index: int, answers: int) -> None:
        self.answers[index] = answers
        if self.heartbeat is not None:
            self.heartbeat(dict(self.answers))

    def done(self, index: int) -> None:
        self.answers.pop(index, None)


def _inline(spec: StudySpec, seed: int, todo: Sequence[int], heartbeat: Heartbeat | None = None) -> Iterator[Record]:
    playing = _Playing(heartbeat)
    for i in todo:
        if heartbeat is None:
            yield play_game(spec, i, seed)
            continue
        playing.update(i, 0)
        rec = play_game(spec, i, seed, on_answers=playing.update)
        playing.done(i)
        yield rec


_WORKER_BEATS: Any = None
"""In a worker process of :func:`_pool` with a heartbeat: the queue its games report to."""


def _worker_start(beats: Any) -> None:
    global _WORKER_BEATS
    _WORKER_BEATS = beats


def _worker_game(spec: StudySpec, index: int, seed: int) -> Record:
    """:func:`play_game` in a worker, reporting its answers to the parent's queue."""
    beats = _WORKER_BEATS
    if beats is None:
        return play_game(spec, index, seed)
    beats.put((index, 0))
    return play_game(spec, index, seed, on_answers=lambda i, n: beats.put((i, n)))


def _pool(spec: StudySpec, seed: int, todo: Sequence[int], jobs: int,
          heartbeat: Heartbeat | None = None) -> Iterator[Record]:
    """Games on ``jobs`` worker processes, at most two each in flight.

    A game that fails (an endless game, a rules error) stops the study; the
    error reported is that of the lowest game number that fails, so it does
    not depend on which worker finished first. With a ``heartbeat`` the
    workers report their games' answers through a queue, read between waits.
    """
    ctx = multiprocessing.get_context()
    beats = ctx.Queue() if heartbeat is not None else None
    playing = _Playing(heartbeat)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_worker_start,
                             initargs=(beats,)) as pool:
        queue = iter(todo)
        running: dict[Future[Record], int] = {}
        failed: dict[int, BaseException] = {}

        def top_up() -> None:
            if failed:
                return
            for i in queue:
                running[pool.submit(_worker_game, spec, i, seed)] = i
                if len(running) >= 2 * jobs:
                    break

        def listen() -> None:
            in_play = set(running.values())
            while beats is not None:
                try:
                    i, n = beats.get_nowait()
                except queues.Empty:
                    return
                if i in in_play:  # a late report of a game already done is dropped
                    playing.update(i, n)

        try:
            top_up()
            while running:
                finished, _ = wait(running, timeout=HEARTBEAT_EVERY if beats is not None else None,
                                   return_when=FIRST_COMPLETED)
                listen()
                done: list[tuple[int, Record]] = []
                for f in finished:
                    i = running.pop(f)
                    playing.done(i)
                    exc = f.exception()
                    if exc is not None:
                        failed[i] = exc
                    else:
                        done.append((i, f.result()))
                for _, rec in sorted(done, key=lambda x: x[0]):
                    yield rec
                if failed:
                    first = min(failed)
                    for f, i in list(running.items()):
                        if i > first:
                            f.cancel()
                            running.pop(f)
                    if not running:
                        raise failed[first]
                top_up()
        except BaseException:
            for f in running:
                f.cancel()
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        finally:
            if beats is not None:
                beats.close()
                beats.cancel_join_thread()


def _dask(spec: StudySpec, seed: int, todo: Sequence[int], address: str) -> Iterator[Record]:
    try:  # Dask is optional (the cluster extra): loaded only for --dask
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise StudyError("--dask needs Dask distributed: pip install -e '.[cluster]'") from None
    cluster = None
    if address == "local":
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    else:
        try:
            client = Client(address, timeout=30)
        except (OSError, TimeoutError, ValueError) as exc:
            raise StudyError(f"--dask {address}: cannot reach the scheduler ({exc})") from None
    try:
        futures = [client.submit(play_game, spec, i, seed, pure=False) for i in todo]
        try:
            for f in as_completed(futures):
                yield f.result()
        except BaseException:
            client.cancel(futures)
            raise
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def run_study(
    spec: StudySpec,
    games: int,
    *,
    seed: int = 1,
    jobs: int = 1,
    dask: str | None = None,
    records: Path | None = None,
    progress: Progress | None = None,
    heartbeat: Heartbeat | None = None,
) -> list[Record]:
    """Play games ``0 .. games-1`` of ``spec`` and return their records in order.

    With ``records``, games already in that file are not played again and new
    ones are appended as they finish. ``jobs`` worker processes (or a Dask
    cluster) play in parallel; the records do not depend on either.
    ``progress`` hears of every finished game, ``heartbeat`` of the answers of the
    games in play (in this process and in worker processes; not on Dask).
    """
    if games < 1:
        raise StudyError(f"a study needs at least one game, not {games}")
    if jobs < 1:
        raise StudyError(f"--jobs must be at least 1, not {jobs}")
    if records is not None:
        try:  # never a variant, a save or a link (ancients_kit/outputs.py)
            check_output(records, reads=[v.path for v in spec.variants], what="--records")
        except OutputRefused as exc:
            raise StudyError(str(exc)) from None
    found, sound = read_records(records, spec) if records is not None else ({}, 0)
    moved = [r for i, r in sorted(found.items()) if r.seed != seed + i]
    if moved:
        raise StudyError(
            f"{records}: game {moved[0].index} was played with seed {moved[0].seed}, not {seed + moved[0].index}; "
            "use the same --seed or another --records file"
        )
    done = {i: r for i, r in found.items() if i < games}
    todo = [i for i in range(games) if i not in done]
    writer = _RecordWriter(records, found, sound)
    results: dict[int, Record] = dict(done)
    if progress is not None:
        progress(len(results), games)
    source: Iterable[Record]
    if not todo:
        source = ()
    elif dask is not None:
        source = _dask(spec, seed, todo, dask)
    elif jobs > 1 and len(todo) > 1:
        source = _pool(spec, seed, todo, min(jobs, len(todo)), heartbeat)
    else:
        source = _inline(spec, seed, todo, heartbeat)
    try:
        for rec in source:
            results[rec.index] = rec
            writer.add(rec)
            if progress is not None:
                progress(len(results), games)
    finally:
        writer.close()
    return [results[i] for i in range(games)]


# -- summaries ------------------------------------------------------------------------------


@attrs.frozen
class Summary:
    """What the games of one study came to, with intervals."""

    label: str
    games: int
    sides: tuple[str, ...]
    wins: Mapping[str, int]
    win_rates: Mapping[str, stats.Interval]
    draws: int
    draw_rate: stats.Interval
    unfinished: int
    decisions: stats.Interval
    decision_quantiles: Mapping[str, float]
    turns: stats.Interval
    turn_quantiles: Mapping[str, float]
    margin: stats.Interval
    margin_quantiles: Mapping[str, float]
    scores: Mapping[str, stats.Interval]
    levels: Mapping[str, int]

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "games": self.games,
            "sides": list(self.sides),
            "wins": dict(self.wins),
            "win_rates": {k: v.to_json() for k, v in self.win_rates.items()},
            "draws": self.draws,
            "draw_rate": self.draw_rate.to_json(),
            "unfinished": self.unfinished,
            "decisions": {**self.decisions.to_json(), **self.decision_quantiles},
            "turns": {**self.turns.to_json(), **self.turn_quantiles},
            "margin": {**self.margin.to_json(), **self.margin_quantiles},
            "scores": {k: v.to_json() for k, v in self.scores.items()},
            "levels": dict(self.levels),
        }


def summarize(records: Sequence[Record], sides: Sequence[str], label: str = "original") -> Summary:
    """Win rates (Wilson), draws, lengths, turns and margins of ``records``."""
    n = len(records)
    finished = [r for r in records if r.finished]
    wins = {s: sum(1 for r in finished if r.winner == s) for s in sides}
    draws = sum(1 for r in finished if r.winner is None)
    levels: dict[str, int] = {}
    for r in finished:
        if r.level:
            key = f"{r.winner or 'draw'}: {r.level}"
            levels[key] = levels.get(key, 0) + 1
    lengths = [float(r.decisions) for r in records]
    turns = [float(r.turn) for r in finished]
    margins = [r.margin for r in finished]
    score_sides = sorted({k for r in finished for k in r.scores})
    return Summary(
        label=label,
        games=n,
        sides=tuple(sides),
        wins=wins,
        win_rates={s: stats.wilson(wins[s], n) for s in sides},
        draws=draws,
        draw_rate=stats.wilson(draws, n),
        unfinished=n - len(finished),
        decisions=stats.mean_interval(lengths),
        decision_quantiles=stats.quantiles(lengths),
        turns=stats.mean_interval(turns),
        turn_quantiles=stats.quantiles(turns),
        margin=stats.mean_interval(margins),
        margin_quantiles=stats.quantiles(margins),
        scores={k: stats.mean_interval([r.scores[k] for r in finished if k in r.scores]) for k in score_sides},
        levels=dict(sorted(levels.items())),
    )


@attrs.frozen
class Comparison:
    """A variant's win rate for one side against the original's."""

    side: str
    difference: stats.Interval
    """Variant minus original (Newcombe interval)."""
    z_test: stats.TestResult
    exact_test: stats.TestResult
    games_for_five_points: int
    """Games per arm a two-sided 5% test needs to find a 5-point change with 80% power."""

    def to_json(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "difference": self.difference.to_json(),
            "z_test": self.z_test.to_json(),
            "exact_test": self.exact_test.to_json(),
            "games_for_five_points": self.games_for_five_points,
        }


def compare(original: Summary, variant: Summary) -> list[Comparison]:
    """Per side: the difference in win rate, its interval and two tests."""
    out = []
    for s in original.sides:
        k1, n1 = original.wins.get(s, 0), original.games
        k2, n2 = variant.wins.get(s, 0), variant.games
        out.append(
            Comparison(
                side=s,
                difference=stats.difference(k1, n1, k2, n2),
                z_test=stats.two_proportion_test(k1, n1, k2, n2),
                exact_test=stats.fisher_exact(k1, n1, k2, n2),
                games_for_five_points=stats.games_needed(k1 / n1 if n1 else 0.5, 0.05),
            )
        )
    return out


# -- in one process, from a game object ------------------------------------------------------


@attrs.frozen
class SimulationStats:
    """What many bot games of one scenario came to."""

    games: int
    wins: Mapping[str, int]
    """Side (or ``draw``) -> number of games."""
    levels: Mapping[str, int]
    """``side: level`` -> number of games."""
    mean_turns: float
    median_decisions: float
    mean_decisions: float
    unfinished: int

    def win_rate(self, side: str) -> float:
        return self.wins.get(side, 0) / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


def simulate(
    game: Game,
    scenario: str,
    games: int,
    *,
    bots: Mapping[str, str] | str = "random",
    seed: int = 1,
    options: Mapping[str, Any] | None = None,
    variants: Sequence[Any] = (),
    max_decisions: int = 200_000,
    strict: bool = True,
) -> SimulationStats:
    """Play ``games`` bot games with seeds ``seed, seed+1, ...`` and tally them.

    A game that stops making progress raises :class:`EndlessGame`; so does one
    that passes ``max_decisions`` answers, unless ``strict`` is false (then it
    is counted as ``unfinished``).
    """
    _IN_PROCESS[game.id] = game
    if isinstance(bots, str):
        probe = Session(game, scenario, seed=seed, options=options, variants=tuple(variants))
        per_side = {side: bots for side in game.sides(probe.state)}
    else:
        per_side = dict(bots)
    spec = StudySpec(game.id, scenario, per_side, dict(options or {}), tuple(variants),
                     max_decisions=max_decisions, strict=strict)
    records = run_study(spec, games, seed=seed)
    wins: Counter[str] = Counter()
    levels: Counter[str] = Counter()
    turns = [r.turn for r in records if r.finished]
    lengths = [r.decisions for r in records]
    unfinished = sum(1 for r in records if not r.finished)
    for r in records:
        if not r.finished:
            continue
        w = r.winner or "draw"
        wins[w] += 1
        if r.level:
            levels[f"{w}: {r.level}"] += 1
    return SimulationStats(
        games=games,
        wins=dict(sorted(wins.items())),
        levels=dict(sorted(levels.items())),
        mean_turns=statistics.fmean(turns) if turns else 0.0,
        median_decisions=statistics.median(lengths) if lengths else 0.0,
        mean_decisions=statistics.fmean(lengths) if lengths else 0.0,
        unfinished=unfinished,
    )
