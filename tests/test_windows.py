"""Interrupt windows (ancients_kit.windows): offers, chains, standing choices,
who is asked (only a side holding a play) and the reminders, on the core alone and on the two test games
shaped like Xenophon (chits_game) and Lest Darkness Fall (salt_game)."""

from __future__ import annotations

import json
import sys
from collections.abc import Generator, Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent / "plugins"))

from chits_game import GAME as CHITS  # noqa: E402
from salt_game import GAME as SALT  # noqa: E402

from ancients_kit import savefile  # noqa: E402
from ancients_kit.bots import GreedyBot, RandomBot, play_out  # noqa: E402
from ancients_kit.errors import IllegalAnswer  # noqa: E402
from ancients_kit.session import Decision, Option, Session  # noqa: E402
from ancients_kit.testing import DecliningBot, drive, public_view  # noqa: E402
from ancients_kit.windows import (  # noqa: E402
    CLOSE,
    NEVER,
    NO,
    TURN,
    Play,
    Standing,
    Window,
    chain,
    offer,
    own,
    seen_by,
)


def reroll_plays(hands: Mapping[str, set[str]]) -> Any:
    return lambda side: [Option("reroll", "roll again")] if "reroll" in hands[side] else []


W = Window("after-roll", "after a die roll", "ldf:14.3", ("Germans", "Romans"), detail="d6 [3]")


# -- the core -------------------------------------------------------------------


def test_a_window_asks_only_the_sides_holding_a_play_in_order() -> None:
    hands = {"Germans": set(), "Romans": {"reroll"}}
    asked, play = drive(offer(W, Standing(), reroll_plays(hands)), ["reroll"])
    assert [d.side for d in asked] == ["Romans"]  # the Germans hold nothing to play: no question
    assert asked[0].keys == (NO, TURN, NEVER, "reroll")
    assert asked[0].kind == "window.after-roll" and asked[0].rule == "ldf:14.3"
    assert asked[0].prompt == "play after a die roll (d6 [3])?"  # every view shows the side before it
    assert play == Play("after-roll", "Romans", "reroll", Option("reroll"))
    asked, play = drive(offer(W, Standing(), reroll_plays({"Germans": set(), "Romans": set()})), [])
    assert asked == [] and play is None


def test_the_first_play_closes_the_offer_and_all_declining_returns_none() -> None:
    hands = {"Germans": {"reroll"}, "Romans": {"reroll"}}
    asked, play = drive(offer(W, Standing(), reroll_plays(hands)), ["reroll"])
    assert len(asked) == 1 and play.side == "Germans"
    asked, play = drive(offer(W, Standing(), reroll_plays(hands)), [NO, NO])
    assert play is None and len(asked) == 2


def test_never_stops_the_questions_at_that_window_only() -> None:
    standing = Standing()
    hands = {"Germans": {"reroll"}, "Romans": {"reroll"}}
    drive(offer(W, standing, reroll_plays(hands)), [NO, NEVER])
    assert not standing.asks("Romans", "after-roll") and standing.asks("Germans", "after-roll")
    asked, _ = drive(offer(W, standing, reroll_plays(hands)), [NO])
    assert [d.side for d in asked] == ["Germans"]
    other = Window("battle-start", "the start of a battle", "ldf:14.3", ("Romans",))
    asked, _ = drive(offer(other, standing, reroll_plays(hands)), [NO])
    assert [d.side for d in asked] == ["Romans"]
    assert standing.muted("Romans") == (("after-roll", "after a die roll"),)
    assert standing.copy() == standing and standing.copy() is not standing
    standing.begin_turn()
    assert not standing.asks("Romans", "after-roll")  # never is for good


def test_not_this_turn_stops_the_questions_until_the_next_turn() -> None:
    standing = Standing()
    hands = {"Germans": {"reroll"}, "Romans": {"reroll"}}
    drive(offer(W, standing, reroll_plays(hands)), [TURN, NO])
    assert not standing.asks("Germans", "after-roll") and standing.choice("Germans", "after-roll") == "not this turn"
    asked, _ = drive(offer(W, standing, reroll_plays(hands)), [NO])
    assert [d.side for d in asked] == ["Romans"]
    assert standing.muted("Germans") == (("after-roll", "after a die roll"),)
    standing.begin_turn()
    assert standing.asks("Germans", "after-roll") and standing.choice("Germans", "after-roll") == "ask"


