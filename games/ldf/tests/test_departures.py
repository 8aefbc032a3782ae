"""Departures from the book found in play (issue 23 item 1) and the readings settled with them (item 2).

Each test names its rule and failed before its fix: a leader left alone outside combat
(8.4), a looted Parthian centre recovering under a rebel (6.4), placements that made
illegal stacks (10.1-10.8 through ``stacking.place``), risings and conversions beside a
client garrison or inside an active Gallic Empire (8.3, 8.7, 8.10, 9.5), and the second
readings of 11.1 and 8.8; the move prompt's warning of 8.4 (``warnings.leader_left_alone``)
and the ``action_limit`` option close the file.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ancients_games.ldf import GAME, admin, economy, movement, politics, stacking, unstacking, warnings, zoc
from ancients_games.ldf.state import GP, ROMAN, LDFState
from ancients_games.ldf.tests.politics_helpers import Script, drive, world

CAUCASUS_HEX = "4716"
"""A Caucasus hex of the campaign (Colchis), its client garrison CG1 in it."""
PARTHIAN_CENTRE = "4820"
"""A Parthian centre hex, garrison PG1."""


def _illegal_stacks(st: LDFState) -> dict[str, list[tuple[str, str]]]:
    """Every hex of the map whose units break a stacking limit or hold enemies (10.1-10.8)."""
    pos = zoc.position(st)
    out = {}
    for h in st.occupied():
        units = [zoc.Unit(u.id, u.kind, st.hex(h), zoc.camp_of(st, u)) for u in st.units_at(h)]
        found = stacking.problems(pos, units)
        if found:
            out[h] = found
    return out


def _clear(st: LDFState, *hexes: str) -> None:
    """Empty ``hexes`` (their units set aside)."""
    for h in hexes:
        for u in list(st.units_at(h)):
            st.remove(u.id, "aside")


def _alone_with(st: LDFState, leader: str, hex_id: str, *uids: str) -> None:
    """``leader`` and only ``uids`` in ``hex_id``."""
    _clear(st, hex_id)
    for uid in (*uids, leader):
        st.place(uid, hex_id)


def _legion_hex(st: LDFState) -> tuple[str, str, str]:
    """A hex holding exactly one legion base and one infantry vexillation, not Rome."""
    for h in sorted(st.occupied()):
        kinds = sorted(u.kind for u in st.units_at(h))
        if kinds == ["infantry-vexillation", "legion-base"] and h != "3318":
            b = next(u.id for u in st.units_at(h) if u.kind == "legion-base")
            v = next(u.id for u in st.units_at(h) if u.kind == "infantry-vexillation")
            return h, b, v
    raise AssertionError("no single-legion hex at the start")


# ---------------------------------------------------------------- 8.4 outside combat


@pytest.mark.rule("ldf:8.4", "ldf:6.7", "ldf:14.4")
def test_the_emperor_shares_the_fate_of_a_demobilised_legion() -> None:
    ctx, st = world()
    h, b, v = _legion_hex(st)
    _alone_with(st, "E", h, b, v)
    drive(economy.demobilise_step(ctx, st), Script({"admin.demobilise": [b, v]}))
    assert st.unit(b).where == "dead" == st.unit(v).where
    assert st.unit("E").hex != h  # he went with them; the Emperor Creation Table placed a new one
    assert any("E shares the fate of the last unit in " + h in e.text for e in ctx.log)
    assert not stacking.lone_leaders(st)


@pytest.mark.rule("ldf:8.4", "ldf:6.6")
def test_the_emperor_shares_the_fate_of_a_garrison_lost_to_emergency_taxation() -> None:
    ctx, st = world()
    h = "3221"  # a core metropolis (Carthage), empty at the start
    _clear(st, h)
    _alone_with(st, "E", h, "RG1")
    assert h in economy.emergency_tax_hexes(st)
    drive(admin.collection(ctx, st), Script({"admin.tax": [h, "collect"]}))
    assert st.unit("RG1").where == "dead" and h in st.looted
    assert st.unit("E").hex != h and not stacking.lone_leaders(st)


@pytest.mark.rule("ldf:8.4", "ldf:8.7", "ldf:10.1")
def test_no_leader_is_left_alone_at_the_end_of_an_action() -> None:
    """The loyal co-emperor whose last unit, a Caucasus garrison, died of the plague (chit 10):
    the action loop's ``unstacking.settle`` takes him too."""
    ctx, st = world()
    st.place("CE", CAUCASUS_HEX)
    st.eliminate("CG1")
    drive(unstacking.settle(ctx, st), Script())
    assert st.unit("CE").where == "dead" and not stacking.lone_leaders(st)


# ---------------------------------------------------------------- 6.4 with 7.2 and 1.2


