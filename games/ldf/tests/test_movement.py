"""Movement in Lest Darkness Fall (ldf:8.2-8.5, 12.x, with 10.x and 11.x as they bind a move),
on the real map and counter mix (games/ldf/data).

Game-level tests build a state with only the units they need (every counter of the
mix exists, set aside, and the test places some) and drive the move generator.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

import pytest

from ancients_kit.data import DataStore
from ancients_kit.log import Log
from ancients_kit.session import Context, Decision
from ancients_games.ldf import land_movement, model, movement, sea_movement, setup, unstacking
from ancients_games.ldf.actions import ACTIONS
from ancients_games.ldf.state import GP, ROMAN, LDFState, load_data
from ancients_games.ldf.zoc import Position, Unit, position

STORE = DataStore(model.PACKAGE)
DATA = load_data(STORE)
M = DATA.map
PIECES = DATA.counters.pieces


def empty_state() -> LDFState:
    st = LDFState(DATA)
    for piece in PIECES.values():
        setup._new_units(st, piece)
    st.phase = "actions"
    return st


def put(st: LDFState, hex_id: str, *uids: str, rebel: bool = False, gallic: bool = False) -> None:
    for uid in uids:
        st.place(uid, hex_id)
        st.unit(uid).rebel = rebel or gallic
        st.unit(uid).gallic = gallic


def ctx(seed: int = 1) -> Context:
    return Context(STORE, {}, seed, Log())


class Driver:
    """Runs a rules generator, answering its decisions from a list."""

    def __init__(self, gen: Generator[Decision, Any, Any]) -> None:
        self.gen = gen
        self.done = False
        self.value: Any = None
        self.asked: list[Decision] = []
        self.decision: Decision | None = None
        self._advance(None, first=True)

    def _advance(self, answer: str | None, first: bool = False) -> None:
        try:
            self.decision = next(self.gen) if first else self.gen.send(answer)
            while self.decision.kind.startswith("window."):  # chit windows: nobody plays a chit here
                self.decision = self.gen.send("no")
            self.asked.append(self.decision)
        except StopIteration as stop:
            self.done, self.value, self.decision = True, stop.value, None

    def answer(self, *keys: str) -> Driver:
        for k in keys:
            assert self.decision is not None, f"no decision pending for {k!r}"
            assert k in self.decision.keys, f"{k!r} not in {self.decision.keys} ({self.decision.prompt})"
            self._advance(k)
        return self

    @property
    def keys(self) -> tuple[str, ...]:
        assert self.decision is not None
        return self.decision.keys


def move(st: LDFState, side: str, *uids: str, c: Context | None = None, **kw: Any) -> Driver:
    return Driver(movement.move_force(c or ctx(), st, side, list(uids), **kw))


def view(*units: tuple[str, str, str, str], **facts: Any) -> Position:
    return Position(tuple(Unit(i, p, M.from_id(h), cp) for i, p, h, cp in units), PIECES, **facts)


def ids(hexes) -> set[str]:
    return {M.to_id(h) for h in hexes}


# ---------------------------------------------------------------- movement factors (2.6, 8.4, 8.5)


@pytest.mark.rule("ldf:2.6", "ldf:8.4")
def test_movement_factors_four_cavalry_eight_plus_one_with_a_leader() -> None:
    p = view(("I1", "infantry-vexillation", "3416", "loyal"), ("C1", "cavalry-vexillation", "3416", "loyal"),
             ("E", "emperor", "3416", "loyal"), ("T1", "german-tribe", "3415", "german"),
             ("G1", "parthian-gund", "5020", "parthian"), ("P1", "palmyran-legion", "4720", "palmyran"))
    u = p.unit
    assert land_movement.movement_caps(p, [u("I1")]) == {"I1": 4}
    assert land_movement.movement_caps(p, [u("C1")]) == {"C1": 8}
    assert land_movement.movement_caps(p, [u("I1"), u("E")]) == {"I1": 5}
    assert land_movement.movement_caps(p, [u("C1"), u("E")]) == {"C1": 9}
    assert land_movement.movement_caps(p, [u("T1")]) == {"T1": 4}
    assert land_movement.movement_caps(p, [u("G1")]) == {"G1": 4}
    assert land_movement.movement_caps(p, [u("P1")]) == {"P1": 4}


@pytest.mark.rule("ldf:8.5")
def test_mixed_force_caps_with_and_without_a_leader() -> None:
    p = view(("I1", "infantry-vexillation", "3416", "loyal"), ("C1", "cavalry-vexillation", "3416", "loyal"),
             ("E", "emperor", "3416", "loyal"))
    u = p.unit
    assert land_movement.movement_caps(p, [u("I1"), u("C1")]) == {"I1": 4, "C1": 4}
    assert land_movement.movement_caps(p, [u("I1"), u("C1"), u("E")]) == {"I1": 5, "C1": 9}


def land(d: Driver) -> Driver:
    """Take the move hex by hex (``steps``), for the tests of single steps."""
    if d.decision is not None and d.decision.kind == "move.to" and "steps" in d.keys:
        d.answer("steps")
    return d


def walk_away(st: LDFState, d: Driver, lead: str, start: str, limit: int = 20) -> int:
    """Step the force, always into the hex farthest from ``start``; the number of steps."""
    steps = 0
    origin = st.hex(start)
    while d.decision is not None and d.decision.kind == "move.step" and steps < limit:
        hexes = [k for k in d.keys if k.isdigit()]
        here = st.hex(st.unit(lead).hex)
        farther = [k for k in hexes if st.hex(k).distance(origin) > here.distance(origin)]
        if not farther:
            break
        d.answer(max(farther, key=lambda k: (st.hex(k).distance(origin), k)))
        steps += 1
    return steps


@pytest.mark.rule("ldf:8.5", "ldf:8.4", "ldf:12.4")
def test_with_a_leader_the_infantry_stop_at_five_the_cavalry_go_on_to_nine() -> None:
    st, c = empty_state(), ctx()
    put(st, "3016", "E", "I1", "C1")  # Lugdunum: Gaul is empty
    d = land(move(st, ROMAN, "E", "I1", "C1", c=c))
    assert walk_away(st, d, "E", "3016") == 9
    assert st.hex(st.unit("C1").hex).distance(st.hex("3016")) == 9
    assert st.unit("C1").hex == st.unit("E").hex
    assert st.hex(st.unit("I1").hex).distance(st.hex("3016")) == 5
    assert any(e.kind == "exhausted" and e.rules == ("ldf:8.5",) for e in c.log)
    # The exhausted infantry may not be picked up again on the way back.
    assert not any(k.startswith("pick:") for k in (d.keys if d.decision else ()))


@pytest.mark.rule("ldf:8.5")
def test_without_a_leader_a_mixed_force_stops_at_four() -> None:
    st = empty_state()
    put(st, "3016", "I1", "C1")
    d = land(move(st, ROMAN, "I1", "C1"))
    assert walk_away(st, d, "C1", "3016") == 4
    assert st.unit("I1").hex == st.unit("C1").hex
    assert d.decision is not None and not [k for k in d.keys if k.isdigit()]


@pytest.mark.rule("ldf:12.4", "ldf:12.1", "ldf:2.6")
def test_one_mp_a_hex_whatever_the_terrain() -> None:
    p = view(("I1", "infantry-vexillation", "3016", "loyal"))
    start = M.from_id("3016")
    r = land_movement.land_reach(M, p, [p.unit("I1")], start, 4)
    assert max(r.cost.values()) == 4
    assert all(r.cost[h] == start.distance(h) for h in r.cost if start.distance(h) <= 1)
    assert all(len(r.path_to(h)) - 1 == r.cost[h] for h in r.cost)


@pytest.mark.rule("ldf:12.2")
def test_hex_to_adjacent_hex_no_skipping_no_sea() -> None:
    p = view(("I1", "infantry-vexillation", "3316", "loyal"))
    u = [p.unit("I1")]
    assert land_movement.step_problem(M, p, u, M.from_id("3316"), M.from_id("3416")) is None
    why = land_movement.step_problem(M, p, u, M.from_id("3316"), M.from_id("3518"))
    assert why is not None and why[1] == "ldf:12.2" and "skipping" in why[0]
    why = land_movement.step_problem(M, p, u, M.from_id("3316"), M.from_id("3317"))
    assert why is not None and why[1] == "ldf:12.2" and "all-sea hexside" in why[0]
    why = land_movement.step_problem(M, p, u, M.from_id("4018"), M.from_id("4118"))
    assert why is not None and why[1] == "ldf:12.2" and "all-sea hex" in why[0]


@pytest.mark.rule("ldf:12.3", "ldf:10.5")
def test_never_into_enemy_hexes_loyal_and_rebel_never_pass_through() -> None:
    p = view(("I1", "infantry-vexillation", "3316", "loyal"), ("T1", "german-tribe", "3416", "german"),
             ("I2", "infantry-vexillation", "3217", "rebel"))
    u = [p.unit("I1")]
    assert land_movement.step_problem(M, p, u, M.from_id("3316"), M.from_id("3416"))[1] == "ldf:12.3"  # type: ignore[index]
    assert land_movement.step_problem(M, p, u, M.from_id("3316"), M.from_id("3217"))[1] == "ldf:10.5"  # type: ignore[index]


@pytest.mark.rule("ldf:1.5", "ldf:12.5")
def test_only_romans_enter_narrows_at_no_extra_cost() -> None:
    hel, thrace = M.from_id("4019"), M.from_id("4018")
    p = view(("T1", "german-tribe", "4018", "german"), ("G1", "parthian-gund", "4020", "parthian"),
             ("P1", "palmyran-legion", "4020", "palmyran"), ("I2", "infantry-vexillation", "3918", "loyal"),
             palmyra="roman")
    for uid, frm in (("T1", thrace), ("G1", M.from_id("4020")), ("P1", M.from_id("4020"))):
        why = land_movement.step_problem(M, p, [p.unit(uid)], frm, hel)
        assert why is not None and why[1] == "ldf:1.5"
    assert land_movement.step_problem(M, p, [p.unit("I2")], M.from_id("3918"), hel) is None
    # Across the bridged strait: 4018 -> 4019 -> 4020 costs two MP.
    q = view(("I2", "infantry-vexillation", "4018", "loyal"))
    r = land_movement.land_reach(M, q, [q.unit("I2")], thrace, 4)
    assert r.cost[M.from_id("4020")] == 2 and r.cost[hel] == 1


@pytest.mark.rule("ldf:11.3", "ldf:11.4")
def test_stop_on_entering_an_ezoc_and_never_leave_one() -> None:
    p = view(("I1", "infantry-vexillation", "3016", "loyal"), ("T1", "german-tribe", "2917", "german"))
    r = land_movement.land_reach(M, p, [p.unit("I1")], M.from_id("3016"), 4)
    zone = set(M.neighbors(M.from_id("2917")))
    stopped = r.stopped
    assert stopped and stopped <= zone
    for h in r.cost:  # nothing is reached through an EZOC hex
        assert not any(x in stopped for x in r.path_to(h)[1:-1])
    # A force that starts in an EZOC cannot move by land (11.4).
    p = view(("I1", "infantry-vexillation", "2915", "loyal"), ("T1", "german-tribe", "2916", "german"))
    assert land_movement.land_reach(M, p, [p.unit("I1")], M.from_id("2915"), 4).hexes == frozenset()


@pytest.mark.rule("ldf:11.3")
def test_the_move_ends_in_the_first_ezoc_hex_entered() -> None:
    st, c = empty_state(), ctx()
    put(st, "3016", "I1")
    st.place("T1", "2917")  # a tribe in Narbo, two hexes away
    d = land(move(st, ROMAN, "I1", c=c))
    d.answer("3017")  # next to 2917: the move ends there
    assert d.done and st.unit("I1").hex == "3017"
    ev = [e for e in c.log if e.kind == "move"][-1]
    assert "ldf:11.3" in ev.rules


@pytest.mark.rule("ldf:11.4", "ldf:8.2")
def test_a_force_locked_in_an_ezoc_is_not_offered_a_land_move() -> None:
    st = empty_state()
    put(st, "2915", "I1")
    st.place("T1", "2916")
    assert "2915" not in movement.movable_hexes(st, ROMAN)
    assert not ACTIONS["move"].available(st, ROMAN)
    put(st, "3318", "I2")
    assert movement.movable_hexes(st, ROMAN) == ["3318"]
    assert ACTIONS["move"].available(st, ROMAN)


@pytest.mark.rule("ldf:10.1")
def test_pass_through_friendly_stacks_but_not_end_over_the_limit() -> None:
    st = empty_state()
    put(st, "3016", "I1")
    put(st, "3015", "I2", "I3")
    p = position(st)
    u = [p.unit("I1")]
    assert land_movement.step_problem(M, p, u, st.hex("3016"), st.hex("3015")) is None
    assert land_movement.stop_problem(M, p, u, st.hex("3015"))[1] == "ldf:10.7"  # type: ignore[index]
    r = land_movement.land_reach(M, p, u, st.hex("3016"), 4)
    assert st.hex("3015") in r.cost and st.hex("3015") not in r.hexes
    d = land(move(st, ROMAN, "I1"))
    d.answer("3015")
    assert "stop" not in d.keys  # it may not end there
    d.answer("3114")
    assert "stop" in d.keys


@pytest.mark.rule("ldf:10.10")
def test_markers_never_count_for_stacking() -> None:
    st = empty_state()
    st.looted.add("3015")
    st.rebuilding.add("3015")
    put(st, "3015", "I2")
    put(st, "3016", "I1")
    p = position(st)
    assert land_movement.stop_problem(M, p, [p.unit("I1")], st.hex("3015")) is None


# ---------------------------------------------------------------- pick-ups and drop-offs (8.2, 8.4)


@pytest.mark.rule("ldf:8.2", "ldf:8.4")
def test_the_emperor_picks_up_units_which_move_on_with_the_mp_left() -> None:
    st, c = empty_state(), ctx()
    put(st, "3016", "E", "I1")
    put(st, "3015", "I2")
    d = land(move(st, ROMAN, "E", "I1", c=c))
    d.answer("3015")
    assert "pick:I2" in d.keys
    d.answer("pick:I2")
    assert any(e.kind == "pick-up" and "4 MP" in e.text for e in c.log)
    assert "drop:I2" not in d.keys  # a picked-up unit stays with the leader
    d.answer("3114", "3014", "3013", "3112")
    assert st.unit("I2").hex == "3112" == st.unit("E").hex
    assert d.decision is not None and not [k for k in d.keys if k.isdigit()]  # 5 MP spent


@pytest.mark.rule("ldf:8.2", "ldf:8.4")
def test_a_leaderless_force_or_a_loyal_co_emperor_picks_up_nobody() -> None:
    for leader in ((), ("CE",)):
        st = empty_state()
        put(st, "3016", *leader, "I1")
        put(st, "3015", "I2")
        d = land(move(st, ROMAN, *leader, "I1"))
        d.answer("3015")
        assert not any(k.startswith("pick:") for k in d.keys)


@pytest.mark.rule("ldf:8.2")
def test_drop_offs_along_the_path_and_units_left_behind() -> None:
    st = empty_state()
    put(st, "3016", "I1", "I2", "I3")
    d = land(move(st, ROMAN, "I1", "I2"))
    d.answer("3015", "drop:I2", "3114", "stop")
    assert d.done
    assert st.unit("I3").hex == "3016" and st.unit("I2").hex == "3015" and st.unit("I1").hex == "3114"


@pytest.mark.rule("ldf:8.4")
def test_a_leader_moves_only_with_mobile_units_and_is_never_left_alone() -> None:
    st = empty_state()
    put(st, "3016", "E", "I1")
    p = position(st)
    why = land_movement.force_problem(p, [p.unit("E")], ROMAN)
    assert why is not None and why[1] == "ldf:8.4"
    why = land_movement.force_problem(p, [p.unit("I1")], ROMAN)
    assert why is not None and why[1] == "ldf:8.4" and "alone" in why[0]
    assert land_movement.force_problem(p, [p.unit("I1"), p.unit("E")], ROMAN) is None


@pytest.mark.rule("ldf:2.4")
def test_static_units_never_move() -> None:
    st = empty_state()
    put(st, "3016", "B1", "I1")
    p = position(st)
    assert land_movement.force_problem(p, [p.unit("B1")], ROMAN)[1] == "ldf:2.4"  # type: ignore[index]
    assert [u.id for u in movement.movable_units(p, ROMAN, st.hex("3016"))] == ["I1"]


@pytest.mark.rule("ldf:8.3")
def test_the_leaders_never_pass_through_each_others_hexes() -> None:
    st = empty_state()
    put(st, "3016", "E", "I1")
    put(st, "3015", "CE", "I2")
    p = position(st)
    why = land_movement.step_problem(M, p, [p.unit("E"), p.unit("I1")], st.hex("3016"), st.hex("3015"))
    assert why is not None and why[1] == "ldf:8.3"
    assert land_movement.step_problem(M, p, [p.unit("I1")], st.hex("3016"), st.hex("3015")) is None


# ---------------------------------------------------------------- rebels (8.3)


@pytest.mark.rule("ldf:8.3")
def test_rebel_mobile_units_move_only_with_the_rebel_co_emperor() -> None:
    st = empty_state()
    put(st, "3016", "I1", rebel=True)
    p = position(st)
    assert movement.movable_units(p, GP, st.hex("3016")) == []
    why = land_movement.force_problem(p, [p.unit("I1")], GP)
    assert why is not None and why[1] == "ldf:8.3"
    put(st, "3016", "CE", rebel=True)
    p = position(st)
    assert {u.id for u in movement.movable_units(p, GP, st.hex("3016"))} == {"CE", "I1"}


@pytest.mark.rule("ldf:8.3")
def test_conversion_rolls_follow_the_die() -> None:
    seen = set()
    for seed in range(1, 40):
        st, c = empty_state(), ctx(seed)
        put(st, "3016", "CE", "I1", rebel=True)
        put(st, "3114", "I2", "B2")  # loyal, two hexes away: 3015 is next to both
        d = land(move(st, GP, "CE", "I1", c=c))
        d.answer("3015")
        rolls = [e for e in c.log if e.kind == "conversion"]
        assert len(rolls) == 1 and rolls[0].rules == ("ldf:8.3",)
        roll = rolls[0].dice[0]
        if roll % 2 == 0:
            assert st.unit("I2").rebel and st.unit("B2").rebel  # the whole hex, static units too
            assert d.decision is not None  # the force may go on, out of the vanished EZOC
            d.answer("3114")
            assert "pick:I2" in d.keys  # and add the converted units
        else:
            assert not st.unit("I2").rebel and d.done  # the move ends
        seen.add(roll % 2)
        if seen == {0, 1}:
            break
    assert seen == {0, 1}


@pytest.mark.rule("ldf:8.3")
def test_no_conversion_roll_next_to_the_emperor_only_stasis() -> None:
    st, c = empty_state(), ctx()
    put(st, "3016", "CE", "I1", rebel=True)
    put(st, "3114", "E", "I2")
    d = land(move(st, GP, "CE", "I1", c=c))
    d.answer("3015")
    assert not [e for e in c.log if e.kind == "conversion"]
    assert d.done and st.unit("CE").hex == "3015"


# ---------------------------------------------------------------- closed hexes (7.3, 9.2-9.5)


@pytest.mark.rule("ldf:9.2", "ldf:9.3", "ldf:9.4")
def test_palmyra_closed_to_romans_while_inactive_passable_when_allied() -> None:
    pal = M.from_id("4720")
    p = view(("I1", "infantry-vexillation", "4621", "loyal"))
    assert land_movement.step_problem(M, p, [p.unit("I1")], M.from_id("4621"), pal)[1] == "ldf:9.2"  # type: ignore[index]
    p = view(("I1", "infantry-vexillation", "4621", "loyal"), palmyra="roman")
    assert land_movement.step_problem(M, p, [p.unit("I1")], M.from_id("4621"), pal) is None
    assert land_movement.stop_problem(M, p, [p.unit("I1")], pal)[1] == "ldf:9.3"  # type: ignore[index]
    p = view(("G1", "parthian-gund", "4820", "parthian"), palmyra="germano-parthian")
    assert land_movement.stop_problem(M, p, [p.unit("G1")], pal)[1] == "ldf:9.4"  # type: ignore[index]


@pytest.mark.rule("ldf:9.5")
def test_gallic_empire_closures() -> None:
    p = view(("I1", "infantry-vexillation", "3315", "gallic"), ("T1", "german-tribe", "3214", "german"),
             ("I2", "infantry-vexillation", "3416", "rebel"), gallic_active=True)
    f = M.from_id
    assert land_movement.step_problem(M, p, [p.unit("I1")], f("3315"), f("3416"))[1] == "ldf:9.5"  # type: ignore[index]
    assert land_movement.step_problem(M, p, [p.unit("I1")], f("3315"), f("3216")) is None
    assert land_movement.step_problem(M, p, [p.unit("T1")], f("3214"), f("3114"))[1] == "ldf:9.5"  # type: ignore[index]
    assert land_movement.step_problem(M, p, [p.unit("I2")], f("3416"), f("3315"))[1] == "ldf:9.5"  # type: ignore[index]


@pytest.mark.rule("ldf:7.3")
def test_no_move_into_a_collapsed_parthia() -> None:
    p = view(("I1", "infantry-vexillation", "4719", "loyal"), parthia_collapsed=True)
    why = land_movement.step_problem(M, p, [p.unit("I1")], M.from_id("4719"), M.from_id("4819"))
    assert why is not None and why[1] == "ldf:7.3"


# ---------------------------------------------------------------- sea and river movement (12.6, 12.7)


@pytest.mark.rule("ldf:12.6")
def test_sea_movement_port_to_friendly_port_never_petra() -> None:
    st, c = empty_state(), ctx()
    put(st, "3318", "E", "I1", "C1")
    st.place("T1", "3419")  # a German in Capua: not a friendly port, and an EZOC on Rome
    st.place("T2", "4520")
    p = position(st)
    dests, why = sea_movement.sea_destinations(M, p, [p.unit("E"), p.unit("I1"), p.unit("C1")])
    got = ids(dests)
    assert why is None and not {"3419", "4623", "3318", "4520"} & got and {"2813", "4223"} <= got
    d = move(st, ROMAN, "E", "I1", "C1", c=c)  # it departs from an EZOC
    assert "sea:3221" in d.keys  # sea movement is an answer of the move's one question
    d.answer("sea:3221")
    assert d.done and st.unit("E").hex == "3221" == st.unit("C1").hex
    assert [e for e in c.log if e.kind == "move"][-1].rules == ("ldf:8.2", "ldf:12.6")
    put(st, "4623", "I5")
    p = position(st)
    assert sea_movement.sea_destinations(M, p, [p.unit("I5")])[1][1] == "ldf:12.6"  # type: ignore[index]


@pytest.mark.rule("ldf:12.6")
def test_sea_movement_only_for_romans() -> None:
    p = view(("T1", "german-tribe", "3318", "german"))
    assert sea_movement.sea_destinations(M, p, [p.unit("T1")])[1][1] == "ldf:12.6"  # type: ignore[index]


@pytest.mark.rule("ldf:12.7")
def test_river_movement_bank_to_bank_out_of_an_ezoc() -> None:
    banks = ids(sea_movement.riverbank_hexes(M))
    assert {"3114", "3214", "3615", "3714", "3816", "3817", "4017", "4018"} <= banks
    st, c = empty_state(), ctx()
    put(st, "3615", "I1")
    st.place("T1", "3714")
    st.place("T2", "3514")  # 3514-3615 is a Danube hexside: the tribe pins nothing
    p = position(st)
    dests, why = sea_movement.river_destinations(M, p, [p.unit("I1")])
    got = ids(dests)
    assert why is None and not {"3514", "3615", "3714"} & got and {"3214", "3114"} <= got
    d = move(st, ROMAN, "I1", c=c)
    d.answer("river:3214")
    assert st.unit("I1").hex == "3214"
    assert [e for e in c.log if e.kind == "move"][-1].rules == ("ldf:8.2", "ldf:12.7")
    st.looted.add("3816")
    p = position(st)
    assert "looted" in sea_movement.river_destinations(M, p, [p.unit("I1")])[1][0]  # type: ignore[index]
    p = view(("I1", "infantry-vexillation", "3114", "gallic"), gallic_active=True)
    assert "Gallic" in sea_movement.river_destinations(M, p, [p.unit("I1")])[1][0]  # type: ignore[index]


# ---------------------------------------------------------------- emergency unstacking (10.7) and the action


@pytest.mark.rule("ldf:10.7")
def test_emergency_unstacking_when_the_leader_leaves() -> None:
    st, c = empty_state(), ctx()
    put(st, "3016", "E", "I1", "I2", "I3", "I4", "C1")
    d = land(move(st, ROMAN, "E", "C1", c=c))
    d.answer("3015", "3114", "stop")
    # Four vexillations without a leader: two must go at once into adjacent hexes.
    assert d.decision is not None and d.decision.kind == "move.unstack" and d.decision.rule == "ldf:10.7"
    d.answer(d.keys[0])
    assert d.decision is not None and d.decision.kind == "move.unstack"
    d.answer(d.keys[-1])
    assert d.done
    assert len([u for u in st.units_at("3016") if u.kind == "infantry-vexillation"]) == 2
    assert len([e for e in c.log if e.kind == "unstack"]) == 2


@pytest.mark.rule("ldf:10.7")
def test_emergency_unstacking_eliminates_what_cannot_go() -> None:
    st, c = empty_state(), ctx()
    put(st, "3016", "I1", "I2", "I3")
    for i, h in enumerate(st.data.neighbours("3016")):
        if st.map.terrain(st.hex(h)) == "land":
            st.place(f"T{i + 1}", h)
    d = Driver(unstacking.emergency_unstack(c, st, "3016"))
    assert not d.done and d.decision.kind == "move.unstack.eliminate"  # the owner chooses (10.7)
    assert d.decision.side == "roman" and set(d.decision.keys) == {"I1", "I2", "I3"}
    d.answer("I1")
    assert d.done
    assert st.unit("I1").where == "dead" and st.unit("I3").where != "dead"
    assert [e.rules for e in c.log if e.kind == "unstack"] == [("ldf:10.7",)]


@pytest.mark.rule("ldf:8.2", "ldf:12.1", "ldf:12.2")
def test_the_move_action_can_be_taken_again_and_mp_do_not_carry_over() -> None:
    st = empty_state()
    put(st, "3016", "I1")
    for _ in range(2):
        start = st.unit("I1").hex
        d = Driver(ACTIONS["move"].run(ctx(), st, ROMAN))
        d.answer(start)  # one unit: no question about which units move
        land(d)
        assert walk_away(st, d, "I1", start) == 4  # a fresh allowance each action
        assert d.done  # nothing left to decide after the last MP


@pytest.mark.rule("ldf:8.2")
def test_going_back_spends_no_action() -> None:
    st = empty_state()
    put(st, "3016", "I1")
    d = Driver(ACTIONS["move"].run(ctx(), st, ROMAN))
    d.answer("back")
    assert d.done and d.value is False


@pytest.mark.rule("ldf:14.3", "ldf:8.2")
def test_inspired_subordinates_one_more_hex_and_no_drop_offs() -> None:
    st, c = empty_state(), ctx()
    put(st, "3016", "I1", "I2")
    st.hands[ROMAN].add(4)  # Inspired Subordinates
    drv = move(st, ROMAN, "I1", "I2", c=c)
    assert drv.decision is not None and drv.decision.kind == "move.to" and "chit-4" in drv.keys
    drv.answer("chit-4")  # played as the move is declared, in the move's own question
    assert "(5 MP)" in drv.decision.prompt and "back" not in drv.keys and "chit-4" not in drv.keys
    land(drv)
    assert drv.decision.kind == "move.step" and "5 MP left" in drv.decision.prompt
    assert walk_away(st, drv, "I1", "3016") == 5
    assert st.unit("I1").hex == st.unit("I2").hex
    assert not any(e.kind == "drop-off" for e in c.log)
    assert drv.done  # no drop-off to offer at the end: the move is over


@pytest.mark.rule("ldf:10.7", "ldf:10.1")
def test_a_stack_whose_leader_died_unstacks_at_the_end_of_the_action() -> None:
    st, c = empty_state(), ctx()
    put(st, "3016", "E", "I1", "I2", "I3", "I4", "I5")
    st.eliminate("E")  # say, by treachery (8.9)
    d = Driver(unstacking.settle(c, st))
    n = 0
    while d.decision is not None:
        assert d.decision.kind == "move.unstack" and d.decision.side == ROMAN
        d.answer(d.keys[0])
        n += 1
    assert n == 3 and len(st.units_at("3016")) == 2
    assert all(len([u for u in st.units_at(h) if u.kind == "infantry-vexillation"]) <= 2 for h in st.occupied())


@pytest.mark.rule("ldf:12.5", "ldf:12.2", "ldf:11.4", "ldf:1.5")
def test_illegal_steps_are_refused_with_their_rule() -> None:
    from ancients_kit.errors import IllegalAnswer

    def refused(d: Driver, text: str) -> IllegalAnswer:
        assert d.decision is not None
        with pytest.raises(IllegalAnswer) as err:
            d.decision.match(text)
        return err.value

    st = empty_state()
    put(st, "3016", "I1")
    st.place("T1", "2916")  # pins I1: 3016 is neither a port nor on a river
    put(st, "3318", "I2")
    d = Driver(ACTIONS["move"].run(ctx(), st, ROMAN))
    assert d.decision is not None and d.keys[:-1] == ("3318",)
    assert refused(d, "3016").rule == "ldf:11.4"
    assert refused(d, "3017").rule == "ldf:2.4"  # nothing of his there
    st = empty_state()
    put(st, "4019", "I1")
    d = land(move(st, ROMAN, "I1"))
    assert refused(d, "4118").rule == "ldf:12.2"  # the sea
    st = empty_state()
    put(st, "4020", "I1")
    st.place("T1", "3918")
    d = land(move(st, ROMAN, "I1"))
    e = refused(d, "3016")
    assert e.rule == "ldf:12.2" and "skipping" in str(e)
    st = empty_state()
    put(st, "4018", "G1")
    d = land(move(st, GP, "G1"))
    assert refused(d, "4019").rule == "ldf:1.5"  # a Parthian may not enter the Hellespont


@pytest.mark.rule("ldf:8.3", "ldf:11.4")
def test_a_rebel_move_starts_with_rolls_for_the_loyal_hexes_already_adjacent() -> None:
    for seed in range(1, 30):
        st, c = empty_state(), ctx(seed)
        put(st, "3015", "CE", "I1", rebel=True)
        put(st, "3114", "I2")  # adjacent and loyal: the rebel force is held in its EZOC
        d = move(st, GP, "CE", "I1", c=c)
        assert not [e for e in c.log if e.kind == "conversion"] and "back" in d.keys  # nothing rolled yet
        d.answer("land")
        rolls = [e for e in c.log if e.kind == "conversion"]
        assert len(rolls) == 1
        if rolls[0].dice[0] % 2:
            assert d.done and st.unit("CE").hex == "3015"  # failed: the action is spent, nobody moved
        else:
            assert st.unit("I2").rebel and d.decision is not None and "3114" in d.keys  # freed
            assert "back" not in d.keys  # a die was rolled: no going back
            return
    raise AssertionError("no even roll in 29 seeds")


@pytest.mark.rule("ldf:12.6", "ldf:8.3")
def test_rebels_sail_only_to_ports_their_units_hold() -> None:
    st = empty_state()
    put(st, "3318", "CE", "I1", rebel=True)
    put(st, "3221", "I2", rebel=True)  # Carthago, held by rebels
    p = position(st)
    dests, why = sea_movement.sea_destinations(M, p, [p.unit("CE"), p.unit("I1")])
    assert why is None and ids(dests) == {"3221"}


@pytest.mark.rule("ldf:8.2", "ldf:8.4")
def test_choosing_the_force_unit_by_unit() -> None:
    from ancients_kit.errors import IllegalAnswer

    st = empty_state()
    put(st, "3016", "E", "I1", "I2", "B1")
    d = Driver(ACTIONS["move"].run(ctx(), st, ROMAN))
    d.answer("3016")
    assert d.decision is not None and d.decision.kind == "move.to" and "(5 MP)" in d.decision.prompt  # all of them
    d.answer("units")
    assert set(d.keys) == {"all", "E", "I1", "I2", "back"}  # the legion base never moves (2.4)
    d.answer("E")
    assert "done" not in d.keys  # a leader alone may not move (8.4)
    with pytest.raises(IllegalAnswer) as err:
        d.decision.match("done")  # type: ignore[union-attr]
    assert err.value.rule == "ldf:8.4"
    d.answer("I1", "done")
    land(d)
    assert d.decision is not None and d.decision.kind == "move.step" and "5 MP left" in d.decision.prompt


@pytest.mark.rule("ldf:14.3", "ldf:11.4")
def test_a_chit_move_leaves_the_ezoc_it_starts_in_and_cannot_be_taken_back() -> None:
    st = empty_state()
    put(st, "2915", "I1")
    st.place("T1", "2916")  # I1 is pinned
    d = Driver(movement.move_force(ctx(), st, GP, ["I1"], no_drop_offs=True, leave_ezoc=True, transport=False,
                                   window=False))
    assert d.decision is not None and "back" not in d.keys
    away = [k for k in d.keys if k.isdigit() and k not in st.data.neighbours("2916")]
    assert away  # it may step out of the EZOC
    d.answer(away[0])
    assert st.unit("I1").hex == away[0]


# ---------------------------------------------------------------- the rebel co-emperor in Rome/Ostia (8.3)


def _rome_rolls(c: Context) -> list[Any]:
    return [e for e in c.log if e.kind == "roll" and "Rome/Ostia" in e.text]


@pytest.mark.rule("ldf:8.3")
def test_rebel_co_emperor_moving_into_rome_ends_the_rebellion_once() -> None:
    st = empty_state()
    put(st, "3317", "CE", "I1", rebel=True)
    put(st, "3016", "E")
    st.treasury = 10
    c = ctx()
    d = land(move(st, GP, "CE", "I1", c=c))
    d.answer("3318")
    assert st.unit("CE").where == "aside" and st.unit("E").hex == "3318" and not st.unit("I1").rebel
    assert len(_rome_rolls(c)) == 1 and len([e for e in c.log if e.kind == "emperor"]) == 1


@pytest.mark.rule("ldf:8.3", "ldf:13.14")
def test_rebel_co_emperor_advancing_into_rome_ends_the_rebellion() -> None:
    """8.3 by advance after combat: the co-emperor set aside, the emperor to Rome, the rebels
    loyal again, a die of TP lost (the same check as a move, in ``economy.on_enter``)."""
    from ancients_games.ldf import combat
    from ancients_games.ldf.tests.test_combat import drive

    st = empty_state()
    put(st, "3317", "CE", "I1", "I2", rebel=True)
    put(st, "3318", "I3")
    put(st, "3016", "E")
    st.treasury = 10
    c = ctx()
    c.chance.force(6, 3)  # 2:1 +1 (leader) = 3:1, roll 6: DE; then the 8.3 die: 3
    order = iter(["I1", "CE", "done"])
    drive(combat.resolve_battle(c, st, GP, "3317", "3318", ["I1", "I2"]), {"advance.units": lambda d: next(order)})
    assert st.unit("I1").hex == "3318" and st.unit("CE").where == "aside" and st.unit("E").hex == "3318"
    assert not st.unit("I1").rebel and not st.unit("I2").rebel
    assert len(_rome_rolls(c)) == 1 and st.treasury == 10 - 3
