"""xen-core's phases on the real data: events and revolts, treasury and disbanding, recruiting,
guards and levies, supply, control and occupation, victory, the optional rules."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from ancients_kit.tables import LookupTable
from ancients_games.xenophon import control, events, pillage, recruit, supply, treasury, victory
from ancients_games.xenophon.state import EMPIRE, NEUTRAL, REBEL, XenState

from .core_helpers import clear_hex, events as log_events, game, hex_of, run

SARDIS = "2908"
PERSEPOLIS = "2028"


def _table(state: XenState, name: str) -> LookupTable:
    t = state.data.tables[name]
    assert isinstance(t, LookupTable)
    return t


# ---------------------------------------------------------------- components, roster, errata


@pytest.mark.rule("xen:components", "xen:roster")
def test_counter_mix_219_units_and_leaders_and_54_cities() -> None:
    _, st = game()
    satrapy_units = [u for u in st.units.values() if u.satrapy is not None]
    assert len(satrapy_units) == 179
    assert len(st.units) == 219  # 179 + 20 Empire and 20 Rebel single-sided leaders and guards
    single = [u for u in st.units.values() if u.satrapy is None]
    assert len(single) == 40
    kinds = list(st.data.city_kind.values())
    assert (kinds.count("city"), kinds.count("treasury"), kinds.count("capital")) == (44, 7, 3)
    assert len(st.pool) + sum(len(h) for h in st.hands.values()) == 40


@pytest.mark.rule("xen:errata", "xen:treasury-chart")
def test_errata_elephants_cost_5_and_1_and_pillaged_cities_still_score() -> None:
    _, st = game()
    assert (st.data.units["elephant"].recruit, st.data.units["elephant"].upkeep) == (5, 1)
    before = victory.score(st, REBEL)["cities"]
    st.pillaged.add(SARDIS)  # a pillaged city still counts for VP (errata)
    assert victory.score(st, REBEL)["cities"] == before


@pytest.mark.rule("xen:scenario.cyrus-revolt")
def test_set_up_lists_33_empire_29_neutral_33_rebel_units() -> None:
    _, st = game()
    doc = st.data.data.scenarios
    rebuilt = {e for m in doc.provenance if m.source == "reconstructed" for e in m.entries}
    listed = {c: 0 for c in (EMPIRE, NEUTRAL, REBEL)}
    for r in doc.setup:
        if r.satrapy not in rebuilt:
            listed[r.control] += r.total
    assert listed == {EMPIRE: 33, NEUTRAL: 29, REBEL: 33}


# ---------------------------------------------------------------- control and occupation


@pytest.mark.rule("xen:control")
def test_a_satrapy_turning_neutral_keeps_its_units_inside_and_loses_those_outside() -> None:
    ctx, st = game()
    outside = st.unit("lydia-L1")
    assert outside.hex == SARDIS
    st.place("lydia-L1", "3008")  # Ionia: outside Lydia
    lost = control.change_control(ctx, st, "Lydia", NEUTRAL, "test")
    # lydia-M1 stays in Sardis but is stacked with the Rebel guard: eliminated too (ruling 16)
    assert set(lost) == {"lydia-L1", "lydia-M1"}
    assert st.unit("lydia-L1").where == "mix" and st.control["Lydia"] == NEUTRAL
    assert all(u.side == NEUTRAL for u in st.units.values() if u.satrapy == "Lydia")
    ev = log_events(ctx, "control")[-1]
    assert ev.rules == ("xen:control",)


@pytest.mark.rule("xen:control", "xen:pillage")
def test_attacking_or_pillaging_a_neutral_satrapy_gives_it_to_the_other_player() -> None:
    """Driven through the pillage operation itself (T6; the attack path is in test_combat)."""
    from ancients_games.xenophon import pillage
    ctx, st = game()
    assert st.control["Scythia"] == NEUTRAL
    h = next(x for x in st.hexes_of("Scythia") if not st.units_at(x) and st.data.terrain.get(x) != "sea")
    st.place("armenia-M1", h)
    run(pillage.pillage(ctx, st, EMPIRE, ["armenia-M1"], h))
    assert st.control["Scythia"] == REBEL
    assert all(u.side == REBEL for u in st.units.values() if u.satrapy == "Scythia")
    assert not control.violate_neutrality(ctx, st, "Scythia", EMPIRE, "attacks")  # no longer neutral


@pytest.mark.rule("xen:occupation", "xen:treasury")
def test_occupation_not_control_gives_income_and_control_survives_no_occupation() -> None:
    ctx, st = game()
    athens = hex_of(st, "Athens")  # a neutral satrapy's Treasury City
    clear_hex(st, athens)
    before = treasury.income(st, REBEL)[1]["treasury"]
    st.place("rebel-guard-P1", athens)
    total, parts = treasury.income(st, REBEL)
    assert parts["treasury"] == before + 3  # Athens pays its occupier ...
    assert st.control["Athens"] == NEUTRAL  # ... without controlling Athens
    for h in st.hexes_of("Libya"):
        clear_hex(st, h)
    assert st.control["Libya"] == REBEL  # control is not lost by failing to occupy
    assert not control.occupies_all_cities(st, REBEL, "Libya")


# ---------------------------------------------------------------- random events and revolt


@pytest.mark.rule("xen:random-events")
def test_printed_event_chances() -> None:
    _, st = game()
    d = _table(st, "random-events").distribution()
    assert d["leader-arises"] == F(3, 36) and d["troops-rally"] == F(1, 36) and d["attrition"] == F(2, 36)
    assert d["mediterranean-war"] == F(2, 36) and d["plague"] == F(1, 36) and d["dissent"] == F(3, 36)
    assert sum(d.values()) == 1
    regions = [s for code in events.REVOLT_REGIONS for s in events.REVOLT_REGIONS[code]]
    assert sorted(regions) == sorted(st.data.satrapies)  # every satrapy in one regional revolt


@pytest.mark.rule("xen:revolt")
def test_revolt_chances_one_third_pillaged_half_colony_sixth() -> None:
    _, st = game()
    t = _table(st, "revolt")
    assert t.distribution(0)["revolt"] == F(1, 3)
    assert t.distribution(-1)["revolt"] == F(1, 2)
    assert t.distribution(+1)["revolt"] == F(1, 6)
    sat = "Phrygia"
    assert events.revolt_drm(st, sat, REBEL) == 0
    st.pillaged.add(st.hexes_of(sat)[0])
    assert events.revolt_drm(st, sat, REBEL) == -1
    colony = next(h for h in st.hexes_of(sat) if not st.is_city(h) and h not in st.pillaged)
    st.colonies.add(colony)
    st.place("rebel-guard-P1", colony)
    assert events.revolt_drm(st, sat, REBEL) == 0  # both: 1/3
    st.pillaged.clear()
    assert events.revolt_drm(st, sat, REBEL) == 1
    assert events.revolt_drm(st, sat, EMPIRE) == 0  # the colony must be the phasing player's


@pytest.mark.rule("xen:revolt", "xen:random-events")
def test_a_revolt_event_turns_neutral_to_rebel_and_controlled_to_neutral() -> None:
    ctx, st = game()
    # 33 = Revolt in the Levant: Syria (Empire), Egypt (Rebel), Libya (Rebel), Arabia (neutral)
    ctx.chance.force(3, 3, 1, 6, 2, 2)
    run(events.events_phase(ctx, st, REBEL))
    assert st.control["Syria"] == NEUTRAL
    assert st.control["Egypt"] == REBEL
    assert st.control["Libya"] == NEUTRAL
    assert st.control["Arabia"] == REBEL
    ev = log_events(ctx, "random-event")[0]
    assert ev.rules == ("xen:random-events", "xen:revolt") and "reconstructed" in ev.text


@pytest.mark.rule("xen:random-events", "xen:leaders")
def test_leader_arises_places_an_available_leader_with_a_friendly_unit() -> None:
    ctx, st = game()
    ctx.chance.force(1, 2)
    run(events.events_phase(ctx, st, REBEL), ["xenophon", SARDIS])
    assert st.unit("Xenophon").hex == SARDIS


@pytest.mark.rule("xen:random-events", "xen:leaders", "xen:supreme-leaders")
def test_leader_arises_never_brings_back_the_dead_supreme_leader_after_a_successor() -> None:
    """"Any 1 available leader (not Supreme Leader)": once Ariaos has succeeded Cyrus, the event
    offers neither of them, as the chit does (one list, D24)."""
    ctx, st = game()
    st.eliminate("Cyrus")
    st.to_mix("Cyrus")
    st.supreme[REBEL] = "Ariaos"
    ctx.chance.force(1, 2)
    asked: list = []
    run(events.events_phase(ctx, st, REBEL), asked=asked)
    offered = next(d for d in asked if d.kind == "event.leader").keys
    assert "cyrus" not in offered and "ariaos" not in offered and "xenophon" in offered


@pytest.mark.rule("xen:random-events")
def test_attrition_even_roll_takes_a_leader_first() -> None:
    ctx, st = game()
    ctx.chance.force(1, 5, 2)  # 15 = Attrition, 2 units
    asked: list = []
    run(events.events_phase(ctx, st, REBEL), asked=asked)
    assert all(st.unit(o.key).leader for o in asked[0].options)
    assert len(asked) == 2
    gone = [d.options[0].key for d in asked]  # the first option each time
    assert st.unit(gone[0]).leader and all(st.unit(u).where == "mix" for u in gone)


@pytest.mark.rule("xen:random-events", "xen:treasury", "xen:levy")
def test_mediterranean_war_stops_tax_and_levy_in_the_nine_for_the_player_turn() -> None:
    ctx, st = game()
    st.player_turn = REBEL
    ctx.chance.force(2, 1)
    run(events.events_phase(ctx, st, REBEL))
    total, parts = treasury.income(st, REBEL)
    closed = treasury.closed_satrapies(st, REBEL)
    assert "Egypt" in closed and "Ionia" in closed
    expected = sum(treasury.INCOME[st.city_kind(h)] for h in control.friendly_cities(st, REBEL)
                   if h not in st.pillaged and st.satrapy_of(h) not in closed)
    assert total == expected and expected < treasury.income(st, EMPIRE)[0] + 99
    asked: list = []
    run(recruit.levy_phase(ctx, st, REBEL), asked=asked)
    assert not any("Egypt" in d.prompt for d in asked)


@pytest.mark.rule("xen:random-events", "xen:recruit", "xen:guards", "xen:opt.public-works")
def test_mediterranean_war_stops_guard_and_train_purchases_too() -> None:
    """"May not ... purchase ... units" in the nine: no Guard, train or satrapy unit even with a
    leader there; Public Works is no unit and may still be built (D22)."""
    ctx, st = game(public_works=True)
    ctx.chance.force(2, 1)
    run(events.events_phase(ctx, st, REBEL))
    closed = treasury.closed_satrapies(st, REBEL)
    st.treasury[REBEL].value = 99
    city = next(h for h in control.friendly_cities(st, REBEL) if st.satrapy_of(h) in closed and h not in st.pillaged
                and len(st.units_at(h)) < 9)
    st.place("Ariaos", city)
    assert {k for k, _, _ in recruit.recruit_choices(st, REBEL, city)} == {"public-works"}
    st.effects.pop("player-turn:mediterranean-war")
    assert {"guard-phalanx", "siege_train"} <= {k for k, _, _ in recruit.recruit_choices(st, REBEL, city)}


@pytest.mark.rule("xen:random-events", "xen:stratagem")
def test_dissent_discards_half_the_chits_rounded_up() -> None:
    ctx, st = game()
    assert len(st.hands[REBEL]) == 6
    ctx.chance.force(2, 4)
    run(events.events_phase(ctx, st, REBEL))
    assert len(st.hands[REBEL]) == 3 and len(st.pool) == 35
    st.hands[EMPIRE].remove(st.hands[EMPIRE].cards[0])
    st.pool.add("Agent")
    ctx.chance.force(2, 5)
    run(events.events_phase(ctx, st, EMPIRE))
    assert len(st.hands[EMPIRE]) == 0  # 1 chit: half rounded up is 1


@pytest.mark.rule("xen:random-events")
def test_plague_hits_units_and_cities_of_a_plagued_satrapy() -> None:
    ctx, st = game()
    sats = st.data.satrapies
    lydia = sats.index("Lydia")
    rolls = [2, 3] + [6 if i == lydia else 1 for i in range(len(sats))]
    n = len(st.units_at(SARDIS))
    rolls += [1] * n + [1] + [1, 1]  # every unit in Lydia dies; Sardis is pillaged; each discards 1
    ctx.chance.force(*rolls)
    run(events.events_phase(ctx, st, REBEL))
    assert not st.units_at(SARDIS) and SARDIS in st.pillaged
    # Cyrus died of it: all 6 Rebel chits went back (xen:supreme-leaders); the Empire then lost 1 of 2
    assert len(st.hands[REBEL]) == 0 and len(st.hands[EMPIRE]) == 1
    assert ctx.chance.pending_forced == ()


# ---------------------------------------------------------------- treasury and disband


@pytest.mark.rule("xen:treasury", "xen:treasury-chart")
def test_income_three_two_one_and_nothing_from_a_pillaged_city() -> None:
    _, st = game()
    total, parts = treasury.income(st, EMPIRE)
    caps = [h for h, k in st.data.city_kind.items() if k == "capital" and st.occupier(h) == EMPIRE]
    assert parts["capital"] == 2 * len(caps)
    before = total
    st.pillaged.add(PERSEPOLIS)
    assert treasury.income(st, EMPIRE)[0] == before - 2


@pytest.mark.rule("xen:treasury", "xen:remove-pillage", "xen:stratagem")
def test_treasury_phase_buys_chits_and_removes_pillage_markers() -> None:
    ctx, st = game()
    st.pillaged.update({SARDIS, "3009"})
    st.place("lydia-M1", "3009")
    money = st.treasury[REBEL].value
    inc, _ = treasury.income(st, REBEL)
    opts = {o.key for o in treasury.spending_options(st, REBEL)}
    assert {"buy-chit", f"remove-pillage:{SARDIS}", "remove-pillage:3009"} <= opts
    run(treasury.treasury_phase(ctx, st, REBEL), ["buy-chit", f"remove-pillage:{SARDIS}", "remove-pillage:3009",
                                                  "done"], default=lambda d: "pay" if "pay" in d.keys else d.keys[0])
    due = sum(c for _, c in treasury.upkeep(st, REBEL))
    assert st.treasury[REBEL].value == money + inc - 2 - 5 - 3 - due
    assert not st.pillaged and len(st.hands[REBEL]) == 7


@pytest.mark.rule("xen:treasury-chart", "xen:treasury")
def test_upkeep_one_unit_a_hex_free_in_its_home_satrapy() -> None:
    _, st = game()
    costs = dict((u.id, c) for u, c in treasury.upkeep(st, REBEL))
    # Sardis: lydia-L1 at home is free; the guard (no satrapy) pays; Cyrus, Ariaos and militia cost nothing
    assert "lydia-L1" not in costs and "lydia-M1" not in costs and "Cyrus" not in costs
    assert costs["rebel-guard-P1"] == 1
    assert all(c == 2 for u, c in treasury.upkeep(st, REBEL) if u.fleet)


@pytest.mark.rule("xen:disband")
def test_disband_chances_with_and_without_a_leader() -> None:
    _, st = game()
    t = _table(st, "disband")
    assert t.distribution(0) == {"mutiny": F(1, 3), "disband": F(1, 2), "loyal": F(1, 6)}
    assert t.distribution(1) == {"mutiny": F(1, 6), "disband": F(1, 2), "loyal": F(1, 3)}
    assert treasury.disband_drm(st, st.unit("rebel-guard-P1")) == 1  # Cyrus in Sardis
    assert treasury.disband_drm(st, st.unit("ionia-P1")) == 0


@pytest.mark.rule("xen:disband", "xen:treasury")
def test_unmaintained_units_mutiny_pillage_disband_or_stay() -> None:
    ctx, st = game()
    h = st.unit("ionia-P1").hex
    ctx.chance.force(1)
    assert run(treasury.disband_check(ctx, st, "ionia-P1")) == "mutiny"
    assert h in st.pillaged and st.unit("ionia-P1").where == "mix"
    empire_chits = len(st.hands[EMPIRE])
    st.place("ionia-M2", h)
    ctx.chance.force(2)
    assert run(treasury.disband_check(ctx, st, "ionia-M2")) == "mutiny"
    assert len(st.hands[EMPIRE]) == empire_chits + 1  # the hex was pillaged already: the enemy draws
    ctx.chance.force(5)
    assert run(treasury.disband_check(ctx, st, "rebel-guard-P1")) == "loyal"  # 5 + 1 (Cyrus)
    ctx.chance.force(3)
    assert run(treasury.disband_check(ctx, st, "ionia-M3")) == "disband"


@pytest.mark.rule("xen:disband", "xen:colonisation")
def test_a_mutiny_in_a_colony_removes_it_and_leaves_a_pillage_marker() -> None:
    """Disband Table: "Mutiny: Remove unit from map. If hex unpillaged place Pillage marker"; the
    Colony goes with the pillage (D25)."""
    ctx, st = game()
    h = "3010"  # an empty clear Lydian hex next to Sardis
    assert h not in st.data.city_kind and not st.units_at(h)
    st.colonies.add(h)
    st.place("ionia-M2", h)
    ctx.chance.force(1)
    assert run(treasury.disband_check(ctx, st, "ionia-M2")) == "mutiny"
    assert h not in st.colonies and h in st.pillaged and st.forage(h) == 0


@pytest.mark.rule("xen:disband", "xen:naval-transport")
def test_a_fleet_checks_once_for_the_units_aboard() -> None:
    ctx, st = game()
    fleet = st.unit("ionia-F1")
    st.unit("ionia-M2").embarked = fleet.id
    ctx.chance.force(4)
    assert run(treasury.disband_check(ctx, st, fleet.id)) == "disband"
    assert st.unit("ionia-M2").where == "mix"


@pytest.mark.rule("xen:treasury", "xen:disband")
def test_units_left_unpaid_roll_on_the_disband_table() -> None:
    ctx, st = game()
    st.treasury[REBEL].value = 0
    due = treasury.upkeep(st, REBEL)
    assert due
    ctx.chance.force(*([6] * len(due)))
    asked: list = []
    run(treasury._maintain(ctx, st, REBEL), asked=asked)
    assert all("pay" not in d.keys for d in asked)  # $0: no way to pay
    assert len(log_events(ctx, "disband")) == len(due)


# ---------------------------------------------------------------- recruit, guards, levy


@pytest.mark.rule("xen:recruit")
def test_recruit_one_unit_a_city_of_its_own_satrapy_fleets_in_ports() -> None:
    ctx, st = game()
    st.treasury[REBEL].value = 40
    halik = hex_of(st, "Halikarnassos")
    choices = {k for k, _, _ in recruit.recruit_choices(st, REBEL, halik)}
    assert "phalanx" in choices and ("fleet" in choices) == (halik in st.data.ports)
    ephesos = hex_of(st, "Ephesos")
    assert "fleet" not in {k for k, _, _ in recruit.recruit_choices(st, REBEL, ephesos)} or ephesos in st.data.ports
    asked: list = []
    run(recruit.recruit_phase(ctx, st, REBEL), [f"city:{halik}", "phalanx"], default=lambda d: d.keys[0],
        asked=asked)
    assert st.treasury[REBEL].value == 36
    assert f"city:{halik}" not in asked[-1].keys  # one purchased unit a city
    # Athens is occupied by nobody of the Rebel's and neutral: no recruiting there
    assert recruit.recruit_choices(st, REBEL, hex_of(st, "Athens")) == []


@pytest.mark.rule("xen:recruit", "xen:pillage", "xen:opt.public-works")
def test_no_recruit_into_a_pillaged_city_nor_a_fleet_into_a_pillaged_port() -> None:
    """Pillage effects: "Ignore printed Cities (treat as clear). Ignore any port in the hex" (D9)."""
    ctx, st = game(public_works=True)
    st.treasury[REBEL].value = 99
    port = next(h for h in sorted(st.data.ports) if st.occupier(h) == REBEL
                and st.control.get(st.satrapy_of(h)) == REBEL and st.data.row(st.satrapy_of(h)).fleet)
    sat = st.satrapy_of(port)
    for u in list(st.units.values()):
        if u.satrapy == sat and u.fleet and u.where == "map":
            st.to_mix(u.id)
    before = {k for k, _, _ in recruit.recruit_choices(st, REBEL, port)}
    assert {"fleet", "public-works"} <= before and port in recruit.recruit_cities(st, REBEL)
    st.pillaged.add(port)
    assert recruit.recruit_choices(st, REBEL, port) == []
    assert port not in recruit.recruit_cities(st, REBEL)
    asked: list = []
    run(recruit.recruit_phase(ctx, st, REBEL), asked=asked,
        default=lambda d: "done" if "done" in d.keys else d.keys[0])
    assert all(f"city:{port}" not in d.keys for d in asked)


@pytest.mark.rule("xen:recruit")
def test_recruit_limited_by_the_counter_mix() -> None:
    _, st = game()
    st.treasury[REBEL].value = 99
    sardis_units = {k for k, _, _ in recruit.recruit_choices(st, REBEL, SARDIS)}
    lydia = st.data.row("Lydia")
    for t in ("phalanx", "cavalry", "light", "militia", "elephant"):
        assert (t in sardis_units) == (len(st.mix("Lydia", t)) > 0), t
    assert lydia.total >= 2


@pytest.mark.rule("xen:guards", "xen:recruit")
def test_guards_and_trains_only_on_a_leader_in_an_unpillaged_city() -> None:
    ctx, st = game()
    st.treasury[REBEL].value = 99
    for u in list(st.units_at(SARDIS)):
        if u.guard:
            st.to_mix(u.id)
    keys = {k for k, _, _ in recruit.recruit_choices(st, REBEL, SARDIS)}
    assert {"guard-phalanx", "siege_train", "supply_train"} <= keys
    halik = hex_of(st, "Halikarnassos")
    assert not {"guard-phalanx", "siege_train"} & {k for k, _, _ in recruit.recruit_choices(st, REBEL, halik)}
    run(recruit.recruit_phase(ctx, st, REBEL),
        [f"city:{SARDIS}", "guard-phalanx", f"city:{SARDIS}", "siege_train", f"city:{SARDIS}", "supply_train"],
        default=lambda d: "done" if "done" in d.keys else d.keys[0])
    at = {u.type for u in st.units_at(SARDIS) if u.satrapy is None and not u.leader}
    assert at == {"phalanx", "siege_train", "supply_train"}
    st.pillaged.add(SARDIS)
    assert not {"guard-phalanx"} & {k for k, _, _ in recruit.recruit_choices(st, REBEL, SARDIS)}


@pytest.mark.rule("xen:levy", "xen:errata")
def test_levy_up_to_the_levy_value_one_a_hex_fleets_on_the_coast() -> None:
    ctx, st = game()
    in_mix = {s: sum(1 for u in st.units.values() if u.satrapy == s and u.where == "mix") for s in st.controlled(REBEL)}
    assert in_mix["Egypt"] == 2 and st.data.row("Egypt").levy_value == 3
    asked: list = []
    run(recruit.levy_phase(ctx, st, REBEL), asked=asked,
        default=lambda d: ("fleet" if "fleet" in d.keys else d.keys[1]) if d.kind == "levy.type" else d.keys[0])
    for sat, n in in_mix.items():
        levied = [e.data["units"] for e in log_events(ctx, "levy") if e.data.get("satrapy") == sat and "units" in e.data]
        assert sum(len(x) for x in levied) == min(n, st.data.row(sat).levy_value), sat
        hexes = [st.unit(u).hex for x in levied for u in x]
        assert len(set(hexes)) == len(hexes)  # one levied unit a hex
        assert all(st.satrapy_of(h) == sat for h in hexes)
    lost = [e for e in log_events(ctx, "levy") if e.data.get("satrapy") == "Egypt" and "lost" in e.text]
    assert lost  # the third Egyptian levy: nothing left in the mix
    coast = recruit.levy_hexes(st, REBEL, "Egypt", True)
    land = recruit.levy_hexes(st, REBEL, "Egypt", False)
    assert coast and set(coast) < set(land) and all(h in st.data.coastal or h in st.data.ports for h in coast)


@pytest.mark.rule("xen:levy", "xen:zoc")
def test_levy_never_into_pillaged_enemy_or_ezoc_hexes() -> None:
    """Each bar on its own hex (T3): a pillaged hex out of any EZOC, an Empire-occupied hex, and
    an empty unpillaged hex that only the Empire unit's ZOC bars."""
    _, st = game()
    free = recruit.levy_hexes(st, REBEL, "Phrygia", False)
    enemy = "3012"  # an empty Phrygian hex; an Empire unit goes there
    assert enemy in free and not st.units_at(enemy)
    st.place("armenia-M1", enemy)
    ezoc = recruit.placement_ezoc(st, REBEL, False)
    zoc_only = next(h for h in st.neighbours(enemy) if h in free and not st.units_at(h))
    pillaged = next(h for h in free if h not in ezoc and h not in (enemy, zoc_only) and not st.units_at(h))
    st.pillaged.add(pillaged)
    no_zoc = recruit.levy_hexes(st, REBEL, "Phrygia", False, ezoc=())
    assert pillaged not in no_zoc  # barred by the marker alone
    assert enemy not in no_zoc  # barred by the enemy unit in it, whatever its ZOC
    assert zoc_only in no_zoc and zoc_only in ezoc
    hexes = recruit.levy_hexes(st, REBEL, "Phrygia", False)
    assert zoc_only not in hexes  # barred by the EZOC alone
    assert pillaged not in hexes and enemy not in hexes
    assert SARDIS in recruit.levy_hexes(st, REBEL, "Lydia", False)  # a Rebel-held city: no EZOC there


