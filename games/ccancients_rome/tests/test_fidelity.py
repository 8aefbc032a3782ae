"""Rules fidelity (issue 10, C&C part): the printed card texts, the commandsandcolors.net unit and
FAQ pages, and the expansion book, each test citing the rule it checks.

Positions are built as in ``test_rules`` on a cleared Tigranocerte board (armenian at the top,
roman at the bottom, roman command 6) with dice forced by ``ctx.chance.force``.
"""

from __future__ import annotations

import pytest

from ancients_games.ccancients_rome.cards import order_plan
from ancients_games.ccancients_rome.combat import (
    battle_options, close_combat, close_dice, fire_at_lone_leader, flags_ignored, ranged_combat, ranged_dice,
)
from ancients_games.ccancients_rome.movement import allowance, can_step, leader_reach, reach
from ancients_games.ccancients_rome.orders import _through, troop_ok, order_units, play_turn
from ancients_games.ccancients_rome.state import Leader, Wagon
from ancients_kit.testing import drive

from .test_rules import BOT, TOP, fresh, unit


def _dice(ctx, needle: str) -> list[int]:  # type: ignore[no-untyped-def]
    """Dice counts of the logged rolls whose reason contains ``needle``."""
    return [len(e.text.split("dice: ", 1)[1].split(" (", 1)[0].split(", "))
            for e in ctx.log if e.kind == "roll" and needle in e.text]


def _hand(bs, side: str, card: str) -> None:  # type: ignore[no-untyped-def]
    bs.deck.draw_pile.remove(card)
    bs.armies[side].hand.add(card)


# -- 1, 2, 11: leadership cards ----------------------------------------------------------------


@pytest.mark.rule("ccr:base.cards", "ccr:base.leaders")
def test_leadership_any_section_orders_the_leaders_hex_and_three_linked_hexes() -> None:
    ctx, st, bs = fresh()
    line = [unit(bs, BOT, "HI", h) for h in ("0608", "0708", "0808", "0908", "1008", "0508")]
    bs.leaders.append(Leader(1, BOT, "Lucullus", "0608"))
    plan = order_plan(bs.cards["LAS"], bs.armies[BOT].command)
    assert dict(plan.sections) == {"all": 4}  # not the side's command (6)
    asked, got = drive(order_units(ctx, bs, BOT, plan), ["L0608", "0708", "0808", "0908"])
    assert got == line[:4] and not line[4].ordered and not line[5].ordered  # 4 units, no fifth question


@pytest.mark.rule("ccr:base.cards", "ccr:base.leaders")
def test_inspired_leadership_orders_the_leaders_hex_and_four_linked_hexes() -> None:
    ctx, st, bs = fresh()
    line = [unit(bs, BOT, "HI", h) for h in ("0608", "0708", "0808", "0908", "1008", "0508")]
    bs.leaders.append(Leader(1, BOT, "Lucullus", "0608"))
    plan = order_plan(bs.cards["ILC"], 6)
    assert dict(plan.sections) == {"all": 5}
    _, got = drive(order_units(ctx, bs, BOT, plan), ["L0608", "0708", "0808", "0908", "1008"])
    assert got == line[:5] and not line[5].ordered
    assert dict(order_plan(bs.cards["ILL"], 3).sections) == {"all": 5}  # whatever the command


@pytest.mark.rule("ccr:base.cards", "ccr:base.leaders")
def test_leadership_card_may_order_one_unit_of_choice_even_with_a_leader() -> None:
    ctx, st, bs = fresh()
    unit(bs, BOT, "HI", "0608")
    far = unit(bs, BOT, "LC", "0208")  # not linked to the leader
    bs.leaders.append(Leader(1, BOT, "Lucullus", "0608"))
    for card in ("LAS", "ILC"):
        far.ordered = False
        asked, got = drive(order_units(ctx, bs, BOT, order_plan(bs.cards[card], 6)), ["one", "0208"])
        assert got == [far] and "L0608" in asked[0].keys and "one" in asked[0].keys
        assert "0608" in asked[1].keys  # one unit of choice: any unit, in any section
    assert "one unit of its choice" in ctx.log.text()


