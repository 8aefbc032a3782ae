"""Questions worth asking in Lest Darkness Fall (issue 23, item 3).

A force moves to a destination in one answer, the walk stopping by itself where a
rule does (``ldf:8.2``-``ldf:8.5``, ``ldf:11.3``); every hex a force can reach hex
by hex stays reachable; the action menu names the force or the battle with the
action (``ldf:8.1``); an advance after combat is one answer (``ldf:13.14``); an
old save whose answers no longer fit is refused with one line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ancients_kit import savefile
from ancients_kit.bots import make_bot
from ancients_kit.errors import ReplayError
from ancients_kit.session import Session
from ancients_games.ldf import GAME, movement
from ancients_games.ldf.actions import action_menu
from ancients_games.ldf.state import GP, ROMAN
from ancients_games.ldf.tests.test_movement import Driver, ctx, empty_state, move, put


def _dest_keys(d: Driver) -> list[str]:
    return [k for k in d.keys if k.isdigit()]


# ---------------------------------------------------------------- one answer to a destination


@pytest.mark.rule("ldf:8.2", "ldf:12.4")
def test_a_force_goes_to_a_destination_in_one_answer_path_and_cost_shown() -> None:
    st, c = empty_state(), ctx()
    put(st, "3016", "I1", "I2")
    d = move(st, ROMAN, "I1", "I2", c=c)
    assert d.decision is not None and d.decision.kind == "move.to"
    far = [o for o in d.decision.options if o.key.isdigit() and "(4 MP:" in o.label]
    assert far, d.decision.options
    target = far[0]
    way = target.label.split("MP: ", 1)[1].rstrip(")").split(", ")
    assert len(way) == 4 and way[-1] == target.key
    d.answer(target.key)
    assert d.done and st.unit("I1").hex == target.key == st.unit("I2").hex
    ev = [e for e in c.log if e.kind == "move"][-1]
    assert ev.data["path"] == ("3016", *way)
    # the destinations are nearest first
    costs = [int(o.label.split("(", 1)[1].split(" MP")[0]) for o in d.asked[0].options if o.key.isdigit()]
    assert costs == sorted(costs)


def _step_ends(build, side: str, force: list[str]) -> set[str]:  # type: ignore[no-untyped-def]
    """Every hex where a move hex by hex may end (``stop`` offered, or the move over there),
    explored over (hex, MP left) by replaying one path to each."""
    seen: dict[tuple[str, int], list[str]] = {}
    ends: set[str] = set()
    todo: list[list[str]] = [[]]
    while todo:
        path = todo.pop()
        st = build()
        d = move(st, side, *force)
        d.answer("steps")
        for k in path:
            d.answer(k)
        lead = st.unit(force[0]).hex
        if d.done:
            ends.add(lead)
            continue
        if "stop" in d.keys:
            ends.add(lead)
        for k in (k for k in d.keys if k.isdigit()):
            rem = int(d.decision.prompt.split(", ")[-1].split(" MP")[0]) - 1  # type: ignore[union-attr]
            if (k, rem) not in seen:
                seen[(k, rem)] = path + [k]
                todo.append(path + [k])
    return ends


@pytest.mark.rule("ldf:8.2", "ldf:10.1", "ldf:11.3", "ldf:12.4")
def test_every_hex_reachable_hex_by_hex_is_one_answer_away() -> None:
    def build():  # type: ignore[no-untyped-def]
        st = empty_state()
        put(st, "3016", "I1")
        put(st, "3015", "I2", "I3")  # a full stack to pass through but not end in (10.1)
        st.place("T1", "2917")  # a tribe: its zone of control stops the move (11.3)
        return st

    by_steps = _step_ends(build, ROMAN, ["I1"])
    d = move(build(), ROMAN, "I1")
    # Out and back into the start hex is a move hex by hex only (staying put is not a destination).
    assert set(_dest_keys(d)) == by_steps - {"3016"} and "3015" not in by_steps


@pytest.mark.rule("ldf:8.5", "ldf:8.4")
def test_the_walk_stops_where_the_infantry_are_spent_and_the_cavalry_may_go_on() -> None:
    st, c = empty_state(), ctx()
    put(st, "3016", "E", "I1", "C1")
    d = move(st, ROMAN, "E", "I1", "C1", c=c)
    assert "(5 MP)" in d.decision.prompt  # type: ignore[union-attr]
    five = next(o.key for o in d.decision.options if "(5 MP:" in o.label)  # type: ignore[union-attr]
    d.answer(five)
    assert st.unit("E").hex == five and d.decision is not None and d.decision.kind == "move.to"
    assert "stop" in d.keys and "4 MP left" in d.decision.prompt  # the leader and the cavalry may go on to 9
    on = max(_dest_keys(d), key=lambda k: (st.hex(k).distance(st.hex("3016")), k))
    d.answer(on)
    assert d.done and st.unit("C1").hex == on == st.unit("E").hex and st.unit("I1").hex == five
    assert st.hex(on).distance(st.hex("3016")) > 5
    assert any(e.kind == "exhausted" and e.rules == ("ldf:8.5",) for e in c.log)


@pytest.mark.rule("ldf:8.2")
def test_the_walk_stops_where_the_emperor_may_pick_units_up() -> None:
    st, c = empty_state(), ctx()
    put(st, "3016", "E", "I1")
    put(st, "3015", "I2")
    d = move(st, ROMAN, "E", "I1", c=c)
    through = [o.key for o in d.decision.options  # type: ignore[union-attr]
               if o.key.isdigit() and o.key != "3015" and "3015, " in o.label]
    assert through
    d.answer(through[0])
    assert st.unit("E").hex == "3015" and d.decision is not None  # stopped on the way
    assert "pick:I2" in d.keys and through[0] in d.keys and "stop" in d.keys
    d.answer("pick:I2")
    assert through[0] in d.keys  # the picked-up unit goes on with the MP left
    d.answer(through[0])
    assert d.done and st.unit("I2").hex == through[0] == st.unit("E").hex


@pytest.mark.rule("ldf:8.3")
def test_a_conversion_roll_stops_the_walk_and_a_success_lets_it_go_on() -> None:
    seen = set()
    for seed in range(1, 40):
        st, c = empty_state(), ctx(seed)
        put(st, "3016", "CE", "I1", rebel=True)
        put(st, "3114", "I2", "B2")  # loyal, two hexes away: 3015 is next to both
        d = move(st, GP, "CE", "I1", c=c)
        d.answer("3015")
        roll = [e for e in c.log if e.kind == "conversion"][0].dice[0]
        if roll % 2 == 0:
            assert d.decision is not None and d.decision.kind == "move.to"  # asked again: it may go on
            assert "3114" in d.keys
        else:
            assert d.done
        seen.add(roll % 2)
        if seen == {0, 1}:
            return
    raise AssertionError("the die never gave both an odd and an even roll")


@pytest.mark.rule("ldf:8.2", "ldf:12.6")
def test_the_one_question_keeps_units_sea_and_back() -> None:
    st = empty_state()
    put(st, "3318", "E", "I1", "C1")
    d = Driver(movement.move_from(ctx(), st, ROMAN, "3318"))
    keys = d.keys
    assert "units" in keys and "back" in keys and "steps" in keys and any(k.startswith("sea:") for k in keys)
    d.answer("back")
    assert d.done and d.value is False and st.unit("E").hex == "3318"


# ---------------------------------------------------------------- the action menu


def _deployed(seed: int = 1) -> Session:
    s = Session(GAME, "campaign", seed=seed, options={"concession": False})
    bot = make_bot("greedy")
    while s.decision is not None and s.decision.kind != "action":
        s.answer(bot.choose(s, s.decision))
    return s


@pytest.mark.rule("ldf:8.1", "ldf:8.2", "ldf:8.6", "ldf:13.4")
def test_the_action_menu_names_the_force_and_the_battle() -> None:
    from ancients_games.ldf import combat

    s = _deployed()
    st, side = s.state, s.decision.side  # type: ignore[union-attr]
    keys = [o.key for o in action_menu(st, side)]
    assert "move" not in keys and "attack" not in keys
    assert [k for k in keys if k.startswith("move:")] == [f"move:{h}" for h in movement.movable_hexes(st, side)]
    assert [k for k in keys if k.startswith("attack:")] == [f"attack:{o}-{t}" for o, t in
                                                          combat.attack_targets(st, side)]
    hexes = [k for k in keys if k.startswith("move:")]
    s.answer(hexes[0])
    assert s.decision is not None and s.decision.kind in ("move.to", "move.unit")
    s = _deployed()
    with pytest.raises(Exception, match="name the force with the action"):
        s.decision.match("move")  # type: ignore[union-attr]
    battles = [k for k in s.decision.keys if k.startswith("attack:")]  # type: ignore[union-attr]
    if battles:
        s.answer(battles[0])
        assert s.decision is None or s.decision.kind != "attack.target"


@pytest.mark.rule("ldf:13.14")
def test_an_advance_is_one_answer_with_the_other_choices_still_offered() -> None:
    s = Session(GAME, "campaign", seed=1, options={"concession": False})
    bot = make_bot("greedy")
    found = 0
    while s.decision is not None and found < 3:
        d = s.decision
        if d.kind == "advance.units" and "advance" in d.keys:
            assert d.keys[0] == "advance" and "done" in d.keys  # not advancing stays on offer
            units = d.option("advance").label.rsplit(": ", 1)[1].split(", ")
            target = d.prompt.split("advance into ")[1].rstrip("?")
            s.answer("advance")
            assert all(s.state.unit(u).hex == target for u in units)
            found += 1
            continue
        s.answer(bot.choose(s, d))
    assert found


# ---------------------------------------------------------------- saves


def test_a_save_whose_answers_no_longer_fit_is_refused_in_one_line(tmp_path: Path) -> None:
    """Saves hold answer keys: a save made when the action menu said ``move`` (before issue 23)
    no longer replays, and says so in one line naming the answer."""
    s = _deployed()
    path = savefile.save(s, tmp_path / "new.json")
    rec = json.loads(path.read_text(encoding="utf-8"))
    rec["answers"] = list(rec["answers"]) + ["move", "3016"]
    old = tmp_path / "old.json"
    old.write_text(json.dumps(rec), encoding="utf-8")
    with pytest.raises(ReplayError) as info:
        savefile.load(old)
    assert "\n" not in str(info.value) and "move" in str(info.value)