@pytest.mark.rule("xen:levy", "xen:chits")
def test_a_hex_that_took_an_empire_mobilizes_unit_takes_no_normal_levy() -> None:
    """Empire Mobilizes places "per normal Levy rules": 1 levied unit a hex, the two together (D20)."""
    from ancients_games.xenophon.stratagems import empire_mobilizes
    ctx, st = game()
    st.player_turn = EMPIRE
    asked: list = []
    run(empire_mobilizes(ctx, st, EMPIRE, 1), ["media", lambda d: d.keys[0], lambda d: d.keys[0]], asked=asked)
    h = asked[-1].keys[0]
    assert st.satrapy_of(h) == "Media" and any(u.side == EMPIRE for u in st.units_at(h))
    asked.clear()
    run(recruit.levy_phase(ctx, st, EMPIRE), asked=asked,
        default=lambda d: d.keys[1] if d.kind == "levy.type" else d.keys[0])
    media = [d for d in asked if d.kind == "levy.hex" and "Levy Media" in d.prompt]
    assert media and all(h not in d.keys for d in media)


@pytest.mark.rule("xen:opt.reduced-levy", "xen:levy")
def test_reduced_levy_scythia_two_or_one_and_levy_one_on_even_turns() -> None:
    _, st = game(reduced_levy=True)
    st.set_control("Scythia", REBEL)
    assert st.data.row("Scythia").levy_value == 2
    assert recruit.levy_value(st, "Scythia", REBEL) == 1
    st.place("armenia-M1", st.hexes_of("Scythia")[5])
    assert recruit.levy_value(st, "Scythia", REBEL) == 2
    assert st.data.row("Lydia").levy_value == 1
    st.turn = 1
    assert recruit.levy_value(st, "Lydia", REBEL) == 0
    st.turn = 2
    assert recruit.levy_value(st, "Lydia", REBEL) == 1
    _, plain = game()
    assert recruit.levy_value(plain, "Lydia", REBEL) == 1


