"""Negotiations (xen:negotiations): structured offers, their enforced parts, the breach penalty."""

from __future__ import annotations

import pytest

from ancients_games.xenophon import negotiations as neg
from ancients_games.xenophon.negotiations import Term
from ancients_games.xenophon.state import EMPIRE, NEUTRAL, REBEL
from ancients_games.xenophon.tests.politics_helpers import Script, deal, drive, texts, world


@pytest.mark.rule("xen:negotiations")
def test_term_keys_round_trip_and_bad_keys_are_refused() -> None:
    for t in (Term("give-money", amount=5), Term("ask-money", amount=10), Term("give-chits", amount=2),
              Term("ask-chits", amount=1), Term("neutral", satrapy="Egypt"), Term("ask-leave", satrapy="Lydia"),
              Term("leave-city", hex="2907"), Term("ask-leave-city", hex="2907"),
              Term("no-combat"), Term("end-game"), Term("promise", promise="alliance")):
        assert neg.parse_term(t.key) == t
    for bad in ("give-$3", "give-$x", "ask-chits:9", "promise:peace", "bribe", "neutral:", "leave-city:"):
        with pytest.raises(ValueError, match="xen:negotiations"):
            neg.parse_term(bad)
    assert not Term("promise", promise="alliance").enforced and Term("no-combat").enforced


@pytest.mark.rule("xen:negotiations")
def test_the_menu_offers_only_what_the_proposer_can_give() -> None:
    ctx, state = world()
    deal(state, REBEL, "Agent")
    keys = [o.key for o in neg.menu(state, REBEL, [])]
    assert "give-$10" in keys and "give-$1" in keys and "give-chits:1" in keys and "give-chits:2" not in keys
    assert "neutral:Egypt" in keys and "ask-neutral:Persis" in keys and "neutral:Persis" not in keys
    assert "ask-$10" in keys and "end-game" in keys and "promise:alliance" in keys
    keys = [o.key for o in neg.menu(state, REBEL, [Term("give-money", amount=10)])]
    assert "give-$10" not in keys and "give-$1" not in keys  # $10 is all the Rebel has


@pytest.mark.rule("xen:negotiations", "xen:control", "xen:treasury")
def test_an_accepted_offer_is_carried_out_at_once() -> None:
    ctx, state = world()
    deal(state, REBEL, "Agent", "Treachery")
    deal(state, EMPIRE)
    script = Script({
        "window.negotiations": ["offer", "no"],
        "negotiations.term": ["ask-$5", "give-chits:1", "ask-neutral:Syria", "promise:alliance"],  # 4: sent
        "negotiations.answer": "accept",
        "negotiations.chit": "treachery",
    })
    drive(neg.negotiate(ctx, state, REBEL), script)
    assert state.treasury[REBEL].value == 15 and state.treasury[EMPIRE].value == 35
    assert state.hands[EMPIRE].cards == ("Treachery",) and state.hands[REBEL].cards == ("Agent",)
    assert state.control["Syria"] == NEUTRAL
    a = state.negotiations[0]
    assert a.status == "in force" and [t.key for t in a.terms][-1] == "promise:alliance"
    recorded = [e for e in ctx.log if e.kind == "agreement"][0]
    assert recorded.data["recorded"] == ("promise:alliance",) and recorded.rules == ("xen:negotiations",)
    # the Empire alone learns which chit it was given
    assert "rebel gives empire a chit" in texts(ctx, EMPIRE)
    assert "empire receives Treachery" in texts(ctx, EMPIRE) and "receives Treachery" not in texts(ctx, REBEL)


@pytest.mark.rule("xen:negotiations")
def test_an_offer_the_recipient_cannot_pay_can_only_be_rejected() -> None:
    ctx, state = world()
    state.treasury[REBEL].spend(ctx, 10, "test")
    script = Script({"window.negotiations": ["offer", "no"], "negotiations.term": ["ask-$5", "send"]})
    drive(neg.negotiate(ctx, state, EMPIRE), script)
    answer = [d for d in script.asked if d.kind == "negotiations.answer"][0]
    assert answer.keys == ("reject",) and not state.negotiations