# -- 3: Coordinated Attack -----------------------------------------------------------------------


@pytest.mark.rule("ccr:base.cards", "ccr:base.sections")
def test_coordinated_attack_orders_one_unit_or_leader_in_each_section() -> None:
    ctx, st, bs = fresh()
    plan = order_plan(bs.cards["CA"], 6)
    assert dict(plan.sections) == {"left": 1, "centre": 1, "right": 1} and plan.leaders
    unit(bs, BOT, "HI", "0608")
    unit(bs, BOT, "HI", "0708")
    unit(bs, BOT, "HI", "0208")
    gen = order_units(ctx, bs, BOT, plan)
    d = next(gen)
    d = gen.send("0608")
    assert "0708" not in d.keys and "0208" in d.keys  # the centre's one order is given
    why, rule = d.refuse("0708")
    assert rule == "ccr:base.sections"


# -- 4: Clash of Shields ---------------------------------------------------------------------------


@pytest.mark.rule("ccr:base.cards", "ccr:base.momentum")
def test_clash_of_shields_adds_two_dice_and_the_bonus_combat_rolls_normal_dice() -> None:
    ctx, st, bs = fresh()
    hc = unit(bs, BOT, "HC", "0606")
    unit(bs, TOP, "MI", "0605", blocks=1)
    other = unit(bs, TOP, "MI", "0504")
    hc.ordered = True
    plan = order_plan(bs.cards["CS"], 6)
    assert plan.cc_bonus == 2 and plan.move_cap == 0 and plan.no_ranged
    ctx.chance.force("medium", "light", "light", "light", "light", "light")  # 4 + 2 dice: the MI falls
    ctx.chance.force("light", "light", "light", "light")  # bonus combat: the normal 4 dice
    ctx.chance.force("light", "light", "light", "light")  # battle back misses
    asked, _ = drive(close_combat(ctx, bs, hc, bs.at["0605"], plan), ["0605", "0504"])
    assert [d.kind for d in asked] == ["momentum.advance", "momentum.bonus"]
    assert _dice(ctx, "close combat HC") == [6, 4] and other.blocks == 4


# -- 5: Mounted Charge -----------------------------------------------------------------------------


@pytest.mark.rule("ccr:base.cards", "ccr:base.movement")
def test_mounted_charge_heavy_cavalry_move_three_and_battle() -> None:
    ctx, st, bs = fresh()
    hc = unit(bs, BOT, "HC", "0608")
    tgt = unit(bs, TOP, "MI", "0604")
    plan = order_plan(bs.cards["MC"], 6)
    assert allowance(bs, hc, plan.move_bonus, plan.move_cap, plan.hc_move) == 3
    _hand(bs, BOT, "MC")
    ctx.chance.force("light", "light", "light", "light", "light")  # 4 + 1 dice miss
    ctx.chance.force("light", "light", "light", "light")  # battle back misses
    asked, _ = drive(play_turn(ctx, bs, BOT), ["0608", "0608", "0605", "0605", "0604"])
    assert hc.hex == "0605" and _dice(ctx, "close combat HC") == [5]
    assert "0608 -> 0605" in ctx.log.text()
    assert tgt.blocks == 4


@pytest.mark.rule("ccr:base.cards", "ccr:base.ranged")
def test_mounted_charge_units_may_not_fire() -> None:
    ctx, st, bs = fresh()
    lc = unit(bs, BOT, "LC", "0607")
    unit(bs, TOP, "MI", "0605")
    assert battle_options(bs, lc, order_plan(bs.cards["2C"], 6)) == [("0605", "ranged")]
    assert battle_options(bs, lc, order_plan(bs.cards["MC"], 6)) == []


