"""Stratagem chits (xen:stratagem, xen:chits): the real pool, moments of play, hands and losses."""

from __future__ import annotations

import pytest

from ancients_kit.data import DataError
from ancients_games.xenophon import chits, control, leaders
from ancients_games.xenophon import stratagems as st
from ancients_games.xenophon.model import Chit, ChitsDoc, load_chits

META, DOC = load_chits()


@pytest.mark.rule("xen:chits", "xen:stratagem")
def test_every_chit_of_the_pool_has_a_moment() -> None:
    chits.check_chits(DOC)
    assert sum(c.count for c in DOC.chit) == 40
    played = {c for chits in chits.WINDOW_CHITS.values() for c in chits}
    own_phase = {e.chit for e in chits.EFFECTS.values() if e.moment == "stratagem"}
    assert played | own_phase | {"Blank"} == {c.name for c in DOC.chit}
    assert chits.WINDOW_CHITS["after-roll"] == ("Consult Oracles",)
    assert set(chits.WINDOW_CHITS["diplomacy"]) == {"Agent", "Expedition", "Great King", "Hellenistic League", "Treachery"}
    assert "Forced March" in chits.WINDOW_CHITS["operations"] and "Forced March" in chits.WINDOW_CHITS["reaction"]
    assert chits.EFFECTS["Empire Mobilizes"].sides == ("empire",) and chits.EFFECTS["Empire Mobilizes"].leaves_game
    assert chits.EFFECTS["Ten Thousand"].sides == ("rebel",)
    for name in chits.EFFECTS:
        assert chits.key_chit(chits.chit_key(name)) == name
    assert chits.chit_key("King's Eye") == "kings-eye"


@pytest.mark.rule("xen:chits")
def test_check_chits_refuses_a_chit_without_effect_or_a_wrong_phase() -> None:
    extra = ChitsDoc(DOC.chit + (Chit("Golden Fleece", 1, "any", "x"),), DOC.provenance)
    with pytest.raises(DataError, match="no effect for the chit.*Golden Fleece"):
        chits.check_chits(extra)
    fewer = ChitsDoc(tuple(c for c in DOC.chit if c.name != "Bribery"), DOC.provenance)
    with pytest.raises(DataError, match="no Bribery chit"):
        chits.check_chits(fewer)
    wrong = ChitsDoc(tuple(Chit(c.name, c.count, "levy", c.text) if c.name == "Agent" else c for c in DOC.chit))
    with pytest.raises(DataError, match="Agent is played at diplomacy"):
        chits.check_chits(wrong)
    with pytest.raises(ValueError, match="xen:chits"):
        chits.key_chit("golden-fleece")


# ---------------------------------------------------------------------------
# On the real game state

from fractions import Fraction  # noqa: E402

from ancients_games.xenophon.state import EMPIRE, REBEL  # noqa: E402
from ancients_games.xenophon.tests.politics_helpers import Script, deal, drive, texts, world  # noqa: E402


@pytest.mark.rule("xen:stratagem")
def test_a_full_hand_draws_then_returns_one_of_its_choice() -> None:
    ctx, state = world()
    deal(state, REBEL, *(["Agent"] * 12 + ["Treachery"] * 3))
    assert len(state.hands[REBEL]) == 15
    ctx.chance.force("Forced March")
    script = Script({"chit.return": "agent"})
    assert drive(chits.draw(ctx, state, REBEL, 1, "test"), script) == 1
    assert script.kinds() == ["chit.return"]
    assert set(script.asked[0].keys) == {"agent", "treachery", "forced-march"}
    hand = state.hands[REBEL].cards
    assert len(hand) == 15 and hand.count("Agent") == 11 and "Forced March" in hand
    assert len(state.pool) + 15 + len(state.hands[EMPIRE]) == 40
    # the draw is private: the Empire reads only that a chit was drawn
    assert "Forced March" not in texts(ctx, EMPIRE) and "Forced March" in texts(ctx, REBEL)


@pytest.mark.rule("xen:stratagem", "xen:supreme-leaders")
def test_every_chit_goes_back_when_the_supreme_leader_dies() -> None:
    ctx, state = world()
    deal(state, EMPIRE, "Agent", "Great King")
    assert chits.lose_all(ctx, state, EMPIRE, "Supreme Leader eliminated") == 2
    assert len(state.pool) + len(state.hands[REBEL]) == 40
    # which chits they were stays the Empire's secret
    assert "Great King" in texts(ctx, EMPIRE) and "Great King" not in texts(ctx, REBEL)
    assert "empire discards all 2 chits" in texts(ctx, REBEL)


