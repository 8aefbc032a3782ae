"""Tests of LDF politics (ldf:8.3, 8.7-8.12, 14.4) against the real data: treachery and
diplomacy with salting (the worked examples of STRATEGIC_GAMES.md 4.1), the +3 cap, the
Emperor Creation Table."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ancients_kit.data import DataStore
from ancients_kit.hexgrid import Hex
from ancients_games.ldf import economy, model, politics
from ancients_games.ldf.politics import Modifiers, SuccessionFacts, success_chance, succession


@pytest.fixture(scope="module")
def store() -> DataStore:
    return DataStore(model.PACKAGE)


# ---------------------------------------------------------------- rolls and salting (8.8)


@pytest.mark.rule("ldf:8.8", "ldf:8.9", "ldf:8.10", "ldf:8.11", "ldf:8.12")
def test_treachery_with_salting_one_third_to_five_sixths() -> None:
    """Worked example 4.1: success on 5-6, 1/3; salted +1 1/2, +2 2/3, +3 5/6."""
    assert [success_chance(m) for m in (0, 1, 2, 3)] == [Fraction(1, 3), Fraction(1, 2), Fraction(2, 3),
                                                         Fraction(5, 6)]


@pytest.mark.rule("ldf:8.8")
def test_negative_salting_never_makes_a_roll_hopeless() -> None:
    """8.8: "no such die roll can ever be made a sure thing": a six still succeeds at -2 and -3
    (ruling, issue 23), so deeper salt only answers the Germano-Parthian's own chit 17."""
    assert success_chance(-1) == Fraction(1, 6) == success_chance(-2) == success_chance(-3)
    assert politics.succeeds(6, -3) and not politics.succeeds(5, -1)
    assert success_chance(-3 + 2) == Fraction(1, 6) and success_chance(-2 + 2) == Fraction(1, 3)


@pytest.mark.rule("ldf:8.8")
def test_results_above_six_read_as_six_and_never_a_sure_thing() -> None:
    assert politics.result(6, 3) == 6 and politics.result(5, 2) == 6
    assert not politics.succeeds(1, 3)  # +3 at most: a 1 still fails
    with pytest.raises(ValueError, match="ldf:8.8"):
        politics.result(3, 4)


@pytest.mark.rule("ldf:8.8")
def test_salt_is_one_to_three_tp_and_never_more_than_held() -> None:
    m = Modifiers("roman")
    assert m.salt_choices(5) == (1, 2, 3)
    assert m.salt_choices(2) == (1, 2)
    assert m.salt_choices(0) == ()
    m.add_salt(2)
    assert m.total == 2 and m.salt_choices(5) == ()  # once a roll


@pytest.mark.rule("ldf:8.8", "ldf:14.3")
def test_agents_and_salt_hit_the_cap() -> None:
    """Chit 17 (+2) and 1 TP make +3; a second TP (or a salt of 2 before 17) is refused."""
    m = Modifiers("roman")
    m.add_salt(1)
    assert m.may_play_agents("roman")
    m.add_agents("roman")
    assert m.total == 3
    m2 = Modifiers("roman")
    m2.add_salt(2)
    assert not m2.may_play_agents("roman")
    with pytest.raises(ValueError, match="ldf:8.8"):
        m2.add_agents("roman")


@pytest.mark.rule("ldf:8.8", "ldf:14.3")
def test_negative_salt_on_a_germano_parthian_roll_and_counter_chit() -> None:
    m = Modifiers("germano-parthian")
    m.add_salt(3)
    assert m.total == -3
    assert not m.may_play_agents("roman")  # -5 would pass the cap
    assert m.may_play_agents("germano-parthian")  # +2 on his own roll: -1
    m.add_agents("germano-parthian")
    assert m.total == -1
    m.clear()  # a reroll keeps nothing (8.8)
    assert m.total == 0 and m.salt_choices(3) == (1, 2, 3)