@pytest.mark.rule("xen:opt.public-works", "xen:treasury", "xen:victory", "xen:revolt")
def test_public_works_cost_5_add_1_tax_1_vp_revolt_drm_and_go_with_pillage() -> None:
    ctx, st = game(public_works=True)
    st.treasury[REBEL].value = 10
    assert "public-works" in {k for k, _, _ in recruit.recruit_choices(st, REBEL, SARDIS)}
    inc = treasury.income(st, REBEL)[0]
    vp = victory.scores(st)[REBEL]
    run(recruit.recruit_phase(ctx, st, REBEL), [f"city:{SARDIS}", "public-works"],
        default=lambda d: "done" if "done" in d.keys else d.keys[0])
    assert SARDIS in st.public_works and st.treasury[REBEL].value == 5
    assert treasury.income(st, REBEL)[0] == inc + 1
    assert victory.scores(st)[REBEL] == vp + 1
    assert events.revolt_drm(st, "Lydia", REBEL) == 1  # every city of Lydia has Public Works
    pillage.mark_pillaged(ctx, st, SARDIS, "test", ("xen:pillage",))
    assert SARDIS not in st.public_works
    _, plain = game()
    assert "public-works" not in {k for k, _, _ in recruit.recruit_choices(plain, REBEL, SARDIS)}