# -- 6: Darken the Sky -----------------------------------------------------------------------------


@pytest.mark.rule("ccr:base.cards", "ccr:base.ranged")
def test_darken_the_sky_orders_every_ranged_unit_whatever_the_command() -> None:
    ctx, st, bs = fresh()
    archers = [unit(bs, BOT, "LB", h) for h in ("0208", "0408", "0608", "0808", "1008")]
    unit(bs, BOT, "HC", "0708")  # no ranged weapon
    plan = order_plan(bs.cards["DS"], 3)
    asked, got = drive(order_units(ctx, bs, BOT, plan), [u.hex for u in archers])
    assert got == archers and "0708" not in asked[0].keys


# -- 7: Double Time --------------------------------------------------------------------------------


@pytest.mark.rule("ccr:base.cards", "ccr:base.movement")
def test_double_time_foot_only_no_fire_and_no_extra_hex_for_light_foot() -> None:
    ctx, st, bs = fresh()
    plan = order_plan(bs.cards["DT"], 6)
    li = unit(bs, BOT, "LI", "0608")
    lb = unit(bs, BOT, "LB", "0708")
    mi = unit(bs, BOT, "MI", "0508")
    lc = unit(bs, BOT, "LC", "0408")
    ax = unit(bs, BOT, "AX", "0808")
    wa = unit(bs, BOT, "WA", "0908")
    assert allowance(bs, li, plan.move_bonus) == 2 and allowance(bs, lb, plan.move_bonus) == 2
    assert allowance(bs, mi, plan.move_bonus) == 2 and allowance(bs, ax, plan.move_bonus) == 2
    assert allowance(bs, wa, plan.move_bonus) == 3  # warriors: 2, or 3 to charge
    assert not troop_ok(bs, lc, plan.troops) and troop_ok(bs, mi, plan.troops)
    unit(bs, TOP, "MI", "0706")
    assert battle_options(bs, lb, order_plan(bs.cards["2C"], 6)) == [("0706", "ranged")]
    assert battle_options(bs, lb, plan) == []  # no ranged combat on Double Time
    ax.moved = 2
    assert battle_options(bs, ax, plan) == []  # no enemy adjacent and no fire; but auxilia may battle after 2
    unit(bs, TOP, "MI", "0807")
    assert battle_options(bs, ax, plan) == [("0807", "close")]
    asked, got = drive(order_units(ctx, bs, BOT, plan), ["0508", "0608", "0708", "0808"])
    assert got == [mi, li, lb, ax] and "0408" not in asked[0].keys  # no mounted unit; four at most



@pytest.mark.rule("ccr:base.cards", "ccr:base.movement")
def test_double_time_warriors_moving_2_or_3_hexes_must_charge() -> None:
    ctx, st, bs = fresh()
    wa = unit(bs, BOT, "WA", "0608")
    unit(bs, TOP, "MI", "0604")  # 3 hexes ahead: 0605 is adjacent to it, 0606 is not
    _hand(bs, BOT, "DT")
    gen = play_turn(ctx, bs, BOT)
    d = next(gen)
    d = gen.send("0608")
    d = gen.send("done") if d.kind == "order.unit" else d
    d = gen.send("0608")
    assert d.kind == "move.hex" and "0605" in d.keys and "0607" in d.keys
    assert "0606" not in d.keys  # 2 hexes, not adjacent to an enemy: refused
    assert "only to charge" in d.refuse("0606")[0]

# -- 8, 9: Order Light Troops and Move-Fire-Move -------------------------------------------------


def _boxed_light_foot(bs):  # type: ignore[no-untyped-def]
    li = unit(bs, BOT, "LI", "0608")
    for h in bs.board.neighbors["0608"]:
        unit(bs, BOT, "HI", h)
    return li