@pytest.mark.rule("ldf:6.4", "ldf:7.2", "ldf:1.2")
def test_a_rebel_in_a_looted_parthian_centre_keeps_it_looted() -> None:
    ctx, st = world()
    st.eliminate("PG1")
    st.looted.add(PARTHIAN_CENTRE)
    st.unit("I1").rebel = True
    st.place("I1", PARTHIAN_CENTRE)
    drive(admin.parthian_returns(ctx, st), Script())
    assert PARTHIAN_CENTRE in st.looted  # "not occupied by one or more Roman units": rebels are Roman units
    assert st.unit("PG1").hex != PARTHIAN_CENTRE  # and no garrison joins its enemy (10.1)
    assert not _illegal_stacks(st)


# ---------------------------------------------------------------- placements (10.1-10.8)


@pytest.mark.rule("ldf:10.4", "ldf:7.2", "ldf:10.1")
def test_returning_parthian_garrisons_never_join_germano_parthian_palmyrans() -> None:
    ctx, st = world()
    st.palmyra = GP
    st.eliminate("PG1")
    st.place("P1", PARTHIAN_CENTRE)
    drive(admin.parthian_returns(ctx, st), Script())
    assert st.unit("PG1").hex != PARTHIAN_CENTRE and not _illegal_stacks(st)


@pytest.mark.rule("ldf:10.4", "ldf:14.3", "ldf:7.3")
def test_parthian_resurgence_places_no_gund_with_palmyrans() -> None:
    """Chit 22 returns the Parthians "as in 7.2" (``economy.redeploy_parthia``)."""
    ctx, st = world()
    st.palmyra = GP
    for g in st.of_kind("parthian-gund"):
        st.eliminate(g.id)
    st.eliminate("PG1")
    for i in range(1, 9):
        st.place(f"P{i}", PARTHIAN_CENTRE)
    drive(economy.redeploy_parthia(ctx, st, ("ldf:14.3", "ldf:7.2")), Script())
    assert not any(u.nationality == "parthian" for u in st.units_at(PARTHIAN_CENTRE))
    assert not _illegal_stacks(st)


@pytest.mark.rule("ldf:8.13", "ldf:10.4")
def test_no_roman_garrison_is_completed_among_allied_palmyrans() -> None:
    ctx, st = world()
    st.palmyra = ROMAN
    h = "3221"
    _clear(st, h)
    st.fortify = h
    st.place("P1", h)
    assert not economy.can_finish_fortify(st, ROMAN)
    assert h not in economy.garrison_hexes(st)  # chit 14, Limes Restored, neither
    with pytest.raises(ValueError, match=r"RG1 cannot be placed in 3221 \(ldf:8.13\).*ldf:10.4"):
        stacking.place(st, h, ["RG1"], "ldf:8.13")


@pytest.mark.rule("ldf:7.3", "ldf:10.1", "ldf:10.4", "ldf:10.7")
def test_the_withdrawal_from_a_collapsed_parthia_makes_no_illegal_stack() -> None:
    ctx, st = world()
    st.palmyra = ROMAN
    src = PARTHIAN_CENTRE
    _clear(st, src)
    st.place("I1", src)
    st.place("I2", src)
    origin = st.hex(src)
    core = [h for h in st.region("core") if st.map.terrain(st.hex(h)) == "land" and not st.enemy_in(h, ROMAN)]
    best = min(origin.distance(st.hex(h)) for h in core)
    near = sorted(h for h in core if origin.distance(st.hex(h)) == best)
    assert len(near) <= 8
    for i, h in enumerate(near, start=1):  # an allied Palmyran in every nearest core hex
        _clear(st, h)
        st.place(f"P{i}", h)
    drive(economy.withdraw_from_parthia(ctx, st), Script())
    assert st.unit("I1").hex not in st.region("parthia") and st.unit("I1").hex == st.unit("I2").hex
    assert not _illegal_stacks(st)


@pytest.mark.rule("ldf:8.7", "ldf:10.1", "ldf:9.6")
def test_no_rebel_rising_beside_a_client_garrison() -> None:
    ctx, st = world()
    st.place("I1", CAUCASUS_HEX)
    assert CAUCASUS_HEX not in politics._rebel_hexes(st)
    assert politics.side_change_problem(st, CAUCASUS_HEX) is not None


@pytest.mark.rule("ldf:8.3", "ldf:10.1", "ldf:9.6")
def test_no_conversion_beside_a_client_garrison() -> None:
    ctx, st = world()
    st.place("I1", CAUCASUS_HEX)
    ctx.chance.force(2)
    assert drive(politics.convert(ctx, st, CAUCASUS_HEX), Script()) is False
    assert not st.unit("I1").rebel and not _illegal_stacks(st)
    pos = movement.position(st)
    for n in st.data.neighbours(CAUCASUS_HEX):  # a rebel force next to it rolls for it nowhere
        assert st.hex(CAUCASUS_HEX) not in movement.conversion_targets(st.map, pos, st.hex(n))[0]


