"""The Operations phase on the real game: OP, forces, moves, EZOC, drop-offs, forced march, bots."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ancients_kit.bots import RandomBot, play_out
from ancients_kit.errors import IllegalAnswer
from ancients_kit.session import Decision, Option, Session

from ancients_games.xenophon import GAME
from ancients_games.xenophon import march, stratagems, zoc
from ancients_games.xenophon import operations as ops
from ancients_games.xenophon.negotiations import Agreement, Term
from ancients_games.xenophon.state import EMPIRE, REBEL
from ancients_games.xenophon.tests.ops_helpers import Script, drive, empty, give, pick, put

SARDIS, KELAINAI = "2908", "2909"


@pytest.mark.rule("xen:operations", "xen:leaders", "xen:xenophon")
def test_op_worked_examples() -> None:
    # STRATEGIC_GAMES 4.2: militia OV 8 and a roll of 4: 12 OP; 16 with a leader; 20 with Xenophon.
    assert ops.op_total(8, 4, 1) == 12
    assert ops.op_total(8, 4, 2) == 16
    assert ops.op_total(8, 4, 3) == 20
    with pytest.raises(ValueError, match="xen:operations"):
        ops.op_total(8, 7, 1)
    with pytest.raises(ValueError, match="xen:leaders"):
        ops.op_total(8, 4, 4)


@pytest.mark.rule("xen:operations", "xen:leaders", "xen:xenophon")
def test_ops_points_lowest_ov_and_the_leader_multipliers() -> None:
    ctx, st = empty()
    militia = put(st, SARDIS, pick(st, "militia", REBEL))
    phalanx = put(st, SARDIS, pick(st, "phalanx", REBEL))
    assert st.unit(militia[0]).ov == 8 and st.unit(phalanx[0]).ov == 16
    ctx.chance.force(4)
    assert drive(ops.ops_points(ctx, st, militia + phalanx), Script()) == 12  # the lowest OV, 8, + 4
    put(st, SARDIS, ["Ariaos"])
    ctx.chance.force(4)
    assert drive(ops.ops_points(ctx, st, militia + ["Ariaos"]), Script()) == 16
    put(st, SARDIS, ["Xenophon"])
    ctx.chance.force(4)
    assert drive(ops.ops_points(ctx, st, militia + ["Ariaos", "Xenophon"]), Script()) == 20
    op_events = [e for e in ctx.log if e.kind == "op"]
    assert "xen:xenophon" in op_events[-1].rules and "xen:xenophon" not in op_events[-2].rules


def _phase(ctx, st, script: Script, side: str = REBEL):  # type: ignore[no-untyped-def]
    st.player_turn = side
    drive(ops.operations_phase(ctx, st, side), script)
    return script


@pytest.mark.rule("xen:operations", "xen:movement", "xen:forces")
def test_a_force_moves_along_the_royal_road_and_pays_half_an_op() -> None:
    ctx, st = empty()
    force = put(st, SARDIS, pick(st, "phalanx", REBEL, 2))
    ctx.chance.force(1)  # OP 16 + 1 = 17
    script = _phase(ctx, st, Script(f"force:{SARDIS}", f"move:{KELAINAI}", "move:2910"))
    assert all(st.unit(u).hex == "2910" for u in force)
    moves = [e for e in ctx.log if e.kind == "move"]
    assert len(moves) == 2 and all("xen:movement" in e.rules for e in moves)
    last = [d for d in script.asked if d.kind == "ops.action"][-1]
    assert f"{Fraction(16)} OP" in last.prompt  # 17 - 1/2 - 1/2
    assert last.keys[0] == "stop"


@pytest.mark.rule("xen:zoc", "xen:movement")
def test_entering_ezoc_stops_the_force_and_a_force_starting_there_leaves_only_to_free_hexes() -> None:
    ctx, st = empty()
    put(st, SARDIS, pick(st, "phalanx", REBEL))
    put(st, "3011", pick(st, "militia", EMPIRE))  # its ZOC covers 2910
    ctx.chance.force(6)
    script = _phase(ctx, st, Script(f"force:{SARDIS}", f"move:{KELAINAI}", "move:2910"))
    after = [d for d in script.asked if d.kind == "ops.action"][-1]
    assert not [k for k in after.keys if k.startswith("move:")]  # stopped in the EZOC
    assert "xen:zoc" in [e for e in ctx.log if e.kind == "move"][-1].rules
    # Next phase the force begins in the EZOC: it may leave, never straight into another EZOC hex.
    ezoc = zoc.ezoc_of(st, REBEL, False)
    ctx.chance.force(6)
    script = _phase(ctx, st, Script("force:2910"))
    first = [d for d in script.asked if d.kind == "ops.action"][0]
    steps = [o.key.split(":")[1] for o in first.options if o.key.startswith("move:") and len(o.data[3]) == 1]
    assert steps and not set(steps) & ezoc
    # further on, a destination in an EZOC is reached only through a free hex, and ends the move
    for o in first.options:
        if o.key.startswith("move:") and len(o.data[3]) > 1:
            assert o.data[3][0] not in ezoc and not set(o.data[3][:-1]) & ezoc


@pytest.mark.rule("xen:movement", "xen:stacking")
def test_enemy_hexes_closed_and_ten_units_a_hex() -> None:
    ctx, st = empty()
    mover = put(st, SARDIS, pick(st, "phalanx", REBEL))
    f = march.Force(REBEL, mover, SARDIS, SARDIS, 10, False)
    assert f"move:{KELAINAI}" in {o.key for o in march.step_options(st, f, frozenset())}
    enemy = put(st, KELAINAI, pick(st, "militia", EMPIRE))
    assert f"move:{KELAINAI}" not in {o.key for o in march.step_options(st, f, frozenset())}
    st.to_mix(enemy[0])
    put(st, KELAINAI, pick(st, "militia", REBEL, 10))
    assert f"move:{KELAINAI}" not in {o.key for o in march.step_options(st, f, frozenset())}


@pytest.mark.rule("xen:forces", "xen:movement", "xen:operations")
def test_dropped_units_and_spent_forces_conduct_no_more_operations() -> None:
    ctx, st = empty()
    a, b = put(st, SARDIS, pick(st, "phalanx", REBEL, 2))
    ctx.chance.force(3)
    script = _phase(ctx, st, Script(f"force:{SARDIS}", f"drop:{b}", f"move:{KELAINAI}"))
    assert st.unit(a).hex == KELAINAI and st.unit(b).hex == SARDIS
    last = [d for d in script.asked if d.kind == "ops.force"][-1]
    assert not [k for k in last.keys if k.startswith("force:")]  # both units have conducted operations
    assert any(e.kind == "drop" and "xen:forces" in e.rules for e in ctx.log)


@pytest.mark.rule("xen:forced-march")
def test_forced_march_loses_a_unit_half_the_time() -> None:
    # STRATEGIC_GAMES 4.2: lose a unit with P 1/2 (1-3 of a d6), the roll the operations use.
    assert [stratagems.forced_march_loss(r) for r in range(1, 7)] == [True] * 3 + [False] * 3


@pytest.mark.rule("xen:forced-march", "xen:operations")
def test_forced_march_loss_roll_and_new_operations() -> None:
    ctx, st = empty()
    force = put(st, SARDIS, pick(st, "phalanx", REBEL, 2))
    hand = st.hands[REBEL]
    while len(hand) >= 15:
        hand.remove(hand.cards[0])
    if "Forced March" not in hand:
        st.pool.remove("Forced March")
        hand.add("Forced March")
    held = hand.cards.count("Forced March")
    ctx.chance.force(2, 2, 5)  # OP roll; forced march roll 2: a loss; the new OP roll
    _phase(ctx, st, Script(f"force:{SARDIS}", f"move:{KELAINAI}", "stop", "forced-march",
                           f"force:{KELAINAI}", "done", force[1], "move:2910"))
    assert hand.cards.count("Forced March") == held - 1 and "Forced March" in st.pool
    assert st.unit(force[1]).where == "mix" and st.unit(force[0]).hex == "2910"
    ev = [e for e in ctx.log if e.kind == "eliminated"]
    assert ev and ev[0].rules == ("xen:forced-march",)


class OpsGreedy(RandomBot):
    """Greedy on the operations decisions through :func:`ops.score`, random elsewhere."""

    def choose(self, session: Session, decision: Decision) -> str:
        scores = [ops.score(session.state, decision, o.key) for o in decision.options]
        if any(v is None for v in scores):
            return super().choose(session, decision)
        top = max(scores)
        return next(o.key for o, v in zip(decision.options, scores) if v == top)


@pytest.mark.rule("xen:operations", "xen:opt.reaction")
@pytest.mark.parametrize("bot", [RandomBot, OpsGreedy])
def test_bots_play_cyrus_revolt_to_the_end(bot) -> None:  # type: ignore[no-untyped-def]
    s = Session(GAME, "cyrus-revolt", seed=3, options={"reaction": True})
    play_out(s, {REBEL: bot(), EMPIRE: bot()}, max_decisions=20_000)
    assert s.state.over
    kinds = {e.kind for e in s.log}
    assert {"op", "move", "force"} <= kinds


@pytest.mark.rule("xen:operations")
def test_score_prefers_moving_towards_a_city_not_held() -> None:
    ctx, st = empty()
    force = put(st, "2811", pick(st, "phalanx", REBEL))
    f = march.Force(REBEL, force, "2811", "2811", 10, False)
    opts = ops.force_options(st, f, frozenset())
    d = Decision(REBEL, "next?", tuple(opts), kind="ops.action", context={"highlight": ("2811",), "force": force})
    scores = {o.key: ops.score(st, d, o.key) for o in opts}
    assert all(v is not None for v in scores.values())
    best = max(scores, key=lambda k: scores[k])
    assert best.startswith("move:")
    dest = best.split(":")[1]
    assert ops._distance_to_target(st, REBEL, dest) < ops._distance_to_target(st, REBEL, "2811")


@pytest.mark.rule("xen:opt.reaction", "xen:forced-march")
def test_reaction_after_an_enemy_force_without_the_loss_roll_once_a_turn() -> None:
    ctx, st = empty(reaction=True)
    assert st.options.reaction
    put(st, SARDIS, pick(st, "phalanx", REBEL))
    emp = put(st, "3012", pick(st, "militia", EMPIRE, 2))
    give(st, EMPIRE, "Forced March")
    n_fm = st.hands[EMPIRE].cards.count("Forced March")
    ctx.chance.force(1, 3)  # the Rebel force's OP; the reacting force's OP (no loss roll between)
    script = Script(f"force:{SARDIS}", "stop", "forced-march", "force:3012", "done", "move:3011")
    _phase(ctx, st, script)
    assert all(st.unit(u).hex == "3011" for u in emp)
    assert st.hands[EMPIRE].cards.count("Forced March") == n_fm - 1
    assert not [e for e in ctx.log if e.kind == "eliminated"]
    ev = next(e for e in ctx.log if e.kind == "force" and e.side == EMPIRE)
    assert "xen:opt.reaction" in ev.rules
    # Once a turn: the reacted units are not offered again this turn.
    assert ops.can_form(st, EMPIRE, "3011", ops._reacted(st)) is False


@pytest.mark.rule("xen:opt.reaction", "xen:forced-march")
def test_without_the_optional_rule_forced_march_is_no_reaction() -> None:
    ctx, st = empty()
    assert not st.options.reaction
    put(st, SARDIS, pick(st, "phalanx", REBEL))
    put(st, "3012", pick(st, "militia", EMPIRE))
    give(st, EMPIRE, "Forced March")
    ctx.chance.force(1)
    script = _phase(ctx, st, Script(f"force:{SARDIS}", "stop"))
    windows = [d for d in script.asked if d.kind == "window.reaction"]
    assert all("forced-march" not in d.keys for d in windows)  # here: not asked at all, nothing to play


@pytest.mark.rule("xen:movement", "xen:chits")
def test_royal_road_quarter_op_while_on_the_road() -> None:
    ctx, st = empty()
    put(st, SARDIS, pick(st, "phalanx", REBEL))
    give(st, REBEL, "Royal Road")
    ctx.chance.force(1)
    script = _phase(ctx, st, Script("royal-road", f"force:{SARDIS}", f"move:{KELAINAI}"))
    acts = [d for d in script.asked if d.kind == "ops.action"]
    road = {o.key: o.data[0] for o in acts[0].options if o.key.startswith("move:")}
    assert road[f"move:{KELAINAI}"] == Fraction(1, 4)
    assert f"{Fraction(67, 4)} OP" in acts[1].prompt  # 17 - 1/4
    off_road = [o for o in acts[1].options if o.key.startswith("move:") and not o.data[2]]
    assert off_road and all(o.data[0] >= 1 for o in off_road)


@pytest.mark.rule("xen:zoc", "xen:movement")
def test_a_halted_force_moves_on_once_the_ezoc_is_gone() -> None:
    ctx, st = empty()
    force = put(st, "2910", pick(st, "phalanx", REBEL))
    enemy = put(st, "3011", pick(st, "militia", EMPIRE))
    f = march.Force(REBEL, force, "2910", SARDIS, 6, False, halted=True, moved=True)
    script = Script()
    drive(ops.conduct(ctx, st, f), script)
    assert not [k for k in script.asked[0].keys if k.startswith("move:")]  # still in the enemy's zone
    st.to_mix(enemy[0])
    f.halted = True
    script = Script()
    drive(ops.conduct(ctx, st, f), script)
    assert [k for k in script.asked[0].keys if k.startswith("move:")]  # the units exerting it are gone


@pytest.mark.rule("xen:combat", "xen:operations", "xen:control")
def test_an_attack_costs_two_op_and_neutral_units_attacked_change_control() -> None:
    ctx, st = empty()
    athens, larisa = "2904", "3004"
    assert st.control["Athens"] == "neutral" and athens in st.neighbours(larisa)
    put(st, athens, [u.id for u in st.units.values() if u.satrapy == "Athens" and not u.fleet][:1])
    force = put(st, larisa, pick(st, "phalanx", REBEL, 3))
    f = march.Force(REBEL, force, larisa, larisa, 10, False)
    opts = {o.key for o in ops.force_options(st, f, zoc.ezoc_of(st, REBEL, False))}
    assert f"attack:{athens}" in opts and f"move:{athens}" not in opts  # neutral units: attack, never enter
    drive(ops.conduct(ctx, st, f), Script(f"attack:{athens}"))
    assert st.control["Athens"] == EMPIRE
    attack = next(e for e in ctx.log if e.kind == "attack")
    assert "8 left" in attack.text and "xen:combat" in attack.rules


@pytest.mark.rule("xen:movement", "xen:stacking", "xen:zoc", "xen:pillage")
def test_bad_actions_are_refused_with_the_rule() -> None:
    ctx, st = empty()
    force = put(st, SARDIS, pick(st, "phalanx", REBEL))
    put(st, KELAINAI, pick(st, "militia", EMPIRE))
    f = march.Force(REBEL, force, SARDIS, SARDIS, 10, False)
    ez = zoc.ezoc_of(st, REBEL, False)
    d = Decision(REBEL, "next?", tuple(ops.force_options(st, f, ez)), rule="xen:operations",
                 refuse=ops._refusal(st, f, ez, ez))
    cases = {f"move:{KELAINAI}": "xen:movement", "move:3020": "xen:movement", "move:9999": "xen:movement",
             "attack:2907": "xen:combat"}
    for text, rule in cases.items():
        with pytest.raises(IllegalAnswer) as err:
            d.match(text)
        assert err.value.rule == rule and text in str(err.value)
    st.pillaged.add(SARDIS)
    d = Decision(REBEL, "next?", tuple(ops.force_options(st, f, ez)), refuse=ops._refusal(st, f, ez, ez))
    with pytest.raises(IllegalAnswer, match="already pillaged") as err:
        d.match("pillage")
    assert err.value.rule == "xen:pillage"


@pytest.mark.rule("xen:forces", "xen:operations")
def test_a_force_hex_without_units_is_refused() -> None:
    ctx, st = empty()
    put(st, SARDIS, pick(st, "phalanx", REBEL))
    st.player_turn = REBEL
    gen = ops.operations_phase(ctx, st, REBEL)
    d = next(gen)
    while d.kind != "ops.force":
        d = gen.send("no")
    with pytest.raises(IllegalAnswer, match="no unit of yours") as err:
        d.match("force:2909")
    assert err.value.rule == "xen:forces"


@pytest.mark.rule("xen:colonisation", "xen:forced-march")
def test_score_gives_up_the_least_valuable_unit() -> None:
    _, st = empty()
    units = pick(st, "phalanx", REBEL) + pick(st, "militia", REBEL) + ["Ariaos"]
    d = Decision(REBEL, "which unit settles?", tuple(Option(u) for u in units), kind="ops.colonist")
    best = max(units, key=lambda u: ops.score(st, d, u))
    assert st.unit(best).type == "militia"


@pytest.mark.rule("xen:negotiations", "xen:combat")
def test_an_agreement_not_to_fight_may_be_broken_and_the_attacker_pays_1d6_chits() -> None:
    # Audit D3 (rest): "If broken, the violator rolls 1d6 and loses that many Chits": the attack stays
    # on offer, its text warns, and making it breaks the agreement (docs, Rulings: operations 9).
    ctx, st = empty()
    force = put(st, SARDIS, pick(st, "phalanx", REBEL))
    put(st, KELAINAI, pick(st, "militia", EMPIRE))
    f = march.Force(REBEL, force, SARDIS, SARDIS, 10, False)
    plain = {o.key: o.label for o in ops.force_options(st, f, frozenset())}
    assert "BREAKS" not in plain[f"attack:{KELAINAI}"]
    st.negotiations.append(Agreement(1, st.turn, EMPIRE, REBEL, (Term("no-combat"),)))
    opts = {o.key: o.label for o in ops.force_options(st, f, frozenset())}
    breach = opts[f"attack:{KELAINAI}"].split("; WARNING")[0]  # Kelainai is a City: its warning follows
    assert "BREAKS the agreement" in breach and "xen:" not in breach
    from ancients_games.xenophon.tests.politics_helpers import deal

    deal(st, REBEL, "Agent", "Agent", "Agent")
    ctx.chance.force(2)  # the violator's 1d6: 2 chits lost
    drive(ops.conduct(ctx, st, f), Script(f"attack:{KELAINAI}"))
    assert st.negotiations[0].status == "broken"
    lost = next(e for e in ctx.log if e.kind == "chits-lost")
    assert "rebel returns 2 chit(s)" in lost.text and "xen:negotiations" in lost.rules
    assert any(e.kind == "agreement" and "breaks" in e.text and "xen:negotiations" in e.rules for e in ctx.log)


@pytest.mark.rule("xen:negotiations")
def test_the_greedy_bot_counts_the_breach_penalty_against_an_attack() -> None:
    _, st = empty()
    force = put(st, SARDIS, pick(st, "phalanx", REBEL))
    put(st, KELAINAI, pick(st, "militia", EMPIRE))
    f = march.Force(REBEL, force, SARDIS, SARDIS, 10, False)
    key = f"attack:{KELAINAI}"

    def value() -> float:
        opts = tuple(ops.force_options(st, f, frozenset()))
        d = Decision(REBEL, "next?", opts, kind="ops.action", context={"highlight": (SARDIS,), "force": tuple(force)})
        return ops.score(st, d, key)  # type: ignore[return-value]

    free = value()
    st.negotiations.append(Agreement(1, st.turn, EMPIRE, REBEL, (Term("no-combat"),)))
    assert value() == free - 3.5


@pytest.mark.rule("xen:zoc", "xen:movement")
def test_a_force_stopped_in_an_empty_city_in_ezoc_stays_stopped() -> None:
    # "A Force must cease movement when it enters an EZOC. It can continue moving only if it
    # eliminates/retreats the enemy units exerting that EZOC." Once there, the force occupies
    # the City and "ZOCs never extend into Cities/Colonies occupied by enemy" units: that
    # shield must not set it moving again, the enemy units are still there.
    ctx, st = empty()
    m = st.map
    city = SARDIS
    enemy_at = next(n for n in st.neighbours(city) if st.data.terrain.get(n) == "clear" and not st.units_at(n))
    start = next(n for n in st.neighbours(city) if n != enemy_at and not st.units_at(n)
                 and n not in zoc._zoc_ids(m, enemy_at, False) and st.data.terrain.get(n) != "sea")
    put(st, enemy_at, pick(st, "militia", EMPIRE))
    force = put(st, start, pick(st, "phalanx", REBEL))
    assert city in zoc.ezoc_of(st, REBEL, False) and not st.units_at(city)
    f = march.Force(REBEL, force, start, start, 10, False)
    script = Script(f"move:{city}")
    drive(ops.conduct(ctx, st, f), script)
    assert st.unit(force[0]).hex == city
    assert city not in zoc.ezoc_of(st, REBEL, False)  # the City it occupies is shielded now
    after = script.asked[-1]
    assert after.keys == ("stop",) or not [k for k in after.keys if k.startswith(("move:", "march:"))]
    assert zoc.zone_exerted(st, REBEL, False, city)