@pytest.mark.rule("ldf:8.3")
def test_conversion_is_even() -> None:
    assert [politics.conversion_succeeds(d) for d in range(1, 7)] == [False, True] * 3


# ---------------------------------------------------------------- Emperor Creation Table (14.4)


ROME, A, B, C = Hex(0, 0), Hex(1, 0), Hex(2, 0), Hex(3, 0)


@pytest.mark.rule("ldf:14.4", "ldf:errata", "ldf:8.9")
def test_every_result_of_the_real_table_places_the_emperor(store: DataStore) -> None:
    table = model.load_emperor_table(store)
    facts = SuccessionFacts({A: 3, B: 1}, frozenset({A, B, ROME}), ROME)
    for die in range(1, 7):
        s = succession(table.resolve(die).result, facts)
        assert s.hexes, die
    assert succession(table.resolve(1).result, facts).hexes == (ROME,)
    assert succession(table.resolve(2).result, facts).hexes == (A,)


@pytest.mark.rule("ldf:errata", "ldf:14.4")
def test_two_or_more_hexes_tied_the_roman_chooses(store: DataStore) -> None:
    table = model.load_emperor_table(store)
    assert table.resolve(2).result == "LEGIONS"
    assert "If two or more hexes" in table.meaning("LEGIONS")
    facts = SuccessionFacts({A: 2, B: 2, C: 1}, frozenset({A, B, C}), ROME)
    assert succession("LEGIONS", facts).hexes == (A, B)


@pytest.mark.rule("ldf:14.4", "ldf:8.3")
def test_never_with_the_co_emperor_and_fallbacks() -> None:
    facts = SuccessionFacts({A: 4, B: 2}, frozenset({A, B}), ROME, enemy_in_rome=True, co_emperor=A,
                            co_emperor_loyal=False)
    assert succession("LEGIONS", facts).hexes == (B,)  # 8.3: never in the co-emperor's hex
    assert succession("SENATE", facts).applied == "LEGIONS"  # enemy in Rome
    assert succession("PRAETORIANS", facts).applied == "LEGIONS"  # no loyal unit in Rome
    assert succession("COLLEAGUE", facts).applied == "LEGIONS"  # the co-emperor is a rebel
    strife = succession("STRIFE", facts)
    assert strife.rebel_roll and strife.hexes == (B,)
    loyal = SuccessionFacts({A: 4}, frozenset({A}), ROME, co_emperor=B, co_emperor_loyal=True)
    col = succession("COLLEAGUE", loyal)
    assert col.replaces_co_emperor and col.hexes == (B,)
    empty = SuccessionFacts({}, frozenset(), ROME)
    assert succession("LEGIONS", empty).hexes == (ROME,)
    held = SuccessionFacts({}, frozenset(), ROME, enemy_in_rome=True, free_core=frozenset({B, C}))
    assert succession("SENATE", held).hexes == (B, C)  # never into the enemy in Rome
    with pytest.raises(ValueError, match="ldf:14.4"):
        succession("BOGUS", empty)


# ---------------------------------------------------------------- in play, on a real campaign state

from ancients_games.ldf import chits  # noqa: E402
from ancients_games.ldf.state import GP, ROMAN, ROME  # noqa: E402
from ancients_games.ldf.tests.politics_helpers import Script, drive, texts, world  # noqa: E402


def _legion_hexes(state, n=2):
    """Hexes with loyal legions, not Rome."""
    return sorted({u.hex for u in state.of_kind("infantry-vexillation") if u.hex != ROME})[:n]


