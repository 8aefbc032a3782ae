"""LDF combat (combat.py) on the real map and CRT: the attack action, strengths, shifts,
every CRT result, retreats, overstacking, advance, the free chit, the battle windows."""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from typing import Any

import pytest

from ancients_kit import testing
from ancients_kit.bots import make_bot
from ancients_kit.data import DataStore
from ancients_kit.log import Log
from ancients_kit.session import Context, Decision, Session
from ancients_games.ldf import GAME, combat, model
from ancients_games.ldf.setup import build_campaign
from ancients_games.ldf.state import GP, ROMAN, LDFState, load_data

STORE = DataStore(model.PACKAGE)
DATA = load_data(STORE)

Answer = str | Callable[[Decision], str]


def fresh(seed: int = 1) -> tuple[Context, LDFState]:
    """A Turn 2 position with every unit off the map (tests place what they need)."""
    ctx = Context(STORE, {}, seed, Log())
    state = build_campaign(ctx, DATA)
    for u in list(state.on_map()):
        state.remove(u.id, "aside")
    state.turn, state.phase = 2, "actions"
    return ctx, state


def put(state: LDFState, hex_id: str, *uids: str) -> None:
    for uid in uids:
        state.place(uid, hex_id)


def _rebels(state: LDFState, hex_id: str, *uids: str) -> None:
    put(state, hex_id, *uids)
    for u in uids:
        state.units[u].rebel = True


def drive(gen: Generator[Decision, str, Any], answers: Mapping[str, Answer] | None = None) -> tuple[Any, list[Decision]]:
    """Run a rules generator: ``answers`` by decision kind (a key or a function of the
    decision); windows are declined, anything else unanswered fails the test
    (:func:`ancients_kit.testing.drive` with answers by kind); its value and the decisions asked."""
    asked, value = testing.drive(gen, dict(answers or {}))
    return value, asked


def battle(ctx: Context, state: LDFState, side: str, origin: str, target: str, force: list[str],
           answers: Mapping[str, Answer] | None = None) -> tuple[combat.Battle, list[Decision]]:
    return drive(combat.resolve_battle(ctx, state, side, origin, target, force), answers)


def events(ctx: Context, kind: str) -> list[Any]:
    return [e for e in ctx.log if e.kind == kind]


def rolled(ctx: Context) -> int:
    return len(events(ctx, "roll"))


def hexes(state: LDFState, *uids: str) -> list[str | None]:
    return [state.unit(u).hex if state.unit(u).on_map else state.unit(u).where for u in uids]


# ---------------------------------------------------------------- declaration and strengths


@pytest.mark.rule("ldf:13.2", "ldf:2.6", "ldf:13.8", "ldf:13.1", "ldf:8.6")
def test_a_german_attack_across_the_rhine_rolls_its_strength_and_shifts_left() -> None:
    """T1 in 3113 (Barbaria) attacks Trier (3114) across the Rhine: its factor is d6+1 for the
    battle (2.6), the odds shift one column to the defence (13.8)."""
    ctx, state = fresh()
    put(state, "3113", "T1")
    put(state, "3114", "I1", "I2")
    ctx.chance.force(5, 3)  # factor 6; the CRT roll 3
    b, _ = battle(ctx, state, GP, "3113", "3114", ["T1"], {"battle.retreat": lambda d: d.keys[0],
                                                          "advance.units": "done"})
    assert b.german == {"T1": 6} and (b.attack, b.defence) == (6, 2)
    assert [s.rules for s in b.shifts] == [("ldf:13.8",)]
    assert b.resolution is not None and b.resolution.final_column == "2:1"  # 3:1 shifted left
    ev = events(ctx, "battle")[0]
    assert {"ldf:13.8", "ldf:2.6", "ldf:13.2", "ldf:13.15"} <= set(ev.rules)
    assert events(ctx, "german-strength")[0].rules == ("ldf:2.6",)