@pytest.mark.rule("xen:stratagem", "xen:supreme-leaders")
def test_stratagem_phase_free_chit_only_for_a_supreme_leader_in_an_unpillaged_capital() -> None:
    ctx, state = world()
    # Artaxerxes starts in Persepolis (a Capital); Cyrus in Sardis (a Treasury City)
    assert control.capital_occupied(state, EMPIRE) is not None and control.capital_occupied(state, REBEL) is None
    n = len(state.hands[EMPIRE])
    state.player_turn = EMPIRE
    drive(st.stratagem_phase(ctx, state, EMPIRE), Script())
    assert len(state.hands[EMPIRE]) == n + 1
    state.pillaged.add(state.unit("Artaxerxes").hex)
    drive(st.stratagem_phase(ctx, state, EMPIRE), Script())
    assert len(state.hands[EMPIRE]) == n + 1
    n = len(state.hands[REBEL])
    state.player_turn = REBEL
    drive(st.stratagem_phase(ctx, state, REBEL), Script())
    assert len(state.hands[REBEL]) == n


@pytest.mark.rule("xen:chits", "xen:intelligence")
def test_king_s_eye_shows_the_opponent_s_chits_and_treasury_to_its_player_only() -> None:
    ctx, state = world()
    deal(state, REBEL, "King's Eye")
    deal(state, EMPIRE, "Great King", "Agent")
    script = Script({"stratagem.play": ["kings-eye", "done"]})
    drive(st.stratagem_phase(ctx, state, REBEL), script)
    assert "King's Eye" in state.pool and not len(state.hands[REBEL])
    seen = state.revealed["rebel:chits"]
    assert seen.chits == ("Agent", "Great King") and state.revealed["rebel:treasury"].treasury == 40
    assert "Great King" in texts(ctx, REBEL) and "Great King" not in texts(ctx, EMPIRE)
    assert "rebel sees empire: treasury 40" in texts(ctx, REBEL)
    assert "rebel sees empire: treasury 40" not in texts(ctx, EMPIRE)
    assert "rebel sees empire: treasury (King's Eye)" in texts(ctx, EMPIRE)


@pytest.mark.rule("xen:chits", "xen:supreme-leaders")
def test_successor_replaces_an_eliminated_supreme_leader() -> None:
    ctx, state = world()
    deal(state, REBEL, "Successor", "Agent")
    state.eliminate("Cyrus")
    script = Script()
    drive(leaders.supreme_leader_eliminated(ctx, state, REBEL), script)
    assert script.kinds() == []  # no Anabasis: nothing to play, no question
    assert not len(state.hands[REBEL])  # no Anabasis: every chit discarded
    deal(state, REBEL, "Successor")
    script = Script({"stratagem.play": ["successor:Ariaos", "done"]})
    drive(st.stratagem_phase(ctx, state, REBEL), script)
    assert state.supreme[REBEL] == "Ariaos" and state.supreme_leader(REBEL).id == "Ariaos"
    # with a Supreme Leader on the map Successor is not offered
    deal(state, REBEL, "Successor")
    script = Script()
    drive(st.stratagem_phase(ctx, state, REBEL), script)
    assert not any(k.startswith("successor:") for k in script.asked[0].keys)


@pytest.mark.rule("xen:chits", "xen:supreme-leaders", "xen:leaders")
def test_anabasis_a_leader_then_return_all_and_draw_1d6() -> None:
    ctx, state = world()
    deal(state, REBEL, "Anabasis", "Agent", "Agent", "Treachery")
    state.eliminate("Cyrus")
    ctx.chance.force(3)  # 1d6 chits
    script = Script({"window.supreme-leader-lost": "anabasis", "leader.arise": "Xenophon"})
    drive(leaders.supreme_leader_eliminated(ctx, state, REBEL), script)
    assert state.unit("Xenophon").on_map
    assert state.unit("Xenophon").hex in {u.hex for u in state.side_units(REBEL) if u.id != "Xenophon"}
    assert len(state.hands[REBEL]) == 3 and "Anabasis" not in state.hands[REBEL]
    assert "Anabasis" in state.pool and len(state.pool) + 3 + len(state.hands[EMPIRE]) == 40
    assert "Cyrus" not in leaders.available_leaders(state, REBEL)