def test_a_standing_choice_that_passes_a_play_leaves_a_reminder_only_its_side_sees() -> None:
    game = Session(SALT, "standard", seed=1)
    ctx, log = game.ctx, game.log
    start = len(log)
    standing = Standing([("Germans", "after-roll", "after a die roll")])
    hands = {"Germans": {"reroll"}, "Romans": set()}
    asked, play = drive(offer(W, standing, reroll_plays(hands), ctx=ctx), [])
    assert asked == [] and play is None
    assert len(log) == start + 1 and log[start].kind == "reminder" and log[start].rules == ("ldf:14.3",)
    germans = log.lines("Germans")[start:]
    assert len(germans) == 1 and "roll again" in germans[0] and "ask:after-roll" in germans[0]
    assert len(log.lines("Romans")) == start  # not even "something hidden": the Romans learn nothing
    drive(offer(W, standing, reroll_plays({"Germans": set(), "Romans": set()}), ctx=ctx), [])
    assert len(log) == start + 1  # nothing could have been played: no reminder

def test_plays_may_not_take_the_reserved_keys() -> None:
    with pytest.raises(ValueError, match="reserved key 'never'"):
        drive(offer(W, Standing(), lambda side: [Option(NEVER)]), [])


def test_own_offers_to_resume_asking_and_puts_the_same_decision_again() -> None:
    standing = Standing([("Romans", "after-roll", "after a die roll")])
    d = Decision("Romans", "Romans: choose an action", (Option("march"), Option("pass")), rule="chits:actions")
    asked, key = drive(own(d, standing), ["ask:after-roll", "march"])
    assert asked[0].keys == ("march", "pass", "ask:after-roll")
    assert asked[1].keys == ("march", "pass") and asked[1].prompt == d.prompt
    assert key == "march" and standing.asks("Romans", "after-roll")
    asked, key = drive(own(d, Standing()), ["pass"])
    assert asked == [d] and key == "pass"
    forced = Decision("Romans", "Romans: retreat where?", (Option("0506"),), rule="chits:actions")
    asked, key = drive(own(forced, standing := Standing([("Romans", "after-roll", "after a die roll")])), ["0506"])
    assert asked == [forced] and not standing.asks("Romans", "after-roll")  # a forced answer stays forced


def test_a_chain_reopens_after_each_play_starting_after_the_player() -> None:
    hands = {"Germans": {"reroll"}, "Romans": {"reroll"}}
    details = iter(["d6 [5]", "d6 [1]"])

    def resolve(play: Play) -> Generator[Decision, str, str]:
        hands[play.side].discard("reroll")
        return next(details)
        yield

    hands["Germans"].add("second")

    def plays(side: str) -> list[Option]:
        return [Option(c) for c in sorted(hands[side]) if c in ("reroll", "second")]

    def resolve_any(play: Play) -> Generator[Decision, str, str]:
        hands[play.side].discard(play.key)
        return next(details)
        yield

    asked, plays_made = drive(chain(W, Standing(), plays, resolve_any), ["reroll", "reroll", NO])
    assert [p.side for p in plays_made] == ["Germans", "Romans"]
    # after the Germans' play the Romans are asked first, then the Germans again (who still hold one)
    assert [(d.side, d.prompt.split("(")[1]) for d in asked] == [
        ("Germans", "d6 [3])?"),
        ("Romans", "d6 [5])?"),
        ("Germans", "d6 [1])?"),
    ]


def test_a_chain_ends_when_the_resolver_closes_it_and_guards_its_length() -> None:
    def close(play: Play) -> Generator[Decision, str, object]:
        return CLOSE
        yield

    def again(play: Play) -> Generator[Decision, str, None]:
        return None
        yield

    always = reroll_plays({"Germans": {"reroll"}, "Romans": {"reroll"}})
    asked, plays = drive(chain(W, Standing(), always, close), ["reroll"])
    assert len(asked) == 1 and len(plays) == 1
    with pytest.raises(RuntimeError, match="more than 3 plays"):
        drive(chain(W, Standing(), always, again, limit=3), ["reroll"] * 10)


