"""Centurion Basic Game: sequence of play, unit figures, deployments, victory."""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from ancients_kit.data import DataStore
from ancients_kit.session import Session

from ancients_games.centurion import GAME
from ancients_games.centurion.basic import loss_fractions, victory
from ancients_games.centurion.equipment import load_all, load_scenario, scenario_ids
from ancients_games.centurion.setup import sandbox_state

STORE = DataStore("ancients_games.centurion")
RULEBOOK = Path(__file__).resolve().parents[4] / "shared" / "rules" / "centurion.txt"
BASIC = [s for s in scenario_ids(STORE) if load_scenario(STORE, s).game.value == "basic"]


@pytest.mark.rule("cen:basic.unit-types")
def test_basic_figures_match_the_rulebook_text():
    if not RULEBOOK.exists():
        pytest.skip("rulebook text not available")
    text = RULEBOOK.read_text("utf-8")
    printed = dict(re.findall(r"\(([A-Z]{2})\): (\d+-\d+-\d+)", text))
    assert len(printed) == 8
    types = load_all(STORE)["types"]
    for code, figs in printed.items():
        assert str(types[code].basic) == figs, code


@pytest.mark.rule("cen:basic.deployment", "cen:basic.stacking")
@pytest.mark.parametrize("scenario", BASIC)
def test_basic_deployments_place_every_counter_legally(scenario):
    s = Session(GAME, scenario, seed=1)
    st = s.state
    sc = load_scenario(STORE, scenario)
    assert st.sides[0] == sc.first_player
    for side in sc.sides:
        placed = Counter(u.type for u in st.live_units(side.id))
        assert placed == Counter(dict(side.order_of_battle))
        assert st.start_units[side.id] == side.counter_count()
    for h, ids in st.stacks.items():
        assert st.stacking_count(h) <= 3, st.hid(h)
        assert len({st.units[i].side for i in ids}) == 1


@pytest.mark.rule("cen:basic.sequence")
def test_player_turns_alternate_movement_then_combat():
    s = Session(GAME, "basic-civil-war", seed=4)
    first, second = s.state.sides
    d = s.decision
    assert d.side == first and d.kind == "move.unit" and "done" in d.keys
    s.answer("done")
    # the first player has no enemy adjacent at the start: straight to the second player
    d = s.decision
    assert d.side == second and d.kind == "move.unit"
    kinds = [e.text for e in s.log if e.kind == "phase"]
    assert kinds[:3] == [
        f"{s.state.side_names[first]} Player-Turn: Movement Phase",
        f"{s.state.side_names[first]} Player-Turn: Combat Phase",
        f"{s.state.side_names[second]} Player-Turn: Movement Phase",
    ]
    assert all("cen:basic.sequence" in e.rules for e in s.log if e.kind in ("phase", "turn"))


@pytest.mark.rule("cen:basic.sequence", "cen:basic.victory")
def test_ten_game_turns_when_everyone_passes():
    s = Session(GAME, "basic-gaul", seed=2)
    n = 0
    while s.decision is not None and n < 100:
        s.answer("done")
        n += 1
    assert s.outcome is not None and s.outcome.turn == 10
    turns = [e for e in s.log if e.kind == "turn"]
    assert len(turns) == 10
    assert s.outcome.winner is None  # nobody lost anything: a draw
    assert "cen:basic.victory" in s.outcome.rules


@pytest.mark.rule("cen:basic.victory")
def test_lowest_percentage_of_losses_wins_not_the_lowest_count():
    units = [("red", "SD", f"01{r:02d}") for r in range(1, 11)] + [("blue", "SD", "1201"), ("blue", "SD", "1202")]
    s = sandbox_state(units)
    for uid in ("RED-SD01", "RED-SD02"):
        s.remove(s.units[uid])
    s.remove(s.units["BLU-SD01"])
    fr = loss_fractions(s)
    assert fr == {"red": Fraction(2, 10), "blue": Fraction(1, 2)}
    out = victory(s, 10)
    assert out.winner == "red"  # lost more units, but a smaller share
    s.remove(s.units["RED-SD03"])
    s.remove(s.units["RED-SD04"])
    s.remove(s.units["RED-SD05"])
    assert victory(s, 10).winner is None  # 5/10 against 1/2: a draw


@pytest.mark.rule("cen:basic.victory", "cen:basic.sequence")
def test_an_army_wiped_out_ends_the_game_at_once():
    from ancients_kit.log import Log
    from ancients_kit.session import Context

    from ancients_games.centurion.basic import play_basic

    s = sandbox_state([("red", "SD", "0605"), ("red", "SD", "0605"), ("blue", "SK", "0606")])
    ctx = Context(STORE, {}, 1, Log())
    ctx.chance.force(1)
    gen = play_basic(ctx, s, load_all(STORE)["melee"])
    d = next(gen)
    # both red units are locked in the enemy's Zone of Control: no Movement decision
    assert d.kind == "combat.hex" and d.side == "red"
    gen.send("0606")
    gen.send("all")
    with pytest.raises(StopIteration) as stop:
        gen.send("attack")
    out = stop.value.value
    assert out.winner == "red" and out.turn == 1