@pytest.mark.rule("ldf:13.9", "ldf:8.4")
def test_a_leader_shifts_one_column_for_his_side_and_two_cancel() -> None:
    ctx, state = fresh()
    put(state, "3317", "I1", "I2", "E")
    _rebels(state, "3318", "I3")
    ctx.chance.force(1)
    b, _ = battle(ctx, state, ROMAN, "3317", "3318", ["I1", "I2"], {"battle.retreat": lambda d: d.keys[0],
                                                                    "advance.units": "done"})
    assert b.leader == "E" and b.shift == 1 and b.resolution.final_column == "3:1"  # 2:1 + 1
    ctx, state = fresh()
    put(state, "3317", "I1", "I2", "E")
    _rebels(state, "3318", "I3", "CE")
    ctx.chance.force(4)
    b, _ = battle(ctx, state, ROMAN, "3317", "3318", ["I1", "I2"], {"battle.retreat": lambda d: d.keys[0],
                                                                    "advance.units": "done"})
    assert b.shift == 0 and b.resolution.final_column == "2:1"
    assert any("cancel" in s.why for s in b.shifts)


@pytest.mark.rule("ldf:13.10", "ldf:2.6", "ldf:13.6")
def test_garrisons_defend_at_their_hex_tp_and_are_left_out_of_attacks() -> None:
    """Ctesiphon's garrison defends at 8; a garrison in the attacking hex never attacks and
    takes no part (13.10); every unit in the hex attacked defends (13.6)."""
    ctx, state = fresh()
    put(state, "4919", "I1", "I2", "RG1")
    put(state, "5020", "PG1", "G1")
    assert [u.id for u in combat.attackers_in(state, ROMAN, "4919")] == ["I1", "I2"]
    with pytest.raises(ValueError, match="ldf:13.10"):
        combat.new_battle(state, ROMAN, "4919", "5020", ["I1", "RG1"])
    b = combat.new_battle(state, ROMAN, "4919", "5020", ["I1", "I2"])
    assert b.defenders == ["PG1", "G1"]
    assert combat.defence_strength(state, b) == 9
    put(state, "3317", "I3")
    _rebels(state, "3318", "RG2")
    b = combat.new_battle(state, ROMAN, "3317", "3318", ["I3"])
    assert combat.defence_strength(state, b) == 4  # Rome/Ostia: 3 + 1 TP


@pytest.mark.rule("ldf:13.15", "ldf:13.2")
def test_past_the_ends_no_die_is_rolled() -> None:
    """7:1 is an automatic DE, 2:7 an automatic AE: the result stands without a roll (13.15)."""
    ctx, state = fresh()
    put(state, "3317", "T1")
    put(state, "3318", "I1")
    ctx.chance.force(6)  # factor 7 against 1: 7:1, automatic DE
    b, _ = battle(ctx, state, GP, "3317", "3318", ["T1"], {"advance.units": "done"})
    assert b.result == "DE" and b.resolution.automatic and rolled(ctx) == 1  # only the strength roll
    ctx, state = fresh()
    put(state, "3113", "T1")
    put(state, "3114", "I1", "I2", "I3", "I4", "I5", "I6", "I7", "E")
    ctx.chance.force(1)  # factor 2 against 7 (+ the emperor): 2:7, automatic AE
    b, _ = battle(ctx, state, GP, "3113", "3114", ["T1"])
    assert b.result == "AE" and b.resolution.automatic and rolled(ctx) == 1  # only the strength roll
    assert hexes(state, "T1") == ["dead"]


# ---------------------------------------------------------------- results


@pytest.mark.rule("ldf:13.11", "ldf:8.4", "ldf:8.9")
def test_attacker_eliminated_takes_the_leader_and_the_emperor_is_replaced() -> None:
    ctx, state = fresh()
    put(state, "3317", "I1", "E")
    _rebels(state, "3318", "I2", "I3", "B1")
    put(state, "3417", "I5")  # a loyal force elsewhere for the Emperor Creation Table
    ctx.chance.force(1, 1, 1, 1, 1, 1)  # 1:3 +1 = 1:2, roll 1: AE; then the Emperor Creation Table
    b, _ = battle(ctx, state, ROMAN, "3317", "3318", ["I1"], {"emperor.place": lambda d: d.keys[0],
                                                              "emperor.hex": lambda d: d.keys[0]})
    assert b.result == "AE" and hexes(state, "I1")[0] == "dead"
    assert any("ldf:14.4" in e.rules for e in ctx.log)


@pytest.mark.rule("ldf:13.11")
def test_attack_stalled_changes_nothing() -> None:
    ctx, state = fresh()
    put(state, "3317", "I1")
    _rebels(state, "3318", "I2")
    ctx.chance.force(2)  # 1:1, roll 2: AS
    b, _ = battle(ctx, state, ROMAN, "3317", "3318", ["I1"])
    assert b.result == "AS" and hexes(state, "I1", "I2") == ["3317", "3318"]
    assert state.free_chit is None


