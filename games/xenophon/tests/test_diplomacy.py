"""Diplomacy (xen:diplomacy, xen:chits): bidding arithmetic and the real Diplomacy Table."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ancients_games.xenophon import diplomacy as dip
from ancients_games.xenophon import leaders
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
    # the shifts count from the differential (Rulings: second reading 3): -4 + 3 = -1 reads
    # column <=0, -1 + 3 column 2
    three = dip.column_shifts("rebel", "Athens", supreme_in_capital=True, occupies_all_cities=True)
    assert dip.read_table(TABLE, -4, 6, three).final_column == "<=0"
    assert dip.read_table(TABLE, -1, 6, three).final_column == "2"


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
    assert leaders.assassination_chance(True) == Fraction(1, 3)
    assert leaders.assassination_chance(False) == Fraction(1, 2)
    assert leaders.assassination_succeeds(3, False) and not leaders.assassination_succeeds(3, True)
    with pytest.raises(ValueError, match="xen:diplomacy"):
        leaders.assassination_succeeds(7, True)


@pytest.mark.rule("xen:diplomacy")
def test_bid_keys_round_trip() -> None:
    for chit in dip.AGENT_CHITS:
        assert dip.key_chit(dip.bid_key(chit)) == (chit, None)
    assert dip.key_chit(dip.bid_key("Treachery", 4)) == ("Treachery", 4)
    with pytest.raises(ValueError, match="xen:diplomacy"):
        dip.key_chit("bribe")


# ---------------------------------------------------------------------------
# The phase on the real game state

from ancients_games.xenophon.state import EMPIRE, NEUTRAL, REBEL  # noqa: E402
from ancients_games.xenophon.tests.politics_helpers import Script, deal, drive, texts, world  # noqa: E402


@pytest.mark.rule("xen:diplomacy", "xen:control")
def test_rebel_agent_on_athens_with_empire_treachery_and_counter_treachery() -> None:
    ctx, state = world()
    deal(state, REBEL, "Agent", "Treachery")
    deal(state, EMPIRE, "Treachery")
    assert state.control["Athens"] == NEUTRAL
    ctx.chance.force(4)
    script = Script({
        "diplomacy.open": "agent",
        # empire cancels the Agent; the rebel cancels that Treachery; then both decline
        "window.diplomacy": ["treachery:1", "treachery:2", "no", "no"],
        "diplomacy.result": "control",
    })
    code = drive(dip.attempt(ctx, state, REBEL, "Athens"), script)
    # differential 1, +1 (Rebel attempt on Athens) -> column 2, roll 4 -> D2: neutral Athens becomes Rebel
    assert code == "D2" and state.control["Athens"] == REBEL
    assert all(u.side == REBEL for u in state.units.values() if u.satrapy == "Athens")
    sides = [d.side for d in script.asked if d.kind == "window.diplomacy"]
    assert sides == [EMPIRE, REBEL]  # then neither holds anything to play: nobody is asked
    assert not len(state.hands[REBEL]) and not len(state.hands[EMPIRE]) and len(state.pool) == 40
    assert "column 1, +1 shift -> 2, roll 4 -> D2" in texts(ctx)


@pytest.mark.rule("xen:diplomacy", "xen:control")
def test_d2_turns_an_enemy_satrapy_neutral_and_d3_takes_it() -> None:
    ctx, state = world()
    state.player_turn = EMPIRE
    # Great King counts 2 in Lydia for the Empire, two Agents more: column 4
    deal(state, EMPIRE, "Great King", "Agent", "Agent")
    ctx.chance.force(3)
    script = Script({"diplomacy.open": "great-king", "window.diplomacy": ["no", "agent", "no", "agent", "no", "no"],
                     "diplomacy.result": "control"})
    code = drive(dip.attempt(ctx, state, EMPIRE, "Lydia"), script)
    assert code == "D2" and state.control["Lydia"] == NEUTRAL  # column 4, roll 3
    # the Lydian units outside Lydia, or stacked with Rebel units (Sardis), are eliminated (ruling 16)
    for u in state.units.values():
        if u.satrapy == "Lydia" and u.on_map:
            assert state.satrapy_of(u.hex) == "Lydia"
            assert all(o.side == NEUTRAL for o in state.units_at(u.hex))
    deal(state, EMPIRE, "Great King", "Agent", "Agent", "Agent")
    ctx.chance.force(4)
    script = Script({"diplomacy.open": "great-king", "window.diplomacy": ["no", "agent", "no", "agent", "no", "agent",
                                                                          "no", "no"],
                     "diplomacy.result": "control"})
    assert drive(dip.attempt(ctx, state, EMPIRE, "Phrygia"), script) == "D3"  # column >=5, roll 4 (rebuilt)
    assert state.control["Phrygia"] == EMPIRE


@pytest.mark.rule("xen:diplomacy", "xen:leaders", "xen:supreme-leaders")
def test_d3_assassination_of_the_supreme_leader() -> None:
    ctx, state = world()
    state.player_turn = EMPIRE
    deal(state, EMPIRE, "Great King", "Agent", "Agent", "Agent")
    deal(state, REBEL, "Agent", "Forced March")
    ctx.chance.force(6, 2)
    script = Script({"diplomacy.open": "great-king",
                     "window.diplomacy": ["no", "agent", "no", "agent", "no", "agent", "no", "no"],
                     "diplomacy.result": "assassinate:Cyrus"})
    assert drive(dip.attempt(ctx, state, EMPIRE, "Phrygia"), script) == "D3"
    assert not state.unit("Cyrus").on_map and state.supreme_leader(REBEL) is None
    assert not len(state.hands[REBEL])  # the Supreme Leader's death: every chit discarded
    assert "assassinates Cyrus (roll 2)" in texts(ctx)
    # a failed attempt: the non-phasing player draws a chit
    deal(state, EMPIRE, "Great King", "Agent", "Agent", "Agent")
    ctx.chance.force(6, 4)  # 1-3 kills a leader who is not supreme: 4 fails
    drive(dip.attempt(ctx, state, EMPIRE, "Ionia"),
          Script({"diplomacy.open": "great-king",
                  "window.diplomacy": ["no", "agent", "no", "agent", "no", "agent", "no", "no"],
                  "diplomacy.result": "assassinate:Ariaos"}))
    assert state.unit("Ariaos").on_map and len(state.hands[REBEL]) == 1


@pytest.mark.rule("xen:diplomacy", "xen:intelligence")
def test_reaction_draws_and_d1_examines() -> None:
    ctx, state = world()
    deal(state, REBEL, "Agent")
    deal(state, EMPIRE, "Agent", "Agent")
    ctx.chance.force(1)
    drive(dip.attempt(ctx, state, REBEL, "Persis"),
          Script({"window.diplomacy": ["agent", "agent"]}))  # the Rebel holds nothing more: not asked
    # differential -1 -> column <=0, roll 1 -> 2R: the Empire draws 2
    assert len(state.hands[EMPIRE]) == 2
    deal(state, REBEL, "Agent", "Agent", "Agent")
    ctx.chance.force(3)
    script = Script({"window.diplomacy": ["no", "agent", "no", "agent", "no", "no"],
                     "diplomacy.result": "examine-treasury"})
    assert drive(dip.attempt(ctx, state, REBEL, "Persis"), script) == "D1"  # column 3, roll 3
    assert state.revealed["rebel:treasury"].treasury == 40
    assert [o.key for o in script.asked[-1].options] == ["examine-chits", "examine-treasury"]


@pytest.mark.rule("xen:diplomacy")
def test_the_phase_asks_the_phasing_player_whatever_he_holds() -> None:
    ctx, state = world()
    deal(state, REBEL)
    script = Script()
    drive(dip.diplomacy_phase(ctx, state, REBEL), script)
    sat = [d for d in script.asked if d.kind == "diplomacy.satrapy"]
    assert len(sat) == 1 and sat[0].keys == ("done",)
    deal(state, REBEL, "Expedition")
    script = Script({"diplomacy.satrapy": ["scythia", "done"], "window.diplomacy": ["no", "no"]})
    ctx.chance.force(2)
    drive(dip.diplomacy_phase(ctx, state, REBEL), script)
    sat = [d for d in script.asked if d.kind == "diplomacy.satrapy"][0]
    assert set(sat.keys) == {"done", *(dip._slug(s) for s in dip.EXPEDITION_SATRAPIES if state.control[s] != REBEL)}
    with pytest.raises(ValueError, match="xen:diplomacy"):
        drive(dip.attempt(ctx, state, REBEL, "Lydia"), Script())
