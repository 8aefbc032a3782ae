"""Battle special rules as the engine applies them: camps, exits, reserve, drowning, panic,
dice-off, crossings; and refusals of illegal moves."""

from __future__ import annotations

import pytest

from ancients_games.ccancients_rome.cards import order_plan
from ancients_games.ccancients_rome.combat import close_combat, flags_ignored
from ancients_games.ccancients_rome.movement import reach
from ancients_games.ccancients_rome.orders import _exits, _move_phase, _reserve
from ancients_games.ccancients_rome.state import Wagon
from ancients_games.ccancients_rome.victory import start_of_turn
from ancients_kit.testing import drive

from .test_rules import fresh, unit


@pytest.mark.rule("ccr:scenario.philippi-i", "ccr:base.terrain", "ccr:victory")
def test_enemy_camp_taken_at_start_of_turn() -> None:
    ctx, st, bs = fresh("philippi-i")
    camps = bs.board.hexes_of_terrain("camp")
    top_camp = next(h for h in camps if bs.board.row[h] <= 4)
    bottom = bs.by_key["bottom"].name
    unit(bs, bottom, "HI", top_camp)
    start_of_turn(ctx, bs, bottom)
    assert bs.board.terrain[top_camp] == "clear" and bs.armies[bottom].banners == 1


@pytest.mark.rule("ccr:scenario.antonys-siege-train", "ccr:baggage-wagon")
def test_wagon_leaving_by_the_right_edge_scores() -> None:
    ctx, st, bs = fresh("antonys-siege-train")
    roman = bs.by_key["bottom"].name
    w = Wagon(roman, "baggage-wagon", "1307")
    bs.wagons.append(w)
    drive(_exits(ctx, bs, roman, [w]), ["exit"])
    assert not bs.wagons and bs.armies[roman].banners == 1


@pytest.mark.rule("ccr:scenario.mons-graupius")
def test_roman_reserve_enters_on_leadership_card() -> None:
    ctx, st, bs = fresh("mons-graupius")
    roman = bs.by_key["bottom"].name
    assert len(bs.armies[roman].reserve) == 3
    _, placed = drive(_reserve(ctx, bs, roman, "LAS"), ["reserve"])
    assert len(placed) == 3 and all(bs.board.row[u.hex] == 9 for u in placed)
    assert all(not u.can_move and u.ordered for u in placed)
    assert bs.armies[roman].target == 7 and bs.armies[bs.other(roman)].target == 6
    asked, placed2 = drive(_reserve(ctx, bs, roman, "2C"))
    assert placed2 == [] and not asked


@pytest.mark.rule("ccr:scenario.milvian-bridge", "ccr:base.retreat")
def test_maxentius_units_driven_into_the_river_are_eliminated() -> None:
    ctx, st, bs = fresh("milvian-bridge")
    top, bottom = bs.by_key["top"].name, bs.by_key["bottom"].name
    river = bs.board.hexes_of_terrain("river")
    h = next(x for x in bs.board.hexes if any(n in river for n in bs.board.toward_baseline(x, "bottom"))
             and not bs.board.spec(x).impassable and x not in river)
    tgt = unit(bs, bottom, "MI", h)
    # attacker from the row above
    up = next(n for n in bs.board.neighbors[h] if bs.board.row[n] == bs.board.row[h] - 1)
    att = unit(bs, top, "HI", up)
    for n in bs.board.toward_baseline(h, "bottom"):
        if n not in river and n not in bs.at:
            unit(bs, bottom, "LI", n)
    ctx.chance.force("flag", "light", "light", "light", "light")
    drive(close_combat(ctx, bs, att, tgt, order_plan(bs.cards["2C"], 6)), [h])
    assert tgt.uid not in bs.units and bs.armies[top].banners == 1


@pytest.mark.rule("ccr:scenario.edessa", "ccr:base.retreat")
def test_panic_romans_ignore_no_elephant_flags() -> None:
    ctx, st, bs = fresh("edessa")
    top, bottom = bs.by_key["top"].name, bs.by_key["bottom"].name
    g = unit(bs, bottom, "HI", "0606", guard=True)
    el = unit(bs, top, "EL", "0605")
    hc = unit(bs, top, "HC", "0705")
    assert flags_ignored(bs, g, el, True)[0] == 0
    assert flags_ignored(bs, g, hc, True)[0] == 1


@pytest.mark.rule("ccr:scenario.medway", "ccr:ford", "ccr:bridge")
def test_medway_ford_for_foot_only_and_dice_off() -> None:
    ctx, st, bs = fresh("medway")
    assert bs.first in bs.armies
    assert any("rolls for first move" in e.text for e in ctx.log if e.kind == "roll")
    roman = bs.by_key["bottom"].name
    lc = unit(bs, roman, "LC", "0307")
    li = unit(bs, roman, "LI", "0407")
    assert "0306" not in reach(bs, lc, 4)
    assert "0306" in reach(bs, li, 2) and "0305" not in reach(bs, li, 2) or reach(bs, li, 2).get("0305") is None
    assert "0906" in reach(bs, unit(bs, roman, "MC", "0907"), 3)


@pytest.mark.rule("ccr:base.movement")
def test_illegal_move_refused_with_rule() -> None:
    ctx, st, bs = fresh()
    hi = unit(bs, "roman", "HI", "0607")
    unit(bs, "roman", "HI", "0606")
    hi.ordered = True
    gen = _move_phase(ctx, bs, "roman", order_plan(bs.cards["2C"], 6), [hi])
    d = next(gen)
    d = gen.send("0607")
    assert d.kind == "move.hex"
    why, rule = d.refuse("0606")
    assert "occupied" in why and rule == "ccr:base.movement"
    why, rule = d.refuse("0604")
    assert rule == "ccr:base.movement"
