"""Test helpers the two strategic games' tests share (LDF and Xenophon): the place lists of
their questions (issue 23 item 4) and the hexes their questions mark for the table (issue 22).

Each game's tests supply what differs, as data or functions: which hexes a side holds, which
hexes a question is about, the game's checks of particular questions. Imported by
``games/ldf/tests`` and ``games/xenophon/tests`` as ``tests.strategic_helpers`` (the repository
root is on pytest's path).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from typing import Any

import pytest

from ancients_kit import savefile
from ancients_kit.bots import GreedyBot
from ancients_kit.places import LIMIT, listing, matching_areas, places_of
from ancients_kit.plugin import Game
from ancients_kit.session import Decision, Session
from ancients_kit.tui.view import MapGrid

__all__ = ["Asked", "check_highlight_is_display_only", "check_listing", "check_map_shows_hex_numbers",
           "marked_questions", "played_greedy"]

Asked = list[tuple[Decision, set[str], set[str]]]
"""Each question asked, with the hexes its side held and the hexes it is about, as they were then."""


def check_listing(d: Decision, *, narrowed: bool = True) -> int:
    """Assert that question ``d`` shows at most LIMIT places, every other one reachable by its
    area's row (or, in one long area, by its hex number), and (``narrowed``) that each area's
    narrowed list is short too; the count of places it offers."""
    ps = places_of(d)
    if ps is None:
        return 0
    rows = listing(d, places=ps)
    keys = ps.keys()
    shown = {r.key for r in rows if r.kind == "option" and r.key in keys}
    assert len(shown) <= LIMIT, (d.kind, d.prompt, len(shown))
    offered = set().union(*(matching_areas(ps, r.key) for r in rows if r.kind == "area"))
    hidden = [p for p in ps.places if p.key not in shown]
    assert all(p.area in offered for p in hidden) or any(r.kind == "more" for r in rows), d.prompt
    if narrowed:
        for r in rows:  # a narrowed list is short too, or says how to reach the rest
            if r.kind == "area":
                short = listing(d, r.key, places=ps)
                assert sum(x.kind == "option" and x.key in keys for x in short) <= LIMIT
    return len(ps.places)


def played_greedy(game: Game, scenario: str, seed: int, limit: int, held: Callable[[Any, Decision], set[str]],
                  about: Callable[[Any, Decision], set[str]]) -> tuple[Session, Asked]:
    """A greedy game of ``limit`` questions: each question with, as they were when it was asked,
    the hexes its side held (``held(state, d)``) and the hexes it is about (``about(state, d)``:
    named in it, or stood for by an option)."""
    s = Session(game, scenario, seed=seed)
    asked: Asked = []
    bot = GreedyBot()
    while s.decision is not None and len(asked) < limit:
        d, st = s.decision, s.state
        asked.append((d, held(st, d), about(st, d)))
        s.answer(bot.choose(s, d))
    return s, asked


def marked_questions(asked: Asked) -> Iterator[tuple[Decision, tuple[str, ...]]]:
    """Every question of a side with a force on the map (or about a hex), with the hexes it marks
    for the table, once asserted that it marks some and that the first is a hex the question is
    about or one of the deciding side's."""
    for d, held, about in asked:
        marks = tuple(d.context.get("highlight", ()))
        if not (held or about):
            continue
        assert marks, f"{d.kind}: {d.prompt!r} marks no hex"
        assert marks[0] in about | held, f"{d.kind}: {d.prompt!r} starts at {marks[0]}"
        yield d, marks


def check_highlight_is_display_only(monkeypatch: pytest.MonkeyPatch, hints: Any, game: Game, scenario: str,
                                    seed: int, s: Session) -> None:
    """The completed highlights (the game's ``hints.focus``) are display only: ``s``'s answers,
    replayed with the hints turned off, give the same log digest and the same save."""
    monkeypatch.setattr(hints, "focus", lambda state, decision: decision)
    plain = Session(game, scenario, seed=seed, answers=list(s.answers))
    assert plain.decision is not None and s.decision is not None
    assert plain.decision.context.get("highlight") != s.decision.context.get("highlight")  # the hints are off
    assert plain.log.digest() == s.log.digest()
    assert savefile.to_record(plain) == savefile.to_record(s)


def check_map_shows_hex_numbers(game: Game, s: Session, d: Decision, hexes: Collection[str]) -> None:
    """The table's map (its grid at the default zoom) has a cell for exactly ``hexes`` and writes
    every hex's printed number in its cell, where each option of ``d`` (answered with a hex) is."""
    grid = MapGrid(game.picture(s.state, None), zoom=1)
    assert set(grid.cells) == set(hexes)
    lines = grid.render().plain.split("\n")
    for o in d.options:
        col, line = grid.cells[o.key]
        assert lines[line][col:col + len(o.key)] == o.key
