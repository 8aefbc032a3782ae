"""The Xenophon game: set-up of both scenarios, the sequence of play, the end."""

from __future__ import annotations

import pytest

from ancients_kit.session import Session
from ancients_games.xenophon import GAME
from ancients_games.xenophon.phases import PHASE_ORDER
from ancients_games.xenophon.state import EMPIRE, NEUTRAL, REBEL


def new(scenario: str = "cyrus-revolt", seed: int = 1, **options: object) -> Session:
    return Session(GAME, scenario, seed=seed, options=options)


def deployed(scenario: str = "cyrus-revolt", seed: int = 1, **options: object) -> Session:
    """A game past the Empire's set-up choices (first options each time)."""
    s = new(scenario, seed, **options)
    while s.decision is not None and s.decision.kind.startswith("setup."):
        s.answer(s.decision.options[0].key)
    return s


@pytest.mark.rule("xen:scenario.cyrus-revolt", "xen:control", "xen:treasury", "xen:stratagem")
def test_cyrus_revolt_sets_up_as_printed() -> None:
    st = deployed().state
    counts = {c: len(st.controlled(c)) for c in (EMPIRE, REBEL, NEUTRAL)}
    assert counts == {EMPIRE: 15, REBEL: 8, NEUTRAL: 11}
    assert st.treasury[EMPIRE].value == 40 and st.treasury[REBEL].value == 10
    assert len(st.hands[REBEL]) == 6 and len(st.hands[EMPIRE]) == 2 and len(st.pool) == 32
    sardis = st.data.map.to_id(st.data.map.place("Sardis"))
    names = {u.id for u in st.units_at(sardis)}
    assert {"Cyrus", "Ariaos", "rebel-guard-P1", "rebel-guard-P2", "rebel-guard-P3", "rebel-guard-L1"} <= names
    assert st.unit("Artaxerxes").hex == st.data.map.to_id(st.data.map.place("Persepolis"))
    guard = [u for u in st.on_map() if u.side == EMPIRE and u.guard]
    assert len(guard) == 3 and len({st.satrapy_of(u.hex) for u in guard}) == 3


@pytest.mark.rule("xen:scenario.cyrus-revolt", "xen:supply")
def test_set_up_puts_a_unit_in_every_city_within_forage() -> None:
    st = deployed().state
    for row in st.data.data.scenarios.setup:
        for h in st.cities_of(row.satrapy):
            assert st.units_at(h), f"{row.satrapy}: city {h} empty"
    for h in st.occupied():
        own = [u for u in st.units_at(h) if u.satrapy is not None and not u.fleet]
        if own and not (h in st.data.desert and st.data.forage[h] == 0):
            assert len(own) <= st.data.forage[h], h


@pytest.mark.rule("xen:sequence", "xen:scenario.cyrus-revolt", "xen:scenario.kings-war")
@pytest.mark.parametrize(("scenario", "turns"), [("cyrus-revolt", 7), ("kings-war", 15)])
def test_sequence_rebel_then_empire_phases_a_to_h_to_the_end(scenario: str, turns: int) -> None:
    s = deployed(scenario)
    while s.decision is not None:
        s.answer(s.decision.options[0].key)
    phases = [(e.side, e.data["phase"]) for e in s.log if e.kind == "phase"]
    one_turn = [(side, p) for side in (REBEL, EMPIRE) for p in PHASE_ORDER]
    assert phases == one_turn * turns
    assert s.state.over and s.state.turn == turns