def _advance_all(d: Decision) -> str:
    return "all" if "all" in d.keys else "done"


@pytest.mark.rule("ldf:13.11", "ldf:13.14", "ldf:8.19", "ldf:13.10")
def test_defender_eliminated_advance_without_bases_and_a_free_chit() -> None:
    ctx, state = fresh()
    put(state, "3317", "I1", "I2", "B1")
    _rebels(state, "3318", "I3")
    ctx.chance.force(6)
    b, asked = battle(ctx, state, ROMAN, "3317", "3318", ["I1", "I2", "B1"], {"advance.units": _advance_all})
    assert b.result == "DE" and hexes(state, "I3") == ["dead"]
    adv = [d for d in asked if d.kind == "advance.units"][0]
    assert "B1" not in adv.keys  # legion bases never advance (13.10)
    assert hexes(state, "I1", "I2", "B1") == ["3318", "3318", "3317"]
    assert state.free_chit == ROMAN
    assert events(ctx, "battle-won")[0].rules == ("ldf:8.19",)


@pytest.mark.rule("ldf:8.19", "ldf:13.14")
def test_no_advance_no_free_chit() -> None:
    ctx, state = fresh()
    put(state, "3317", "I1", "I2", "B1")
    _rebels(state, "3318", "I3")
    ctx.chance.force(6)
    battle(ctx, state, ROMAN, "3317", "3318", ["I1", "I2", "B1"], {"advance.units": "done"})
    assert state.free_chit is None and hexes(state, "I1") == ["3317"]


@pytest.mark.rule("ldf:13.11", "ldf:13.12", "ldf:11.6")
def test_retreat_static_defenders_die_and_the_retreat_avoids_enemy_zoc() -> None:
    """DR: the garrison dies (13.11); of 3318's exits 3418 and 3218 lie in the attackers' ZOC
    (from 3317), 3219 does not, 3419 is across an all-sea hexside: the retreat goes to 3219."""
    ctx, state = fresh()
    put(state, "3317", "I1", "I2")
    _rebels(state, "3318", "I4", "RG1")
    ctx.chance.force(6)  # 2 against 1 + 4 = 2:5 -> 1:3, roll 6: DR
    b, asked = battle(ctx, state, ROMAN, "3317", "3318", ["I1", "I2"], {"advance.units": "done"})
    assert b.result == "DR" and hexes(state, "RG1", "I4") == ["dead", "3219"]
    assert not any(d.kind == "battle.retreat" for d in asked)  # one hex left: no question
    assert any(e.kind == "retreat" and e.rules == ("ldf:13.12",) for e in ctx.log)


@pytest.mark.rule("ldf:13.12", "ldf:13.13", "ldf:10.7", "ldf:11.6")
def test_a_retreat_goes_where_it_can_stack_before_it_avoids_zoc() -> None:
    ctx, state = fresh()
    put(state, "3317", "I1", "I2")
    _rebels(state, "3318", "I4")
    _rebels(state, "3219", "I6", "I7")  # full: two vexillations without a leader (10.7)
    ctx.chance.force(4)  # 2:1, roll 4: DR
    b, asked = battle(ctx, state, ROMAN, "3317", "3318", ["I1", "I2"],
                      {"battle.retreat": lambda d: d.keys[0], "advance.units": "done"})
    assert b.result == "DR"
    q = [d for d in asked if d.kind == "battle.retreat"][0]
    assert sorted(q.keys) == ["3218", "3418"]  # both in enemy ZOC, but a legal stack
    assert state.unit("I4").hex == q.keys[0]


