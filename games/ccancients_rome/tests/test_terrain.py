"""Marsh, as the Imperial Rome battles use it (the Expansion 2 terrain page; issue 26).

Six battles have marsh hexes (Abrittus, Cibalae, Immae, Lugdunum, Philippi I and II). A unit
entering one stops and rolls a die, losing a block on its own symbol; retreating and evading units
roll for each marsh hex they enter without stopping; a lone leader entering one is lost on a leader
symbol; a unit leaving moves only to an adjacent hex; war machines never enter; a unit in a marsh
fires with 1 die at most and battles with 2 at most, as does a unit battling into it.
"""

from __future__ import annotations

import pytest

from ancients_games.ccancients_rome.cards import order_plan
from ancients_games.ccancients_rome.combat import close_combat, close_dice, ranged_dice, retreat
from ancients_games.ccancients_rome.leaders import escape
from ancients_games.ccancients_rome.movement import allowance, blocked_for, reach
from ancients_games.ccancients_rome.orders import _move_phase
from ancients_games.ccancients_rome.state import Leader
from ancients_games.ccancients_rome.tests.test_rules import BOT, TOP, fresh, texts, unit
from ancients_kit.testing import drive

RULE = "ccr:base.terrain"


def marsh_rolls(ctx) -> list[str]:
    return [e.text for e in ctx.log if e.kind == "roll" and "enters the marsh" in e.text]


@pytest.mark.rule(RULE, "ccr:base.movement")
def test_a_unit_entering_a_marsh_stops_and_loses_a_block_on_its_own_symbol() -> None:
    ctx, st, bs = fresh()
    bs.board.set_terrain("0607", "marsh")
    u = unit(bs, BOT, "MC", "0608")  # medium cavalry: moves 3, hit by the medium symbol
    assert reach(bs, u, 3)["0607"] == 1 and "0606" in reach(bs, u, 3)  # the marsh stops it, the way round does not
    u.ordered = True
    ctx.chance.force("medium")
    drive(_move_phase(ctx, bs, BOT, order_plan(bs.cards["2C"], 6), [u]), ["0608", "0607"])
    assert u.hex == "0607" and u.blocks == bs.types["MC"].blocks - 1
    assert len(marsh_rolls(ctx)) == 1
    loss = next(e for e in ctx.log if e.kind == "loss")
    assert loss.rules == (RULE,)
    # another symbol costs nothing
    ctx, st, bs = fresh()
    bs.board.set_terrain("0607", "marsh")
    u = unit(bs, BOT, "MC", "0608")
    u.ordered = True
    ctx.chance.force("heavy")
    drive(_move_phase(ctx, bs, BOT, order_plan(bs.cards["2C"], 6), [u]), ["0608", "0607"])
    assert u.blocks == bs.types["MC"].blocks and len(marsh_rolls(ctx)) == 1


@pytest.mark.rule(RULE, "ccr:base.leaders")
def test_a_block_lost_in_a_marsh_calls_for_the_attached_leaders_casualty_check() -> None:
    ctx, st, bs = fresh()
    bs.board.set_terrain("0607", "marsh")
    bs.checked.add(1)  # a check from an earlier combat does not count: this is a sequence of its own
    u = unit(bs, BOT, "HI", "0608")
    bs.leaders.append(Leader(1, BOT, "Lucullus", "0608"))
    u.ordered = True
    ctx.chance.force("heavy", "light", "flag")  # the marsh takes a block; the two-dice check is survived
    drive(_move_phase(ctx, bs, BOT, order_plan(bs.cards["2C"], 6), [u]), ["0608", "0607"])
    checks = [e for e in ctx.log if e.kind == "roll" and "casualty" in e.text]
    assert u.blocks == bs.types["HI"].blocks - 1 and len(checks) == 1 and bs.leaders[0].hex == "0607"