@pytest.mark.rule("ldf:8.10", "ldf:10.1")
def test_no_diplomacy_with_a_loyal_co_emperor_beside_a_client_garrison() -> None:
    ctx, st = world()
    st.place("I1", CAUCASUS_HEX)
    st.place("CE", CAUCASUS_HEX)
    assert not politics.can_diplomacy_co_emperor(st, GP)


@pytest.mark.rule("ldf:8.7", "ldf:8.3", "ldf:9.5")
def test_no_non_gallic_rebel_rises_inside_an_active_gallic_empire() -> None:
    ctx, st = world()
    st.gallic_active = True
    gallic = sorted(st.region("gallic-empire") & set(st.occupied()))
    h = next(h for h in gallic if any(u.nationality == "roman" for u in st.units_at(h)))
    assert h not in politics._rebel_hexes(st)
    assert not politics.convertible(st.map, movement.position(st), st.hex(h))
    from ancients_games.ldf import chit_events

    assert not any(st.in_region(b, "gallic-empire") for b in chit_events._bread_hexes(st))  # Bread & Circuses


@pytest.mark.rule("ldf:14.3", "ldf:10.1", "ldf:10.8")
def test_every_placement_goes_through_the_one_check() -> None:
    """Outside the moves, retreats and advances (which check each step and every stop), no
    rules module calls the unchecked ``LDFState.place``: placements use ``stacking.place``."""
    allowed = {("movement.py", "_land_move"), ("movement.py", "move_force"), ("combat.py", "retreat"),
               ("combat.py", "_beyond"), ("combat.py", "advance"), ("stacking.py", "place")}
    found = []
    for path in sorted(Path(movement.__file__).parent.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "place" \
                        and isinstance(node.func.value, ast.Name) and node.func.value.id == "state" \
                        and (path.name, fn.name) not in allowed:
                    found.append(f"{path.name}:{node.lineno} in {fn.name}")
    assert not found, f"unchecked placements: {found}"


# ---------------------------------------------------------------- second readings


@pytest.mark.rule("ldf:11.1", "ldf:11.5")
def test_roman_zoc_crosses_the_rhine_only_germanic_zoc_stops() -> None:
    ctx, st = world()
    pos = zoc.Position((zoc.Unit("t", "german-tribe", st.hex("3214"), "german"),
                        zoc.Unit("v", "infantry-vexillation", st.hex("3114"), "loyal")), st.data.counters.pieces)
    assert zoc.in_ezoc(st.map, pos, st.hex("3214"), "german")  # the tribe is pinned
    assert not zoc.in_ezoc(st.map, pos, st.hex("3114"), "loyal")  # the legion is not


@pytest.mark.rule("ldf:8.8")
def test_negative_salt_never_makes_a_germano_parthian_roll_hopeless() -> None:
    ctx, st = world()
    st.treasury = 10
    ctx.chance.force(6)
    ok = drive(politics.political_roll(ctx, st, GP, "treachery against the emperor", ("ldf:8.9",)),
               Script({"salt": "salt-3"}))
    assert ok and st.treasury == 7
    assert "a six always succeeds" in ctx.log[-1].text


# ---------------------------------------------------------------- the warning of 8.4 (issue 23 item 5)


@pytest.mark.rule("ldf:8.4")
def test_warning_when_a_move_would_leave_a_leader_alone() -> None:
    ctx, st = world()
    rome = [u.id for u in st.units_at("3318") if not u.leader]
    assert warnings.leader_left_alone(st, "3318", rome[:1]) is None
    note = warnings.leader_left_alone(st, "3318", rome)
    assert note is not None and "the emperor" in note and "3318" in note and "ldf:8.4" in note
    assert warnings.leader_left_alone(st, "3318", [*rome, "E"]) is None  # he goes with them
    st.place("RG1", "3318")
    assert warnings.leader_left_alone(st, "3318", rome) is None  # a garrison is a unit of his (8.4)
    st.unit("CE").rebel = True
    _alone_with(st, "CE", "2812", "B3", "I3")
    st.unit("B3").rebel = st.unit("I3").rebel = True
    assert "rebel co-emperor" in (warnings.leader_left_alone(st, "2812", ["I3", "B3"]) or "")


# ---------------------------------------------------------------- the action_limit option


@pytest.mark.rule("ldf:8.1", "ldf:8.20")
def test_the_action_limit_is_off_unless_a_study_sets_it() -> None:
    """8.1 sets no limit on a turn's actions: a game played with the default options never
    ends a turn on the guard; bots still end their turns by passing (8.20) or chit 18."""
    from ancients_kit.bots import GreedyBot, play_out
    from ancients_kit.session import Session

    specs = {o.name: o for o in GAME.option_specs(None, "campaign")}  # type: ignore[arg-type]
    assert specs["action_limit"].default == 0
    s = Session(GAME, "campaign", seed=2, options={"concession": False})
    assert play_out(s, GreedyBot(), max_decisions=60_000) is not None
    assert not any("action_limit" in e.text for e in s.log)