# ---------------------------------------------------------------- supply


@pytest.mark.rule("xen:supply", "xen:pillage")
def test_forage_pillage_zeroes_the_hex_and_adjacent_non_city_hexes() -> None:
    """A pillaged City blights its non-City neighbours too: Rulings: core 16 reads the two rule
    texts over the table's parenthesis "(if was non-city ...)" (D6, T5)."""
    _, st = game()
    assert st.forage("3009") == 2 and st.forage("2907") == 5
    st.pillaged.add(SARDIS)
    assert st.forage(SARDIS) == 0 and st.forage("3009") == 0
    assert st.forage("2907") == 5  # Ephesos, a city, keeps its FV


@pytest.mark.rule("xen:supply")
def test_desert_feeds_one_unit_of_its_own_satrapy() -> None:
    _, st = game()
    desert = next(h for h in st.hexes_of("Arabia") if h in st.data.desert and not st.units_at(h))
    st.place("arabia-L1", desert)
    assert supply.capacity(st, desert, [st.unit("arabia-L1")]) == 1
    assert supply.capacity(st, desert, [st.unit("armenia-M1")]) == 0


@pytest.mark.rule("xen:supply")
def test_the_desert_feeds_its_own_satrapys_unit_not_a_stranger() -> None:
    """"Can always supply one unit of their own Satrapy": with a stranger in the desert too, the
    owner may not eliminate the own-satrapy unit and keep the stranger fed (D16)."""
    ctx, st = game()
    desert = next(h for h in st.hexes_of("Egypt") if h in st.data.desert and not st.units_at(h)
                  and st.forage(h) == 0)
    own = st.unit("egypt-L1")
    stranger = next(u for u in st.on_map() if u.side == own.side and u.satrapy not in (None, "Egypt")
                    and not u.leader)
    st.place(own.id, desert)
    st.place(stranger.id, desert)
    asked: list = []
    run(supply.supply_phase(ctx, st, own.side), asked=asked,
        default=lambda d: own.id if own.id in d.keys else d.keys[0])  # he would rather keep the stranger
    lose = [d for d in asked if d.kind == "supply.lose" and desert in d.prompt]
    assert lose and all(own.id not in d.keys for d in lose)
    assert st.unit(own.id).hex == desert and st.unit(stranger.id).where != "map"


