"""Diplomacy (xen:diplomacy, xen:chits): bidding arithmetic and the real Diplomacy Table."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ancients_games.xenophon import diplomacy as dip
from ancients_games.xenophon.diplomacy import Bid
from ancients_games.xenophon.model import load_chits, load_tables

TABLE = load_tables()["diplomacy"]


def bids(*items: tuple[str, str, int | None]) -> list[Bid]:
    """(side, chit, target) in playing order, valued for an attempt on Libya."""
    out = []
    for n, (side, chit, target) in enumerate(items, start=1):
        out.append(Bid(n, side, chit, dip.agent_value(chit, side, "Libya"), target))
    return out


@pytest.mark.rule("xen:diplomacy", "xen:chits")
def test_chit_values_printed_and_rebuilt() -> None:
    assert dip.agent_value("Agent", "rebel", "Persis") == 1
    assert dip.agent_value("Expedition", "rebel", "Libya") == 2
    assert dip.agent_value("Expedition", "empire", "Greater India") == 2
    assert dip.agent_value("Expedition", "rebel", "Persis") == 0
    assert not dip.may_play("Expedition", "rebel", "Persis")
    assert dip.agent_value("Great King", "empire", "Media") == 3
    assert dip.agent_value("Great King", "empire", "Lydia") == 2
    assert dip.agent_value("Great King", "rebel", "Media") == 1
    assert dip.agent_value("Hellenistic League", "rebel", "Athens") == 3
    assert dip.agent_value("Hellenistic League", "rebel", "Egypt") == 2
    assert dip.agent_value("Hellenistic League", "empire", "Athens") == 1
    assert dip.agent_value("Treachery", "rebel", "Athens") == 0
    assert dip.may_play("Treachery", "empire", "Athens")
    # every bidding chit is a chit of the real pool
    names = {c.name for c in load_chits()[1].chit}
    assert set(dip.BIDDING_CHITS) <= names
    # the satrapy lists name real satrapies
    from ancients_games.xenophon.model import load

    satrapies = {r.name for r in load().roster.satrapy}
    for group in (dip.EXPEDITION_SATRAPIES, dip.GREAT_KING_HEARTLAND, dip.HELLENISTIC_HEARTLAND,
                  dip.REBEL_SHIFT_SATRAPIES, dip.EMPIRE_SHIFT_SATRAPIES):
        assert group <= satrapies
    assert len(dip.REBEL_SHIFT_SATRAPIES) == 14


@pytest.mark.rule("xen:diplomacy")
def test_three_agents_against_one_column_two_then_three() -> None:
    # STRATEGIC_GAMES 4.2: 3 Agents vs 1 -> column 2; Supreme Leader in a Capital -> column 3.
    b = bids(("empire", "Agent", None), ("rebel", "Agent", None), ("empire", "Agent", None), ("empire", "Agent", None))
    d = dip.differential(b, "empire")
    assert d == 2
    assert dip.read_table(TABLE, d, 4).final_column == "2"
    shifts = dip.column_shifts("empire", "Lydia", supreme_in_capital=True, occupies_all_cities=False)
    res = dip.read_table(TABLE, d, 4, shifts)
    assert (res.final_column, res.result) == ("3", "D2")


@pytest.mark.rule("xen:diplomacy", "xen:chits")
def test_expedition_cancelled_whole_by_treachery_half_by_agent() -> None:
    # STRATEGIC_GAMES 4.2: Expedition counts 2 against Libya; Treachery cancels the whole chit; an Agent 1 of its 2.
    assert dip.differential(bids(("rebel", "Expedition", None)), "rebel") == 2
    assert dip.differential(bids(("rebel", "Expedition", None), ("empire", "Agent", None)), "rebel") == 1
    assert dip.differential(bids(("rebel", "Expedition", None), ("empire", "Treachery", 1)), "rebel") == 0


@pytest.mark.rule("xen:diplomacy")
def test_treachery_chains_read_from_the_last_link() -> None:
    b = bids(("rebel", "Agent", None), ("empire", "Treachery", 1))
    assert dip.cancelled(b) == {1}
    b = bids(("rebel", "Agent", None), ("empire", "Treachery", 1), ("rebel", "Treachery", 2))
    assert dip.cancelled(b) == {2}
    assert dip.differential(b, "rebel") == 1
    b = bids(("rebel", "Agent", None), ("empire", "Treachery", 1), ("rebel", "Treachery", 2), ("empire", "Treachery", 3))
    assert dip.cancelled(b) == {1, 3}
    assert dip.differential(b, "rebel") == 0
    # the non-phasing Agents may drive the differential below zero: column <=0
    b = bids(("rebel", "Agent", None), ("empire", "Agent", None), ("empire", "Agent", None))
    assert dip.differential(b, "rebel") == -1
    assert dip.read_table(TABLE, -1, 1).result == "2R"
    # a treachery may target only the opponent's uncancelled chits
    b = bids(("rebel", "Agent", None), ("empire", "Treachery", 1))
    assert [t.number for t in dip.treachery_targets(b, "rebel")] == [2]
    assert [t.number for t in dip.treachery_targets(b, "empire")] == []
    with pytest.raises(ValueError, match="xen:diplomacy"):
        dip.cancelled([Bid(1, "rebel", "Treachery", 0, 7)])


@pytest.mark.rule("xen:diplomacy")
def test_column_shifts_printed_lists() -> None:
    none = dict(supreme_in_capital=False, occupies_all_cities=False)
    assert dip.column_shifts("rebel", "Athens", **none)[0].columns == 1
    assert dip.column_shifts("rebel", "Persis", **none) == ()
    assert len(dip.column_shifts("empire", "Persis", **none)) == 1
    assert len(dip.column_shifts("empire", "Athens", supreme_in_capital=True, occupies_all_cities=True)) == 2
    # shifts move the column: <=0 absorbs the negatives first, then +3 reads column 3
    assert dip.read_table(TABLE, -4, 6, dip.column_shifts("rebel", "Athens", supreme_in_capital=True,
                                                            occupies_all_cities=True)).final_column == "3"


@pytest.mark.rule("xen:diplomacy")
def test_rebuilt_cells_and_exact_odds() -> None:
    assert [dip.read_table(TABLE, 3, r).result for r in range(1, 7)] == ["R", "--", "D1", "D2", "D2", "D3"]
    dist = dip.outcome_distribution(TABLE, 5)
    assert sum(dist.values()) == 1
    assert dist["D3"] == Fraction(1, 2)
    assert dip.outcome_distribution(TABLE, 0) == {"2R": Fraction(1, 6), "R": Fraction(1, 6),
                                                   "--": Fraction(1, 2), "D1": Fraction(1, 6)}
    # D3 only in rebuilt cells
    for v in range(-1, 7):
        for r in range(1, 7):
            res = dip.read_table(TABLE, v, r)
            if res.result == "D3":
                assert TABLE.provenance.cell(r, res.final_column).source == "reconstructed"


@pytest.mark.rule("xen:diplomacy")
def test_assassination_chances() -> None:
    # STRATEGIC_GAMES 4.2: D3 assassination kills the Supreme Leader 1/3, another leader 1/2.
    assert dip.assassination_chance(True) == Fraction(1, 3)
    assert dip.assassination_chance(False) == Fraction(1, 2)
    assert dip.assassination_succeeds(3, False) and not dip.assassination_succeeds(3, True)


@pytest.mark.rule("xen:diplomacy")
def test_bid_keys_round_trip() -> None:
    for chit in dip.AGENT_CHITS:
        assert dip.key_chit(dip.bid_key(chit)) == (chit, None)
    assert dip.key_chit(dip.bid_key("Treachery", 4)) == ("Treachery", 4)
    with pytest.raises(ValueError, match="xen:diplomacy"):
        dip.key_chit("bribe")