@pytest.mark.rule(RULE, "ccr:base.movement")
def test_a_unit_leaving_a_marsh_moves_one_hex_and_war_machines_never_enter() -> None:
    ctx, st, bs = fresh()
    bs.board.set_terrain("0607", "marsh")
    lc = unit(bs, BOT, "LC", "0607")
    assert allowance(bs, lc) == 1 and max(reach(bs, lc, allowance(bs, lc)).values()) == 1
    wm = unit(bs, BOT, "LWM", "0707")
    assert "0607" not in reach(bs, wm, 2) and blocked_for(bs, "0608", "LWM", False) == ""
    bs.remove_unit(lc)
    assert "0607" not in reach(bs, wm, 1)
    assert blocked_for(bs, "0607", "LWM", False) == "LWM may not enter 0607 (marsh) [ccr:base.terrain]"
    assert blocked_for(bs, "0607", "HI", False) == ""


@pytest.mark.rule(RULE, "ccr:base.ranged", "ccr:base.close-combat")
def test_battle_dice_out_of_and_into_a_marsh() -> None:
    ctx, st, bs = fresh()
    bs.board.set_terrain("0607", "marsh")
    lb = unit(bs, BOT, "LB", "0607")
    assert ranged_dice(bs, lb) == 1  # 2 for a unit that did not move, 1 from a marsh
    hi = unit(bs, BOT, "HI", "0707")
    enemy = unit(bs, TOP, "HI", "0606")
    assert close_dice(bs, hi, enemy) == 5
    assert close_dice(bs, enemy, lb) == 2 and close_dice(bs, lb, enemy) == 2
    assert close_dice(bs, enemy, lb, bonus=1) == 3  # a card's extra die raises the maximum


@pytest.mark.rule(RULE, "ccr:base.retreat")
def test_a_retreat_through_marsh_does_not_stop_but_rolls_for_each_marsh_hex() -> None:
    ctx, st, bs = fresh()
    u = unit(bs, BOT, "LC", "0605")
    route = ["0606", "0607"]
    for h in route:
        bs.board.set_terrain(h, "marsh")
    for h in ("0506", "0507", "0707", "0706"):  # one way back only
        if h in bs.board.row:
            unit(bs, BOT, "HI", h)
    ctx.chance.force("heavy", "light")  # the first marsh spares it, the second takes a block
    drive(retreat(ctx, bs, u, 2, ("ccr:base.retreat",)))
    assert u.hex == "0607" and u.blocks == bs.types["LC"].blocks - 1 and len(marsh_rolls(ctx)) == 2


@pytest.mark.rule(RULE, "ccr:base.evade")
def test_an_evading_unit_goes_on_through_a_marsh_and_rolls_for_it() -> None:
    from ancients_games.ccancients_rome.combat import evade_move

    ctx, st, bs = fresh()
    u = unit(bs, BOT, "LC", "0605")
    first = bs.board.toward_baseline("0605", "bottom")
    for h in first:
        bs.board.set_terrain(h, "marsh")
    ctx.chance.force("light")  # the marsh takes a block; the evade goes on
    gen = evade_move(ctx, bs, u, ("ccr:base.evade",))
    try:  # the first hex offered at each step
        d = next(gen)
        while True:
            d = gen.send(d.keys[0])
    except StopIteration:
        pass
    assert bs.board.row[u.hex] == 7  # two hexes back: the marsh did not stop it
    assert u.blocks == bs.types["LC"].blocks - 1 and len(marsh_rolls(ctx)) == 1


@pytest.mark.rule(RULE, "ccr:base.momentum")
def test_a_momentum_advance_into_a_marsh_rolls() -> None:
    ctx, st, bs = fresh()
    hi = unit(bs, BOT, "HI", "0606")
    mi = unit(bs, TOP, "MI", "0605", blocks=1)
    bs.board.set_terrain("0605", "marsh")
    ctx.chance.force("medium", "light")  # the attack (2 dice at most into the marsh) eliminates the medium infantry
    ctx.chance.force("heavy")  # the advance into the marsh: a heavy symbol costs a block
    drive(close_combat(ctx, bs, hi, mi, order_plan(bs.cards["2C"], 6)), ["0605"])
    assert mi not in bs.units.values() and hi.hex == "0605"
    assert hi.blocks == bs.types["HI"].blocks - 1 and len(marsh_rolls(ctx)) == 1