@pytest.mark.rule("ldf:13.13", "ldf:13.12")
def test_overstacked_retreat_moves_one_hex_further() -> None:
    """Rebels in 2420 lose a battle (DR): every hex around but 2419 is held by loyal units, and
    2419 already holds two rebel vexillations, so the retreat into it overstacks and the unit goes
    on one hex beyond (13.13), to the hex out of enemy ZOC (2418; 2518 is next to I8)."""
    ctx, state = fresh()
    put(state, "2421", "I1", "I2")
    put(state, "2519", "I8")
    put(state, "2520", "I9")
    put(state, "2320", "I10")
    put(state, "2319", "I11")
    _rebels(state, "2420", "I4")
    _rebels(state, "2419", "I6", "I7")
    ctx.chance.force(4)  # 2:1, roll 4: DR
    b, asked = battle(ctx, state, ROMAN, "2421", "2420", ["I1", "I2"], {"advance.units": "done"})
    assert b.result == "DR"
    assert hexes(state, "I4", "I6", "I7") == ["2418", "2419", "2419"]
    moves = [(e.text, e.rules) for e in ctx.log if e.kind == "retreat"]
    assert moves == [("I4 retreat from 2420 to 2419", ("ldf:13.12", "ldf:13.13")),
                     ("I4 retreats on from 2419 to 2418", ("ldf:13.13",))]


@pytest.mark.rule("ldf:13.13", "ldf:13.12")
def test_overstacked_retreat_with_no_hex_beyond_eliminates_the_unit() -> None:
    """Rebels retreating from Rome/Ostia (3318) into 3219, which already holds two rebel
    vexillations: no hex beyond 3219 can take the unit, so it is eliminated (13.13)."""
    ctx, state = fresh()
    put(state, "3317", "I1", "I2")
    put(state, "3418", "I8")
    put(state, "3218", "I9")
    _rebels(state, "3318", "I4")
    _rebels(state, "3219", "I6", "I7")
    ctx.chance.force(4)
    b, asked = battle(ctx, state, ROMAN, "3317", "3318", ["I1", "I2"],
                      {"battle.retreat": lambda d: d.keys[0], "advance.units": "done"})
    assert b.result == "DR"
    assert [e.rules for e in ctx.log if e.kind == "retreat"][0] == ("ldf:13.12", "ldf:13.13")
    assert not state.unit("I4").on_map
    assert any("ldf:13.13" in e.rules and e.kind == "eliminated" for e in ctx.log)
    assert len([u for u in state.units_at("3219") if u.kind == "infantry-vexillation"]) == 2


@pytest.mark.rule("ldf:13.12")
def test_no_legal_retreat_eliminates_and_the_attacker_still_advances() -> None:
    """A German tribe cannot retreat into a narrows, the sea or an enemy hex: eliminated in place,
    and the attacker may still advance (13.12)."""
    ctx, state = fresh()
    put(state, "3318", "T1")  # a tribe in Rome/Ostia: 3218 and 3219 are narrows, the rest Roman or sea
    put(state, "3317", "I1", "I2")
    put(state, "3418", "I3")
    put(state, "3419", "I4")
    ctx.chance.force(1, 4)  # factor 2; 2:2 = 1:1, roll 4: DR
    b, asked = battle(ctx, state, ROMAN, "3317", "3318", ["I1", "I2"], {"advance.units": _advance_all})
    assert b.result == "DR" and not any(d.kind == "battle.retreat" for d in asked)
    assert hexes(state, "T1") == ["dead"]
    assert any("no legal retreat" in e.text and "ldf:13.12" in e.rules for e in ctx.log)
    assert hexes(state, "I1", "I2") == ["3318", "3318"] and state.free_chit == ROMAN


@pytest.mark.rule("ldf:13.11")
def test_exchange_is_counted_in_units_the_attacker_chooses_his_leader_goes_last() -> None:
    ctx, state = fresh()
    put(state, "3317", "I1", "I2", "C1", "E")
    _rebels(state, "3318", "I3", "I4")
    ctx.chance.force(5)  # 3:2 = 1:1 +1 (emperor) = 2:1, roll 5: EX
    b, asked = battle(ctx, state, ROMAN, "3317", "3318", ["I1", "I2", "C1"],
                      {"battle.exchange": lambda d: "C1" if "C1" in d.keys else d.keys[0], "advance.units": "done"})
    assert b.result == "EX"
    assert hexes(state, "I3", "I4") == ["dead", "dead"]
    lost = [d for d in asked if d.kind == "battle.exchange"]
    assert len(lost) == 2  # two defenders: two attacking units, chosen by the attacker
    assert state.unit("E").on_map  # one unit left: the emperor stays with it
    assert state.unit("C1").where == "pool"  # cavalry before the reserve goes back to the pool (14.3, 25)
    assert sum(state.unit(u).on_map for u in ("I1", "I2")) == 1