def test_others_see_only_who_is_asked_under_which_rule() -> None:
    d = Decision("Goths", "play at the enemy's march?", (Option(NO), Option("forced-march")),
                 rule="xen:opt.reaction", kind="window.reaction")
    assert seen_by(d, "Romans") == ("Goths", "window.reaction", "xen:opt.reaction")
    assert seen_by(d, "Goths")[-1] == (NO, "forced-march") and seen_by(d, None) == seen_by(d, "Goths")


# -- the public view of a game ----------------------------------------------------


@pytest.mark.rule("ldf:8.8", "ldf:14.3", "ldf:10.9")
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), mute=st.sets(st.sampled_from(["after-roll", "battle-start"])))
def test_every_window_question_offers_a_play(seed: int, mute: set[str]) -> None:
    """No window question can only be answered no: each offers at least one play."""
    for game, options in ((SALT, {"germans_chits": "beseech,flanking"}), (CHITS, {"goths_chits": "oracle"})):
        s = Session(game, "standard", seed=seed, options=options)
        bots = {side: DecliningBot(sorted(mute)) for side in game.sides(s.state)}
        n = 0
        while s.decision is not None and n < 3000:
            d = s.decision
            if d.kind.startswith("window."):
                assert set(d.keys) - {NO, TURN, NEVER}, d
            s.answer(bots[d.side].choose(s, d))
            n += 1


# -- standing preferences are answers ---------------------------------------------


@pytest.mark.rule("ldf:14.3")
def test_standing_preferences_are_saved_and_replayed_as_answers(tmp_path: Path) -> None:
    s = Session(SALT, "standard", seed=5, options={"romans_chits": "flanking", "germans_chits": "beseech"})
    s.answer("attack")  # Romans attack: battle-start asks the Romans (the Germans hold no Flanking Move)
    assert (s.decision.side, s.decision.kind) == ("Romans", "window.battle-start")
    s.answer(NEVER)
    assert (s.decision.side, s.decision.kind) == ("Germans", "window.after-roll")
    s.answer(NO)
    assert s.decision.side == "Germans" and s.decision.kind == "action"
    s.answer("attack")  # the Romans are no longer asked at the start of a battle ...
    assert (s.decision.side, s.decision.kind) == ("Germans", "window.after-roll")
    reminder = [line for line in s.log.lines("Romans") if "not asked at the start of a battle" in line]
    assert len(reminder) == 1 and "flanking" in reminder[0].lower()  # ... but reminded
    assert not [line for line in s.log.lines("Germans") if "not asked" in line]
    s.answer(NO)
    assert s.decision.side == "Romans" and "ask:battle-start" in s.decision.keys
    rec = json.loads(savefile.save(s, tmp_path / "game.json").read_text("utf-8"))  # the test game has no entry point
    loaded = Session(SALT, rec["scenario"], seed=rec["seed"], options=rec["options"], answers=rec["answers"])
    assert loaded.answers == s.answers and loaded.log.digest() == s.log.digest()
    assert loaded.state.standing == s.state.standing
    assert not loaded.state.standing.asks("Romans", "battle-start")


@pytest.mark.rule("xen:opt.reaction")
def test_resuming_the_questions_costs_no_action() -> None:
    s = Session(CHITS, "standard", seed=2, options={"goths_chits": "forced-march,forced-march"})
    s.answer("march")
    assert (s.decision.side, s.decision.kind) == ("Goths", "window.reaction")
    s.answer(NEVER)
    s.answer("march")  # the Goths march (the Romans hold nothing to react with: not asked)
    s.answer("march")  # the Romans march again: the Goths are not asked
    assert s.decision.side == "Goths" and s.decision.kind == "action"
    assert "ask:reaction" in s.decision.keys
    before = [e.kind for e in s.log if e.kind != "reminder"]
    s.answer("ask:reaction")
    assert s.decision.side == "Goths" and "ask:reaction" not in s.decision.keys
    assert [e.kind for e in s.log if e.kind != "reminder"] == before  # nothing logged, no action spent
    s.answer("pass")
    s.answer("march")
    assert (s.decision.side, s.decision.kind) == ("Goths", "window.reaction")


