"""Tests of the LDF event chits (ldf:8.17-8.19, 10.9, 14.3) against data/chits.toml."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ancients_kit.data import DataStore
from ancients_games.ldf import chit_events, chits, model


@pytest.fixture(scope="module")
def chit_set() -> model.ChitSet:
    return model.load_chits(DataStore(model.PACKAGE))


@pytest.mark.rule("ldf:8.17", "ldf:3.5", "ldf:2.6b")
def test_on_draw_chits_are_the_five_of_8_17(chit_set: model.ChitSet) -> None:
    assert set(chit_set.on_draw()) == chits.ON_DRAW == {10, 18, 19, 20, 25}
    assert len(chit_set.pool()) == 26


@pytest.mark.rule("ldf:14.3")
def test_every_chit_has_one_moment_of_play(chit_set: model.ChitSet) -> None:
    """Each of the 24 chits (and 25) is resolved on the draw, at a window, or as an action."""
    at_window = {n for ns in chits.WINDOW_CHITS.values() for n in ns}
    assert not at_window & chits.ON_DRAW
    for n, c in chit_set.chits.items():
        assert c.on_draw == (n in chits.ON_DRAW)
        if n in at_window:
            assert "as an action" not in c.timing, n


@pytest.mark.rule("ldf:14.3")
def test_one_side_chits_drawn_by_the_other(chit_set: model.ChitSet) -> None:
    for n, c in chit_set.chits.items():
        for side in ("roman", "germano-parthian"):
            what = chits.drawn_by_wrong_side(c, side)
            if c.player in ("both", side):
                assert what is None
            else:
                assert what == ("handed" if n == 21 else "shown"), (n, side)


@pytest.mark.rule("ldf:14.3", "ldf:6.1")
def test_revenue_windfall_four_tp_one_sixth_five_tp_five_sixths() -> None:
    assert chits.windfall_distribution() == {4: Fraction(1, 6), 5: Fraction(5, 6)}


@pytest.mark.rule("ldf:14.3", "ldf:5.4")
def test_the_gods_are_bored() -> None:
    assert [chits.gods_bored_ends_turn(d, 3) for d in range(1, 7)] == [False, True] * 3
    assert not any(chits.gods_bored_ends_turn(d, 5) for d in range(1, 7))


@pytest.mark.rule("ldf:14.3")
def test_die_plus_n_chits() -> None:
    assert [chits.dole_cost(d) for d in range(1, 7)] == [2, 3, 4, 5, 6, 7]
    assert [chits.german_increase(d) for d in range(1, 7)] == [4, 5, 6, 7, 8, 9]
    assert [chits.cavalry_reserve_formed(d) for d in range(1, 7)].count(True) == 1
    assert chits.jaws_draws(6, 2) == 4 and chits.jaws_draws(2, 0) == 2


@pytest.mark.rule("ldf:8.17")
def test_hand_limit_six() -> None:
    assert chits.may_draw(5) and not chits.may_draw(6)


# ---------------------------------------------------------------- in play, on a real campaign state

from ancients_games.ldf.state import GP, ROMAN, ROME  # noqa: E402
from ancients_games.ldf.tests.politics_helpers import Script, drive, texts, world  # noqa: E402


def drawn(ctx, st, side, number, script=None):
    """``side`` has just drawn ``number`` from the pool: resolve it (8.17)."""
    st.pool.remove(number)
    return drive(chit_events.on_drawn(ctx, st, side, number), script or Script())


@pytest.mark.rule("ldf:14.3", "ldf:10.9")
def test_beseech_the_gods_after_any_roll_asks_only_its_holder() -> None:
    ctx, st = world()
    ctx.chance.force(1)
    script = Script()
    assert drive(chits.roll_die(ctx, st, GP, "test", ("ldf:14.3",)), script) == 1
    assert script.asked == []  # neither holds chit 2: no question
    st.hands[ROMAN].add(2)
    ctx.chance.force(1, 6)
    script = Script({"window.after-roll": ["chit-2"]})
    assert drive(chits.roll_die(ctx, st, GP, "test", ("ldf:14.3",)), script) == 6
    assert [d.side for d in script.asked] == [ROMAN]
    assert 2 in st.pool and 2 not in st.hands[ROMAN]


@pytest.mark.rule("ldf:14.3", "ldf:8.17")
def test_one_side_chits_are_shown_and_21_handed_over() -> None:
    ctx, st = world()
    assert drawn(ctx, st, ROMAN, 22, Script()) is True
    assert 22 in st.pool and "shown and put back" in texts(ctx)
    assert drawn(ctx, st, GP, 21, Script()) is True
    assert 21 in st.hands[ROMAN]
    assert drawn(ctx, st, GP, 2, Script()) is False  # kept: it goes into the hand


@pytest.mark.rule("ldf:14.3", "ldf:6.3", "ldf:14.4", "ldf:8.17")
def test_plague() -> None:
    ctx, st = world()
    ctx.chance.force(3)
    h = sorted(st.region("caucasus"))[0]
    drawn(ctx, st, ROMAN, 10, Script({"chit.plague": h}))
    assert not any(u.garrison for u in st.units_at(h)) and h not in st.looted and h in st.plague
    assert 10 in st.pool
    ctx.chance.force(6, 6)  # the emperor dies; 6: orderly succession, the Roman chooses
    where = sorted({u.hex for u in st.of_kind("infantry-vexillation")})[0]
    drawn(ctx, st, GP, 10, Script({"emperor.hex": where}))
    assert st.units["E"].hex == where


@pytest.mark.rule("ldf:14.3", "ldf:6.10")
def test_bread_and_circuses_and_persecutions() -> None:
    ctx, st = world()
    ctx.chance.force(3)
    drawn(ctx, st, GP, 19, Script({"chit.bread": "pay"}))
    assert st.treasury == 1 and 19 in st.pool
    script = Script({"chit.bread": "refuse"})
    drawn(ctx, st, ROMAN, 19, script)
    hexes = chit_events._bread_hexes(st)
    where = next(d for d in script.asked if d.kind == "chit.bread-hex").options[0].key
    g = next(u for u in st.units_at(where) if u.garrison)
    assert g.rebel and st.side_of(g) == GP and where in st.looted and where not in hexes and where != ROME
    ctx.chance.force(6)
    drawn(ctx, st, ROMAN, 20, Script())
    assert 20 in st.removed_chits and 20 not in st.pool and st.treasury == 0


@pytest.mark.rule("ldf:14.3", "ldf:10.8")
def test_cavalry_reinforcement_and_the_reserve() -> None:
    ctx, st = world()
    ctx.chance.force(5)
    drawn(ctx, st, GP, 25, Script())
    assert len(st.of_kind("cavalry-vexillation", where="pool")) == 1 and not st.cavalry_reserve
    ctx.chance.force(6)
    drawn(ctx, st, ROMAN, 25, Script())
    assert st.cavalry_reserve and not st.of_kind("cavalry-vexillation", where="pool")
    cav_hexes = [u.hex for u in st.of_kind("cavalry-vexillation")]
    assert len(set(cav_hexes)) == 3  # never two in a hex


@pytest.mark.rule("ldf:14.3", "ldf:10.8")
def test_a_cavalry_reinforcement_never_overstacks_the_hex_it_joins() -> None:
    """Chit 25 offers only hexes the new cavalry vexillation can join within the stacking
    limits: once the central cavalry reserve exists, a hex already at its limit is not offered."""
    from ancients_games.ldf import stacking

    ctx, st = world()
    pool_cav = st.of_kind("cavalry-vexillation", where="pool")[0]
    st.cavalry_reserve = True  # from now on cavalry counts against the vexillation limit (10.8)
    target = "3114"  # Trier, with just two infantry vexillations: the most a hex holds without a leader
    for u in st.units_at(target):
        st.remove(u.id, "aside")
    st.place("I1", target)
    st.place("I2", target)
    full = [target]
    assert not stacking.fits(st, target, [pool_cav])
    offered: list[tuple[str, ...]] = []

    script = Script()

    def pick(d):  # noqa: ANN001, ANN202
        if d.kind != "chit.cavalry":
            return script(d)
        offered.append(d.keys)
        return d.keys[0]

    drawn(ctx, st, ROMAN, 25, pick)
    assert offered and not set(full) & set(offered[0])
    placed = next(u for u in st.of_kind("cavalry-vexillation") if u.id == pool_cav.id)
    assert placed.hex in offered[0] and stacking.fits(st, placed.hex, [placed])


@pytest.mark.rule("ldf:14.3", "ldf:6.1", "ldf:8.18")
def test_revenue_windfall_4_or_5_tp() -> None:
    for die, tp in ((1, 4), (2, 5), (6, 5)):
        ctx, st = world()
        st.treasury = 0
        st.hands[ROMAN].add(24)
        assert chit_events.playable(st, ROMAN) == [24] and chit_events.playable(st, GP) == []
        ctx.chance.force(die)
        drive(chit_events.play_chit(ctx, st, ROMAN), Script({"chit.play": "24"}))
        assert st.treasury == tp and 24 in st.set_aside  # once a turn (8.17)


@pytest.mark.rule("ldf:14.3", "ldf:6.8")
def test_revenue_windfall_reclaims_legion_pairs() -> None:
    ctx, st = world()
    for u in st.units_at("2812"):
        st.eliminate(u.id)
    st.hands[ROMAN].add(24)
    ctx.chance.force(3)  # 6: e.g. 2 TP and two legion pairs
    drive(chit_events.play_chit(ctx, st, ROMAN), Script({"chit.play": "24", "chit.windfall": "tp-2"}))
    assert st.treasury == 7
    assert len(st.of_kind("legion-base", "dead")) == 0 == len(st.of_kind("infantry-vexillation", "dead"))


@pytest.mark.rule("ldf:14.3", "ldf:10.9", "ldf:8.18")
def test_spies_reveal_a_hand_to_its_player_only() -> None:
    ctx, st = world()
    st.hands[GP].add(13)
    st.hands[ROMAN].add(17)
    drive(chit_events.play_chit(ctx, st, GP), Script({"chit.play": "13"}))
    assert st.revealed[ROMAN] == (17,)
    ev = ctx.log.lines(ROMAN)[-1]
    assert "17" not in ev and "sees the roman hand (1 chits)" in ev
    assert "17 Agents in Enemy Camp" in ctx.log.lines(GP)[-1]


@pytest.mark.rule("ldf:14.3", "ldf:8.17")
def test_jaws_of_death() -> None:
    ctx, st = world()
    st.hands[ROMAN].add(3)
    st.hands[ROMAN].add(2)
    assert chit_events.playable(st, ROMAN) == []  # no German in Italy
    tribe = st.of_kind("german-tribe", where="aside")[0]
    st.place(tribe.id, "3316")
    assert chit_events.playable(st, ROMAN) == [3]
    ctx.chance.force(2)
    drive(chit_events.play_chit(ctx, st, ROMAN), Script({"chit.play": "3", "chit.jaws": ["2", "done"]}))
    assert 3 in st.set_aside
    assert len(st.hands[ROMAN]) <= 2


@pytest.mark.rule("ldf:14.3", "ldf:13.15")
def test_battle_windows() -> None:
    ctx, st = world()
    st.hands[GP].add(1)
    st.hands[ROMAN].add(6)
    st.hands[GP].add(15)
    b = drive(chits.battle_start(ctx, st, GP, ROMAN), Script({"window.battle-start": ["chit-1", "no", "no"]}))
    assert b.shifts == {GP: 1} and b.net_shift == 1
    script = Script({"window.before-attack-roll": ["chit-15"]})
    b = drive(chits.before_attack_roll(ctx, st, b), script)
    assert [d.side for d in script.asked] == [GP]  # 6 is not offered after 15: the Roman is not asked
    assert b.roll_twice and not b.dr_to_as
    ctx, st = world()
    st.hands[ROMAN].add(6)
    b = drive(chits.battle_start(ctx, st, GP, ROMAN), Script())
    b = drive(chits.before_attack_roll(ctx, st, b), Script({"window.before-attack-roll": ["chit-6"]}))
    assert b.dr_to_as and b.net_shift == -1


@pytest.mark.rule("ldf:8.16", "ldf:14.3")
def test_siege_equipment() -> None:
    ctx, st = world()
    st.hands[ROMAN].add(21)
    at_start = chit_events.siege_targets(st)
    assert at_start and all(st.in_region(t, "parthia") for _, t in at_start)  # the Parthian centres
    tribe = st.of_kind("german-tribe", where="aside")[0]
    target = next(h for h in sorted(st.region("core")) if st.data.centres(h) and not st.units_at(h)
                  and any(u.nationality == "roman" for n in st.data.neighbours(h) for u in st.units_at(n)))
    st.place(tribe.id, target)
    assert chit_events.can_deploy_siege(st, ROMAN) and not chit_events.can_deploy_siege(st, GP)
    a = next(a for a, t in chit_events.siege_targets(st) if t == target)
    drive(chit_events.deploy_siege(ctx, st, ROMAN), Script({"siege.hex": a}))
    assert st.siege == a and 21 not in st.hands[ROMAN] and not chit_events.can_deploy_siege(st, ROMAN)


@pytest.mark.rule("ldf:14.3", "ldf:12.1", "ldf:8.2")
def test_move_start_window_gives_the_extra_movement() -> None:
    from ancients_games.ldf import land_movement, movement

    ctx, st = world()
    _hand(st, ROMAN, 8)
    assert drive(chits.move_start(ctx, st, ROMAN), Script()) == 0
    where = "2812"
    pos = movement.position(st)
    caps = land_movement.movement_caps(pos, [pos.unit(u.id) for u in st.units_at(where) if u.mobile])
    force = [u.id for u in st.units_at(where) if u.mobile]
    script = Script({"move.to": ["chit-8", "steps"]})  # played in the move's own question, as it is declared
    drive(movement.move_force(ctx, st, ROMAN, force), script)
    asked = [d for d in script.asked if d.kind == "move.to"]
    assert "chit-8" in asked[0].keys and "chit-8" not in asked[1].keys and "back" not in asked[1].keys
    steps = [d for d in script.asked if d.kind == "move.step"]
    assert steps and f"{max(caps.values()) + 2} MP left" in steps[0].prompt and 8 in st.pool
    assert not [d for d in script.asked if d.kind.startswith("window.")]  # no window of its own


@pytest.mark.rule("ldf:14.3", "ldf:11.4", "ldf:8.18")
def test_into_the_valley_moves_an_enemy_force() -> None:
    ctx, st = world()
    _hand(st, GP, 5)
    assert 5 in chit_events.playable(st, GP)
    hexes = chit_events._enemy_forces(st, GP)
    script = Script({"chit.play": "5", "chit.valley": hexes[0]})
    drive(chit_events.play_chit(ctx, st, GP), script)
    assert all(d.side == GP for d in script.asked)  # the chit's player makes every choice
    assert not any(k.startswith("drop:") for d in script.asked for k in d.keys)
    assert not any(d.kind == "window.move-start" for d in script.asked)
    assert 5 in st.pool


@pytest.mark.rule("ldf:8.19", "ldf:8.17")
def test_free_chit_after_a_won_battle_is_optional_and_costs_no_action() -> None:
    from ancients_games.ldf import chit_events

    ctx, st = world()
    ctx.chance.force(17)
    drive(chit_events.free_chit(ctx, st, GP), Script({"chit.free": "draw"}))
    assert 17 in st.hands[GP] and st.action_number == 0
    drive(chit_events.free_chit(ctx, st, GP), Script({"chit.free": "no"}))
    assert len(st.hands[GP]) == 1
    ctx.chance.force(24)  # a Roman-only chit drawn free by the Germano-Parthian: shown and put back
    drive(chit_events.free_chit(ctx, st, GP), Script({"chit.free": "draw"}))
    assert 24 in st.pool and 24 not in st.hands[GP]


@pytest.mark.rule("ldf:10.9", "ldf:14.3", "ldf:8.8")
def test_a_hand_shows_only_in_who_is_asked() -> None:
    """The same treachery roll with the Germano-Parthian holding chits 2 and 17 (and not playing
    them) or nothing: the Roman reads the same log (declining logs nothing, 10.9); the only
    difference he sees is that a side holding a play is asked (issue 23: windows ask holders)."""
    from ancients_kit.windows import seen_by

    from ancients_games.ldf import politics

    views = []
    for held in ((), (2, 17)):
        ctx, st = world()
        for n in held:
            st.pool.remove(n)
            st.hands[GP].add(n)
        ctx.chance.force(4)
        script = Script({"salt": "salt-1"})
        drive(politics.political_roll(ctx, st, ROMAN, "treachery", ("ldf:8.11",)), script)
        views.append(([seen_by(d, ROMAN) + (d.prompt,) for d in script.asked], ctx.log.lines(ROMAN)))
    assert views[0][1] == views[1][1]
    assert not any(q[0] == GP for q in views[0][0]) and any(q[0] == GP for q in views[1][0])
    assert [q for q in views[0][0] if q[0] == ROMAN] == [q for q in views[1][0] if q[0] == ROMAN]


def _hand(st, side, *numbers):
    for n in numbers:
        st.pool.remove(n)
        st.hands[side].add(n)


@pytest.mark.rule("ldf:14.3", "ldf:8.17", "ldf:8.16")
def test_chit_21_handed_to_a_full_roman_hand() -> None:
    ctx, st = world()
    _hand(st, ROMAN, 1, 2, 3, 4, 5, 6)
    drawn(ctx, st, GP, 21, Script({"chit.put-back": "4"}))
    assert len(st.hands[ROMAN]) == 6 and 21 in st.hands[ROMAN] and 4 in st.pool


@pytest.mark.rule("ldf:14.3", "ldf:5.3", "ldf:8.18")
def test_mad_dash_mutiny_and_debasement() -> None:
    ctx, st = world()
    _hand(st, GP, 7, 9)
    drive(chit_events.play_chit(ctx, st, GP), Script({"chit.play": "7"}))
    assert st.extra_action == GP and 7 in st.set_aside
    target = chit_events._mutiny_targets(st)[0]
    assert all(st.units[t].hex != ROME for t in chit_events._mutiny_targets(st))
    drive(chit_events.play_chit(ctx, st, GP), Script({"chit.play": "9", "chit.mutiny": target}))
    assert st.units[target].where == "dead"
    _hand(st, ROMAN, 11)
    script = Script({"chit.play": "11"})
    drive(chit_events.play_chit(ctx, st, ROMAN), script)
    looted = next(d for d in script.asked if d.kind == "chit.debasement").options[0].key
    assert st.treasury == 8 and looted in st.looted and not st.units_at(looted) and looted != ROME


@pytest.mark.rule("ldf:14.3", "ldf:8.13", "ldf:8.14")
def test_limes_restored_in_one_action() -> None:
    ctx, st = world()
    _hand(st, ROMAN, 14)
    h = next(x for x in sorted(st.region("core")) if st.data.centres(x) and not st.units_at(x)
             and not st.in_region(x, "gallic-empire"))
    st.looted.add(h)
    drive(chit_events.play_chit(ctx, st, ROMAN), Script({"chit.play": "14", "chit.limes": f"rebuild:{h}"}))
    assert h not in st.looted and 14 in st.set_aside


@pytest.mark.rule("ldf:14.3", "ldf:6.3", "ldf:7.1", "ldf:7.2", "ldf:7.3", "ldf:1.5")
def test_sea_raiders_resurgence_and_german_increase() -> None:
    ctx, st = world()
    tribe = st.of_kind("german-tribe", where="aside")[0]
    st.place(tribe.id, "4116")
    _hand(st, GP, 16, 22, 23)
    script = Script({"chit.play": "16"})
    drive(chit_events.play_chit(ctx, st, GP), script)
    where = st.units[tribe.id].hex
    assert where != "4116" and where in st.looted and 16 in st.pool
    assert "4119" not in chit_events._raid(st)[1]  # a narrows hex: no German enters it (1.5)
    for g in st.of_kind("parthian-gund", where="aside")[:3]:
        st.place(g.id, "5020")
        st.eliminate(g.id)
    st.parthia_collapsed = True
    drive(chit_events.play_chit(ctx, st, GP), Script({"chit.play": "22"}))
    assert not st.parthia_collapsed and not st.of_kind("parthian-gund", "dead")
    assert len(st.of_kind("parthian-gund")) == 3 and 22 in st.set_aside
    others = [t for t in st.of_kind("german-tribe", where="aside")][:6]
    for t in others:
        st.remove(t.id, "dead")
    ctx.chance.force(1)  # 1 + 3 = 4 of the 6 dead tribes return
    drive(chit_events.play_chit(ctx, st, GP), Script({"chit.play": "23"}))
    assert len(st.of_kind("german-tribe", "dead")) == 2 and 23 in st.pool


@pytest.mark.rule("ldf:14.3")
def test_sea_raiders_land_only_on_centres_flagged_coastal(monkeypatch: pytest.MonkeyPatch) -> None:
    """16 names a "coastal population-centre hex" of either sea: a Black Sea neighbour whose
    map entry drops the coastal flag is no longer a target (second audit, E7)."""
    ctx, st = world()
    targets = chit_events._raid(st)[1]
    pontic = next(t for t in targets if any(n in chit_events._black_sea(st) for n in st.data.neighbours(t)))
    m = st.map
    value = type(m).value

    def without_flag(self, h, key):  # type: ignore[no-untyped-def]
        if key == "coastal" and self.to_id(h) == pontic:
            return None
        return value(self, h, key)

    monkeypatch.setattr(type(m), "value", without_flag)
    assert pontic not in chit_events._raid(st)[1]
