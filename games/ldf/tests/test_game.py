"""The LDF campaign: set-up, the turn sequence, the action loop, passing, concession, victory."""

from __future__ import annotations

import pytest

from ancients_kit.bots import make_bot, play_out
from ancients_kit.session import Session
from ancients_games.ldf import GAME
from ancients_games.ldf.state import GP, ROMAN, ROME


def new(seed: int = 1, **options: object) -> Session:
    return Session(GAME, "campaign", seed=seed, options=options)


def deployed(seed: int = 1, **options: object) -> Session:
    """A campaign past the Germano-Parthian set-up choices (first options each time)."""
    s = new(seed, **options)
    while s.decision is not None and s.decision.kind.startswith("setup."):
        s.answer(s.decision.options[0].key)
    return s


@pytest.mark.rule("ldf:3.2", "ldf:3.5", "ldf:3.1")
def test_campaign_starts_with_the_roman_set_up() -> None:
    s = new()
    st = s.state
    assert st.turn == 1 and st.treasury == 5
    kinds = [u.kind for u in st.units_at(ROME)]
    assert kinds.count("emperor") == 1 and kinds.count("cavalry-vexillation") == 1
    assert len(st.of_kind("legion-base")) == 33 == len(st.of_kind("infantry-vexillation"))
    assert len(st.pool) == 26  # 24 event chits and the two cavalry "chits" 25 (3.5)
    assert sorted(u.hex for u in st.of_kind("client-garrison")) == sorted(st.region("caucasus") | {"4720"})
    assert len(st.units_at("4720")) == 9
    assert all(not u.rebel for u in st.units.values())


@pytest.mark.rule("ldf:3.3", "ldf:3.4", "ldf:10.2")
def test_german_set_up_one_tribe_per_barbarian_hex() -> None:
    s = deployed()
    st = s.state
    tribes = st.of_kind("german-tribe")
    assert len(tribes) == 17 and len({t.hex for t in tribes}) == 17
    assert all(t.hex in st.region("barbaria") for t in tribes)
    assert all(g.hex in st.region("parthia") for g in st.of_kind("parthian-gund"))
    assert len(st.of_kind("parthian-garrison")) == 7


@pytest.mark.rule("ldf:5.3", "ldf:8.1")
def test_germano_parthian_acts_first_and_players_alternate() -> None:
    s = deployed()
    d = s.decision
    assert d.kind == "action" and d.side == GP
    s.answer("draw-chit")
    while s.decision.kind != "action":
        s.answer(s.decision.options[0].key)
    assert s.decision.side == ROMAN


@pytest.mark.rule("ldf:8.20", "ldf:5.4", "ldf:5.3", "ldf:5.5")
def test_two_passes_end_the_turn_and_a_pass_then_an_action_does_not() -> None:
    s = deployed()
    s.answer("pass")
    s.answer("draw-chit")  # the Roman acts: the Germano-Parthian gets another chance (8.20)
    while s.decision.kind != "action":
        s.answer(s.decision.options[0].key)
    assert s.state.turn == 1 and s.decision.side == GP
    s.answer("pass")
    s.answer("pass")
    assert s.state.turn == 2
    assert any(e.kind == "phase" and "administrative" in e.text for e in s.log)


@pytest.mark.rule("ldf:4.4", "ldf:4.5")
def test_concession_is_offered_with_every_action_and_ends_the_game() -> None:
    s = deployed()
    assert "concede" in s.decision.keys
    s.answer("concede")
    s.answer("yes")
    assert s.outcome is not None and s.outcome.winner == ROMAN
    assert "ldf:4.4" in s.outcome.rules


@pytest.mark.rule("ldf:4.3", "ldf:4.5")
def test_random_bots_finish_the_campaign() -> None:
    s = new(3, concession=False)
    out = play_out(s, make_bot("random"))
    assert out is not None and out.winner in (GP, ROMAN) and 1 <= out.turn <= 5


@pytest.mark.rule("ldf:2.5", "ldf:10.9", "ldf:14.1")
def test_the_map_fits_160_columns_and_shows_stacks_markers_and_tracks() -> None:
    from rich.console import Console

    s = deployed()
    st = s.state
    st.looted.add("3016")
    st.fortify = "2813"
    console = Console(width=160, color_system=None, record=True)
    console.print(GAME.render(st, ROMAN))
    lines = console.export_text().splitlines()
    assert max(len(line) for line in lines) <= 160
    text = "\n".join(lines)
    assert "*R3" in text  # the emperor in Rome with his cavalry and the legion there
    assert "Roman treasury  5 TP" in text and "[1]" in text
    assert "hands: germano-parthian 0, roman 0" in text  # sizes public, contents not (10.9)
    from ancients_games.ldf.render import hex_markers

    assert hex_markers(st, "3016").startswith("L") and "F" in hex_markers(st, "2813")
    assert hex_markers(st, "3318").startswith("4")