@pytest.mark.rule(RULE, "ccr:base.leaders")
def test_a_lone_leader_escaping_into_a_marsh_is_lost_on_a_leader_symbol() -> None:
    ctx, st, bs = fresh()
    ld = Leader(1, TOP, "Tigranes", "0605")
    bs.leaders.append(ld)
    bs.board.set_terrain("0604", "marsh")
    for h in bs.board.hexes:  # the only way out: the marsh at 0604
        if h not in ("0605", "0604") and bs.board.distance("0605", h) <= 3:
            bs.board.set_terrain(h, "river")
    ctx.chance.force("leader")
    escape(ctx, bs, ld)
    assert ld not in bs.leaders and "lost in the marsh" in texts(ctx)
    assert bs.armies[BOT].banners == 1


@pytest.mark.rule(RULE, "ccr:base.close-combat", "ccr:base.ranged")
def test_a_town_stops_movement_caps_close_combat_into_it_shelters_foot_and_blocks_sight() -> None:
    """The chart's reading of a town (L, as a fortified camp): three battles have one (Carthage,
    Edessa, Lugdunum)."""
    from ancients_games.ccancients_rome.combat import flags_ignored, line_of_sight

    ctx, st, bs = fresh()
    bs.board.set_terrain("0606", "town")
    mc = unit(bs, BOT, "MC", "0608")
    assert reach(bs, mc, 3)["0606"] == 2 and "0606" in bs.stop_hexes()  # it may enter, and stops there
    hi = unit(bs, TOP, "HI", "0606")
    att = unit(bs, BOT, "HI", "0607")
    assert close_dice(bs, att, hi) == 2  # 5 dice, 2 into the town
    n, why = flags_ignored(bs, hi, att, True)
    assert n == 1 and why
    bs.remove_unit(hi)
    assert not line_of_sight(bs, "0506", "0706")  # across the empty town


TERRAIN_TESTS = {
    "clear": "no effect",
    "hill": "test_rules.py (hill caps)",
    "forest": "test_rules.py (forest stop, caps, sight)",
    "river": "test_rules.py (impassable unless a battle's crossing says otherwise)",
    "ford": "test_special_rules.py (ccr:ford)",
    "bridge": "test_special_rules.py (ccr:bridge)",
    "camp": "test_special_rules.py (fortified camps)",
    "town": "this file (the chart's proposal, L: as a fortified camp)",
    "marsh": "this file",
}
"""Every terrain the chart handles, and where its effects are tested or ruled."""


@pytest.mark.rule(RULE)
def test_every_terrain_a_battle_uses_is_one_the_rules_handle() -> None:
    """A battle file naming a terrain the chart does not know would play it as clear ground without
    a word: every terrain of all 24 battles is in the chart, with its effects tested or ruled."""
    from ancients_games.ccancients_rome.scenario import list_battles, load_battle
    from ancients_games.ccancients_rome.terrain import load_terrain
    from ancients_games.ccancients_rome.tests.test_rules import STORE

    chart = load_terrain(STORE).terrain
    used: dict[str, set[str]] = {}
    battles = list_battles(STORE)
    assert len(battles) == 24
    for slug in battles:
        for t in set(load_battle(STORE, slug).board.terrain_map().values()):
            used.setdefault(t, set()).add(slug.rsplit(".", 1)[-1])
    unknown = {t: sorted(b) for t, b in used.items() if t not in chart}
    assert not unknown, f"terrain no rule handles: {unknown}"
    assert set(used) <= set(TERRAIN_TESTS)
    assert set(chart) == set(TERRAIN_TESTS)
    assert used["marsh"] >= {"abrittus", "cibalae", "immae", "lugdunum", "philippi-i", "philippi-ii"}


