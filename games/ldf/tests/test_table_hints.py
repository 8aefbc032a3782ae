"""What the players' table needs of Lest Darkness Fall beyond the rules (issue 22): every
question that concerns a place names its hexes for the map, the deciding force's first."""

from __future__ import annotations

import re

import pytest

from ancients_kit.session import Decision, Session

from ancients_games.ldf import GAME, hints
from ancients_games.ldf.hints import option_hexes

from tests.strategic_helpers import (Asked, check_highlight_is_display_only, check_map_shows_hex_numbers,
                                     marked_questions, played_greedy)

_HEX = re.compile(r"\b\d{4}\b")


def _held(st, d: Decision) -> set[str]:  # noqa: ANN001
    """The hexes of the deciding side's units."""
    return {u.hex for u in st.on_map() if u.hex and st.side_of(u) == d.side}


def _about(st, d: Decision) -> set[str]:  # noqa: ANN001
    """The hexes a question is about: named in it, stood for by an option, its origin or target."""
    about = set(_HEX.findall(d.prompt)) | {h for o in d.options for h in option_hexes(st, o.key)}
    about |= {str(d.context[k]) for k in ("origin", "target") if k in d.context}
    return about


def _played(seed: int, limit: int) -> tuple[Session, Asked]:
    """A greedy campaign of ``limit`` questions (:func:`tests.strategic_helpers.played_greedy`)."""
    return played_greedy(GAME, "campaign", seed, limit, _held, _about)


@pytest.mark.rule("ldf:8.1", "ldf:12.4", "ldf:13.4", "ldf:14.3")
@pytest.mark.parametrize("seed", [1, 5])
def test_every_question_shows_its_place(seed: int) -> None:
    """Every question of a side with a force on the map (or about a hex) marks hexes for the
    table, the first being a hex the question is about (named in it, or an option's) or one of
    the deciding side's forces; a moving force's steps start at its hex, a battle's windows at
    the battle."""
    s, asked = _played(seed, 1_200)
    kinds = set()
    for d, marks in marked_questions(asked):
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
    check_highlight_is_display_only(monkeypatch, hints, GAME, "campaign", 1, s)


@pytest.mark.rule("ldf:3.3")
def test_the_map_shows_the_hex_numbers_the_answers_are() -> None:
    """The table's map (its grid at the default zoom) writes every hex's printed number in its
    cell, and a question answered with a hex takes exactly those numbers: the picture's hexes are
    named by the map's numbering."""
    s = Session(GAME, "campaign", seed=1)
    d = s.decision
    assert d is not None and d.kind == "setup.tribe"
    check_map_shows_hex_numbers(GAME, s, d, s.state.data.ids)
