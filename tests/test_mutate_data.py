"""Mutating every packaged data file of the four games (issue 27, item 3).

Every document under ``games/*/data/`` (the rule indexes aside) is taken as
shipped and damaged the way a designer's variant might damage it: a number
set to an extreme (0, -1, 10**18, 2**63-1 ...), a string renamed (an ID, a
side, a terrain name, a result code: given a suffix, emptied, upper-cased or
swapped for another string of the same file), a key of a table renamed or
dropped, a row (an array entry, array-of-tables entries included) duplicated
or dropped. The damaged document replaces the packaged one through a variant
(``[replace."<data id>"]``), and the property is:

* starting the game (what ``ancients new`` does) and listing its tables (what
  ``ancients tables --variant`` does) either raise
  :class:`~ancients_kit.data.DataError` in one line naming the variant, or
* bots play the game without any other failure, to its end or to the
  decision cap, and no data error turns up mid-game: every check is made
  when the file loads.

A hang fails the example instead of the suite: each example runs under a
wall-clock alarm (:data:`DEADLINE`), and play has a decision cap
(:data:`DECISIONS`) and the bots' progress watch.

The default run is derandomised and small (24 examples, about 15 s of CPU);
``ANCIENTS_FUZZ_EXAMPLES=1000`` runs it randomised, and ``python -m
benchmarks.mutate_data 1000`` runs the long profile without shrinking,
listing every distinct defect (``ANCIENTS_FUZZ_DECISIONS`` for a longer game
per example).
"""

from __future__ import annotations

import json
import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from ancients_kit.bots import EndlessGame, make_bot, play_out
from ancients_kit.data import DataError, DataStore, Variant
from ancients_kit.plugin import find_game
from ancients_kit.session import Session
from tests.test_fuzz_variants import (
    _get,
    _set,
    assert_refused_cleanly,
    fresh_folder,
    fuzz_settings,
    leaf_paths,
    toml_document,
    write_variant,
)

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("centurion", "ccancients_rome", "ldf", "xenophon")
DECISIONS = int(os.environ.get("ANCIENTS_FUZZ_DECISIONS", "0")) or 150
"""Answers the bots give per example: the game's end or this cap, whichever comes first."""
DEADLINE = max(30.0, DECISIONS / 5)
"""Seconds one example may take before it counts as a hang: far above the slowest game's pace
(LDF's greedy bots, about 20 ms an answer, alone on a core)."""

DEFAULT_SCENARIO = {"centurion": "basic-gaul", "ccancients_rome": "tigranocerte", "ldf": "campaign",
                    "xenophon": "cyrus-revolt"}
"""The scenario started when a shared document (units, tables, map) is damaged."""


def _scenario_for(game: str, rel: str) -> str:
    """The scenario a damaged document is played in: its own for a scenario, battle or series file."""
    folder, _, name = rel.rpartition("/")
    stem = name.removesuffix(".toml")
    if (game, folder) in (("centurion", "scenarios"), ("ccancients_rome", "battles")):
        return stem
    if (game, folder) == ("ccancients_rome", "series"):
        return f"series-{stem}"
    return DEFAULT_SCENARIO[game]


def _documents() -> list[tuple[str, str, str, str]]:
    """(game, file under data/, data ID, scenario) of every packaged document but the rule index."""
    out = []
    for game in GAMES:
        ids = DataStore(find_game(game).package).document_ids()
        out.extend((game, rel, data_id, _scenario_for(game, rel)) for data_id, rel in sorted(ids.items()))
    return out


DOCUMENTS = _documents()


def _groups() -> list[list[tuple[str, str, str, str]]]:
    """The documents by kind: each of the 21 Centurion scenarios (or 24 C&C battles) is one draw
    among the kinds, so the shared files are not drowned by the many scenarios."""
    by: dict[tuple[str, str], list[tuple[str, str, str, str]]] = {}
    for doc in DOCUMENTS:
        folder = doc[1].rpartition("/")[0]
        kind = folder if folder in ("scenarios", "battles", "series") else doc[1]
        by.setdefault((doc[0], kind), []).append(doc)
    return [by[k] for k in sorted(by)]


GROUPS = _groups()
PARSED = {(g, rel): json.loads(json.dumps(DataStore(find_game(g).package).raw(rel))) for g, rel, _, _ in DOCUMENTS}

EXTREMES = (0, -1, 1, 2, 10**18, 2**63 - 1, -(2**63))
FLOAT_EXTREMES = (0.0, -1.0, 1e308, -1e308, float("inf"), float("nan"))


def test_every_packaged_document_is_mutated() -> None:
    """The mutation draws from every data file under games/*/data/ but the rule indexes."""
    on_disk = set()
    for p in ROOT.glob("games/*/data/**/*.toml"):
        game = p.relative_to(ROOT / "games").parts[0]
        if p.name != "rules.index.toml":
            on_disk.add((game, p.relative_to(ROOT / "games" / game / "data").as_posix()))
    assert {(g, rel) for g, rel, _, _ in DOCUMENTS} == on_disk
    assert len(DOCUMENTS) == len(on_disk) >= 78


# ---------------------------------------------------------------- mutations