@pytest.mark.rule("ccr:base.cards", "ccr:base.movement")
def test_order_light_troops_light_foot_move_through_a_friendly_unit() -> None:
    ctx, st, bs = fresh()
    li = _boxed_light_foot(bs)
    assert reach(bs, li, 2) == {}
    beyond = reach(bs, li, 2, through_friends=True)
    assert beyond and set(beyond.values()) == {2} and "0606" in beyond
    _hand(bs, BOT, "OL")
    drive(play_turn(ctx, bs, BOT), ["0608", "0608", "0606"])
    assert li.hex == "0606"
    # on a section card the same unit may not pass its friends
    ctx, st, bs = fresh()
    li = _boxed_light_foot(bs)
    assert _through(order_plan(bs.cards["OL"], 6), li) and not _through(order_plan(bs.cards["2C"], 6), li)
    assert not can_step(bs, li) and can_step(bs, li, True)


@pytest.mark.rule("ccr:base.cards", "ccr:base.movement")
def test_move_fire_move_light_foot_move_through_a_friendly_unit() -> None:
    ctx, st, bs = fresh()
    li = _boxed_light_foot(bs)
    unit(bs, TOP, "MI", "0604")
    _hand(bs, BOT, "MFM")
    ctx.chance.force("medium")  # it moved, so it fires 1 die: a hit
    # order, move through a friend to 0606, fire at 0604, move back through the friend to 0608
    asked, _ = drive(play_turn(ctx, bs, BOT), ["0608", "0608", "0606", "0606", "0604", "0606", "0608"])
    assert li.hex == "0608" and bs.at["0604"].blocks == 3
    assert [d.kind for d in asked].count("move.hex") == 2


@pytest.mark.rule("ccr:base.cards")
def test_move_fire_move_orders_light_foot_and_light_mounted_only() -> None:
    ctx, st, bs = fresh()
    plan = order_plan(bs.cards["MFM"], 6)
    hi = unit(bs, BOT, "HI", "0608")  # a Marian legion: it throws pila 2 hexes, but is heavy
    lc = unit(bs, BOT, "LC", "0708")
    li = unit(bs, BOT, "LI", "0508")
    assert bs.legions.get(BOT) == "marian"
    assert troop_ok(bs, lc, plan.troops) and troop_ok(bs, li, plan.troops)
    assert not troop_ok(bs, hi, plan.troops)


# -- 10: I Am Spartacus ------------------------------------------------------------------------------


@pytest.mark.rule("ccr:base.cards", "ccr:base.ranged")
def test_i_am_spartacus_adds_a_die_to_ranged_combat_too() -> None:
    ctx, st, bs = fresh()
    lb = unit(bs, BOT, "LB", "0607")
    tgt = unit(bs, TOP, "MI", "0605")
    plan = order_plan(bs.cards["IAS"], 6)
    assert plan.cc_bonus == 1 and plan.ranged_bonus == 1
    assert ranged_dice(bs, lb, "0605", plan.ranged_bonus) == 3
    ctx.chance.force("medium", "medium", "medium")
    drive(ranged_combat(ctx, bs, lb, tgt, plan.ranged_bonus))
    assert tgt.blocks == 1 and _dice(ctx, "ranged LB") == [3]


@pytest.mark.rule("ccr:base.cards")
def test_i_am_spartacus_reshuffles_the_deck_and_the_discards() -> None:
    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0608")
    assert bs.deck.discard_pile  # the cleared hands lie in the discards
    _hand(bs, BOT, "IAS")
    ctx.chance.force("heavy", "flag", "flag", "flag", "flag", "flag")  # 6 dice: one heavy unit ordered
    drive(play_turn(ctx, bs, BOT), ["0608", "done"])
    assert hi.ordered is False and not bs.deck.discard_pile and len(bs.deck) == 60 - 1
    assert "I Am Spartacus: the deck and the discards are reshuffled" in ctx.log.text()


# -- 12: warriors ---------------------------------------------------------------------------------------


