"""What the players' table needs of Xenophon beyond the rules (issue 22): the log numbered by
game turn, and every question that concerns a place naming its hexes for the map."""

from __future__ import annotations

import re

import pytest

from ancients_kit.bots import RandomBot, play_out, play_until
from ancients_kit.session import Decision, Session
from ancients_kit.tui.view import log_rows

from ancients_games.xenophon import GAME, hints
from ancients_games.xenophon.hints import option_hexes

from tests.strategic_helpers import (Asked, check_highlight_is_display_only, check_map_shows_hex_numbers,
                                     marked_questions, played_greedy)

_HEX = re.compile(r"\b\d{4}\b")


@pytest.mark.rule("xen:sequence")
def test_log_rows_carry_the_game_turn() -> None:
    """Every event after the set-up is numbered with the turn it happened in (both player-turns of
    a turn under one number), so the table's log filter by turn shows that turn."""
    s = Session(GAME, "cyrus-revolt", seed=2031)
    play_out(s, RandomBot(), max_decisions=3_000)
    assert s.state.turn >= 2
    rows = log_rows(s.log, None)
    starts = [r for r in rows if r.kind == "turn"]
    assert [r.turn for r in starts][:4] == [1, 1, 2, 2]
    assert all(r.turn == 0 for r in rows[: starts[0].index])  # the set-up comes before turn 1
    for r in rows:
        if r.kind == "turn-end":
            assert r.text.startswith(f"Turn {r.turn} ends")
    assert {r.turn for r in rows} == set(range(s.state.turn + 1))
    assert log_rows(s.log, None, turn=2) and all(r.turn == 2 for r in log_rows(s.log, None, turn=2))


def _held(st, d: Decision) -> set[str]:  # noqa: ANN001
    """The hexes of the deciding side's units."""
    return {u.hex for u in st.side_units(d.side) if u.hex}


def _about(st, d: Decision) -> set[str]:  # noqa: ANN001
    """The hexes a question is about: named in it (a hex or a satrapy), stood for by an option, its battle."""
    about = set(_HEX.findall(d.prompt)) | {h for _, h in hints._satrapies_named(st, d.prompt)}
    about |= {h for o in d.options for h in option_hexes(st, o.key)}
    about |= {str(d.context["battle"])} if "battle" in d.context else set()  # the battle's hex
    return about


def _played(scenario: str, seed: int, limit: int) -> tuple[Session, Asked]:
    """A greedy game of ``limit`` questions (:func:`tests.strategic_helpers.played_greedy`)."""
    return played_greedy(GAME, scenario, seed, limit, _held, _about)


@pytest.mark.rule("xen:sequence", "xen:operations", "xen:combat")
@pytest.mark.parametrize(("scenario", "seed"), [("cyrus-revolt", 7), ("kings-war", 3)])
def test_every_question_shows_its_place(scenario: str, seed: int) -> None:
    """Every question of a side with a force on the map (or about a hex) marks hexes for the
    table, the first being a hex the question is about (named in it, or an option's) or one of
    the deciding side's forces; a force's operations start at its hex and a battle's questions
    at the battle."""
    s, asked = _played(scenario, seed, 1_500)
    kinds = set()
    for d, marks in marked_questions(asked):
        if d.kind == "ops.action":
            assert marks[0] == re.search(r" in (\d{4}) has ", d.prompt).group(1)  # type: ignore[union-attr]
        if d.kind in ("window.battle", "window.before-odds", "combat.withdraw"):
            assert marks[0] in _HEX.findall(d.prompt)
        kinds.add(d.kind)
    assert {"ops.action", "ops.force", "treasury.spend"} <= kinds


@pytest.mark.rule("xen:sequence")
def test_the_highlight_changes_no_log_and_no_save(monkeypatch: pytest.MonkeyPatch) -> None:
    """The completed highlights are display only: the same answers give the same log digest and
    the same save with the hints turned off."""
    s, _ = _played("cyrus-revolt", 7, 400)
    check_highlight_is_display_only(monkeypatch, hints, GAME, "cyrus-revolt", 7, s)


@pytest.mark.rule("xen:scenario.cyrus-revolt", "xen:guards")
def test_the_map_shows_the_hex_numbers_the_answers_are() -> None:
    """The table's map (its grid at the default zoom) writes every hex's printed number in its
    cell, and a question answered with a hex takes exactly those numbers: the picture's hexes are
    named by the map's numbering."""
    s = Session(GAME, "cyrus-revolt", seed=1)
    d = play_until(s, "setup.guard-hex", RandomBot())
    check_map_shows_hex_numbers(GAME, s, d, s.state.data.terrain)