@pytest.mark.rule("ldf:13.11", "ldf:8.4")
def test_exchange_that_takes_the_whole_force_takes_its_leader() -> None:
    ctx, state = fresh()
    put(state, "3317", "I1", "CE")
    put(state, "3318", "T1")
    ctx.chance.force(1, 5)  # T1 factor 2; 1:2 +1 = 1:1, roll 5: EX
    b, _ = battle(ctx, state, ROMAN, "3317", "3318", ["I1"], {"advance.units": "done"})
    assert b.result == "EX"
    assert hexes(state, "T1", "I1", "CE") == ["dead", "dead", "dead"]


# ---------------------------------------------------------------- sudden death, windows, refusals


@pytest.mark.rule("ldf:4.2", "ldf:13.14")
def test_a_german_tribe_advancing_into_rome_wins_at_once() -> None:
    ctx, state = fresh()
    put(state, "3317", "T1")
    put(state, "3318", "I1")
    ctx.chance.force(6, 6)  # factor 7 against 1: 7:1, automatic DE; no CRT roll
    b, _ = battle(ctx, state, GP, "3317", "3318", ["T1"], {"advance.units": _advance_all})
    assert b.result == "DE" and state.over and state.winner == GP
    assert "ldf:4.2" in state.result_rules


@pytest.mark.rule("ldf:14.3", "ldf:13.11")
def test_they_shall_not_pass_at_the_window_before_the_roll_turns_dr_into_as() -> None:
    ctx, state = fresh()
    put(state, "3317", "I1", "I2")
    _rebels(state, "3318", "I3")
    state.hands[GP].add(6)
    ctx.chance.force(4)  # 2:1 -1 = 1:1; a 4 there is DR

    def window(d: Decision) -> str:
        return "chit-6" if "chit-6" in d.keys else "no"
    b, asked = battle(ctx, state, ROMAN, "3317", "3318", ["I1", "I2"], {"window.before-attack-roll": window})
    assert b.not_pass and b.resolution.result == "DR" and b.result == "AS"
    assert hexes(state, "I3") == ["3318"]
    windows = [(d.side, d.kind) for d in asked if d.kind.startswith("window.")]
    assert windows == [(GP, "window.before-attack-roll")]  # only the holder of a play is asked, only there


@pytest.mark.rule("ldf:14.3", "ldf:8.16")
def test_heavy_siege_equipment_doubles_a_loyal_attack_on_an_unlooted_centre() -> None:
    ctx, state = fresh()
    put(state, "3317", "I1", "I2")
    _rebels(state, "3318", "I3", "RG1")
    state.siege = "3317"
    b = combat.new_battle(state, ROMAN, "3317", "3318", ["I1", "I2"])
    assert b.double_attack and combat.attack_strength(state, b) == 4
    state.looted.add("3318")
    assert not combat.new_battle(state, ROMAN, "3317", "3318", ["I1", "I2"]).double_attack


@pytest.mark.rule("ldf:13.4", "ldf:13.5", "ldf:7.3", "ldf:9.2", "ldf:1.5")
def test_what_may_not_be_attacked() -> None:
    ctx, state = fresh()
    put(state, "3317", "I1")
    _rebels(state, "3419", "I2")
    f = [state.unit("I1")]
    assert "ldf:13.4" in (combat.attack_forbidden(state, f, "3317", "3419") or "")  # not adjacent
    put(state, "3318", "I3")
    assert "all-sea" in (combat.attack_forbidden(state, [state.unit("I3")], "3318", "3419") or "")
    assert combat.attack_forbidden(state, f, "3317", "3318") is not None  # friendly hex
    _rebels(state, "4719", "I4")
    put(state, "4720", "P1")
    assert "ldf:9.2" in (combat.attack_forbidden(state, [state.unit("I4")], "4719", "4720") or "")
    put(state, "4919", "I5")
    put(state, "5020", "G1")
    state.parthia_collapsed = True
    assert "ldf:7.3" in (combat.attack_forbidden(state, [state.unit("I5")], "4919", "5020") or "")
    state.parthia_collapsed = False
    # a German may attack into a narrows (1.5) but never advance into it
    put(state, "3217", "T1")
    put(state, "3218", "I6")
    assert combat.attack_forbidden(state, [state.unit("T1")], "3217", "3218") is None
    ctx.chance.force(6, 6)
    b, asked = battle(ctx, state, GP, "3217", "3218", ["T1"], {"battle.retreat": lambda d: d.keys[0]})
    assert b.result == "DE" and not any(d.kind == "advance.units" for d in asked)
    assert hexes(state, "T1") == ["3217"]


