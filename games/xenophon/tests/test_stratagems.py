"""Stratagem chits (xen:stratagem, xen:chits): the real pool, moments of play, hands and losses."""

from __future__ import annotations

import pytest

from ancients_kit.data import DataError
from ancients_games.xenophon import stratagems as st
from ancients_games.xenophon.model import Chit, ChitsDoc, load_chits

META, DOC = load_chits()


@pytest.mark.rule("xen:chits", "xen:stratagem")
def test_every_chit_of_the_pool_has_a_moment() -> None:
    st.check_chits(DOC)
    assert sum(c.count for c in DOC.chit) == 40
    played = {c for chits in st.WINDOW_CHITS.values() for c in chits}
    own_phase = {e.chit for e in st.EFFECTS.values() if e.moment == "stratagem"}
    assert played | own_phase | {"Blank"} == {c.name for c in DOC.chit}
    assert st.WINDOW_CHITS["after-roll"] == ("Consult Oracles",)
    assert set(st.WINDOW_CHITS["diplomacy"]) == {"Agent", "Expedition", "Great King", "Hellenistic League", "Treachery"}
    assert "Forced March" in st.WINDOW_CHITS["operations"] and "Forced March" in st.WINDOW_CHITS["reaction"]
    assert st.EFFECTS["Empire Mobilizes"].sides == ("empire",) and st.EFFECTS["Empire Mobilizes"].leaves_game
    assert st.EFFECTS["Ten Thousand"].sides == ("rebel",)
    for name in st.EFFECTS:
        assert st.key_chit(st.chit_key(name)) == name
    assert st.chit_key("King's Eye") == "king-s-eye"


@pytest.mark.rule("xen:chits")
def test_check_chits_refuses_a_chit_without_effect_or_a_wrong_phase() -> None:
    extra = ChitsDoc(DOC.chit + (Chit("Golden Fleece", 1, "any", "x"),), DOC.provenance)
    with pytest.raises(DataError, match="no effect for the chit.*Golden Fleece"):
        st.check_chits(extra)
    fewer = ChitsDoc(tuple(c for c in DOC.chit if c.name != "Bribery"), DOC.provenance)
    with pytest.raises(DataError, match="no Bribery chit"):
        st.check_chits(fewer)
    wrong = ChitsDoc(tuple(Chit(c.name, c.count, "levy", c.text) if c.name == "Agent" else c for c in DOC.chit))
    with pytest.raises(DataError, match="Agent is played at diplomacy"):
        st.check_chits(wrong)
    with pytest.raises(ValueError, match="xen:chits"):
        st.key_chit("golden-fleece")
