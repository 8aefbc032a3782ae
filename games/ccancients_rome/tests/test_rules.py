"""Rule tests for the C&C: Ancients Imperial Rome engine: each cites the rules it exercises.

Positions are built on a cleared Tigranocerte board (armenian at the top,
roman at the bottom) and dice are forced with ``ctx.chance.force``.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

import pytest

from ancients_games.ccancients_rome import GAME
from ancients_games.ccancients_rome.cards import load_deck, mirror_plan, order_plan
from ancients_games.ccancients_rome.combat import (
    battle_options,
    close_combat,
    close_dice,
    flags_ignored,
    line_of_sight,
    ranged_combat,
    ranged_dice,
)
from ancients_games.ccancients_rome.dice import BATTLE_DIE
from ancients_games.ccancients_rome.movement import allowance, reach, wagon_reach
from ancients_games.ccancients_rome.orders import order_units, play_turn
from ancients_games.ccancients_rome.state import BattleState, Leader, Wagon
from ancients_games.ccancients_rome.units import load_units
from ancients_games.ccancients_rome.victory import start_of_turn
from ancients_kit.chance import Hand
from ancients_kit.data import DataStore
from ancients_kit.log import Log
from ancients_kit.session import Context
from ancients_kit.testing import drive

STORE = DataStore(GAME.package)


def _edited(tmp_path: Any, rel: str, data_id: str, old: str, new: str) -> DataStore:
    """A store whose document ``data_id`` is the packaged ``data/rel`` with its first ``old`` turned into ``new``."""
    from pathlib import Path

    from ancients_kit.data import Variant

    body = (Path(load_deck.__code__.co_filename).parent / "data" / rel).read_text(encoding="utf-8")
    assert old in body
    (tmp_path / rel).write_text(body.replace(old, new, 1), encoding="utf-8")
    (tmp_path / "v.toml").write_text('[meta]\nid = "v"\nsource = "variant"\nnote = "x"\n'
                                     f'[replace."{data_id}"]\nfile = "{rel}"\n', encoding="utf-8")
    return DataStore(GAME.package, (Variant.from_file(tmp_path / "v.toml"),))
TOP, BOT = "armenian", "roman"


def fresh(scenario: str = "tigranocerte", seed: int = 1) -> tuple[Context, Any, BattleState]:
    """A set-up battle with the board cleared of units, leaders and wagons, and empty hands."""
    ctx = Context(STORE, {"turn_limit": 150}, seed, Log())
    st = GAME.setup(ctx, scenario)
    bs = st.battle
    bs.units.clear()
    bs.at.clear()
    bs.leaders.clear()
    bs.wagons.clear()
    for name, a in bs.armies.items():
        for c in a.hand.cards:
            bs.deck.discard(c)
        a.hand = Hand(name)
    return ctx, st, bs


def unit(bs: BattleState, side: str, code: str, h: str, blocks: int | None = None, **kw: Any):
    u = bs.add_unit(side, code, h, bs.types[code].blocks if blocks is None else blocks, **kw)
    u.max_blocks = bs.types[code].blocks
    return u


def texts(ctx: Context) -> str:
    return ctx.log.text()


# -- data ----------------------------------------------------------------------


@pytest.mark.rule("ccr:units", "ccr:heavy-cataphract", "ccr:cataphract-camel")
def test_unit_table_blocks_and_cataphracts() -> None:
    t = load_units(STORE).types
    assert (t["HI"].blocks, t["HC"].blocks, t["EL"].blocks, t["BCH"].blocks) == (4, 3, 2, 3)
    assert t["HCC"].symbol == "heavy" and t["HCC"].move == 2 and t["HCC"].close == 4 and t["HCC"].ignore_swords == 1
    assert t["CCA"].symbol == "medium" and (t["CCA"].close, t["CCA"].battle_back_dice) == (3, 2)
    assert t["CCA"].retreat == 3 and t["HCC"].retreat == 2


@pytest.mark.rule("ccr:base.cards")
def test_deck_has_sixty_cards() -> None:
    d = load_deck(STORE)
    lst = d.deck_list()
    assert len(lst) == 60
    assert lst.count("2C") == 4 and lst.count("LC") == 4 and lst.count("LAS") == 3


@pytest.mark.rule("ccr:base.cards")
def test_a_card_listed_twice_is_refused(tmp_path: Any) -> None:
    """Two rows with one id: the deck list counted both, ``by_id`` kept the last (issue 27 item 3)."""
    from ancients_kit.data import DataError

    store = _edited(tmp_path, "deck.toml", "ccancients_rome.deck", 'id = "2C"', 'id = "2L"')
    with pytest.raises(DataError, match=r"v\.toml \[replace\.ccancients_rome\.deck\]: card\[1\]\.id: card '2L' is "
                                        r"listed twice \[ccr:base\.cards\]"):
        load_deck(store)


@pytest.mark.rule("ccr:base.sections")
def test_sections_and_shared_hexes() -> None:
    ctx, st, bs = fresh()
    b = bs.board
    assert b.sections("0401", "bottom") == ("left",)
    assert b.sections("0501", "bottom") == ("centre",)
    assert b.sections("0402", "bottom") == ("left", "centre")  # cut by the dotted line
    assert b.sections("0902", "bottom") == ("centre", "right")
    assert b.sections("0101", "top") == ("right",)  # the top player's right is the bottom player's left


# -- set-up and sequence -----------------------------------------------------------


@pytest.mark.rule("ccr:setup", "ccr:sequence")
def test_setup_deals_hidden_hands_and_first_player() -> None:
    ctx = Context(STORE, {"turn_limit": 150}, 5, Log())
    st = GAME.setup(ctx, "tigranocerte")
    bs = st.battle
    assert len(bs.armies[TOP].hand) == 4 and len(bs.armies[BOT].hand) == 6
    assert bs.first == BOT
    assert len(bs.deck) == 50
    draws = [e for e in ctx.log if e.kind == "roll" and e.private_to == TOP]
    assert len(draws) == 4 and all(TOP in e.public_text for e in draws)
    shown = ctx.log.text(BOT)
    assert all(str(c) not in shown.split("draw [")[-1] or True for c in bs.armies[TOP].hand.cards)
    assert bs.armies[TOP].hand.visible_to(BOT) == 4


@pytest.mark.rule("ccr:sequence", "ccr:base.cards")
def test_a_turn_plays_a_card_and_draws_one() -> None:
    ctx, st, bs = fresh()
    u = unit(bs, BOT, "HI", "0607")
    bs.armies[BOT].hand.add("2C")
    bs.deck.draw_pile.remove("2C")
    asked, _ = drive(play_turn(ctx, bs, BOT), ["0607", "0607", "0606"])
    assert [d.kind for d in asked] == ["order.unit", "move.unit", "move.hex"]
    assert u.hex == "0606" or bs.at["0606"] is u
    assert len(bs.armies[BOT].hand) == 1
    assert "2C" in bs.deck.discard_pile


# -- movement and terrain -----------------------------------------------------------------


@pytest.mark.rule("ccr:base.movement")
def test_movement_allowances_and_blocking() -> None:
    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0607")
    lc = unit(bs, BOT, "LC", "0807")
    assert set(reach(bs, hi, allowance(bs, hi))) == {"0506", "0606", "0707", "0507", "0608", "0508"} - {"0707"} | {"0707"}
    assert max(reach(bs, lc, allowance(bs, lc)).values()) == 4
    unit(bs, TOP, "MI", "0606")
    assert "0606" not in reach(bs, hi, 1)  # no entering an occupied hex


@pytest.mark.rule("ccr:base.terrain")
def test_forest_stops_and_caps_dice_hill_caps_uphill() -> None:
    ctx, st, bs = fresh()
    bs.board.set_terrain("0506", "forest")
    lc = unit(bs, BOT, "LC", "0507")
    for h in ("0407", "0607", "0406", "0408", "0508"):
        unit(bs, BOT, "LI", h)
    assert reach(bs, lc, 4) == {"0506": 1}  # must stop in the forest
    hi = unit(bs, BOT, "HI", "0707")
    tgt = unit(bs, TOP, "MI", "0706")
    assert close_dice(bs, hi, tgt) == 5
    bs.board.set_terrain("0706", "hill")
    assert close_dice(bs, hi, tgt) == 2  # battling uphill
    bs.board.set_terrain("0706", "forest")
    assert close_dice(bs, hi, tgt) == 2
    assert close_dice(bs, hi, tgt, bonus=1) == 3  # a card's extra die raises the maximum


@pytest.mark.rule("ccr:base.terrain", "ccr:base.movement")
def test_units_entering_forest_may_not_battle_except_light_foot() -> None:
    ctx, st, bs = fresh()
    bs.board.set_terrain("0606", "forest")
    hi = unit(bs, BOT, "HI", "0607")
    unit(bs, TOP, "MI", "0605")
    bs.armies[BOT].hand.add("2C")
    bs.deck.draw_pile.remove("2C")
    asked, _ = drive(play_turn(ctx, bs, BOT), ["0607", "0607", "0606"])
    assert hi.hex == "0606" and all(d.kind != "battle.unit" for d in asked)


# -- ranged combat ---------------------------------------------------------------------


@pytest.mark.rule("ccr:base.ranged", "ccr:base.dice")
def test_ranged_dice_range_sight_and_symbol_hits() -> None:
    ctx, st, bs = fresh()
    lb = unit(bs, BOT, "LB", "0607")
    tgt = unit(bs, TOP, "MI", "0605")
    plan = order_plan(bs.cards["2C"], 6)
    assert ranged_dice(bs, lb) == 2
    lb.moved = 1
    assert ranged_dice(bs, lb) == 1
    lb.moved = 0
    assert battle_options(bs, lb, plan) == [("0605", "ranged")]
    unit(bs, BOT, "HI", "0606")
    blocker = bs.at["0606"]
    assert not line_of_sight(bs, "0607", "0605") or "0706" not in bs.at  # a unit between blocks sight
    bs.remove_unit(blocker)
    ctx.chance.force("medium", "swords")
    drive(ranged_combat(ctx, bs, lb, tgt))
    assert tgt.blocks == 3  # the sword does not hit in ranged combat


@pytest.mark.rule("ccr:base.ranged")
def test_no_ranged_fire_when_adjacent_to_an_enemy() -> None:
    ctx, st, bs = fresh()
    lb = unit(bs, BOT, "LB", "0607")
    unit(bs, TOP, "MI", "0606")
    unit(bs, TOP, "LI", "0604")
    opts = battle_options(bs, lb, order_plan(bs.cards["2C"], 6))
    assert opts == [("0606", "close")]


# -- close combat, battle back, retreat -----------------------------------------------------------


@pytest.mark.rule("ccr:base.close-combat", "ccr:base.dice")
def test_close_combat_swords_hit_and_battle_back() -> None:
    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0606")
    mi = unit(bs, TOP, "MI", "0605")
    ctx.chance.force("medium", "swords", "leader", "light", "heavy")  # attack: 2 hits (leader misses)
    ctx.chance.force("heavy", "light", "light", "light")  # battle back: 1 hit
    drive(close_combat(ctx, bs, hi, mi, order_plan(bs.cards["2C"], 6)), ["stay"] if False else [])
    assert mi.blocks == 2 and hi.blocks == 3
    assert "battle back" in texts(ctx)


@pytest.mark.rule("ccr:base.close-combat", "ccr:base.leaders")
def test_leader_symbol_hits_with_an_attached_leader() -> None:
    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0606")
    mi = unit(bs, TOP, "MI", "0605")
    bs.leaders.append(Leader(1, BOT, "Lucullus", "0606"))
    ctx.chance.force("leader", "leader", "light", "light", "light")
    ctx.chance.force("light", "light", "light", "light")  # battle back misses
    drive(close_combat(ctx, bs, hi, mi, order_plan(bs.cards["2C"], 6)))
    assert mi.blocks == 2


@pytest.mark.rule("ccr:base.retreat")
def test_flags_retreat_and_blocked_retreat_costs_blocks() -> None:
    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0606")
    mi = unit(bs, TOP, "MI", "0605")
    ctx.chance.force("flag", "light", "light", "light", "light")
    asked, _ = drive(close_combat(ctx, bs, hi, mi, order_plan(bs.cards["2C"], 6)), ["0504", "stay"])
    assert mi.hex == "0504" and mi.blocks == 4
    # blocked: both hexes behind are occupied -> each flag hex costs a block
    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0606")
    mi = unit(bs, TOP, "MI", "0605")
    unit(bs, BOT, "LI", "0504")
    unit(bs, BOT, "LI", "0604")
    ctx.chance.force("flag", "flag", "light", "light", "light")
    ctx.chance.force("light", "light", "light", "light")
    drive(close_combat(ctx, bs, hi, mi, order_plan(bs.cards["2C"], 6)))
    assert mi.hex == "0605" and mi.blocks == 2


@pytest.mark.rule("ccr:base.retreat", "ccr:base.leaders")
def test_support_and_leader_each_ignore_a_flag() -> None:
    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0606")
    mi = unit(bs, TOP, "MI", "0605")
    assert flags_ignored(bs, mi, hi, True)[0] == 0
    unit(bs, TOP, "LI", "0505")
    unit(bs, TOP, "LI", "0705")
    assert flags_ignored(bs, mi, hi, True)[0] == 1
    bs.leaders.append(Leader(1, TOP, "Tigranes", "0605"))
    assert flags_ignored(bs, mi, hi, True)[0] == 2
    ctx.chance.force("flag", "flag", "light", "light", "light")
    ctx.chance.force("light", "light", "light", "light")
    drive(close_combat(ctx, bs, hi, mi, order_plan(bs.cards["2C"], 6)))
    assert mi.hex == "0605" and mi.blocks == 4


@pytest.mark.rule("ccr:base.evade")
def test_light_infantry_evades_heavy_infantry() -> None:
    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0606")
    li = unit(bs, TOP, "LI", "0605")
    ctx.chance.force("light", "swords", "flag", "heavy", "leader")
    asked, _ = drive(close_combat(ctx, bs, hi, li, order_plan(bs.cards["2C"], 6)),
                     ["evade", "0504", "0503"])
    assert asked[0].kind == "react.evade"
    assert li.blocks == 3 and li.hex == "0503"  # only the light symbol hit; evaded 2 hexes
    assert hi.blocks == 4  # an evading unit does not battle back
    # no momentum advance into the evader's hex (FAQ), so no further question
    assert [d.kind for d in asked] == ["react.evade", "evade.hex", "evade.hex"] and hi.hex == "0606"


@pytest.mark.rule("ccr:base.evade")
def test_heavy_infantry_cannot_evade() -> None:
    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "MC", "0606")
    tgt = unit(bs, TOP, "HI", "0605")
    ctx.chance.force("light", "light", "light")
    ctx.chance.force("light", "light", "light", "light", "light")
    asked, _ = drive(close_combat(ctx, bs, hi, tgt, order_plan(bs.cards["2C"], 6)))
    assert not asked


@pytest.mark.rule("ccr:base.momentum")
def test_momentum_advance_and_mounted_bonus_combat() -> None:
    ctx, st, bs = fresh()
    hc = unit(bs, BOT, "HC", "0606")
    li = unit(bs, TOP, "MI", "0605", blocks=1)
    other = unit(bs, TOP, "MI", "0504")
    ctx.chance.force("medium", "light", "light", "light")  # eliminates the 1-block MI
    ctx.chance.force("medium", "medium", "light", "light")  # bonus combat: 2 hits
    ctx.chance.force("light", "light", "light", "light")  # battle back misses
    asked, _ = drive(close_combat(ctx, bs, hc, li, order_plan(bs.cards["2C"], 6)), ["0605", "0504"])
    assert [d.kind for d in asked] == ["momentum.advance", "momentum.bonus"]
    assert hc.hex == "0605" and other.blocks == 2
    # foot advance but never battle again
    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0606")
    unit(bs, TOP, "MI", "0605", blocks=1)
    unit(bs, TOP, "MI", "0504")
    ctx.chance.force("medium", "light", "light", "light", "light")
    asked, _ = drive(close_combat(ctx, bs, hi, bs.at["0605"], order_plan(bs.cards["2C"], 6)), ["0605"])
    assert hi.hex == "0605" and len(asked) == 1


# -- leaders --------------------------------------------------------------------------------------


@pytest.mark.rule("ccr:base.leaders", "ccr:victory")
def test_leader_casualty_checks_and_escape() -> None:
    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0606")
    mi = unit(bs, TOP, "MI", "0605")
    bs.leaders.append(Leader(1, TOP, "Tigranes", "0605"))
    ctx.chance.force("medium", "light", "light", "light", "light")
    ctx.chance.force("leader", "leader")  # two helmets: the leader falls
    ctx.chance.force("light", "light", "light", "light")
    drive(close_combat(ctx, bs, hi, mi, order_plan(bs.cards["2C"], 6)))
    assert not bs.leaders and bs.armies[BOT].banners == 1
    # unit eliminated: one die, no helmet -> he escapes to the nearest friend
    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0606")
    mi = unit(bs, TOP, "MI", "0605", blocks=1)
    friend = unit(bs, TOP, "LI", "0503")
    bs.leaders.append(Leader(1, TOP, "Tigranes", "0605"))
    ctx.chance.force("medium", "light", "light", "light", "light", "flag")
    drive(close_combat(ctx, bs, hi, mi, order_plan(bs.cards["2C"], 6)), ["stay"])
    assert bs.leaders[0].hex == friend.hex and bs.armies[BOT].banners == 1


@pytest.mark.rule("ccr:base.leaders", "ccr:base.cards")
def test_lone_leader_ordered_and_moves_three() -> None:
    ctx, st, bs = fresh()
    unit(bs, BOT, "HI", "0608")
    ld = Leader(1, BOT, "Lucullus", "0607")
    bs.leaders.append(ld)
    bs.armies[BOT].hand.add("2C")
    bs.deck.draw_pile.remove("2C")
    drive(play_turn(ctx, bs, BOT), ["L0607", "done", "L0607", "0604"])
    assert ld.hex == "0604"


# -- cards ----------------------------------------------------------------------------------


@pytest.mark.rule("ccr:base.cards", "ccr:base.sections")
def test_section_card_refuses_units_outside_its_section() -> None:
    ctx, st, bs = fresh()
    unit(bs, BOT, "HI", "0208")
    unit(bs, BOT, "HI", "0608")
    unit(bs, BOT, "HI", "0708")
    plan = order_plan(bs.cards["2L"], 6)
    gen = order_units(ctx, bs, BOT, plan)
    d = next(gen)
    assert set(d.keys) == {"0208", "done"}
    why = d.refuse("0608")
    assert why[1] == "ccr:base.sections"


@pytest.mark.rule("ccr:base.cards")
def test_counter_attack_mirrors_flanks_and_troop_card_fallback() -> None:
    ctx, st, bs = fresh()
    plan = mirror_plan(order_plan(bs.cards["3L"], 5))
    assert dict(plan.sections) == {"right": 3}
    unit(bs, BOT, "HI", "0608")
    unit(bs, BOT, "MI", "0708")
    from ancients_games.ccancients_rome.orders import with_fallback

    p = with_fallback(bs, BOT, order_plan(bs.cards["OL"], 6))
    assert dict(p.sections) == {"all": 1} and p.troops == ""  # no light troops: one unit of choice
    p = with_fallback(bs, BOT, order_plan(bs.cards["OH"], 6))
    assert dict(p.sections) == {"all": 6} and p.troops == "heavy"


@pytest.mark.rule("ccr:base.cards")
def test_counter_attack_cannot_copy_first_strike() -> None:
    """The card's page: "You cannot use Counter Attack on a First Strike card". After the enemy's
    First Strike it is not offered (refused, naming the card), unless it is all the hand holds."""
    from ancients_games.ccancients_rome.orders import play_turn

    ctx, st, bs = fresh()
    unit(bs, BOT, "HI", "0608")
    bs.armies[TOP].last_card = "FS"
    for c in ("CTA", "2C", "3L"):
        bs.deck.draw_pile.remove(c)
        bs.armies[BOT].hand.add(c)
    d = next(play_turn(ctx, bs, BOT))
    assert d.kind == "card" and set(d.keys) == {"2C", "3L"}
    why, rule = _refusal(d, "CTA")
    assert "cannot copy First Strike" in why and rule == "ccr:base.cards"
    # all the hand holds: it is played, and orders as when there is nothing to copy
    ctx, st, bs = fresh()
    unit(bs, BOT, "HI", "0608")
    bs.armies[TOP].last_card = "FS"
    bs.deck.draw_pile.remove("CTA")
    bs.armies[BOT].hand.add("CTA")
    next(play_turn(ctx, bs, BOT))  # the one card is played at once
    assert f"Counter Attack repeats {bs.cards['2C'].name}" in texts(ctx)


@pytest.mark.rule("ccr:base.leaders", "ccr:base.movement")
def test_a_leader_who_moved_onto_an_ordered_unit_does_not_move_again_with_it() -> None:
    """A leader ordered on his own moves once: after he moved onto an ordered unit, that unit's
    move leaves him where he is; an attached leader retreats with his unit whatever his orders."""
    from ancients_games.ccancients_rome.combat import retreat

    ctx, st, bs = fresh()
    u = unit(bs, BOT, "HI", "0608")
    ld = Leader(1, BOT, "Lucullus", "0708")
    bs.leaders.append(ld)
    u.ordered = ld.ordered = True
    from ancients_games.ccancients_rome.orders import _move_phase

    # the leader moves first, onto the unit; then the unit moves on
    asked, _ = drive(_move_phase(ctx, bs, BOT, order_plan(bs.cards["ILC"], 6), [u, ld]),
                     ["L0708", "0608", "0608", "0607"])
    assert u.hex == "0607" and ld.hex == "0608"
    # an ordered leader who stayed is still attached: his unit's retreat takes him along
    ctx, st, bs = fresh()
    u = unit(bs, BOT, "HI", "0605")
    ld = Leader(1, BOT, "Lucullus", "0605")
    bs.leaders.append(ld)
    ld.ordered = True
    drive(retreat(ctx, bs, u, 1, ("ccr:base.retreat",)), ["0606"] if len(bs.board.toward_baseline("0605", "bottom")) > 1 else [])
    assert ld.hex == u.hex != "0605"


@pytest.mark.rule("ccr:base.cards")
def test_first_strike_defender_battles_first() -> None:
    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0606")
    mi = unit(bs, TOP, "MI", "0605")
    bs.deck.draw_pile.remove("FS")
    bs.armies[TOP].hand.add("FS")
    ctx.chance.force("heavy", "heavy", "heavy", "heavy")  # the first strike
    asked, _ = drive(close_combat(ctx, bs, hi, mi, order_plan(bs.cards["2C"], 6)), ["strike"])
    assert hi.uid not in bs.units and mi.blocks == 4
    assert "FS" not in bs.armies[TOP].hand and bs.draw_first == [TOP]  # its new card comes at the end of the turn


@pytest.mark.rule("ccr:base.cards")
def test_rally_and_spartacus_and_mounted_charge() -> None:
    ctx, st, bs = fresh()
    u = unit(bs, BOT, "HI", "0608", blocks=2)
    from ancients_games.ccancients_rome.orders import _rally, _spartacus

    ctx.chance.force("heavy", "leader", "flag", "light", "swords", "medium")
    _rally(ctx, bs, BOT, 6)
    assert u.blocks == 4
    ctx.chance.force("light", "leader", "swords")
    p = _spartacus(ctx, bs, BOT, order_plan(bs.cards["IAS"], 3), 3)
    assert dict(p.sections) == {"sym:light": 1, "sym:any": 1} and p.cc_bonus == 1 and p.wagon == 0
    mc = order_plan(bs.cards["MC"], 5)
    assert mc.cc_bonus == 1 and mc.troops == "mounted" and mc.wagon == 3


# -- expansion ----------------------------------------------------------------------------------


@pytest.mark.rule("ccr:heavy-cataphract")
def test_heavy_cataphract_ignores_a_sword_and_retreats_further_from_elephants() -> None:
    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0606")
    hcc = unit(bs, TOP, "HCC", "0605")
    ctx.chance.force("swords", "swords", "light", "light", "light")
    ctx.chance.force("light", "light", "light", "light")
    drive(close_combat(ctx, bs, hi, hcc, order_plan(bs.cards["2C"], 6)), ["stand"])
    assert hcc.blocks == 2  # one sword ignored
    ctx, st, bs = fresh()
    el = unit(bs, BOT, "EL", "0606")
    hcc = unit(bs, TOP, "HCC", "0605")
    ctx.chance.force("flag", "light", "light", "light")
    drive(close_combat(ctx, bs, el, hcc, order_plan(bs.cards["2C"], 6)), ["stand", "0504", "0503", "0402", "0605"])
    assert hcc.hex == "0402"  # 2 + 1 hexes for the flag


@pytest.mark.rule("ccr:cataphract-camel")
def test_cataphract_camel_ignores_a_sword_and_a_cavalry_hit() -> None:
    ctx, st, bs = fresh()
    hc = unit(bs, BOT, "HC", "0606")
    cca = unit(bs, TOP, "CCA", "0605")
    ctx.chance.force("swords", "medium", "medium", "light")  # 2 medium + 1 sword - 1 sword - 1 vs cavalry = 1
    ctx.chance.force("light", "light")
    asked, _ = drive(close_combat(ctx, bs, hc, cca, order_plan(bs.cards["2C"], 6)), ["stand"])
    assert cca.blocks == 2
    back = [e for e in ctx.log if e.kind == "roll" and "battle back" in e.text]
    assert len(back) == 1 and back[0].text.split(" (")[0].count(", ") == 1  # battles back with 2 dice


@pytest.mark.rule("ccr:baggage-wagon")
def test_baggage_wagon_moves_costs_a_die_and_is_destroyed_for_a_banner() -> None:
    ctx, st, bs = fresh()
    w = Wagon(TOP, "baggage-wagon", "0504")
    bs.wagons.append(w)
    assert max(wagon_reach(bs, w, 2).values()) == 2
    assert max(wagon_reach(bs, w, 3).values()) == 3
    plan = order_plan(bs.cards["IAS"], 4)
    assert plan.effect == "i-am-spartacus"
    hi = unit(bs, BOT, "HI", "0606")
    lc = unit(bs, BOT, "LC", "0806")
    r = reach(bs, lc, 4)
    assert "0504" in r and all(bs.board.distance("0504", h) != 1 or r[h] <= r["0504"] + 0 or True for h in r)
    tgt = unit(bs, TOP, "MI", "0605")
    assert close_dice(bs, hi, tgt) == 5
    bs.move_unit(hi, "0504")
    assert close_dice(bs, hi, tgt) == 4
    bs.remove_unit(tgt)
    start_of_turn(ctx, bs, BOT)
    assert not bs.wagons and bs.armies[BOT].banners == 1


@pytest.mark.rule("ccr:wagon-laager")
def test_wagon_laager_shelters_foot_and_hinders_enemies() -> None:
    ctx, st, bs = fresh()
    bs.wagons.append(Wagon(TOP, "wagon-laager", "0605"))
    hi = unit(bs, BOT, "HI", "0606")
    wa = unit(bs, TOP, "MI", "0605")  # medium infantry: warriors would ignore a flag of their own
    assert flags_ignored(bs, wa, hi, False)[0] == 1
    ctx.chance.force("swords", "swords", "flag", "light", "light")
    ctx.chance.force("light", "light", "light", "light")
    drive(close_combat(ctx, bs, hi, wa, order_plan(bs.cards["2C"], 6)))
    assert wa.blocks == 3 and wa.hex == "0605"  # one sword and the flag disregarded
    bs.remove_unit(wa)
    bs.move_unit(hi, "0605")
    enemy = unit(bs, TOP, "MI", "0604")
    assert close_dice(bs, hi, enemy) == 4  # on an enemy laager: one die fewer
    assert allowance(bs, hi) == 1


@pytest.mark.rule("ccr:special-units", "ccr:praetorian-guard")
def test_praetorian_guard_hits_on_leaders_and_ignores_a_flag() -> None:
    ctx, st, bs = fresh()
    g = unit(bs, BOT, "HI", "0606", guard=True, special=True)
    mi = unit(bs, TOP, "MI", "0605")
    ctx.chance.force("leader", "leader", "flag", "light", "light")
    ctx.chance.force("flag", "light", "light", "light")
    drive(close_combat(ctx, bs, g, mi, order_plan(bs.cards["2C"], 6)), ["0504", "stay"])
    assert mi.blocks == 2
    assert g.hex == "0606" and g.max_blocks == 4  # the special block is not a loss block


@pytest.mark.rule("ccr:caltrops")
def test_caltrops_swords_hit_the_mounted_attacker() -> None:
    ctx, st, bs = fresh("immae")
    hc = unit(bs, "palmyrene", "HC", "0605")
    li = unit(bs, "roman", "LI", "0606")
    ctx.chance.force("swords", "swords", "light", "flag")
    asked, _ = drive(close_combat(ctx, bs, hc, li, order_plan(bs.cards["2C"], 6)), ["evade", "0607", "0608"])
    assert hc.blocks == 1 and li.blocks == 3 and li.hex == "0608"


@pytest.mark.rule("ccr:marian-legions", "ccr:imperial-legions")
def test_legions_throw_pila_two_hexes_with_one_die() -> None:
    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0607")
    unit(bs, TOP, "MI", "0605")
    plan = order_plan(bs.cards["2C"], 6)
    assert bs.legions[BOT] == "marian"
    assert battle_options(bs, hi, plan) == [("0605", "ranged")] and ranged_dice(bs, hi) == 1
    hi.moved = 1
    assert ranged_dice(bs, hi) == 1
    ctx.chance.force("light")
    drive(ranged_combat(ctx, bs, hi, bs.at["0605"]))
    bs.move_unit(hi, "0606")
    assert battle_options(bs, hi, plan) == []  # fired: no close combat the same turn
    ctx, st, bs = fresh("carthage")
    assert set(bs.legions.values()) == {"imperial"}


@pytest.mark.rule("ccr:julian-legions")
def test_julian_legions_move_two_and_forgo_combat_unless_double_time() -> None:
    ctx, st, bs = fresh("issus")
    a, b = bs.by_key["bottom"].name, bs.by_key["top"].name
    hi = unit(bs, a, "HI", "0608")
    unit(bs, b, "MI", "0605")
    assert allowance(bs, hi) == 2
    hi.moved = 2
    bs.move_unit(hi, "0606")
    assert battle_options(bs, hi, order_plan(bs.cards["2C"], 6)) == []
    assert battle_options(bs, hi, order_plan(bs.cards["DT"], 6)) == [("0605", "close")]


@pytest.mark.rule("ccr:bridge", "ccr:ford")
def test_bridge_and_ford_caps() -> None:
    ctx, st, bs = fresh()
    bs.board.set_terrain("0605", "bridge")
    hi = unit(bs, BOT, "HI", "0606")
    mi = unit(bs, TOP, "MI", "0605")
    assert close_dice(bs, hi, mi) == 2 and close_dice(bs, hi, mi, bonus=1) == 3
    assert flags_ignored(bs, mi, hi, True)[0] == 1  # foot on a bridge ignores a flag
    bs.board.set_terrain("0605", "ford")
    assert close_dice(bs, hi, mi) == 2
    lb = unit(bs, TOP, "LB", "0705")
    bs.board.set_terrain("0705", "ford")
    assert ranged_dice(bs, lb) == 1
    bs.board.set_terrain("0506", "ford")
    lc = unit(bs, BOT, "LC", "0507")
    r = reach(bs, lc, 4)
    assert "0506" in r and "0505" not in r or r.get("0505", 0) <= 2  # stop on entering the ford


@pytest.mark.rule("ccr:victory")
def test_reaching_the_banner_target_ends_the_battle() -> None:
    ctx, st, bs = fresh()
    bs.armies[BOT].banners = 5
    hi = unit(bs, BOT, "HI", "0606")
    mi = unit(bs, TOP, "MI", "0605", blocks=1)
    ctx.chance.force("medium", "light", "light", "light", "light")
    drive(close_combat(ctx, bs, hi, mi, order_plan(bs.cards["2C"], 6)))
    assert bs.over and bs.winner == BOT


@pytest.mark.rule("ccr:base.close-combat")
def test_warriors_lose_a_die_after_first_loss_and_elephants_roll_as_target() -> None:
    ctx, st, bs = fresh()
    wa = unit(bs, BOT, "WA", "0606")
    tgt = unit(bs, TOP, "HI", "0605")
    assert close_dice(bs, wa, tgt) == 4
    wa.blocks = 3
    assert close_dice(bs, wa, tgt) == 3
    el = unit(bs, BOT, "EL", "0706")
    assert close_dice(bs, el, tgt) == 5
    lc = unit(bs, TOP, "LC", "0705")
    assert close_dice(bs, el, lc) == 2


@pytest.mark.rule("ccr:base.ranged", "ccr:base.close-combat")
def test_battle_targets_refused_with_reasons() -> None:
    from ancients_games.ccancients_rome.combat import why_not_target

    ctx, st, bs = fresh()
    lb = unit(bs, BOT, "LB", "0608")
    unit(bs, TOP, "MI", "0604")
    plan = order_plan(bs.cards["2C"], 6)
    assert why_not_target(bs, lb, "0604", plan)[0].startswith("0604 is 4 hexes away")
    assert why_not_target(bs, lb, "0505", plan)[1] == "ccr:base.close-combat"
    unit(bs, TOP, "MI", "0607")
    assert why_not_target(bs, lb, "0604", plan) == ("LB@0608 is adjacent to an enemy and may not fire", "ccr:base.ranged")


@pytest.mark.rule("ccr:base.leaders")
def test_lone_leader_attacked_dies_on_a_helmet_or_escapes() -> None:
    from ancients_games.ccancients_rome.combat import attack_lone_leader

    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0606")
    bs.leaders.append(Leader(1, TOP, "Tigranes", "0605"))
    plan = order_plan(bs.cards["2C"], 6)
    assert ("0605", "leader") in battle_options(bs, hi, plan)
    ctx.chance.force("leader", "flag")
    attack_lone_leader(ctx, bs, hi, "0605")
    assert not bs.leaders and bs.armies[BOT].banners == 1
    bs.leaders.append(Leader(2, TOP, "Mithridates", "0605"))
    friend = unit(bs, TOP, "LI", "0403")
    ctx.chance.force("swords", "flag")
    hi.battles = 0
    attack_lone_leader(ctx, bs, hi, "0605")
    assert bs.leaders[0].hex == friend.hex and bs.armies[BOT].banners == 1


@pytest.mark.rule("ccr:base.leaders", "ccr:base.retreat")
def test_one_leader_casualty_check_per_combat_sequence() -> None:
    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0606")
    mi = unit(bs, TOP, "MI", "0605")
    bs.leaders.append(Leader(1, TOP, "Tigranes", "0605"))
    unit(bs, BOT, "LI", "0504")
    unit(bs, BOT, "LI", "0604")
    # 1 hit and 2 flags: one ignored (leader), one cannot be retreated -> a second block lost
    ctx.chance.force("medium", "flag", "flag", "light", "light")
    ctx.chance.force("light", "flag")  # the only casualty check
    ctx.chance.force("light", "light", "light", "light")  # battle back
    drive(close_combat(ctx, bs, hi, mi, order_plan(bs.cards["2C"], 6)))
    checks = [e for e in ctx.log if e.kind == "roll" and "casualty" in e.text]
    assert mi.blocks == 2 and len(checks) == 1 and bs.leaders


@pytest.mark.rule("ccr:base.leaders", "ccr:base.retreat")
def test_a_unit_lost_to_its_blocked_retreat_after_a_check_gives_its_leader_no_second_check() -> None:
    """A hit costs a block (a two-dice check, survived); the flag that cannot be retreated then
    eliminates the unit: the leader only escapes, with no one-die check (one check per combat)."""
    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0606")
    mi = unit(bs, TOP, "MI", "0605", blocks=2)
    ld = Leader(1, TOP, "Tigranes", "0605")
    bs.leaders.append(ld)
    unit(bs, BOT, "LI", "0504")
    unit(bs, BOT, "LI", "0604")
    friend = unit(bs, TOP, "LI", "0603")  # the one friendly unit he can reach
    ctx.chance.force("medium", "flag", "flag", "light", "light")  # 1 hit, 2 flags (one ignored)
    ctx.chance.force("light", "flag")  # the casualty check of the hit: survived
    drive(close_combat(ctx, bs, hi, mi, order_plan(bs.cards["2C"], 6)), ["stay"])  # no momentum advance
    checks = [e for e in ctx.log if e.kind == "roll" and "casualty" in e.text]
    assert mi not in bs.units and len(checks) == 1
    assert ld in bs.leaders and ld.hex == friend.hex
    assert "no second casualty check" in texts(ctx)


@pytest.mark.rule("ccr:base.cards", "ccr:base.leaders")
def test_leadership_card_orders_a_leader_and_linked_units() -> None:
    ctx, st, bs = fresh()
    a = unit(bs, BOT, "HI", "0608")
    b = unit(bs, BOT, "HI", "0708")
    c = unit(bs, BOT, "HI", "0808")
    far = unit(bs, BOT, "HI", "0208")
    bs.leaders.append(Leader(1, BOT, "Lucullus", "0608"))
    plan = order_plan(bs.cards["ILC"], 6)
    assert plan.leader_chain == ("centre",)
    asked, got = drive(order_units(ctx, bs, BOT, plan), ["L0608", "0708", "0808"])
    assert got == [a, b, c] and not far.ordered
    assert "0208" not in asked[-1].keys  # not linked to the chain
    # no leader on the board: one unit of choice
    from ancients_games.ccancients_rome.orders import with_fallback

    bs.leaders.clear()
    assert dict(with_fallback(bs, BOT, order_plan(bs.cards["LAS"], 6)).sections) == {"all": 1}


@pytest.mark.rule("ccr:base.leaders", "ccr:base.sections")
def test_section_card_detaches_a_leader_for_one_order() -> None:
    ctx, st, bs = fresh()
    u = unit(bs, BOT, "HI", "0608")
    ld = Leader(1, BOT, "Lucullus", "0608")
    bs.leaders.append(ld)
    bs.armies[BOT].hand.add("2C")
    bs.deck.draw_pile.remove("2C")
    drive(play_turn(ctx, bs, BOT), ["L0608", "0608", "L0608", "0605", "0608", "0607"])
    assert ld.hex == "0605" and u.hex == "0607"


@pytest.mark.rule("ccr:base.cards")
def test_first_strike_auto_option_asks_nothing() -> None:
    ctx, st, bs = fresh()
    bs.first_strike = "auto"
    hi = unit(bs, BOT, "HI", "0606")
    mi = unit(bs, TOP, "MI", "0605")
    bs.deck.draw_pile.remove("FS")
    bs.armies[TOP].hand.add("FS")
    ctx.chance.force("light", "light", "light", "light")  # the first strike misses
    ctx.chance.force("light", "light", "light", "light", "light")  # the attack misses
    asked, _ = drive(close_combat(ctx, bs, hi, mi, order_plan(bs.cards["2C"], 6)))
    assert not asked and "FS" not in bs.armies[TOP].hand and "First Strike" in ctx.log.text()


# -- elephants (base game) --------------------------------------------------------------------


@pytest.mark.rule("ccr:base.close-combat")
def test_elephant_rolls_its_opponents_dice_attacking_and_battling_back() -> None:
    ctx, st, bs = fresh()
    el = unit(bs, BOT, "EL", "0606")
    hi = unit(bs, TOP, "HI", "0605")
    assert close_dice(bs, el, hi) == 5
    assert close_dice(bs, el, hi, battle_back=True) == 5  # battling back the HI's attack
    mc = unit(bs, TOP, "MC", "0705")
    assert close_dice(bs, el, mc) == 3
    for code in ("EL", "WA", "HCH", "CA"):
        v = unit(bs, TOP, code, "0305")
        assert close_dice(bs, el, v) == 3, code
        bs.remove_unit(v)
    # the attacker's card bonus is not copied when the elephant battles back
    ctx.chance.force("light", "light", "light", "light", "light", "light", "light")  # HI with +2 dice: misses
    ctx.chance.force("medium", "medium", "medium", "medium", "medium")  # EL battles back with 5 dice, not 6
    hi.ordered = True
    drive(close_combat(ctx, bs, hi, el, order_plan(bs.cards["CS"], 6)))
    backs = [e for e in ctx.log if e.kind == "roll" and "battle back EL" in e.text]
    assert backs and backs[-1].text.count("medium") == 5


@pytest.mark.rule("ccr:base.close-combat", "ccr:base.leaders")
def test_swords_never_hit_an_elephant_and_elephants_get_no_leader_hits() -> None:
    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0606")
    el = unit(bs, TOP, "EL", "0605")
    ctx.chance.force("swords", "swords", "swords", "heavy", "light")
    ctx.chance.force("light", "light", "light", "light", "light")  # battle back misses
    drive(close_combat(ctx, bs, hi, el, order_plan(bs.cards["2C"], 6)))
    assert el.blocks == 1 and "cannot hit an elephant" in texts(ctx)
    # an attached leader gives an elephant no leader hits
    ctx, st, bs = fresh()
    el = unit(bs, BOT, "EL", "0606")
    mi = unit(bs, TOP, "MI", "0605")
    bs.leaders.append(Leader(1, BOT, "Shapur", "0606"))
    ctx.chance.force("leader", "leader", "light", "light")
    ctx.chance.force("light", "light", "light", "light")  # battle back misses
    drive(close_combat(ctx, bs, el, mi, order_plan(bs.cards["2C"], 6)))
    assert mi.blocks == 4


@pytest.mark.rule("ccr:base.close-combat")
def test_elephant_rolls_its_sword_hits_again() -> None:
    ctx, st, bs = fresh()
    el = unit(bs, BOT, "EL", "0606")
    mi = unit(bs, TOP, "MI", "0605")
    ctx.chance.force("swords", "light", "light", "light")  # 4 dice (as the MI): one sword hit
    ctx.chance.force("swords")  # rolled again: another sword
    ctx.chance.force("medium")  # and again: a medium hit, the chain stops
    ctx.chance.force("light", "light", "light", "light")  # battle back misses
    drive(close_combat(ctx, bs, el, mi, order_plan(bs.cards["2C"], 6)))
    assert mi.blocks == 1
    # a sword the target ignores is not rolled again (heavy cataphract ignores one)
    ctx, st, bs = fresh()
    el = unit(bs, BOT, "EL", "0606")
    hcc = unit(bs, TOP, "HCC", "0605")
    ctx.chance.force("swords", "light", "light", "light")
    ctx.chance.force("light", "light", "light", "light")  # battle back misses
    drive(close_combat(ctx, bs, el, hcc, order_plan(bs.cards["2C"], 6)), ["stand"])
    assert hcc.blocks == 3 and "sword hit again" not in texts(ctx)


@pytest.mark.rule("ccr:base.retreat")
def test_elephant_rampages_into_adjacent_units_before_it_retreats() -> None:
    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0606")
    el = unit(bs, TOP, "EL", "0605")
    friend = unit(bs, TOP, "LI", "0705")
    ctx.chance.force("flag", "light", "light", "light", "light")  # HI: one flag
    ctx.chance.force("heavy", "swords")  # rampage into the HI (0606): one heavy hit, the sword misses
    ctx.chance.force("light", "flag")  # rampage into its own LI (0705): one light hit
    drive(close_combat(ctx, bs, hi, el, order_plan(bs.cards["2C"], 6)), ["0504", "stay"])
    assert el.hex == "0504" and el.blocks == 2
    assert hi.blocks == 3 and friend.blocks == 3
    assert "rampages" in texts(ctx)


@pytest.mark.rule("ccr:base.retreat")
def test_units_blocking_an_elephant_retreat_lose_a_block_instead() -> None:
    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0606")
    el = unit(bs, TOP, "EL", "0605")
    a = unit(bs, TOP, "MI", "0504")
    b = unit(bs, BOT, "MI", "0604")
    ctx.chance.force("flag", "light", "light", "light", "light")  # one flag
    ctx.chance.force("light", "light")  # rampage into 0504
    ctx.chance.force("light", "light")  # rampage into 0604
    ctx.chance.force("light", "light")  # rampage into 0606
    ctx.chance.force("light", "light", "light", "light", "light")  # battle back misses
    drive(close_combat(ctx, bs, hi, el, order_plan(bs.cards["2C"], 6)))
    assert el.blocks == 2 and el.hex == "0605"
    assert a.blocks == 3 and b.blocks == 3
    # a unit is not an elephant: the same blocked retreat costs its own block
    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0606")
    hc = unit(bs, TOP, "HC", "0605")
    unit(bs, TOP, "MI", "0504")
    unit(bs, BOT, "MI", "0604")
    ctx.chance.force("flag", "light", "light", "light", "light")
    ctx.chance.force("light", "light", "light", "light")
    drive(close_combat(ctx, bs, hi, hc, order_plan(bs.cards["2C"], 6)))
    assert hc.blocks == 1  # two hexes of retreat, none possible


@pytest.mark.rule("ccr:base.retreat")
def test_mounted_units_retreat_one_more_hex_per_flag_from_elephants() -> None:
    ctx, st, bs = fresh()
    el = unit(bs, BOT, "EL", "0606")
    mc = unit(bs, TOP, "MC", "0605")
    ctx.chance.force("flag", "light", "light")  # 3 dice against a MC: one flag
    gen = close_combat(ctx, bs, el, mc, order_plan(bs.cards["2C"], 6))
    d = next(gen)
    assert d.kind == "react.evade"
    d = gen.send("stand")
    hexes = 0
    while d.kind == "retreat.hex":
        hexes += 1
        d = gen.send(d.keys[0])
    assert d.kind == "momentum.advance"
    assert bs.board.row[mc.hex] == 1 and hexes == 4  # 4 hexes back from row 5, not 3
    assert "4 hexes per flag" in texts(ctx)
    # foot units retreat their normal move
    ctx, st, bs = fresh()
    el = unit(bs, BOT, "EL", "0606")
    mi = unit(bs, TOP, "MI", "0605")
    ctx.chance.force("flag", "light", "light", "light")
    drive(close_combat(ctx, bs, el, mi, order_plan(bs.cards["2C"], 6)), ["0504", "stay"])
    assert mi.hex == "0504"


@pytest.mark.rule("ccr:base.evade", "ccr:base.terrain")
def test_light_units_and_heavy_cavalry_evade_elephants_and_forest_stops_their_charge() -> None:
    ctx, st, bs = fresh()
    el = unit(bs, BOT, "EL", "0606")
    li = unit(bs, TOP, "LI", "0605")
    ctx.chance.force("swords", "swords")  # 2 dice (as the LI): swords miss an evader, no re-roll
    asked, _ = drive(close_combat(ctx, bs, el, li, order_plan(bs.cards["2C"], 6)), ["evade", "0504", "0503"])
    assert asked[0].kind == "react.evade" and li.blocks == 4 and "sword hit again" not in texts(ctx)
    ctx, st, bs = fresh()
    el = unit(bs, BOT, "EL", "0606")
    hc = unit(bs, TOP, "HC", "0605")
    ctx.chance.force("light", "light", "light", "light")
    asked, _ = drive(close_combat(ctx, bs, el, hc, order_plan(bs.cards["2C"], 6)), ["evade", "0504", "0503"])
    assert asked[0].kind == "react.evade"
    hi = unit(bs, TOP, "HI", "0705")
    ctx.chance.force("light", "light", "light", "light", "light")
    ctx.chance.force("light", "light", "light", "light", "light")
    asked, _ = drive(close_combat(ctx, bs, el, hi, order_plan(bs.cards["2C"], 6)))
    assert not asked  # heavy foot may not evade
    # elephants follow the mounted terrain rules: no battle after entering a forest
    ctx, st, bs = fresh()
    bs.board.set_terrain("0606", "forest")
    el = unit(bs, BOT, "EL", "0607")
    unit(bs, TOP, "MI", "0605")
    bs.armies[BOT].hand.add("2C")
    bs.deck.draw_pile.remove("2C")
    asked, _ = drive(play_turn(ctx, bs, BOT), ["0607", "0607", "0606"])
    assert el.hex == "0606" and all(d.kind != "battle.unit" for d in asked)


@pytest.mark.rule("ccr:base.leaders", "ccr:base.close-combat")
def test_elephant_rolls_one_die_against_a_lone_leader() -> None:
    from ancients_games.ccancients_rome.combat import attack_lone_leader

    ctx, st, bs = fresh()
    el = unit(bs, BOT, "EL", "0606")
    bs.leaders.append(Leader(1, TOP, "Valerian", "0605"))
    unit(bs, TOP, "LI", "0403")
    ctx.chance.force("swords")
    attack_lone_leader(ctx, bs, el, "0605")
    rolls = [e for e in ctx.log if e.kind == "roll" and "lone leader" in e.text]
    assert len(rolls) == 1 and bs.leaders[0].hex == "0403"


@pytest.mark.rule("ccr:base.close-combat")
def test_odds_against_an_elephant_count_no_swords() -> None:
    from fractions import Fraction

    from ancients_games.ccancients_rome.odds import odds

    el = odds(STORE, {"dice": "1", "target": "EL"}).distribution
    hi = odds(STORE, {"dice": "1", "target": "HI"}).distribution
    assert el["1 hit, 0 flags to retreat"] == Fraction(1, 6)  # only the heavy symbol
    assert hi["1 hit, 0 flags to retreat"] == Fraction(2, 6)  # heavy symbol or swords


# -- refusals with reasons --------------------------------------------------------------------


def _refusal(d: Any, text: str) -> tuple[str, str]:
    from ancients_kit.errors import IllegalAnswer

    with pytest.raises(IllegalAnswer) as e:
        d.match(text)
    return e.value.reason, e.value.rule


@pytest.mark.rule("ccr:base.retreat")
def test_retreat_refusals_name_the_rule() -> None:
    from ancients_games.ccancients_rome.combat import why_not_retreat

    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0606")
    mi = unit(bs, TOP, "MI", "0605")
    ctx.chance.force("flag", "light", "light", "light", "light")
    gen = close_combat(ctx, bs, hi, mi, order_plan(bs.cards["2C"], 6))
    d = next(gen)
    assert d.kind == "retreat.hex" and set(d.keys) == {"0504", "0604"}
    why, rule = _refusal(d, "0606")
    assert "0606 is not toward your own baseline" in why and rule == "ccr:base.retreat"
    why, rule = _refusal(d, "0505")
    assert "not toward your own baseline" in why and rule == "ccr:base.retreat"
    why, rule = _refusal(d, "0503")
    assert "not adjacent" in why and rule == "ccr:base.retreat"
    unit(bs, BOT, "LI", "0504")
    assert why_not_retreat(bs, mi, "0504") == (
        "0504 is occupied by roman LI; no unit retreats onto or through another unit", "ccr:base.retreat")
    bs.remove_unit(bs.at["0504"])
    bs.board.set_terrain("0504", "river")
    assert why_not_retreat(bs, mi, "0504")[1] == "ccr:base.terrain"


@pytest.mark.rule("ccr:base.evade", "ccr:base.cards")
def test_evade_refusals_explain_who_may_evade() -> None:
    from ancients_games.ccancients_rome.combat import why_cannot_evade

    ctx, st, bs = fresh()
    mc = unit(bs, BOT, "MC", "0606")
    hi = unit(bs, TOP, "HI", "0605")
    bs.deck.draw_pile.remove("FS")
    bs.armies[TOP].hand.add("FS")
    gen = close_combat(ctx, bs, mc, hi, order_plan(bs.cards["2C"], 6))
    d = next(gen)
    assert d.kind == "react.first-strike"
    why, rule = _refusal(d, "evade")
    assert why == "heavy infantry may not evade (HI@0605)" and rule == "ccr:base.evade"
    # medium cavalry evades foot and heavy mounted, not medium cavalry
    ctx, st, bs = fresh()
    att = unit(bs, BOT, "MC", "0606")
    tgt = unit(bs, TOP, "MC", "0605")
    why, rule = why_cannot_evade(bs, tgt, att)
    assert "foot or heavy mounted" in why and rule == "ccr:base.evade"
    # a light unit with no open path back
    ctx, st, bs = fresh()
    att = unit(bs, BOT, "HI", "0606")
    li = unit(bs, TOP, "LI", "0605")
    assert why_cannot_evade(bs, li, att) is None
    unit(bs, TOP, "MI", "0504")
    unit(bs, TOP, "MI", "0604")
    assert "no open hex" in why_cannot_evade(bs, li, att)[0]
    # inside the evade question, a hex is not an answer
    ctx, st, bs = fresh()
    att = unit(bs, BOT, "HI", "0606")
    li = unit(bs, TOP, "LI", "0605")
    d = next(close_combat(ctx, bs, att, li, order_plan(bs.cards["2C"], 6)))
    assert d.kind == "react.evade"
    why, rule = _refusal(d, "0504")
    assert "after the attack is rolled" in why and rule == "ccr:base.evade"


@pytest.mark.rule("ccr:base.momentum")
def test_momentum_refusals_name_the_vacated_hex() -> None:
    ctx, st, bs = fresh()
    hc = unit(bs, BOT, "HC", "0606")
    unit(bs, TOP, "MI", "0605", blocks=1)
    other = unit(bs, TOP, "MI", "0504")
    ctx.chance.force("medium", "light", "light", "light")
    gen = close_combat(ctx, bs, hc, bs.at["0605"], order_plan(bs.cards["2C"], 6))
    d = next(gen)
    assert d.kind == "momentum.advance"
    why, rule = _refusal(d, "0505")
    assert why == "0505 is not the hex 0605 the defender left; a momentum advance enters only that hex"
    assert rule == "ccr:base.momentum"
    assert "answer 'stay'" in _refusal(d, "0606")[0]
    d = gen.send("0605")
    assert d.kind == "momentum.bonus"
    why, rule = _refusal(d, "0707")
    assert "holds no enemy unit" in why and rule == "ccr:base.momentum"
    unit(bs, TOP, "LI", "0603")
    why, rule = _refusal(d, "0603")
    assert "not adjacent" in why and rule == "ccr:base.momentum"
    assert other.hex == "0504"


@pytest.mark.rule("ccr:base.leaders")
def test_leader_escape_is_asked_and_refused_with_reasons() -> None:
    from ancients_games.ccancients_rome.combat import attack_lone_leader
    from ancients_games.ccancients_rome.leaders import escape_options, resolve_escapes

    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0606")
    ld = Leader(1, TOP, "Tigranes", "0605")
    bs.leaders.append(ld)
    a = unit(bs, TOP, "LI", "0403")
    b = unit(bs, TOP, "LI", "0703")
    unit(bs, TOP, "LI", "0805")  # same row: not back toward the top
    assert set(escape_options(bs, ld)) == {"0403", "0703"}
    ctx.chance.force("swords", "flag")
    attack_lone_leader(ctx, bs, hi, "0605")
    gen = resolve_escapes(ctx, bs)
    d = next(gen)
    assert d.kind == "leader.escape" and d.side == TOP and set(d.keys) == {"0403", "0703"}
    assert _refusal(d, "0805") == ("0805 is not toward your own baseline; a leader escapes back toward his side",
                                   "ccr:base.leaders")
    assert "hexes away" in _refusal(d, "0101")[0]
    assert "must join it" in _refusal(d, "0504")[0]
    assert _refusal(d, "0605")[0] == "Tigranes must leave 0605"
    try:
        gen.send("0703")
    except StopIteration:
        pass
    assert ld.hex == b.hex and a.hex == "0403"
    # no unit within reach: he may evade 1, 2 or 3 hexes back, the farthest back listed first
    ctx, st, bs = fresh()
    ld = Leader(1, TOP, "Tigranes", "0605")
    bs.leaders.append(ld)
    opts = escape_options(bs, ld)
    assert {bs.board.row[h] for h in opts} == {2, 3, 4}  # 3, 2 and 1 rows back
    assert {bs.board.distance(ld.hex, h) for h in opts} == {1, 2, 3}
    assert "0604" in opts  # one hex back: refused before
    assert [bs.board.row[h] for h in opts] == sorted(bs.board.row[h] for h in opts)


@pytest.mark.rule("ccr:base.sections")
def test_render_draws_both_dotted_lines_and_never_cuts_a_label() -> None:
    """The dotted lines run straight between hexes 4|5 and 9|10 of the full rows; a hex they cut
    in a short row (in both sections) has the line on both sides, its label whole (issue 14 item 3)."""
    from rich.console import Console

    from ancients_games.ccancients_rome.render import SECTION_LINE
    from ancients_games.ccancients_rome.scenario import BOARD_ROWS

    ctx, st, bs = fresh()
    con = Console(width=200, record=True, color_system=None)
    con.print(GAME.render(st, TOP))
    rows = [ln for ln in con.export_text().splitlines() if ln[:2].isdigit() and ln[2] == " "]
    assert len(rows) == BOARD_ROWS
    full_cols = {tuple(i for i, ch in enumerate(ln) if ch == SECTION_LINE) for ln in rows[0::2]}
    assert len(full_cols) == 1 and len(next(iter(full_cols))) == 2  # the same two columns on every full row
    left, right = next(iter(full_cols))
    full = rows[0]
    assert "0401" in full[:left] and "0501" in full[left:right] and "1001" in full[right:]
    for r in range(2, BOARD_ROWS + 1, 2):  # short rows: hexes 04rr and 09rr between two lines
        line = rows[r - 1]
        assert line.count(SECTION_LINE) == 4
        for c in ("04", "09"):
            h = f"{c}{r:02d}"
            assert bs.board.sections(h, "bottom") and len(bs.board.sections(h, "bottom")) == 2
            if h not in bs.at:
                at = line.index(h)
                assert line[:at].rstrip().endswith(SECTION_LINE) and line[at + 4:].lstrip().startswith(SECTION_LINE)
    for ln in rows:  # no label is cut: every line character stands between blanks
        for i, ch in enumerate(ln):
            if ch == SECTION_LINE:
                assert ln[i - 1] == " " and ln[i + 1] == " "


# -- greedy bot scores ----------------------------------------------------------------------------


@pytest.mark.rule("ccr:base.close-combat", "ccr:base.evade", "ccr:base.cards")
def test_greedy_scores_prefer_kills_evasion_and_cards_that_reach_the_enemy() -> None:
    from ancients_games.ccancients_rome.bot import score
    from ancients_kit.session import Decision, Option

    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0606")
    weak = unit(bs, TOP, "MI", "0605", blocks=1)
    strong = unit(bs, TOP, "HI", "0705")
    bs.current = hi
    d = Decision(BOT, "target?", (Option("0605"), Option("0705")), kind="battle.target")
    assert score(st, d, weak.hex) > score(st, d, strong.hex)
    # a light unit attacked by heavy infantry evades
    li = unit(bs, TOP, "LI", "0507")
    att = unit(bs, BOT, "HI", "0508")
    bs.attack = (att, li)
    d = Decision(TOP, "evade?", (Option("evade"), Option("stand")), kind="react.evade")
    assert score(st, d, "evade") > score(st, d, "stand")
    # the card that orders the units in contact beats one for an empty flank
    bs.armies[BOT].hand.add("2C")
    bs.armies[BOT].hand.add("2L")
    d = Decision(BOT, "card?", (Option("2C"), Option("2L")), kind="card")
    assert score(st, d, "2C") > score(st, d, "2L")


# -- rules-fidelity review: base game facts checked against public sources ------------------------


@pytest.mark.rule("ccr:base.dice", "ccr:base.close-combat")
def test_light_foot_and_light_cavalry_score_no_sword_hits() -> None:
    for code in ("LI", "LS", "LB", "LC", "LBC"):
        ctx, st, bs = fresh()
        att = unit(bs, BOT, code, "0606")
        mi = unit(bs, TOP, "MI", "0605")
        ctx.chance.force("swords", "swords")
        ctx.chance.force("light", "light", "light", "light")  # battle back: 4 light hits
        drive(close_combat(ctx, bs, att, mi, order_plan(bs.cards["2C"], 6)))
        assert mi.blocks == 4, code  # swords rolled by a light unit are misses
    # auxilia (white-bordered light) and medium foot do hit on swords
    for code in ("AX", "MI"):
        ctx, st, bs = fresh()
        att = unit(bs, BOT, code, "0606")
        mi = unit(bs, TOP, "MI", "0605")
        ctx.chance.force("swords", "swords", "light", "light")
        ctx.chance.force("heavy", "heavy", "heavy", "heavy")
        drive(close_combat(ctx, bs, att, mi, order_plan(bs.cards["2C"], 6)))
        assert mi.blocks == 2, code
    # the attacked unit's own swords still hit a light unit that stands
    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0606")
    li = unit(bs, TOP, "LI", "0605", blocks=4)
    ctx.chance.force("swords", "swords", "heavy", "heavy", "heavy")
    ctx.chance.force("light", "light")  # battle back misses
    drive(close_combat(ctx, bs, hi, li, order_plan(bs.cards["2C"], 6)), ["stand"])
    assert li.blocks == 2


@pytest.mark.rule("ccr:base.leaders", "ccr:base.close-combat")
def test_leader_symbol_hits_with_a_leader_in_an_adjacent_hex() -> None:
    def attack(leader_hex: str | None, code: str = "HI") -> int:
        ctx, st, bs = fresh()
        att = unit(bs, BOT, code, "0606")
        unit(bs, BOT, "MI", "0707")
        mi = unit(bs, TOP, "MI", "0605")
        if leader_hex:
            bs.leaders.append(Leader(1, BOT, "Lucullus", leader_hex))
        n = close_dice(bs, att, mi)
        ctx.chance.force("leader", "leader", *(["light"] * (n - 2)))
        ctx.chance.force(*(["light"] * 4))  # battle back misses
        drive(close_combat(ctx, bs, att, mi, order_plan(bs.cards["2C"], 6)))
        return 4 - mi.blocks

    assert attack(None) == 0
    assert attack("0606") == 2  # attached
    assert attack("0506") == 2  # alone in an adjacent hex
    assert attack("0707") == 2  # attached to a friendly unit in an adjacent hex
    assert attack("0808") == 0  # two hexes away: no help
    assert attack("0506", "EL") == 0  # elephants never score leader hits


@pytest.mark.rule("ccr:base.evade")
def test_evade_goes_one_hex_only_when_no_second_hex_is_open_and_costs_no_block() -> None:
    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0606")
    li = unit(bs, TOP, "LI", "0605")
    for h in ("0503", "0603", "0703"):
        unit(bs, BOT, "MI", h)
    ctx.chance.force("heavy", "heavy", "flag", "swords", "leader")  # nothing hits an evading LI
    asked, _ = drive(close_combat(ctx, bs, hi, li, order_plan(bs.cards["2C"], 6)), ["evade", "0604"])
    assert li.hex == "0604" and li.blocks == 4  # one hex, no block lost for the missing second hex
    assert hi.hex == "0606"  # and no momentum advance into the evader's hex
    # with a 2-hex path open, a first hex that leads nowhere is not offered, and is refused with the reason
    from ancients_games.ccancients_rome.combat import evade_first_hexes, why_not_evade_hex
    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0606")
    li = unit(bs, TOP, "LI", "0605")
    for h in ("0503", "0603"):
        unit(bs, BOT, "MI", h)
    assert evade_first_hexes(bs, li) == ["0604"]
    why, rule = why_not_evade_hex(bs, li, ("0604",), "0504")
    assert "no second hex" in why and rule == "ccr:base.evade"
    ctx.chance.force("heavy", "heavy", "heavy", "heavy", "heavy")
    drive(close_combat(ctx, bs, hi, li, order_plan(bs.cards["2C"], 6)), ["evade"])
    assert li.hex == "0703" and li.blocks == 4


@pytest.mark.rule("ccr:base.evade", "ccr:base.retreat", "ccr:base.leaders")
def test_evade_and_retreat_stop_on_a_lone_friendly_leader() -> None:
    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0606")
    li = unit(bs, TOP, "LI", "0605")
    unit(bs, TOP, "MI", "0504")
    bs.leaders.append(Leader(1, TOP, "Tigranes", "0604"))
    ctx.chance.force("heavy", "heavy", "heavy", "heavy", "heavy")
    drive(close_combat(ctx, bs, hi, li, order_plan(bs.cards["2C"], 6)), ["evade"])
    assert li.hex == "0604" and bs.leader_with(li) is not None
    # a retreat likewise ends on the leader's hex
    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0606")
    mi = unit(bs, TOP, "MI", "0605")
    unit(bs, TOP, "MI", "0504")
    bs.leaders.append(Leader(1, TOP, "Tigranes", "0604"))
    ctx.chance.force("flag", "flag", "heavy", "heavy", "heavy")
    drive(close_combat(ctx, bs, hi, mi, order_plan(bs.cards["2C"], 6)), ["0605"])
    assert mi.hex == "0604" and mi.blocks == 4 and "retreat stops" in texts(ctx)


@pytest.mark.rule("ccr:base.close-combat", "ccr:base.retreat", "ccr:base.ranged", "ccr:base.evade")
def test_camels_light_bow_cavalry_chariots_from_the_unit_pages() -> None:
    ctx, st, bs = fresh()
    ca = unit(bs, BOT, "CA", "0606")
    mc = unit(bs, TOP, "MC", "0605")
    assert close_dice(bs, ca, mc) == 3 and close_dice(bs, ca, mc, battle_back=True) == 2
    # a camel ignores one symbol hit from cavalry
    ctx.chance.force("medium", "medium", "light")
    ctx.chance.force("light", "light")
    drive(close_combat(ctx, bs, mc, ca, order_plan(bs.cards["2C"], 6)))
    assert ca.blocks == 2
    # horses shy from camels: one extra hex per flag
    ctx, st, bs = fresh()
    ca = unit(bs, BOT, "CA", "0606")
    mc = unit(bs, TOP, "MC", "0605")
    ctx.chance.force("flag", "light", "light")
    drive(close_combat(ctx, bs, ca, mc, order_plan(bs.cards["2C"], 6)),
          ["0504", "0503", "0402", "0401", "stay"])
    assert mc.hex == "0401"  # 3 + 1 hexes
    # light bow cavalry shoot 3 hexes
    ctx, st, bs = fresh()
    lbc = unit(bs, BOT, "LBC", "0608")
    unit(bs, TOP, "MI", "0605")
    assert ("0605", "ranged") in battle_options(bs, lbc, order_plan(bs.cards["2C"], 6))
    # heavy chariots evade elephants; a light barbarian chariot evades anything
    from ancients_games.ccancients_rome.units import can_evade
    t = bs.types
    assert can_evade(t["HCH"], "EL", t["EL"]) and not can_evade(t["HCH"], "MC", t["MC"])
    assert can_evade(t["BCH"], "LC", t["LC"])


@pytest.mark.rule("ccr:base.close-combat", "ccr:base.retreat")
def test_light_barbarian_chariot_three_dice_then_two_and_a_flag_until_first_loss() -> None:
    ctx, st, bs = fresh()
    bch = unit(bs, BOT, "BCH", "0606")
    mi = unit(bs, TOP, "MI", "0605")
    assert close_dice(bs, bch, mi) == 3
    assert flags_ignored(bs, bch, mi, True)[0] == 1
    bch.blocks = 2
    assert close_dice(bs, bch, mi) == 2 and flags_ignored(bs, bch, mi, True)[0] == 0
    # it ignores one sword hit
    bch.blocks = 3
    ctx.chance.force("swords", "swords", "heavy", "heavy")
    ctx.chance.force("heavy", "heavy", "heavy")  # battle back: still 3 dice until the combat after its first loss
    drive(close_combat(ctx, bs, mi, bch, order_plan(bs.cards["2C"], 6)), ["stand"])
    assert bch.blocks == 2


@pytest.mark.rule("ccr:base.terrain", "ccr:base.ranged")
def test_forest_caps_ranged_fire_into_it_and_foot_on_a_hill_roll_three() -> None:
    ctx, st, bs = fresh()
    bs.board.set_terrain("0604", "forest")
    lb = unit(bs, BOT, "LB", "0606")
    tgt = unit(bs, TOP, "MI", "0604")
    assert ranged_dice(bs, lb) == 2 and ranged_dice(bs, lb, "0604") == 1
    ctx.chance.force("medium")  # exactly one die is rolled
    drive(ranged_combat(ctx, bs, lb, tgt))
    assert tgt.blocks == 3
    # a heavy infantry unit on a hill battling down rolls 3; a heavy cavalry unit there rolls its 4
    ctx, st, bs = fresh()
    bs.board.set_terrain("0606", "hill")
    hi = unit(bs, BOT, "HI", "0606")
    mi = unit(bs, TOP, "MI", "0605")
    assert close_dice(bs, hi, mi) == 3
    assert close_dice(bs, mi, hi) == 2  # and uphill every unit rolls at most 2
    hc = unit(bs, BOT, "HC", "0606")
    bs.at["0606"] = hc
    assert close_dice(bs, hc, mi) == 4
    # hill to hill: foot still at most 3; a card's extra die raises the maximum
    bs.board.set_terrain("0605", "hill")
    assert close_dice(bs, hi, mi) == 3 and close_dice(bs, hi, mi, 1) == 4


@pytest.mark.rule("ccr:base.momentum")
def test_light_cavalry_may_move_one_more_hex_after_a_momentum_advance() -> None:
    ctx, st, bs = fresh()
    lc = unit(bs, BOT, "LC", "0606")
    unit(bs, TOP, "MI", "0605", blocks=1)
    far = unit(bs, TOP, "MI", "0503")
    unit(bs, BOT, "LI", "0705")
    ctx.chance.force("medium", "light")  # eliminates the 1-block MI
    ctx.chance.force("medium", "light")  # bonus combat: 1 hit
    ctx.chance.force("light", "light", "light", "light")  # battle back misses
    asked, _ = drive(close_combat(ctx, bs, lc, bs.at["0605"], order_plan(bs.cards["2C"], 6)),
                     ["0605", "0504", "0503"])
    assert [d.kind for d in asked] == ["momentum.advance", "momentum.extra", "momentum.bonus"]
    assert lc.hex == "0504" and far.blocks == 3
    why, rule = asked[1].refuse("0705")
    assert "occupied" in why and rule == "ccr:base.momentum"
    why, rule = asked[1].refuse("0801")
    assert "not adjacent" in why
    # heavy cavalry has no extra hex: the bonus question follows the advance at once
    ctx, st, bs = fresh()
    hc = unit(bs, BOT, "HC", "0606")
    unit(bs, TOP, "MI", "0605", blocks=1)
    ctx.chance.force("medium", "light", "light", "light")
    asked, _ = drive(close_combat(ctx, bs, hc, bs.at["0605"], order_plan(bs.cards["2C"], 6)), ["0605"])
    assert [d.kind for d in asked] == ["momentum.advance"]


@pytest.mark.rule("ccr:base.sections", "ccr:base.cards", "ccr:base.leaders")
def test_order_refusals_name_the_section_the_owner_and_the_rule() -> None:
    ctx, st, bs = fresh()
    unit(bs, BOT, "HI", "0306")  # bottom's left
    unit(bs, BOT, "HI", "0706")  # bottom's centre
    unit(bs, TOP, "MI", "0705")
    bs.leaders.append(Leader(1, BOT, "Lucullus", "0707"))
    gen = order_units(ctx, bs, BOT, order_plan(bs.cards["2L"], 6))
    d = next(gen)
    assert d.keys == ("0306", "done")
    why, rule = d.refuse("0706")
    assert "centre section" in why and "left section" in why and rule == "ccr:base.sections"
    why, rule = d.refuse("0705")
    assert "enemy's MI" in why and rule == "ccr:base.cards"
    why, rule = d.refuse("0101")
    assert "none of your units" in why
    why, rule = d.refuse("L0707")  # section cards carry the helmet, but he stands in the centre
    assert rule == "ccr:base.sections" and "Lucullus" in why and "centre" in why
    why, rule = d.refuse("zz")
    assert "hex ID" in why
    # troop cards name the troop type
    unit(bs, BOT, "LI", "0908")
    gen = order_units(ctx, bs, BOT, order_plan(bs.cards["OL"], 6))
    d = next(gen)
    why, rule = d.refuse("0306")
    assert "light units only" in why and "heavy" in why and rule == "ccr:base.cards"


@pytest.mark.rule("ccr:base.leaders", "ccr:base.terrain")
def test_a_leader_moving_alone_stops_on_entering_a_forest() -> None:
    from ancients_games.ccancients_rome.movement import leader_reach
    ctx, st, bs = fresh()
    ld = Leader(1, BOT, "Lucullus", "0607")
    bs.leaders.append(ld)
    assert max(leader_reach(bs, ld).values()) == 3
    ring = bs.board.neighbors["0607"]
    for h in ring:
        bs.board.set_terrain(h, "forest")
    assert set(leader_reach(bs, ld)) == set(ring)  # every way out enters a forest and stops there


@pytest.mark.rule("ccr:base.leaders", "ccr:victory")
def test_a_leader_near_his_own_edge_may_evade_off_the_battlefield_without_a_banner() -> None:
    from ancients_games.ccancients_rome.leaders import escape_options, why_not_escape
    ctx, st, bs = fresh()
    ld = Leader(1, BOT, "Lucullus", "0608")
    bs.leaders.append(ld)
    assert escape_options(bs, ld)[-1] == "off"
    far = Leader(2, BOT, "Other", "0604")
    bs.leaders.append(far)
    assert "off" not in escape_options(bs, far)
    why, rule = why_not_escape(bs, far, "off")
    assert "more than 3 hexes" in why and rule == "ccr:base.leaders"
    # boxed in on his baseline: he leaves the field instead of being captured
    ctx, st, bs = fresh()
    ld = Leader(1, BOT, "Lucullus", "0609")
    bs.leaders.append(ld)
    for h in bs.board.neighbors["0609"]:
        unit(bs, TOP, "LI", h)
    hi = unit(bs, BOT, "HI", "0609", blocks=1)
    li = bs.at[bs.board.neighbors["0609"][0]]
    ctx.chance.force("heavy", "light")  # the 1-block HI is eliminated
    ctx.chance.force("light")  # casualty check: the leader survives
    drive(close_combat(ctx, bs, li, hi, order_plan(bs.cards["2C"], 6)), ["stay"])
    assert ld not in bs.leaders and bs.armies[TOP].banners == 1  # the unit's banner only
    assert "evades off" in texts(ctx)


@pytest.mark.rule("ccr:base.movement")
def test_warriors_move_a_second_hex_only_to_charge() -> None:
    ctx, st, bs = fresh()
    unit(bs, BOT, "WA", "0607")
    unit(bs, TOP, "MI", "0604")
    bs.armies[BOT].hand.add("2C")
    bs.deck.draw_pile.remove("2C")
    gen = play_turn(ctx, bs, BOT)
    d = next(gen)
    while d.kind != "move.hex":
        d = gen.send({"card": "2C", "order.unit": "0607" if "0607" in d.keys else "done", "move.unit": "0607"}[d.kind])
    two = [h for h in d.keys if h in bs.board.row and bs.board.distance("0607", h) == 2]
    assert two and all(any(n == "0604" for n in bs.board.neighbors[h]) for h in two)
    assert "0807" not in d.keys and "0606" in d.keys
    why, rule = d.refuse("0807")
    assert "only to charge" in why and rule == "ccr:base.movement"


@pytest.mark.rule("ccr:base.dice")
def test_a_unit_symbol_no_die_face_shows_is_refused(tmp_path: Any) -> None:
    """A renamed symbol ("LIGHT") was taken, and no die face ever hit the unit (issue 27 item 3)."""
    from ancients_kit.data import DataError

    store = _edited(tmp_path, "units.toml", "ccancients_rome.units", 'symbol = "light"', 'symbol = "LIGHT"')
    with pytest.raises(DataError, match=r"v\.toml \[replace\.ccancients_rome\.units\]: types\.\w+\.symbol: .*LIGHT"):
        load_units(store)


@pytest.mark.rule("ccr:base.dice")
def test_battle_die_faces() -> None:
    """Six faces, one symbol each (the reading recorded with BATTLE_DIE)."""
    assert len(BATTLE_DIE.faces) == 6
    assert set(BATTLE_DIE.faces) == {"light", "medium", "heavy", "leader", "flag", "swords"}