@pytest.mark.rule("xen:supply")
def test_excess_units_die_unless_a_supply_train_is_expended() -> None:
    ctx, st = game()
    h = "3009"  # FV 2
    for uid in ("rebel-guard-P1", "rebel-guard-P2", "rebel-guard-P3"):
        st.place(uid, h)
    assert supply.out_of_supply(st, REBEL)[h] == 1
    run(supply.supply_phase(ctx, st, REBEL), ["rebel-guard-P3"])
    assert st.unit("rebel-guard-P3").where == "mix" and len(st.units_at(h)) == 2
    st.place("rebel-guard-P3", h)
    st.place("rebel-supply-1", h)
    run(supply.supply_phase(ctx, st, REBEL), ["expend"])
    assert st.unit("rebel-supply-1").where == "mix" and len(st.units_at(h)) == 3
    assert log_events(ctx, "supply")[-1].rules == ("xen:supply",)


@pytest.mark.rule("xen:random-events", "xen:chits")
def test_consult_oracles_rerolls_the_random_events_roll_in_the_events_phase() -> None:
    """The after-roll window of the Random Events phase is asked and a chit played there acts
    (T2): the Rebel plays Consult Oracles on his d66 and the table reads the new roll."""
    from ancients_games.xenophon.chits import chit_key
    ctx, st = game()
    if "Consult Oracles" not in st.hands[REBEL]:
        st.pool.remove("Consult Oracles")
        st.hands[REBEL].add("Consult Oracles")
    oracles = chit_key("Consult Oracles")
    windows: list = []
    run(events.events_phase(ctx, st, REBEL), window=lambda d: oracles if oracles in d.keys else "no",
        windows=windows)
    first = windows[0]
    assert first.kind == "window.after-roll" and first.side == REBEL and oracles in first.keys
    assert "Consult Oracles" not in st.hands[REBEL] and "Consult Oracles" in st.pool.contents
    played = [e for e in log_events(ctx, "chit-played") if e.data.get("chit") == "Consult Oracles"]
    assert len(played) == 1 and played[0].side == REBEL
    rolls = [e for e in log_events(ctx, "roll") if "Random Events Table" in e.text]
    assert len(rolls) == 2 and "Consult Oracles" in rolls[1].text  # the first roll ignored, rolled again
    result = log_events(ctx, "random-event")[0]
    assert str(result.data["roll"]) in rolls[1].text


