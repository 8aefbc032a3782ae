"""What the players' table needs of Lest Darkness Fall beyond the rules (issue 22): every
question that concerns a place names its hexes for the map, the deciding force's first."""

from __future__ import annotations

import re

import pytest

from ancients_kit import savefile
from ancients_kit.bots import GreedyBot
from ancients_kit.session import Decision, Session
from ancients_kit.tui.view import MapGrid

from ancients_games.ldf import GAME, hints
from ancients_games.ldf.hints import option_hexes

_HEX = re.compile(r"\b\d{4}\b")


def _played(seed: int, limit: int) -> tuple[Session, list[tuple[Decision, set[str], set[str]]]]:
    """A greedy game of ``limit`` questions: each question with, as they were when it was asked,
    the hexes its side held and the hexes it is about (named in it, or stood for by an option)."""
    s = Session(GAME, "campaign", seed=seed)
    asked: list[tuple[Decision, set[str], set[str]]] = []
    bot = GreedyBot()
    while s.decision is not None and len(asked) < limit:
        d, st = s.decision, s.state
        held = {u.hex for u in st.on_map() if u.hex and st.side_of(u) == d.side}
        about = set(_HEX.findall(d.prompt)) | {h for o in d.options for h in option_hexes(st, o.key)}
        about |= {str(d.context[k]) for k in ("origin", "target") if k in d.context}
        asked.append((d, held, about))
        s.answer(bot.choose(s, d))
    return s, asked


@pytest.mark.rule("ldf:8.1", "ldf:12.4", "ldf:13.4", "ldf:14.3")
@pytest.mark.parametrize("seed", [1, 5])
def test_every_question_shows_its_place(seed: int) -> None:
    """Every question of a side with a force on the map (or about a hex) marks hexes for the
    table, the first being a hex the question is about (named in it, or an option's) or one of
    the deciding side's forces; a moving force's steps start at its hex, a battle's windows at
    the battle."""
    s, asked = _played(seed, 1_200)
    kinds = set()
    for d, held, about in asked:
        marks = tuple(d.context.get("highlight", ()))
        if not (held or about):
            continue
        assert marks, f"{d.kind}: {d.prompt!r} marks no hex"
        assert marks[0] in about | held, f"{d.kind}: {d.prompt!r} starts at {marks[0]}"
        if d.kind == "move.step":
            assert marks[0] == re.search(r" in (\d{4}), ", d.prompt).group(1)  # type: ignore[union-attr]
        if d.kind == "move.to":  # a move's one question starts at the force's hex
            assert marks[0] == re.search(r" (?:from|in) (\d{4})", d.prompt).group(1)  # type: ignore[union-attr]
        if d.kind in ("window.battle-start", "window.before-attack-roll", "window.move-start"):
            assert marks[0] in _HEX.findall(d.prompt)
        kinds.add(d.kind)
    assert {"action", "move.to"} <= kinds and any(k.startswith("window.") for k in kinds)  # attacks: in "action"


@pytest.mark.rule("ldf:8.1")
def test_the_highlight_changes_no_log_and_no_save(monkeypatch: pytest.MonkeyPatch) -> None:
    """The completed highlights are display only: the same answers give the same log digest and
    the same save with the hints turned off."""
    s, _ = _played(1, 300)
    monkeypatch.setattr(hints, "focus", lambda state, decision: decision)
    plain = Session(GAME, "campaign", seed=1, answers=list(s.answers))
    assert plain.decision is not None and s.decision is not None
    assert plain.decision.context.get("highlight") != s.decision.context.get("highlight")  # the hints are off
    assert plain.log.digest() == s.log.digest()
    assert savefile.to_record(plain) == savefile.to_record(s)


@pytest.mark.rule("ldf:3.3")
def test_the_map_shows_the_hex_numbers_the_answers_are() -> None:
    """The table's map (its grid at the default zoom) writes every hex's printed number in its
    cell, and a question answered with a hex takes exactly those numbers: the picture's hexes are
    named by the map's numbering."""
    s = Session(GAME, "campaign", seed=1)
    d = s.decision
    assert d is not None and d.kind == "setup.tribe"
    grid = MapGrid(GAME.picture(s.state, None), zoom=1)
    assert set(grid.cells) == set(s.state.data.ids)
    lines = grid.render().plain.split("\n")
    for o in d.options:
        col, line = grid.cells[o.key]
        assert lines[line][col:col + len(o.key)] == o.key