def _strings(node: Any) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [s for k, v in node.items() for s in [k, *_strings(v)]]
    if isinstance(node, list):
        return [s for v in node for s in _strings(v)]
    return []


def _parent(doc: Any, path: tuple[Any, ...]) -> Any:
    return _get(doc, path[:-1])


def mutate(pick: Any, game: str, rel: str, times: int) -> tuple[list[str], dict[str, Any]]:
    """The packaged document ``rel`` of ``game`` with ``times`` mutations, and what each did.

    ``pick(sequence)`` chooses one element: hypothesis' ``draw`` in the property, a seeded
    ``random.Random.choice`` in the long run (``python -m benchmarks.mutate_data``)."""
    doc = json.loads(json.dumps(PARSED[(game, rel)]))
    body = {k: v for k, v in doc.items() if k != "meta"}
    words = sorted(set(_strings(body))) or ["x"]
    done: list[str] = []
    for _ in range(times):
        paths = leaf_paths(doc)
        numbers = [p for p in paths if type(_get(doc, p)) in (int, float)]
        strings = [p for p in paths if isinstance(_get(doc, p), str)]
        keyed = [p for p in paths if isinstance(p[-1], str)]
        rows = [p for p in paths if isinstance(p[-1], int)]
        kinds = [k for k, there in (("number", numbers), ("string", strings), ("key", keyed),
                                    ("duplicate", rows), ("drop", rows), ("drop-key", keyed)) if there]
        if not kinds:
            break
        kind = pick(kinds)
        new: Any = None
        if kind == "number":
            path = pick(numbers)
            new = pick(EXTREMES if type(_get(doc, path)) is int else FLOAT_EXTREMES)
            _set(doc, path, new)
        elif kind == "string":
            path = pick(strings)
            old = _get(doc, path)
            new = pick([old + "-x", "", old.upper(), old[:-1], pick(words)])
            _set(doc, path, new)
        elif kind == "key":
            path = pick(keyed)
            parent, old = _parent(doc, path), path[-1]
            new = pick([old + "-x", old.upper(), pick(words)])
            parent[new] = parent.pop(old)
        elif kind == "drop-key":
            path = pick(keyed)
            del _parent(doc, path)[path[-1]]
        else:
            path = pick(rows)
            parent = _parent(doc, path)
            if kind == "duplicate":
                parent.insert(path[-1], json.loads(json.dumps(parent[path[-1]])))
            else:
                del parent[path[-1]]
        done.append(f"{kind} {'.'.join(map(str, path))}" + ("" if new is None else f" = {new!r}"))
    return done, doc


@st.composite
def mutated_documents(draw: st.DrawFn) -> tuple[str, str, str, str, list[str], dict[str, Any]]:
    """A packaged document with one to three mutations; returns (game, file, data ID, scenario,
    what was done, document)."""
    game, rel, data_id, scenario = draw(st.sampled_from(draw(st.sampled_from(GROUPS))))
    done, doc = mutate(lambda seq: draw(st.sampled_from(seq)), game, rel, draw(st.integers(min_value=1, max_value=3)))
    return game, rel, data_id, scenario, done, doc


# ---------------------------------------------------------------- the guard


class Hang(AssertionError):
    """An example ran past :data:`DEADLINE`: set-up or play did not end."""


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise :class:`Hang` in the running code once ``seconds`` pass (a SIGALRM timer; without
    one, off the main thread or on Windows, the decision cap alone bounds the example)."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def ring(_signum: int, _frame: Any) -> None:
        raise Hang(f"no end after {seconds:.0f} s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# ---------------------------------------------------------------- the property


def start_and_play(game_id: str, scenario: str, variant: Path, seed: int, bot: str) -> None:
    """List the tables and start the game under the variant (a DataError may end it here), then
    let bots play to the end or the decision cap (where nothing may fail)."""
    game = find_game(game_id)
    v = Variant.from_file(variant)
    store = DataStore(game.package, (v,))
    store.check_replacements()
    game.tables(store)
    session = Session(game, scenario, seed=seed, variants=(v,))
    try:
        play_out(session, make_bot(bot), max_decisions=DECISIONS)
    except DataError as exc:
        raise AssertionError(f"a data error mid-game, not when the file loaded: {exc}") from exc
    except EndlessGame as exc:
        raise AssertionError(f"play made no progress: {exc}") from exc
    assert session.finished or len(session.answers) == DECISIONS


@fuzz_settings(24)
@given(mutated_documents(), st.integers(min_value=1, max_value=3), st.sampled_from(["random", "greedy"]))
def test_mutated_data_is_refused_or_played(tmp_path: Path, case: tuple[str, str, str, str, list[str], dict[str, Any]],
                                           seed: int, bot: str) -> None:
    game, rel, data_id, scenario, done, doc = case
    folder = fresh_folder(tmp_path / "mutated")
    variant = write_variant(folder, data_id, toml_document(doc))
    try:
        with deadline(DEADLINE):
            start_and_play(game, scenario, variant, seed, bot)
    except DataError as exc:
        assert_refused_cleanly(exc, folder)
    except Hang as exc:
        raise AssertionError(f"{game} {rel} ({'; '.join(done)}): {exc}") from None