@pytest.mark.parametrize("seed", range(6))
def test_bots_answer_windows_through_the_protocol(seed: int) -> None:
    for game in (CHITS, SALT):
        s = Session(game, "standard", seed=seed, options={"open_treasury": True} if game is CHITS else {})
        bot = GreedyBot() if seed % 2 else RandomBot()
        play_out(s, bot, max_decisions=3000)
        assert s.finished
        assert Session(game, "standard", seed=seed, options=s.options, answers=s.answers).log.digest() == s.log.digest()


# -- an LDF-shaped chain (salt_game) ------------------------------------------------


@pytest.mark.rule("ldf:8.8", "ldf:14.3")
def test_a_counter_reroll_loses_the_salt_and_the_chit_and_the_roman_may_salt_again() -> None:
    s = Session(SALT, "standard", seed=1, options={"romans_chits": "agents,beseech", "germans_chits": "beseech"})
    s.answer("treachery")
    d = s.decision
    assert (d.side, d.kind) == ("Romans", "window.before-roll")
    assert set(d.keys) == {NO, TURN, NEVER, "salt-1", "salt-2", "salt-3", "agents"}
    s.answer("agents")  # +2; the chain comes back to the Germans (nothing to play: not asked), then the Romans
    d = s.decision
    assert d.side == "Romans" and set(d.keys) == {NO, TURN, NEVER, "salt-1"}  # +3 at most (ldf:8.8)
    with pytest.raises(IllegalAnswer):
        s.answer("salt-2")
    s.ctx.chance.force(3, 1, 2)  # 3 + 3 = 6 succeeds; the rerolls give 1, then 2
    s.answer("salt-1")  # at the cap nobody has anything more to declare: the die is rolled
    assert s.state.tp == 4  # "the spent TP are indeed spent" (ldf:8.8)
    assert (s.decision.side, s.decision.kind) == ("Germans", "window.after-roll")
    s.answer("beseech")  # the counter-play: the reroll keeps neither the salt nor Agents
    d = s.decision
    assert (d.side, d.kind) == ("Romans", "window.before-roll")
    assert set(d.keys) == {NO, TURN, NEVER, "salt-1", "salt-2", "salt-3"}
    s.answer("salt-3")  # a new TP expenditure; rolled again, 1 + 3 = 4 fails
    # the chain comes to the Romans first, who counter with their own reroll
    assert (s.decision.side, s.decision.kind) == ("Romans", "window.after-roll")
    s.answer("beseech")
    assert s.decision.kind == "window.before-roll" and set(s.decision.keys) == {NO, TURN, NEVER, "salt-1"}
    s.answer(NO)  # Romans keep their last TP; rolled again: 2; nobody holds a reroll any more
    assert not s.ctx.chance.pending_forced
    lines = s.log.lines("Germans")
    assert "Germans play Beseech the Gods: the roll is rolled again  [ldf:14.3, ldf:8.8]" in lines
    assert "the reroll keeps none of ['agents:Romans', 'salt']  [ldf:8.8]" in lines
    assert "the reroll keeps none of ['salt']  [ldf:8.8]" in lines
    assert lines[-1] == "Romans treachery: 2 +0 = 2: failure  [ldf:8.8]"
    assert s.state.tp == 1 and s.state.score["Romans"] == 0
    assert s.decision.side == "Germans" and s.decision.kind == "action"


def test_the_public_view_compares_rich_renders_by_their_text() -> None:
    from ancients_kit.plugin import find_game

    def view(seed: int) -> tuple[Any, ...]:
        s = Session(find_game("ccancients_rome"), "carrhes", seed=seed)
        return public_view(s, s.decision.side, {side: RandomBot() for side in s.game.sides(s.state)}, limit=6)

    first = view(1)
    s = Session(find_game("ccancients_rome"), "carrhes", seed=1)
    assert not isinstance(s.game.render(s.state, None), str)  # a rich renderable, compared as text
    assert isinstance(first[2], str) and first[2].strip()
    assert view(1) == first