@pytest.mark.rule("ldf:8.6", "ldf:13.4")
def test_the_attack_action_asks_target_and_units() -> None:
    ctx, state = fresh()
    put(state, "3317", "I1", "I2")
    _rebels(state, "3318", "I3")
    assert combat.attack_targets(state, ROMAN) == [("3317", "3318")]
    assert combat.attack_available(state, ROMAN) and combat.attack_available(state, GP)
    ctx.chance.force(2)
    _, asked = drive(combat.attack_action(ctx, state, ROMAN),
                     {"attack.target": "3317-3318", "attack.units": lambda d: "I2" if "attack" not in d.keys
                      or len(d.context["chosen"]) == 2 else "attack"})
    assert [d.kind for d in asked][:3] == ["attack.target", "attack.units", "attack.units"]
    assert events(ctx, "attack")[0].data["attackers"] == ("I1",)


@pytest.mark.rule("ldf:8.6", "ldf:13.1")
def test_random_bots_fight_battles_in_the_campaign() -> None:
    s = Session(GAME, "campaign", seed=2, options={"concession": False})
    bot = make_bot("random")
    while s.decision is not None and not any(e.kind == "battle" for e in s.log):
        s.answer(bot.choose(s, s.decision))
    battles = [e for e in s.log if e.kind == "battle"]
    assert battles and battles[0].data["result"] in ("AE", "AS", "DR", "EX", "DE")


@pytest.mark.rule("ldf:13.2", "ldf:2.6", "ldf:13.8", "ldf:13.15")
def test_decision_odds_before_the_attack_mix_german_strength() -> None:
    """What the player is shown before committing: the exact distribution, the German factor mixed
    over 2..7 (2.6), the river shift counted (13.8), the same as ``ancients odds ldf``."""
    ctx, state = fresh()
    put(state, "3113", "T1")
    put(state, "3114", "I1", "I2")
    d = Decision(GP, "attack?", (combat.Option("3113-3114", "x"),), kind="attack.target")
    report = GAME.decision_odds(state, d, "3113-3114", STORE)
    assert report is not None and sum(report.distribution.values()) == 1
    assert report.distribution == GAME.odds(STORE, {"attack": "0", "german_attack": "1", "defense": "2",
                                                     "river": "yes"}).distribution
    assert any("same as: ancients odds ldf" in line for line in report.explain)
    assert GAME.decision_odds(state, Decision(GP, "x", (combat.Option("a", "a"),), kind="action"), "a") is None
    assert "german_attack" in GAME.odds_help


@pytest.mark.rule("ldf:13.11", "ldf:2.6")
def test_game_compare_gives_ldf_translation() -> None:
    from ancients_kit.compare import Engagement

    t = GAME.compare(STORE, Engagement((("heavy-infantry", 3),), (("warband", 1),)))
    assert t is not None and t.game == "Lest Darkness Fall" and sum(t.distribution.values()) == 1


@pytest.mark.rule("ldf:13.3", "ldf:13.5", "ldf:13.7")
def test_one_force_of_one_hex_each_unit_once_with_all_its_strength() -> None:
    ctx, state = fresh()
    put(state, "3317", "I1", "I2")
    put(state, "3418", "I3")
    _rebels(state, "3318", "I4")
    with pytest.raises(ValueError, match="ldf:13.3"):
        combat.new_battle(state, ROMAN, "3317", "3318", ["I1", "I1"])
    with pytest.raises(ValueError, match="ldf:13.5"):
        combat.new_battle(state, ROMAN, "3317", "3318", ["I1", "I3"])  # units of two hexes never combine
    b = combat.new_battle(state, ROMAN, "3317", "3318", ["I1", "I2"])
    assert combat.attack_strength(state, b) == 2  # each unit's whole factor, once


@pytest.mark.rule("ldf:14.3", "ldf:13.2")
def test_overwhelming_assault_rolls_twice_and_the_attacker_keeps_either() -> None:
    ctx, state = fresh()
    put(state, "3317", "I1", "I2")
    _rebels(state, "3318", "I3")
    state.hands[ROMAN].add(15)
    ctx.chance.force(1, 6)  # 2:1: 1 is AS, 6 is DE

    def window(d: Decision) -> str:
        return "chit-15" if "chit-15" in d.keys else "no"
    b, asked = battle(ctx, state, ROMAN, "3317", "3318", ["I1", "I2"],
                      {"window.before-attack-roll": window, "attack.keep-roll": "second", "advance.units": "done"})
    assert b.roll_twice and b.result == "DE" and rolled(ctx) == 2
    assert [d.keys for d in asked if d.kind == "attack.keep-roll"] == [("first", "second")]