@pytest.mark.rule("ccr:base.retreat", "ccr:base.close-combat")
def test_warriors_ignore_a_flag_until_the_combat_after_their_first_loss() -> None:
    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0606")
    wa = unit(bs, TOP, "WA", "0605")
    assert flags_ignored(bs, wa, hi, True)[0] == 1
    ctx.chance.force("medium", "flag", "light", "light", "light")  # first loss and a flag in the same roll
    ctx.chance.force("light", "light", "light", "light")  # battle back: still 4 dice in this combat
    drive(close_combat(ctx, bs, hi, wa, order_plan(bs.cards["2C"], 6)))
    assert wa.hex == "0605" and wa.blocks == 3 and _dice(ctx, "battle back WA") == [4]
    assert "full strength" in ctx.log.text()
    # from the next combat on: 3 dice and no flag of its own ignored
    assert flags_ignored(bs, wa, hi, True)[0] == 0 and close_dice(bs, wa, hi) == 3


# -- 13: a foot unit with a leader battles again after its momentum advance ----------------------------


@pytest.mark.rule("ccr:base.momentum", "ccr:base.leaders")
def test_foot_with_an_attached_leader_makes_the_bonus_close_combat() -> None:
    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0606")
    ld = Leader(1, BOT, "Lucullus", "0606")
    bs.leaders.append(ld)
    unit(bs, TOP, "MI", "0605", blocks=1)
    other = unit(bs, TOP, "MI", "0504")
    ctx.chance.force("medium", "light", "light", "light", "light")  # the 1-block MI falls
    ctx.chance.force("medium", "medium", "light", "light", "light")  # bonus combat: 2 hits
    ctx.chance.force("light", "light", "light", "light")  # battle back misses
    asked, _ = drive(close_combat(ctx, bs, hi, bs.at["0605"], order_plan(bs.cards["2C"], 6)), ["0605", "0504"])
    assert [d.kind for d in asked] == ["momentum.advance", "momentum.bonus"]
    assert hi.hex == ld.hex == "0605" and other.blocks == 2


# -- 14: ranged combat against a lone leader ----------------------------------------------------------


@pytest.mark.rule("ccr:base.ranged", "ccr:base.leaders")
def test_ranged_combat_may_target_a_lone_leader_and_a_leader_symbol_hits() -> None:
    ctx, st, bs = fresh()
    lb = unit(bs, BOT, "LB", "0608")
    bs.leaders.append(Leader(1, TOP, "Tigranes", "0606"))
    plan = order_plan(bs.cards["2C"], 6)
    assert ("0606", "leader-ranged") in battle_options(bs, lb, plan)
    ctx.chance.force("leader", "flag")
    fire_at_lone_leader(ctx, bs, lb, "0606")
    assert not bs.leaders and bs.armies[BOT].banners == 1
    # not hit: the leader must evade, to a friendly unit he can reach
    bs.leaders.append(Leader(2, TOP, "Mithridates", "0606"))
    friend = unit(bs, TOP, "LI", "0404")
    lb.battles = 0
    ctx.chance.force("swords", "heavy")
    fire_at_lone_leader(ctx, bs, lb, "0606")
    assert bs.leaders[0].hex == friend.hex and bs.armies[BOT].banners == 1


@pytest.mark.rule("ccr:base.ranged", "ccr:base.leaders")
def test_a_lone_leader_is_fired_on_in_a_whole_turn() -> None:
    ctx, st, bs = fresh()
    unit(bs, BOT, "LB", "0608")
    bs.leaders.append(Leader(1, TOP, "Tigranes", "0606"))
    _hand(bs, BOT, "2C")
    ctx.chance.force("leader", "light")
    drive(play_turn(ctx, bs, BOT), ["0608", "done", "0608", "0606"])
    assert not bs.leaders and bs.armies[BOT].banners == 1


# -- 15: leaving a wagon laager ------------------------------------------------------------------------