@pytest.mark.rule("ldf:8.9", "ldf:8.8", "ldf:14.4")
def test_treachery_against_the_emperor_negatively_salted() -> None:
    ctx, st = world()
    ctx.chance.force(5)
    ok = drive(politics.political_roll(ctx, st, GP, "treachery against the emperor", ("ldf:8.9",)),
               Script({"salt": "salt-1"}))
    assert not ok and st.treasury == 4  # 5 - 1 = 4 fails; the TP stays spent (8.8)
    ctx.chance.force(6, 1)  # treachery 6, then the Emperor Creation Table 1 (Praetorians: Rome)
    drive(politics.treachery_emperor(ctx, st, GP), Script({"salt": "salt-0"}))
    assert st.units["E"].hex == ROME and "Emperor Creation Table 1: PRAETORIANS" in texts(ctx)


@pytest.mark.rule("ldf:8.7", "ldf:8.11", "ldf:8.8")
def test_rebel_co_emperor_rises_and_falls_by_treachery() -> None:
    ctx, st = world()
    assert politics.can_create_rebel(st, GP) and not politics.can_treachery_rebel(st, ROMAN)
    ctx.chance.force(4)
    drive(politics.create_rebel(ctx, st, GP), Script())
    assert st.leader("co-emperor") is None
    where = _legion_hexes(st, 1)[0]
    ctx.chance.force(5)
    drive(politics.create_rebel(ctx, st, GP), Script({"rebel.hex": where}))
    assert st.units["CE"].hex == where and st.units["CE"].rebel
    assert all(u.rebel for u in st.units_at(where))
    assert ROME not in politics._rebel_hexes(st)  # never Rome/Ostia (8.7)
    assert not politics.can_create_co_emperor(st, ROMAN)  # one co-emperor counter (8.7)
    ctx.chance.force(3)  # 3 + 2 salt = 5
    drive(politics.treachery_rebel(ctx, st, ROMAN), Script({"salt": "salt-2"}))
    assert st.units["CE"].where == "dead" and st.treasury == 3
    assert not any(u.rebel for u in st.units.values())


@pytest.mark.rule("ldf:8.8", "ldf:14.3")
def test_counter_play_of_chit_2_loses_the_salt_and_chit_17() -> None:
    """8.8's chain: salt +1 and chit 17 (+2) make a 2 a 5; the Germano-Parthian answers with
    chit 2; the reroll is unsalted unless the Roman pays again, and 17 is gone."""
    ctx, st = world()
    st.hands[ROMAN].add(17)
    st.hands[GP].add(2)
    ctx.chance.force(2, 4)
    script = Script({"salt": ["salt-1", "salt-0"], "window.before-roll": ["chit-17", "no", "no"],
                     "window.after-roll": ["chit-2", "no", "no"]})
    ok = drive(politics.political_roll(ctx, st, ROMAN, "treachery against the rebel co-emperor", ("ldf:8.11",)),
               script)
    assert not ok  # the reroll of 4 stands, unmodified
    assert st.treasury == 4 and 17 in st.pool and 2 in st.pool
    assert "the reroll keeps none of: salt +1, chit 17 (roman) +2" in texts(ctx)
    after = [d for d in script.asked if d.kind == "window.after-roll"]
    assert after[0].side == GP  # the roller's opponent is asked first


@pytest.mark.rule("ldf:8.8", "ldf:14.3", "ldf:10.9")
def test_chit_17_not_offered_past_the_cap_and_windows_ask_only_a_side_with_a_play() -> None:
    ctx, st = world()
    st.hands[ROMAN].add(17)
    ctx.chance.force(1)
    script = Script({"salt": "salt-2"})
    drive(politics.political_roll(ctx, st, ROMAN, "diplomacy", ("ldf:8.12",)), script)
    before = [d for d in script.asked if d.kind == "window.before-roll"]
    assert before == []  # +2 +2 would pass +3, so chit 17 is no play: nobody holds one, nobody is asked
    ctx, st = world()
    st.hands[ROMAN].add(17)
    ctx.chance.force(1)
    script = Script({"salt": "salt-1", "window.before-roll": ["no"]})
    drive(politics.political_roll(ctx, st, ROMAN, "diplomacy", ("ldf:8.12",)), script)
    before = [d for d in script.asked if d.kind == "window.before-roll"]
    assert [d.side for d in before] == [ROMAN] and "chit-17" in before[0].keys