@pytest.mark.rule("xen:chits")
def test_consult_oracles_ignores_a_roll_and_rolls_again() -> None:
    ctx, state = world()
    deal(state, EMPIRE, "Consult Oracles")
    ctx.chance.force(2, 5)
    script = Script({"window.after-roll": ["consult-oracles"]})
    got = drive(chits.roll(ctx, state, "Diplomacy in Athens", ("xen:diplomacy",)), script)
    assert got == 5
    # only the holder is asked; after the reroll nobody holds the chit, nobody is asked
    assert [d.side for d in script.asked] == ["empire"]
    assert script.asked[0].keys == ("no", "turn", "never", "consult-oracles")
    assert "Consult Oracles" in state.pool
    # the Random Events' d66: both dice again
    deal(state, REBEL, "Consult Oracles")
    ctx.chance.force(1, 3, 6, 6)
    script = Script({"window.after-roll": ["consult-oracles"]})
    assert drive(chits.roll(ctx, state, "Random Events", ("xen:random-events",), "d66"), script) == 66


@pytest.mark.rule("xen:chits", "xen:treasury", "xen:random-events")
def test_currency_reform_gains_a_dollar_a_friendly_unpillaged_city() -> None:
    ctx, state = world()
    deal(state, REBEL, "Currency Reform")
    cities = st.unpillaged_cities(state, REBEL)
    assert cities
    state.pillaged.add(cities[0])
    before = state.treasury[REBEL].value
    got = drive(st.treasury_window(ctx, state, REBEL), Script({"window.treasury": "currency-reform"}))
    assert got == len(cities) - 1 and state.treasury[REBEL].value == before + got
    # Mediterranean War: no taxing in Egypt, Ionia ... this player-turn, so no extra $ there either
    state.effects["player-turn:mediterranean-war"] = ("Egypt", "Ionia")
    left = st.unpillaged_cities(state, REBEL)
    assert left and not {state.satrapy_of(h) for h in left} & {"Egypt", "Ionia"}
    assert len(left) < len(cities) - 1


@pytest.mark.rule("xen:chits", "xen:recruit")
def test_ten_thousand_rebel_only_phalanx_at_two_dollars() -> None:
    ctx, state = world()
    deal(state, EMPIRE, "Ten Thousand")
    state.player_turn = EMPIRE
    script = Script()
    drive(st.recruit_window(ctx, state, EMPIRE), script)
    assert script.asked == []  # the Empire holds it but may not play it: not asked
    state.player_turn = REBEL
    deal(state, REBEL, "Ten Thousand")
    sardis = state.unit("Cyrus").hex
    script = Script({"window.recruit": "ten-thousand", "ten-thousand.city": sardis})
    before = state.treasury[REBEL].value
    n = drive(st.recruit_window(ctx, state, REBEL), script)
    assert n == 1  # 3 of the 4 guard phalanxes already in Sardis
    assert state.treasury[REBEL].value == before - 2
    assert len([u for u in state.units_at(sardis) if u.type == "phalanx" and u.guard]) == 4


@pytest.mark.rule("xen:chits", "xen:levy", "xen:leaders")
def test_levy_window_leader_arises_and_empire_mobilizes() -> None:
    ctx, state = world()
    state.player_turn = EMPIRE
    deal(state, EMPIRE, "Leader Arises", "Empire Mobilizes")
    ctx.chance.force(2)
    on_map = len(state.side_units(EMPIRE))
    script = Script({"window.levy": ["leader-arises", "empire-mobilizes", "no"], "leader.arise": "Konon",
                     "mobilize.satrapy": ["media", "persis"]})
    drive(st.levy_window(ctx, state, EMPIRE), script)
    assert state.unit("Konon").on_map
    # 2 extra levies, one a satrapy: Media and Persis
    assert len(state.side_units(EMPIRE)) == on_map + 1 + 2
    levied = [e.data["unit"] for e in ctx.log if e.kind == "levy" and "unit" in e.data]
    assert [state.unit(u).satrapy for u in levied] == ["Media", "Persis"]
    assert "media" not in [d for d in script.asked if d.kind == "mobilize.satrapy"][1].keys
    assert state.removed_chits == ["Empire Mobilizes"] and "Empire Mobilizes" not in state.pool
    assert "Artaxerxes" not in leaders.available_leaders(state, EMPIRE)
    # the Rebel may keep Empire Mobilizes but never play it
    state.player_turn = REBEL
    deal(state, REBEL, "Leader Arises")
    state.hands[REBEL].add("Empire Mobilizes")
    script = Script()
    drive(st.levy_window(ctx, state, REBEL), script)
    assert script.asked[0].keys == ("no", "turn", "never", "leader-arises")
    with pytest.raises(ValueError, match="only by empire"):
        chits.play(ctx, state, REBEL, "Empire Mobilizes")