@pytest.mark.rule("ldf:8.7", "ldf:13.11")
def test_a_rebel_co_emperor_killed_in_battle_turns_the_rebels_loyal() -> None:
    ctx, state = fresh()
    put(state, "3317", "I1", "I2", "E")
    _rebels(state, "3318", "I3", "CE")
    _rebels(state, "2812", "I4")
    ctx.chance.force(6)  # 2:1 +1 -1 = 2:1, roll 6: DE
    b, _ = battle(ctx, state, ROMAN, "3317", "3318", ["I1", "I2"], {"advance.units": "done"})
    assert b.result == "DE" and not state.unit("CE").on_map
    assert not state.unit("I4").rebel


@pytest.mark.rule("ldf:14.3", "ldf:8.16")
def test_the_siege_equipment_goes_back_to_the_pool_when_the_centre_is_taken() -> None:
    ctx, state = fresh()
    put(state, "3317", "I1", "I2")
    _rebels(state, "3318", "I3")
    state.siege = "3317"
    ctx.chance.force(6)  # 4 against 1: 4:1, roll 6 DE
    before = len(state.pool)
    b, _ = battle(ctx, state, ROMAN, "3317", "3318", ["I1", "I2"], {"advance.units": _advance_all})
    assert b.double_attack and b.attack == 4 and b.result == "DE"
    assert state.siege is None and len(state.pool) == before + 1


@pytest.mark.rule("ldf:13.2", "ldf:4.2")
def test_greedy_scores_prefer_the_better_attack() -> None:
    """The bot's score of an attack is its expected gain over the exact distribution; a German
    attack that can take Rome/Ostia outweighs everything (4.2)."""
    ctx, state = fresh()
    put(state, "3317", "I1", "I2")
    _rebels(state, "3318", "I3")
    _rebels(state, "3216", "I4", "I5", "B1")
    put(state, "3217", "I6")
    pairs = combat.attack_targets(state, ROMAN)
    d = Decision(ROMAN, "attack?", tuple(combat.Option(f"{o}-{t}", "x") for o, t in pairs), kind="attack.target")
    good, bad = combat.score(state, d, "3317-3318"), combat.score(state, d, "3217-3216")
    assert good is not None and bad is not None and good > 0 > bad
    ctx, state = fresh()
    put(state, "3317", "T1")
    put(state, "3318", "I1")
    d = Decision(GP, "attack?", (combat.Option("3317-3318", "x"),), kind="attack.target")
    assert combat.score(state, d, "3317-3318") > 50
    assert GAME.score_option(state, d, "3317-3318") == combat.score(state, d, "3317-3318")
    assert combat.best_attack(state, GP) == combat.score(state, d, "3317-3318")
    assert combat.best_attack(state, ROMAN) == combat.score(state, Decision(ROMAN, "a", (combat.Option(
        "3318-3317", ""),), kind="attack.target"), "3318-3317")


@pytest.mark.rule("ldf:13.14", "ldf:8.3")
def test_rebels_advance_without_their_co_emperor_and_regardless_of_ezoc() -> None:
    ctx, state = fresh()
    _rebels(state, "3317", "I1", "I2")
    put(state, "3318", "I3")
    put(state, "3418", "I4")  # its ZOC covers 3318: no matter for an advance (13.14)
    ctx.chance.force(6)  # 2:1, roll 6: DE
    b, _ = battle(ctx, state, GP, "3317", "3318", ["I1", "I2"], {"advance.units": _advance_all})
    assert b.result == "DE" and hexes(state, "I1", "I2") == ["3318", "3318"]
    assert state.free_chit == GP