@pytest.mark.rule("xen:negotiations", "xen:combat")
def test_no_combat_refuses_attacks_for_the_rest_of_the_turn() -> None:
    ctx, state = world()
    assert neg.may_attack(state, REBEL) is None
    script = Script({"window.negotiations": ["offer", "no"], "negotiations.term": ["no-combat", "send"],
                     "negotiations.answer": "accept"})
    drive(neg.negotiate(ctx, state, REBEL), script)
    warning = neg.may_attack(state, EMPIRE)
    assert warning is not None and "agreed not to initiate combat" in warning and "xen:" not in warning
    # an attack made all the same breaks it: the attacker loses 1d6 chits, once
    from ancients_games.xenophon import stratagems as st

    class Battle:  # what combat's battle window hands over
        attacker, defender, no_withdrawal, advantage = REBEL, EMPIRE, False, set()

    deal(state, REBEL, "Agent", "Agent", "Agent")
    ctx.chance.force(2)
    drive(st.battle_chits(ctx, state, "battle", Battle()), Script())
    assert state.negotiations[0].status == "broken" and len(state.hands[REBEL]) == 1
    drive(st.battle_chits(ctx, state, "battle", Battle()), Script())
    assert len(state.hands[REBEL]) == 1
    assert neg.may_attack(state, EMPIRE) is None  # broken: no longer holds


@pytest.mark.rule("xen:negotiations", "xen:stratagem")
def test_a_broken_leave_term_costs_1d6_chits_and_the_opponent_draws_the_rest() -> None:
    ctx, state = world()
    deal(state, REBEL, "Agent")
    deal(state, EMPIRE)
    script = Script({"window.negotiations": ["offer", "no"], "negotiations.term": ["leave:Lydia", "send"],
                     "negotiations.answer": "accept"})
    drive(neg.negotiate(ctx, state, REBEL), script)
    state.turn += 1  # the turn ends with the Rebel still in Lydia
    ctx.chance.force(3)
    drive(neg.check_expired(ctx, state), Script())
    assert state.negotiations[0].status == "broken"
    assert not len(state.hands[REBEL]) and len(state.hands[EMPIRE]) == 2  # lost 1, the Empire draws 2
    # a kept agreement
    script = Script({"window.negotiations": ["offer", "no"], "negotiations.term": ["ask-leave:Alarodia", "send"],
                     "negotiations.answer": "accept"})
    drive(neg.negotiate(ctx, state, REBEL), script)
    for u in state.side_units(EMPIRE):
        if state.satrapy_of(u.hex) == "Alarodia":
            state.eliminate(u.id)  # the Empire keeps its word
    state.turn += 1
    drive(neg.check_expired(ctx, state), Script())
    assert state.negotiations[1].status == "kept"


@pytest.mark.rule("xen:negotiations", "xen:victory")
def test_agreeing_to_end_the_game_ends_it_with_victory_points() -> None:
    ctx, state = world()
    script = Script({"window.negotiations": ["offer"], "negotiations.term": ["end-game", "send"],
                     "negotiations.answer": "accept"})
    drive(neg.negotiate(ctx, state, REBEL), script)
    assert state.over and "agreement 1" in state.result
    assert [d.kind for d in script.asked].count("window.negotiations") == 1  # nothing more once over


@pytest.mark.rule("xen:negotiations")
def test_leaving_a_city_is_checked_when_the_turn_is_over() -> None:
    ctx, state = world()
    deal(state, REBEL, "Agent", "Agent")
    deal(state, EMPIRE)
    sardis = state.unit("Cyrus").hex
    keys = [o.key for o in neg.menu(state, EMPIRE, [])]
    assert f"ask-leave-city:{sardis}" in keys and f"leave-city:{sardis}" not in keys
    script = Script({"window.negotiations": ["offer", "no"], "negotiations.term": [f"ask-leave-city:{sardis}", "send"],
                     "negotiations.answer": "accept"})
    state.player_turn = EMPIRE
    drive(neg.negotiate(ctx, state, EMPIRE), script)
    assert "rebel moves every unit out of the City/Colony in" in texts(ctx)
    state.turn += 1
    ctx.chance.force(1)
    drive(neg.check_expired(ctx, state), Script())
    assert state.negotiations[0].status == "broken" and len(state.hands[REBEL]) == 1
