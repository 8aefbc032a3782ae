"""The administrative phase and the Roman economy (5.5, 5.6, 6.x, 7.x, 8.13, 8.14), on the real data."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from ancients_kit import testing
from ancients_kit.session import Decision, Session
from ancients_games.ldf import GAME, economy
from ancients_games.ldf.state import CTESIPHON, GP, PALMYRA, ROMAN, ROME


def deployed(seed: int = 1) -> Session:
    s = Session(GAME, "campaign", seed=seed, options={"concession": False})
    while s.decision is not None and s.decision.kind.startswith("setup."):
        s.answer(s.decision.options[0].key)
    return s


def answer_until(s: Session, stop: Callable[[Decision], bool], pick: Callable[[Decision], str] | None = None,
                 limit: int = 500) -> Decision:
    """Answer (the first option, or ``pick``) until ``stop`` holds for the decision asked."""
    for _ in range(limit):
        d = s.decision
        assert d is not None, "the game ended"
        if stop(d):
            return d
        s.answer(pick(d) if pick else d.options[0].key)
    raise AssertionError("never asked")


def to_turn_2(s: Session) -> None:
    s.answer("pass")
    s.answer("pass")
    assert s.state.turn == 2


def finish_admin(s: Session) -> None:
    """Answer the administrative phase with 'collect', 'done' and first choices until the actions phase."""
    def pick(d: Decision) -> str:
        for k in ("collect", "done"):
            if k in d.keys:
                return k
        return d.options[0].key
    answer_until(s, lambda d: d.kind == "action", pick)


def ctx_of(s: Session):  # the session's rules context
    return s.ctx


def drive(gen) -> object:
    """Drive a rules generator, answering every decision with its first option."""
    return testing.drive(gen, lambda d: d.options[0].key)[1]


def run(gen) -> object:
    """Drive a rules generator that must not ask anything."""
    try:
        d = next(gen)
    except StopIteration as stop:
        return stop.value
    raise AssertionError(f"unexpected decision {d.prompt!r}")


# ---------------------------------------------------------------- revenue


@pytest.mark.rule("ldf:6.1", "ldf:6.5", "ldf:9.6", "ldf:9.7", "ldf:9.1", "ldf:1.4")
def test_revenue_counts_core_caucasus_trans_river_and_palmyra() -> None:
    st = deployed().state
    paying = economy.revenue_hexes(st)
    assert paying[ROME] == 4  # Rome 3 + Ostia 1 (6.5)
    assert paying[PALMYRA] == 2
    assert paying["3816"] == 1 and paying["3215"] == 1
    assert all(paying[h] == 1 for h in st.region("caucasus"))
    assert not any(st.in_region(h, "parthia") for h in paying)
    st.palmyra = GP
    assert PALMYRA not in economy.revenue_hexes(st)  # only while inactive or allied to Rome (6.5)


@pytest.mark.rule("ldf:6.2", "ldf:6.9", "ldf:5.5", "ldf:5.3")
def test_collection_adds_revenue_to_at_most_five_carried_over() -> None:
    s = deployed()
    st = s.state
    due = economy.revenue(st)
    st.treasury = 12  # more than 6.9 lets carry over
    to_turn_2(s)
    finish_admin(s)
    assert st.treasury == 5 + due
    assert any("ldf:6.9" in e.rules for e in s.log)


@pytest.mark.rule("ldf:6.6")
def test_emergency_taxation_doubles_the_hex_and_loots_it_never_rome() -> None:
    s = deployed()
    st = s.state
    st.treasury = 0
    to_turn_2(s)
    d = answer_until(s, lambda d: d.kind == "admin.tax")
    assert ROME not in d.keys and PALMYRA not in d.keys and "3816" not in d.keys
    hexes = [k for k in d.keys if k != "collect"]
    h = max(hexes, key=st.unlooted_tp)
    tp = st.unlooted_tp(h)
    due = economy.revenue(st)
    s.answer(h)
    assert h in st.looted
    s.answer("collect")
    assert st.treasury == 2 * tp + (due - tp)


@pytest.mark.rule("ldf:6.6", "ldf:8.13")
def test_emergency_taxation_sends_the_garrison_to_the_dead_pile() -> None:
    s = deployed()
    st = s.state
    h = economy.emergency_tax_hexes(st)[0]
    g = economy.spare_garrisons(st)[0]
    st.place(g.id, h)
    economy.emergency_tax(s.ctx, st, h)
    assert g.where == "dead" and h in st.looted


@pytest.mark.rule("ldf:6.7")
def test_demobilising_a_twin_gives_two_tp_and_the_over_supplied_go_first() -> None:
    s = deployed()
    st = s.state
    to_turn_2(s)
    d = answer_until(s, lambda d: d.kind == "admin.demobilise?", lambda d: "collect" if "collect" in d.keys else d.options[0].key)
    before = st.treasury
    s.answer("demobilise")
    s.answer(s.decision.options[0].key)  # the base
    s.answer(s.decision.options[-1].key)  # any vexillation, not necessarily in the same hex
    assert st.treasury == before + 2
    assert len(st.of_kind("legion-base", "dead")) == 1 == len(st.of_kind("infantry-vexillation", "dead"))
    # now kill a vexillation: the bases are over-supplied and one must go first, for nothing
    st.eliminate(st.of_kind("infantry-vexillation")[0].id)
    assert s.decision.kind == "admin.demobilise?"
    s.answer("demobilise")
    assert s.decision.prompt.startswith("Demobilise an over-supplied legion base")
    s.answer(s.decision.options[0].key)
    assert st.treasury == before + 2


@pytest.mark.rule("ldf:6.8", "ldf:10.6")
def test_reclaiming_a_legion_costs_one_tp_a_unit_into_a_core_hex() -> None:
    s = deployed()
    st = s.state
    b, v = st.of_kind("legion-base")[0], st.of_kind("infantry-vexillation")[0]
    st.eliminate(b.id)
    st.eliminate(v.id)
    to_turn_2(s)
    d = answer_until(s, lambda d: d.kind == "admin.reclaim",
                     lambda d: "collect" if "collect" in d.keys else ("done" if "done" in d.keys else d.options[0].key))
    before = st.treasury
    s.answer("legion")
    d = s.decision
    assert d.kind == "admin.reclaim.hex" and all(k in st.region("core") for k in d.keys)
    # a hex already holding two bases is full (10.6)
    full = [h for h in st.region("core") if sum(u.kind == "legion-base" for u in st.units_at(h)) == 2]
    assert full and not set(full) & set(d.keys)
    s.answer(d.keys[0])
    assert st.treasury == before - 2 and b.where == v.where == "map" and b.hex == v.hex == d.keys[0]


@pytest.mark.rule("ldf:7.1")
def test_dead_tribes_return_one_per_empty_hex_of_barbaria() -> None:
    s = deployed()
    st = s.state
    t = st.of_kind("german-tribe")[0]
    st.eliminate(t.id)
    to_turn_2(s)
    d = answer_until(s, lambda d: d.kind == "admin.tribe", lambda d: "collect" if "collect" in d.keys else ("done" if "done" in d.keys else d.options[0].key))
    assert all(k in st.region("barbaria") and not st.units_at(k) for k in d.keys)
    s.answer(d.keys[0])
    assert t.where == "map" and t.hex == d.keys[0]


@pytest.mark.rule("ldf:7.2", "ldf:6.4", "ldf:10.3")
def test_parthian_units_return_and_looted_centres_recover() -> None:
    s = deployed()
    st = s.state
    g = st.of_kind("parthian-garrison")[0]
    h = g.hex
    st.eliminate(g.id)
    st.looted.add(h)
    gund = st.of_kind("parthian-gund")[0]
    st.eliminate(gund.id)
    to_turn_2(s)
    finish_admin(s)
    assert h not in st.looted and g.where == "map" and g.hex == h
    assert gund.where == "map" and st.data.centres(gund.hex) and st.in_region(gund.hex, "parthia")


@pytest.mark.rule("ldf:7.3", "ldf:6.5")
def test_a_roman_unit_in_ctesiphon_collapses_parthia() -> None:
    s = deployed()
    st = s.state
    cav = next(u for u in st.units_at(ROME) if u.kind == "cavalry-vexillation")
    # clear Ctesiphon, then enter it
    for u in list(st.units_at(CTESIPHON)):
        st.eliminate(u.id)
    st.place(cav.id, CTESIPHON)
    before = st.treasury
    drive(economy.on_enter(s.ctx, st, [cav.id], CTESIPHON))  # the withdrawal may ask where to go
    assert st.parthia_collapsed
    assert not [u for u in st.on_map() if u.nationality == "parthian"]
    assert st.treasury == before + st.unlooted_tp(CTESIPHON) + 11
    assert cav.hex in st.region("core")


@pytest.mark.rule("ldf:7.3")
def test_collapsed_parthia_recovers_on_five_or_six() -> None:
    s = deployed()
    st = s.state
    st.parthia_collapsed = True
    for u in [u for u in st.on_map() if u.nationality == "parthian"]:
        st.eliminate(u.id)
    to_turn_2(s)
    answer_until(s, lambda d: d.kind == "admin.tax")
    s.ctx.chance.force(5)  # the next die: the recovery roll (no other die before it)
    finish_admin(s)
    assert not st.parthia_collapsed
    assert len(st.of_kind("parthian-garrison")) == 7 and len(st.of_kind("parthian-gund")) == 8


@pytest.mark.rule("ldf:5.6", "ldf:8.17")
def test_all_chits_back_into_the_pool_at_a_new_turn() -> None:
    s = deployed()
    st = s.state
    st.pool.remove(3)
    st.hands[GP].add(3)
    st.pool.remove(24)
    st.set_aside.append(24)
    to_turn_2(s)
    assert len(st.pool) == 26 and not len(st.hands[GP]) and not st.set_aside


# ---------------------------------------------------------------- looting, rebuilding, fortifying


@pytest.mark.rule("ldf:6.3", "ldf:8.3")
def test_an_enemy_entering_a_tp_hex_loots_it_whole() -> None:
    s = deployed()
    st = s.state
    h = "3016"  # Lugdunum, in the core
    t = st.of_kind("german-tribe")[0]
    st.place(t.id, h)
    run(economy.on_enter(s.ctx, st, [t.id], h))
    assert h in st.looted
    assert h not in economy.revenue_hexes(st)


@pytest.mark.rule("ldf:4.2")
def test_a_german_tribe_in_rome_wins_at_once() -> None:
    s = deployed()
    st = s.state
    t = st.of_kind("german-tribe")[0]
    st.place(t.id, ROME)
    run(economy.on_enter(s.ctx, st, [t.id], ROME))
    assert st.over and st.winner == GP


@pytest.mark.rule("ldf:6.4", "ldf:8.14")
def test_rebuilding_takes_two_actions_and_an_enemy_overturns_it() -> None:
    s = deployed()
    st = s.state
    st.looted.add("3016")
    s.answer("pass")
    assert s.decision.side == ROMAN and "start-rebuild" in s.decision.keys
    assert "finish-rebuild" not in s.decision.keys
    s.answer("start-rebuild")
    s.answer("3016")
    assert "3016" in st.rebuilding and "3016" in st.looted
    s.answer("pass")
    s.answer("finish-rebuild")
    assert "3016" not in st.looted and not st.rebuilding
    st.looted.add("3016")
    st.rebuilding.add("3016")
    t = st.of_kind("german-tribe")[0]
    st.place(t.id, "3016")
    run(economy.on_enter(s.ctx, st, [t.id], "3016"))
    assert "3016" not in st.rebuilding and "3016" in st.looted


@pytest.mark.rule("ldf:8.13", "ldf:13.10", "ldf:10.10")
def test_fortifying_takes_two_actions_one_marker_at_a_time() -> None:
    s = deployed()
    st = s.state
    s.answer("pass")
    s.answer("start-fortify")
    assert ROME in s.decision.keys
    s.answer(ROME)
    assert st.fortify == ROME
    s.answer("pass")
    assert "start-fortify" not in s.decision.keys  # the single Fortify marker (8.13)
    s.answer("finish-fortify")
    assert st.fortify is None
    g = [u for u in st.units_at(ROME) if u.kind == "roman-garrison"]
    assert len(g) == 1 and not g[0].rebel


@pytest.mark.rule("ldf:6.10")
def test_a_deduction_below_zero_is_covered_by_demobilising_or_taxing() -> None:
    s = deployed()
    st = s.state
    st.treasury = 1
    gen = economy.deduct(s.ctx, st, 4, "a test", ("ldf:6.10",))
    d = next(gen)
    assert d.kind == "treasury.deficit" and "demobilise" in d.keys
    d = gen.send("demobilise")  # base
    d = gen.send(d.options[0].key)
    try:
        d = gen.send(d.options[0].key)  # vexillation: +2, still 1 short
    except StopIteration:
        raise AssertionError("still 1 TP short")
    assert d.kind == "treasury.deficit"
    h = [k for k in d.keys if k != "demobilise"][0]
    try:
        gen.send(h)
    except StopIteration as stop:
        assert stop.value == 4
    assert st.treasury == 2 * st.unlooted_tp(h) - 1 and st.treasury >= 0


@pytest.mark.rule("ldf:6.11")
def test_rebels_neither_pay_nor_demobilise() -> None:
    s = deployed()
    st = s.state
    paying = [h for h in economy.revenue_hexes(st) if st.unlooted_tp(h) and st.units_at(h)
              and any(u.kind == "legion-base" for u in st.units_at(h))]
    assert paying  # a paying centre held by a legion (audit T1: the test must be able to fail)
    where = paying[0]
    for u in st.units_at(where):
        u.rebel = True
    b = next(u for u in st.units_at(where) if u.kind == "legion-base")
    assert b not in economy.demobilise_choices(st)
    assert where not in economy.revenue_hexes(st)  # a rebel-held centre pays the Roman nothing


@pytest.mark.rule("ldf:5.5", "ldf:5.6", "ldf:6.8", "ldf:7.1", "ldf:7.2")
def test_the_administrative_steps_come_in_the_rules_order() -> None:
    s = deployed()
    st = s.state
    st.eliminate(st.of_kind("german-tribe")[0].id)
    st.eliminate(st.of_kind("parthian-gund")[0].id)
    start = len(s.log)
    to_turn_2(s)
    finish_admin(s)
    kinds = [e.kind for e in list(s.log)[start:]]
    order = [kinds.index(k) for k in ("phase", "chits", "treasury", "returns")]
    assert order == sorted(order)
    returns = [e for e in list(s.log)[start:] if e.kind == "returns"]
    assert "German" in returns[0].text and "Parthian" in returns[1].text  # 7.1 before 7.2


@pytest.mark.rule("ldf:6.5", "ldf:6.3")
def test_a_roman_unit_entering_a_parthian_centre_loots_it_for_its_tp() -> None:
    s = deployed()
    st = s.state
    h = next(h for h in sorted(st.region("parthia")) if st.unlooted_tp(h) and h != CTESIPHON)
    for u in list(st.units_at(h)):
        st.eliminate(u.id)
    v = st.of_kind("infantry-vexillation")[0]
    st.place(v.id, h)
    before = st.treasury
    run(economy.on_enter(s.ctx, st, [v.id], h))
    assert h in st.looted and st.treasury == before + st.unlooted_tp(h)
    g = next(u for u in st.of_kind("parthian-gund"))
    st.looted.discard(h)
    st.remove(v.id, "dead")
    st.place(g.id, h)
    run(economy.on_enter(s.ctx, st, [g.id], h))
    assert h not in st.looted  # a Parthian unit in its own centre loots nothing