@pytest.mark.rule("ldf:9.2", "ldf:13.6", "ldf:13.10")
def test_a_parthian_attack_wakes_a_passive_palmyra_which_defends_with_all_it_has() -> None:
    ctx, state = fresh()
    put(state, "4820", *[f"G{i}" for i in range(1, 9)])
    put(state, "4720", *[f"P{i}" for i in range(1, 9)], "CG7")
    assert ("4820", "4720") in combat.attack_targets(state, GP)
    ctx.chance.force(3)  # 8 against 8 Palmyrans + the garrison's 2: 8:10 -> 1:2, roll 3: AS
    b, _ = battle(ctx, state, GP, "4820", "4720", [f"G{i}" for i in range(1, 9)])
    assert state.palmyra == ROMAN and b.defence == 10 and b.result == "AS"


@pytest.mark.rule("ldf:13.4", "ldf:13.2")
def test_decision_odds_follow_the_units_toggled() -> None:
    ctx, state = fresh()
    put(state, "3317", "I1", "I2", "B1")
    _rebels(state, "3318", "I3")
    d = Decision(ROMAN, "which?", (combat.Option("attack", ""), combat.Option("I1", ""), combat.Option("I2", ""),
                                   combat.Option("B1", "")), kind="attack.units",
                 context={"origin": "3317", "target": "3318", "chosen": ("I1", "I2", "B1")})
    crt = DATA.crt
    assert GAME.decision_odds(state, d, "attack", STORE).distribution == crt.distribution(3, 1)
    assert GAME.decision_odds(state, d, "B1", STORE).distribution == crt.distribution(2, 1)  # B1 left out


@pytest.mark.rule("ldf:14.3")
def test_the_siege_equipment_goes_back_to_the_pool_when_its_romans_leave_the_hex() -> None:
    """Chit 21 stays in its hex only while loyal Roman units are there with it: once they all
    move away (or die, or turn rebel) it goes back to the pool, checked after every action."""
    from ancients_games.ldf import combat as combat_rules

    ctx, state = fresh()
    put(state, "3016", "I1", "I2")
    state.siege = "3016"
    before = len(state.pool)
    combat_rules.release_abandoned_siege(ctx, state)
    assert state.siege == "3016" and len(state.pool) == before  # the legions are still with it
    state.place("I1", "3017")
    state.place("I2", "3017")
    combat_rules.release_abandoned_siege(ctx, state)
    assert state.siege is None and 21 in state.pool and len(state.pool) == before + 1
    assert any(e.kind == "siege" and e.rules == ("ldf:14.3",) for e in ctx.log)


@pytest.mark.rule("ldf:13.2", "ldf:14.6")
def test_the_odds_and_the_bot_read_the_crt_the_game_plays_with(tmp_path: Any) -> None:
    """Under a variant CRT the odds shown, and the greedy bot's score of an attack, come from
    that CRT (they came from the packaged one while the battle was fought on the variant's)."""
    from pathlib import Path

    from ancients_kit.data import Variant

    body = (Path(model.__file__).parent / "data" / "crt.toml").read_text(encoding="utf-8")
    rows = body[body.index("[table.results]"):body.index("[codes]")]
    sure = "[table.results]\n" + "".join(f'{r} = ["DE", "DE", "DE", "DE", "DE", "DE", "DE", "DE"]\n'
                                           for r in range(1, 7)) + "\n"
    (tmp_path / "crt.toml").write_text(body.replace(rows, sure), encoding="utf-8")
    (tmp_path / "v.toml").write_text('[meta]\nid = "v"\nsource = "variant"\nnote = "sure wins"\n'
                                     '[replace."ldf.crt"]\nfile = "crt.toml"\n', encoding="utf-8")
    store = DataStore(model.PACKAGE, (Variant.from_file(tmp_path / "v.toml"),))
    ctx = Context(store, {}, 1, Log())
    state = build_campaign(ctx, load_data(store))
    for u in list(state.on_map()):
        state.remove(u.id, "aside")
    state.turn, state.phase = 2, "actions"
    put(state, "3317", "I1", "I2")
    _rebels(state, "3318", "I3")
    d = Decision(ROMAN, "attack?", (combat.Option("3317-3318", "x"),), kind="attack.target")
    assert GAME.decision_odds(state, d, "3317-3318", store).distribution == {"DE": 1}
    assert GAME.decision_odds(state, d, "3317-3318", STORE).distribution == {"DE": 1}  # the state's CRT
    fresh_ctx, packaged = fresh()
    put(packaged, "3317", "I1", "I2")
    _rebels(packaged, "3318", "I3")
    assert GAME.decision_odds(packaged, d, "3317-3318", STORE).distribution == DATA.crt.distribution(2, 1)