@pytest.mark.rule("ldf:8.10", "ldf:8.7")
def test_diplomacy_with_a_loyal_co_emperor() -> None:
    ctx, st = world()
    emperor_hex = st.units["E"].hex
    hexes = politics._co_emperor_hexes(st)
    assert emperor_hex not in hexes  # the leaders never share a hex (8.3)
    where = _legion_hexes(st, 1)[0]
    drive(politics.create_co_emperor(ctx, st, ROMAN), Script({"co-emperor.hex": where}))
    assert st.units["CE"].hex == where and not st.units["CE"].rebel
    assert politics.can_diplomacy_co_emperor(st, GP)
    ctx.chance.force(6)
    drive(politics.diplomacy_co_emperor(ctx, st, GP), Script({"salt": "salt-0"}))
    assert all(u.rebel for u in st.units_at(where)) and st.units["CE"].rebel


@pytest.mark.rule("ldf:8.12")
def test_diplomacy_against_a_german_tribe_in_the_core() -> None:
    ctx, st = world()
    assert not politics.can_diplomacy_german(st, ROMAN)
    tribe = st.of_kind("german-tribe", where="aside")[0]
    st.place(tribe.id, "3217")
    assert politics.can_diplomacy_german(st, ROMAN) and not politics.can_diplomacy_german(st, GP)
    ctx.chance.force(4)
    drive(politics.diplomacy_german(ctx, st, ROMAN), Script({"salt": "salt-1"}))
    assert st.units[tribe.id].where == "dead"


@pytest.mark.rule("ldf:14.4", "ldf:errata", "ldf:8.9")
def test_emperor_creation_in_play_tie_and_colleague() -> None:
    ctx, st = world()
    a, b = _legion_hexes(st, 2)
    drive(politics.create_co_emperor(ctx, st, ROMAN), Script({"co-emperor.hex": a}))
    ctx.chance.force(5)  # COLLEAGUE: the loyal co-emperor succeeds
    drive(politics.emperor_eliminated(ctx, st, ("ldf:8.9",)), Script())
    assert st.units["E"].hex == a and st.units["CE"].where == "aside"
    facts = politics.succession_facts(st)
    top = max(facts.loyal_mobile.values())
    tied = sorted(st.map.to_id(h) for h, n in facts.loyal_mobile.items() if n == top)
    assert len(tied) >= 2  # the six double-legion hexes (3.2)
    ctx.chance.force(2)
    script = Script({"emperor.hex": tied[-1]})
    drive(politics.emperor_eliminated(ctx, st, ("ldf:8.9",)), script)
    assert st.units["E"].hex == tied[-1]
    assert [d.rule for d in script.asked if d.kind == "emperor.hex"] == ["ldf:errata"]


@pytest.mark.rule("ldf:8.7", "ldf:14.4")
def test_a_plague_death_never_removes_the_loyal_co_emperor() -> None:
    """8.7: a co-emperor leaves play "only" by combat or treachery, so result 5 (COLLEAGUE)
    after the plague (chit 10, no 8.9) reads as result 2 (audit D8)."""
    ctx, st = world()
    a = _legion_hexes(st, 1)[0]
    drive(politics.create_co_emperor(ctx, st, ROMAN), Script({"co-emperor.hex": a}))
    ctx.chance.force(5)
    drive(politics.emperor_eliminated(ctx, st, ("ldf:14.3", "ldf:14.4")), Script({"emperor.hex": "3318"}))
    assert st.units["CE"].hex == a and st.units["E"].on_map and st.units["E"].hex != a


@pytest.mark.rule("ldf:8.3")
def test_conversion_rolls() -> None:
    ctx, st = world()
    where = _legion_hexes(st, 1)[0]
    ctx.chance.force(3)
    assert not drive(politics.convert(ctx, st, where), Script())
    assert not any(u.rebel for u in st.units_at(where))
    ctx.chance.force(4)
    assert drive(politics.convert(ctx, st, where), Script())
    assert all(u.rebel for u in st.units_at(where))  # statics too, all together