@pytest.mark.rule("xen:random-events", "xen:intelligence", "xen:stratagem")
def test_favourable_omens_shows_only_the_chits_drawn_never_the_pool() -> None:
    """The rebuilt Favourable Omens (63): two chits drawn unseen, one kept, the other returned;
    the choice never lists the pool, whose missing kinds would show the other hand (H1)."""
    ctx, st = game()
    pool, hand = len(st.pool), len(st.hands[REBEL])
    assert len(set(map(str, st.pool.contents))) > 3  # the pool holds many kinds
    asked: list = []
    run(events.HANDLERS["omens"](ctx, st, REBEL), [lambda d: d.keys[0]], asked=asked)
    (d,) = asked
    assert d.side == REBEL and 1 <= len(d.keys) - 1 <= events.OMENS_DRAW and d.keys[-1] == "none"
    assert len(st.pool) == pool - 1 and len(st.hands[REBEL]) == hand + 1
    new = [e for e in ctx.log if e.rules and "xen:random-events" in e.rules]
    assert new and all(e.private_to == REBEL for e in new)  # which chits: his alone
    names = {c.name for c in st.data.chits.values()}
    assert all(e.public_text and not any(n in e.public_text for n in names) for e in new)


@pytest.mark.rule("xen:supply", "xen:random-events")
def test_famine_zeroes_non_city_hexes_of_the_satrapy_this_turn() -> None:
    """The rebuilt Famine (62): struck in the Rebel's Random Events phase, Lydia's non-City hexes
    feed nobody in both Supply phases of Turn 1, and are fed again once Turn 2 begins (D8)."""
    from ancients_games.xenophon import GAME
    ctx, st = game()
    normal = st.forage("3009")
    assert normal > 0
    run(events.HANDLERS["famine"](ctx, st, REBEL), ["lydia"])
    assert st.forage("3009") == 0 and st.forage(SARDIS) == 8
    gen = GAME.resume(ctx, st, ("phase", 1, REBEL, "stratagem"))
    seen: dict[tuple[int, str], int] = {}
    d = next(gen)
    while st.turn == 1:
        seen[(st.turn, st.player_turn)] = st.forage("3009")  # at the last decision of each player-turn
        d = gen.send("no" if d.kind.startswith("window.") and "no" in d.keys else d.options[0].key)
    assert seen[(1, REBEL)] == 0 and seen[(1, EMPIRE)] == 0  # still starving in the Empire's player-turn
    assert "turn:famine" not in st.effects and st.forage("3009") == normal