@pytest.mark.rule("xen:chits", "xen:combat")
def test_military_advantage_one_a_side_and_bribery_by_the_attacker() -> None:
    ctx, state = world()
    deal(state, REBEL, "Military Advantage", "Military Advantage", "Bribery")
    deal(state, EMPIRE, "Military Advantage")
    script = Script({"window.before-odds": ["military-advantage", "military-advantage"]})
    got = drive(st.before_odds(ctx, state, REBEL, EMPIRE, "Sardis"), script)
    assert got == {REBEL: 1, EMPIRE: 1}
    assert state.hands[REBEL].cards.count("Military Advantage") == 1 and not len(state.hands[EMPIRE])
    assert drive(st.battle_window(ctx, state, REBEL, "Sardis"), Script({"window.battle": "bribery"})) is True
    assert drive(st.battle_window(ctx, state, REBEL, "Sardis"), Script()) is False


@pytest.mark.rule("xen:chits", "xen:supply", "xen:pillage", "xen:opt.reaction", "xen:forced-march")
def test_reaction_window_scorched_earth_and_forced_march_only_with_the_option() -> None:
    ctx, state = world()
    deal(state, EMPIRE, "Scorched Earth", "Forced March")
    script = Script()
    drive(st.reaction_window(ctx, state, EMPIRE), script)
    assert script.asked[0].keys == ("no", "turn", "never", "scorched-earth")  # no Reaction without the option
    assert not st.scorched_earth_hexes(state, EMPIRE)  # at the start every Empire unit is in a city
    home = state.unit("Artaxerxes").hex
    burnt = next(n for n in state.neighbours(home) if not state.is_city(n) and state.satrapy_of(n))
    militia = next(u for u in state.units_at(home) if u.type == "militia")
    state.place(militia.id, burnt)
    assert st.scorched_earth_hexes(state, EMPIRE) == [burnt]
    drive(st.reaction_window(ctx, state, EMPIRE), Script({"window.reaction": "scorched-earth",
                                                          "scorched-earth.hex": burnt}))
    assert burnt in state.pillaged and state.forage(burnt) == 0
    assert all(state.forage(n) == 0 for n in state.neighbours(burnt) if not state.is_city(n))
    assert burnt not in st.scorched_earth_hexes(state, EMPIRE)
    ctx, state = world(reaction=True)
    deal(state, EMPIRE, "Forced March")
    got = drive(st.reaction_window(ctx, state, EMPIRE), Script({"window.reaction": "forced-march"}))
    assert got is not None and got.option.data == "Forced March"
    # STRATEGIC_GAMES 4.2: Forced March loses a unit with P 1/2
    assert Fraction(sum(st.forced_march_loss(r) for r in range(1, 7)), 6) == Fraction(1, 2)


@pytest.mark.rule("xen:stratagem")
def test_returning_and_revealing_in_the_stratagem_phase() -> None:
    ctx, state = world()
    deal(state, REBEL, "Blank", "Agent")
    script = Script({"stratagem.play": ["return", "reveal", "done"], "stratagem.return": "blank",
                     "stratagem.reveal": "both"})
    drive(st.stratagem_phase(ctx, state, REBEL), script)
    assert state.hands[REBEL].cards == ("Agent",) and "Blank" in state.pool
    assert state.revealed["empire:chits"].chits == ("Agent",)
    assert state.revealed["empire:treasury"].treasury == state.treasury[REBEL].value