@pytest.mark.rule("ldf:8.3", "ldf:8.7")
def test_rebel_co_emperor_takes_rome() -> None:
    ctx, st = world()
    where = _legion_hexes(st, 1)[0]
    ctx.chance.force(6)
    drive(politics.create_rebel(ctx, st, GP), Script({"rebel.hex": where}))
    st.place("E", "3317")
    ctx.chance.force(3)
    drive(economy.rebel_takes_rome(ctx, st), Script())
    assert st.units["E"].hex == ROME and st.units["CE"].where == "aside" and st.treasury == 2
    assert not any(u.rebel for u in st.units.values())


@pytest.mark.rule("ldf:7.3", "ldf:8.8")
def test_parthian_recovery_roll_salted_by_the_roman() -> None:
    ctx, st = world()
    ctx.chance.force(6)
    die, final = drive(politics.recovery_roll(ctx, st), Script({"salt": "salt-2"}))
    assert (die, final) == (6, 4) and politics.roll_succeeded(die, final)  # a six recovers (8.8)
    ctx.chance.force(5)
    die, final = drive(politics.recovery_roll(ctx, st), Script({"salt": "salt-1"}))
    assert (die, final) == (5, 4) and not politics.roll_succeeded(die, final)


@pytest.mark.rule("ldf:8.8", "ldf:14.3")
def test_greedy_hints_for_salt_and_windows() -> None:
    from ancients_kit.session import Decision, Option

    ctx, st = world()
    salt = Decision(ROMAN, "salt?", tuple(Option(f"salt-{n}") for n in range(4)), rule="ldf:8.8", kind="salt")
    assert [politics.score(st, salt, k) for k in salt.keys] == [0.0, 1.0, 1.0, 0.0]
    win = Decision(GP, "play?", (Option("no"), Option("never"), Option("chit-1")), rule="ldf:14.3",
                   kind="window.battle-start")
    assert max(win.keys, key=lambda k: politics.score(st, win, k)) == "chit-1"
    assert politics.score(st, Decision(GP, "a", (Option("x"),), rule="ldf:8.1", kind="action"), "x") is None
    st.hands[GP].add(2)
    ctx.chance.force(6)
    script = Script()
    drive(chits.roll_die(ctx, st, ROMAN, "treachery", ("ldf:8.11",)), script)
    asked = script.asked[0]
    assert asked.side == GP and "(roman's d6 ⚅ 6" in asked.prompt
    assert politics.score(st, asked, "chit-2") > politics.score(st, asked, "no")  # reroll the enemy's 6


@pytest.mark.rule("ldf:8.9", "ldf:14.4", "ldf:10.7")
def test_the_emperors_stack_unstacks_when_treachery_takes_him() -> None:
    ctx, st = world()
    extra = [u for u in st.of_kind("infantry-vexillation") if u.hex == "2812"]
    for u in extra:
        st.place(u.id, ROME)  # Rome: 3 infantry vexillations with the emperor (10.7: 8 allowed)
    ctx.chance.force(6, 6)  # treachery succeeds; 6: orderly succession, the Roman chooses
    elsewhere = sorted({u.hex for u in st.of_kind("infantry-vexillation") if u.hex != ROME})[0]
    script = Script({"salt": "salt-0", "emperor.hex": elsewhere})
    drive(politics.treachery_emperor(ctx, st, GP), script)
    assert st.units["E"].hex == elsewhere
    from ancients_games.ldf import unstacking

    drive(unstacking.settle(ctx, st), script)  # the action loop settles stacks after each action (10.7)
    assert any(d.kind == "move.unstack" for d in script.asked)
    assert sum(u.kind == "infantry-vexillation" for u in st.units_at(ROME)) == 2