# ---------------------------------------------------------------- victory


@pytest.mark.rule("xen:victory")
def test_victory_points_and_levels() -> None:
    ctx, st = game()
    assert victory.CITY_VP[EMPIRE]["capital"] == 3 and victory.CITY_VP[EMPIRE]["treasury"] == 2
    assert victory.CITY_VP[REBEL]["capital"] == 2 and victory.CITY_VP[REBEL]["treasury"] == 3
    assert [victory.level(d) for d in (0, 1, 20, 21, 40, 41, -41)] == \
        ["draw", "marginal", "marginal", "regional", "regional", "imperial", "imperial"]
    base = victory.score(st, EMPIRE)
    assert base["supreme"] == 0
    st.eliminate("Cyrus")
    assert victory.score(st, EMPIRE)["supreme"] == 5
    st.eliminate("Artaxerxes")
    assert victory.score(st, REBEL)["supreme"] == 10
    assert victory.score(st, REBEL)["satrapies"] == sum(st.data.row(s).levy_value for s in st.controlled(REBEL))
    victory.final(ctx, st)
    assert st.over and st.level == victory.level(st.vp[REBEL] - st.vp[EMPIRE])


@pytest.mark.rule("xen:supply", "xen:pillage")
def test_forage_agrees_with_the_hexes_pillage_destroys() -> None:
    from ancients_games.xenophon.pillage import forage_destroyed

    _, st = game()
    for h in ("2908", "2613", "2707", "2011"):  # Sardis, a Cyprus port, Halikarnassos, Memphis
        st.pillaged = {h}
        zero = {x for x in [h, *st.neighbours(h)] if st.forage(x) == 0 and st.data.forage.get(x, 0) > 0}
        assert zero == {x for x in forage_destroyed(st, h) if st.data.forage.get(x, 0) > 0}, h