@pytest.mark.rule("xen:intelligence", "xen:diplomacy", "xen:stratagem")
def test_bot_scores_read_only_the_deciding_side_s_view() -> None:
    from ancients_games.xenophon import diplomacy as dip

    ctx, state = world()
    deal(state, REBEL, "Agent", "Agent", "Hellenistic League", "Blank")
    decisions: list = []

    def capture(d):  # the Rebel's own questions in his Diplomacy and Stratagem phases
        decisions.append(d)
        return d.options[0].key

    drive(dip.diplomacy_phase(ctx, state, REBEL), capture)
    drive(st.stratagem_phase(ctx, state, REBEL), capture)
    own = [d for d in decisions if d.side == REBEL]
    assert {d.kind for d in own} >= {"diplomacy.satrapy", "stratagem.play", "window.negotiations"}
    scores = [[st.score(state, d, k) for k in d.keys] for d in own]
    assert all(s is not None for row in scores for s in row)
    other = state.copy()
    deal(other, EMPIRE, "Treachery", "Treachery", "Agent")
    other.treasury[EMPIRE].spend(ctx, 30, "test")
    assert [[st.score(other, d, k) for k in d.keys] for d in own] == scores
    sat = next(d for d in own if d.kind == "diplomacy.satrapy")
    best = max(sat.keys, key=lambda k: st.score(state, sat, k))
    assert best == "athens" or st.score(state, sat, best) >= st.score(state, sat, "athens")
    assert st.score(state, sat, "done") == 0.0


@pytest.mark.rule("xen:stratagem", "xen:treasury", "xen:recruit", "xen:levy")
def test_the_treasury_recruit_and_levy_phases_open_their_windows_first() -> None:
    from ancients_games.xenophon.sequence import PHASES

    ctx, state = world()
    opened: list[bool] = []
    for name in ("treasury", "recruit", "levy"):
        state.phase = name
        script = Script()
        drive(PHASES[name](ctx, state, REBEL), script)
        windows = [i for i, d in enumerate(script.asked) if d.kind.startswith("window.")]
        assert windows == list(range(len(windows)))  # a window (when a chit is playable) comes first
        for d in script.asked[:len(windows)]:
            assert d.kind == f"window.{name}" and d.side == REBEL and d.keys[:3] == ("no", "turn", "never")
        opened.append(bool(windows))
    assert any(opened)


@pytest.mark.rule("xen:stratagem")
def test_a_draw_and_a_gift_to_a_full_hand_ask_the_same_return() -> None:
    # One home for the full-hand rule (ruling 19): chits.full_hand_return serves the draw
    # (chits.draw_chit, which chits.draw and combat.award_chits call) and a gift (receive).
    asked = {}
    for how in ("draw", "gift"):
        ctx, state = world()
        deal(state, REBEL, *(["Agent"] * 12 + ["Treachery"] * 3))
        script = Script({"chit.return": "forced-march"})
        if how == "draw":
            ctx.chance.force("Forced March")
            drive(chits.draw(ctx, state, REBEL, 1, "test"), script)
        else:
            state.pool.remove("Forced March")
            drive(chits.receive(ctx, state, REBEL, "Forced March", "test"), script)
        asked[how] = [(d.kind, d.keys, d.rule) for d in script.asked]
        hand = state.hands[REBEL].cards
        assert len(hand) == 15 and "Forced March" not in hand and "Forced March" in state.pool
    assert asked["draw"] == asked["gift"] == [("chit.return", ("agent", "forced-march", "treachery"), "xen:stratagem")]
    assert chits.full_hand_return.__module__.endswith(".chits")


def test_the_greedy_bot_says_never_where_it_never_plays_and_plays_where_it_does() -> None:
    """A standing choice is no play: at a window the bot plays at (Leader Arises at the levy
    window) the chit scores above ``turn`` and ``never`` (``turn`` tied with it before); at one
    it never plays at (after a die roll) ``never`` scores above ``no``, so the bot is asked
    there once, as a person who does not mean to play there would be."""
    from ancients_kit.session import Decision, Option

    _, state = world()
    keys = ("no", "turn", "never", "leader-arises")
    levy = Decision(REBEL, "play at the levy?", tuple(Option(k) for k in keys), kind="window.levy")
    got = {k: st.score(state, levy, k) for k in keys}
    assert got["leader-arises"] > max(got["no"], got["turn"], got["never"])
    roll = Decision(REBEL, "play after a die roll?", tuple(Option(k) for k in ("no", "turn", "never", "consult-oracles")),
                    kind="window.after-roll")
    got = {k: st.score(state, roll, k) for k in roll.keys}
    assert got["never"] > got["no"] > got["consult-oracles"]