# What each terrain does, as the rulings and sources say (docs/games/ccancients_rome.md), written
# here apart from the chart so that a changed chart row fails: (stops movement, impassable, blocks
# sight, most close dice of a heavy infantry battling into it from clear, out of it into clear,
# most ranged dice of a light bow that did not move, firing out of it, firing into it).
EFFECTS = {
    "clear": (False, False, False, 5, 5, 2, 2),
    "hill": (False, False, True, 2, 3, 2, 2),  # uphill 2; foot from a hill 3
    "forest": (True, False, True, 2, 2, 2, 1),
    "river": (False, True, False, None, None, None, None),
    "ford": (True, False, False, 2, 2, 1, 2),
    "bridge": (False, False, False, 2, 2, 1, 2),
    "camp": (True, False, True, 2, 5, 2, 2),
    "town": (True, False, True, 2, 5, 2, 2),
    "marsh": (True, False, False, 2, 2, 1, 2),
}


@pytest.mark.rule(RULE, "ccr:base.movement", "ccr:base.close-combat", "ccr:base.ranged", "ccr:ford", "ccr:bridge")
@pytest.mark.parametrize("terrain", sorted(EFFECTS))
def test_each_terrain_s_movement_battle_and_sight(terrain: str) -> None:
    from ancients_games.ccancients_rome.combat import line_of_sight

    stop, impassable, blocks, cc_in, cc_out, fire_out, fire_in = EFFECTS[terrain]
    ctx, st, bs = fresh()
    bs.board.set_terrain("0606", terrain)
    assert ("0606" in bs.stop_hexes()) is stop
    assert ("0606" in bs.board.impassable) is impassable
    assert line_of_sight(bs, "0506", "0706") is not blocks
    if impassable:
        assert "0606" not in reach(bs, unit(bs, BOT, "HI", "0607"), 1)
        return
    hi = unit(bs, BOT, "HI", "0607")
    inside = unit(bs, TOP, "HI", "0606")
    assert close_dice(bs, hi, inside) == cc_in
    assert close_dice(bs, inside, hi) == cc_out
    bs.remove_unit(hi)
    bs.remove_unit(inside)
    lb = unit(bs, BOT, "LB", "0606")
    assert ranged_dice(bs, lb) == fire_out
    bs.remove_unit(lb)
    assert ranged_dice(bs, unit(bs, BOT, "LB", "0608"), target_hex="0606") == fire_in


@pytest.mark.rule("ccr:base.terrain")
def test_a_chart_line_for_no_terrain_of_the_boards_is_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A renamed line ("FOREST") was taken, and the forests of every board lost their effects (issue 27 item 3)."""
    from pathlib import Path

    from ancients_games.ccancients_rome.terrain import load_terrain
    from ancients_kit.data import DataError, DataStore, Variant

    body = (Path(load_terrain.__code__.co_filename).parent / "data" / "terrain.toml").read_text(encoding="utf-8")
    assert "[terrain.forest]" in body
    (tmp_path / "terrain.toml").write_text(body.replace("[terrain.forest]", "[terrain.FOREST]"), encoding="utf-8")
    (tmp_path / "v.toml").write_text('[meta]\nid = "v"\nsource = "variant"\nnote = "x"\n'
                                     '[replace."ccancients_rome.terrain"]\nfile = "terrain.toml"\n', encoding="utf-8")
    store = DataStore("ancients_games.ccancients_rome", (Variant.from_file(tmp_path / "v.toml"),))
    with pytest.raises(DataError, match=r"v\.toml \[replace\.ccancients_rome\.terrain\]: terrain\.FOREST: 'FOREST' is "
                                        r"no terrain of the boards \(known: clear, .*\) \[ccr:base\.terrain\]"):
        load_terrain(store)