@pytest.mark.rule("ccr:wagon-laager", "ccr:base.leaders")
def test_a_leader_leaving_a_wagon_laager_moves_only_to_an_adjacent_hex() -> None:
    ctx, st, bs = fresh()
    ld = Leader(1, BOT, "Lucullus", "0607")
    bs.leaders.append(ld)
    assert max(leader_reach(bs, ld).values()) == 3
    bs.wagons.append(Wagon(BOT, "wagon-laager", "0607"))
    r = leader_reach(bs, ld)
    assert r and set(r.values()) == {1}


@pytest.mark.rule("ccr:base.cards", "ccr:base.leaders")
def test_i_am_spartacus_leader_symbol_orders_any_unit_or_a_leader() -> None:
    from ancients_games.ccancients_rome.orders import _spartacus

    ctx, st, bs = fresh()
    unit(bs, BOT, "HI", "0608")
    unit(bs, BOT, "LI", "0208")
    bs.leaders.append(Leader(1, BOT, "Lucullus", "0608"))
    ctx.chance.force("leader", "flag", "flag")
    plan = _spartacus(ctx, bs, BOT, order_plan(bs.cards["IAS"], 3), 3)
    d = next(order_units(ctx, bs, BOT, plan))
    assert {"L0608", "0608", "0208"} <= set(d.keys)  # the leader may detach for the leader symbol's order
    ctx.chance.force("heavy", "flag", "flag")
    plan = _spartacus(ctx, bs, BOT, order_plan(bs.cards["IAS"], 3), 3)
    d = next(order_units(ctx, bs, BOT, plan))
    assert "L0608" not in d.keys and "0208" not in d.keys and "0608" in d.keys


@pytest.mark.rule("ccr:base.cards", "ccr:sequence")
def test_first_strike_player_draws_first_at_the_end_of_the_turn() -> None:
    ctx, st, bs = fresh()
    bs.first_strike = "auto"
    unit(bs, BOT, "HI", "0606")
    mi = unit(bs, TOP, "MI", "0605")
    _hand(bs, TOP, "FS")
    _hand(bs, BOT, "2C")
    ctx.chance.force("light", "light", "light", "light")  # the first strike misses
    ctx.chance.force("light", "light", "light", "light", "light")  # the attack misses
    drive(play_turn(ctx, bs, BOT), ["0606", "done", "0606", "0605"])
    rolls = [e.text for e in ctx.log if e.kind == "roll"]
    draws = [i for i, t in enumerate(rolls) if "draws a Command card" in t]
    attack = next(i for i, t in enumerate(rolls) if "close combat HI" in t)
    assert len(draws) == 2 and TOP in rolls[draws[0]] and BOT in rolls[draws[1]]
    assert attack < draws[0]  # no replacement card in the middle of the turn: it is drawn at its end, first
    assert len(bs.armies[TOP].hand) == 1 and len(bs.armies[BOT].hand) == 1 and mi.blocks == 4


@pytest.mark.rule("ccr:base.cards", "ccr:base.sections")
def test_counter_attack_of_leadership_any_section_orders_in_the_same_section() -> None:
    ctx, st, bs = fresh()
    assert bs.board.sections("1202", "top") == ("left",) and bs.board.sections("1208", "bottom") == ("right",)
    unit(bs, TOP, "HI", "1202")
    bs.leaders.append(Leader(1, TOP, "Tigranes", "1202"))
    for h in ("0208", "1208"):
        unit(bs, BOT, "HI", h)
        bs.leaders.append(Leader(2 + len(bs.leaders), BOT, f"leader at {h}", h))
    _hand(bs, TOP, "LAS")
    drive(play_turn(ctx, bs, TOP), ["L1202", "done"])
    assert bs.armies[TOP].last_sections == ("left",)
    _hand(bs, BOT, "CTA")
    asked, _ = drive(play_turn(ctx, bs, BOT), ["done"])
    assert set(asked[0].keys) == {"L1208", "one", "done"}  # his left is your right: the same flank
    assert "in the right section, where armenian played it" in ctx.log.text()