@pytest.mark.rule("xen:diplomacy")
def test_diplomacy_bidding_is_a_chain_of_agents_and_treachery() -> None:
    """Xenophon's diplomacy (xen:diplomacy): after the phasing player's Agents,
    the other side may play Agents, and either side Treachery to cancel an
    enemy Agent 1:1; the differential of uncancelled Agents gives the column."""
    hands = {"Rebels": ["treachery"], "Empire": ["agent", "agent"]}
    agents = {"Rebels": 3, "Empire": 0}  # the Rebels designated a satrapy with 3 Agents

    def enemy(side: str) -> str:
        return "Empire" if side == "Rebels" else "Rebels"

    def plays(side: str) -> list[Option]:
        out = [Option("agent", "play an Agent")] if side == "Empire" and "agent" in hands[side] else []
        if "treachery" in hands[side] and agents[enemy(side)]:
            out.append(Option("treachery", "cancel one enemy Agent"))
        return out

    def resolve(play: Play) -> Generator[Decision, str, None]:
        hands[play.side].remove(play.key)
        if play.key == "agent":
            agents[play.side] += 1
        else:
            agents[enemy(play.side)] -= 1
        return None
        yield

    window = Window("diplomacy", "a diplomacy attempt", "xen:diplomacy", ("Empire", "Rebels"))
    asked, made = drive(chain(window, Standing(), plays, resolve), ["agent", "treachery", "agent"])
    assert [(p.side, p.key) for p in made] == [("Empire", "agent"), ("Rebels", "treachery"), ("Empire", "agent")]
    assert [d.side for d in asked] == ["Empire", "Rebels", "Empire"]  # then nobody holds anything: no question
    assert agents["Rebels"] - agents["Empire"] == 2  # 3 Agents against 1: column 2


@pytest.mark.rule("ldf:14.3")
def test_flanking_moves_chain_at_the_start_of_a_battle_and_only_the_defender_may_say_they_shall_not_pass() -> None:
    s = Session(SALT, "standard", seed=2, options={"romans_chits": "flanking", "germans_chits": "flanking,not-pass"})
    s.answer("attack")
    assert (s.decision.side, s.decision.kind) == ("Romans", "window.battle-start")
    s.answer("flanking")
    assert (s.decision.side, s.decision.keys) == ("Germans", (NO, TURN, NEVER, "flanking"))  # the counter-play
    s.answer("flanking")  # then nobody holds a Flanking Move: the chain ends without a question
    assert (s.decision.side, s.decision.kind) == ("Germans", "window.before-attack-roll")
    assert s.decision.keys == (NO, TURN, NEVER, "not-pass")
    s.ctx.chance.force(5)
    s.answer("not-pass")  # only the defender is asked; then the die: 5 + 1 - 2 = 4 wins (nobody can reroll)
    lines = s.log.lines("Romans")
    assert lines[-5:] == [
        "Romans play Flanking Move: one column in its favour  [ldf:14.3]",
        "Germans play Flanking Move: one column in its favour  [ldf:14.3]",
        "Germans play They Shall Not Pass: one column in its favour  [ldf:14.3]",
        "d6 ⚄ 5 (Romans attack)  [salt:battle]",
        "Romans attack: 5 -1: won  [salt:battle]",
    ]
    assert s.state.score["Romans"] == 1 and len(s.state.cup) == 9


@pytest.mark.rule("xen:opt.reaction")
def test_undoing_never_asks_again() -> None:
    s = Session(CHITS, "standard", seed=2, options={"goths_chits": "forced-march"})
    s.answer("march")
    s.answer(NEVER)
    assert not s.state.standing.asks("Goths", "reaction")
    s.undo()
    assert (s.decision.side, s.decision.kind) == ("Goths", "window.reaction")
    assert s.state.standing.asks("Goths", "reaction")
    fork = s.fork()
    fork.answer(NEVER)
    assert s.state.standing.asks("Goths", "reaction") and not fork.state.standing.asks("Goths", "reaction")
