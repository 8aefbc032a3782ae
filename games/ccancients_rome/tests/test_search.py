"""The search bot on C&C: the other side's hand and the draw pile are sampled, never read."""

from __future__ import annotations

import functools
from collections import Counter

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ancients_games.ccancients_rome import GAME
from ancients_kit.bots import GreedyBot, RandomBot
from ancients_kit.chance import Rng
from ancients_kit.search import MCTSBot, SearchResult, search
from ancients_kit.session import Session


def _at_checkpoint(seed: int = 4) -> Session:
    """A battle standing at a checkpoint (no answer since) with a real choice to make."""
    s = Session(GAME, "first-bedriacum", seed=seed)
    bot = GreedyBot()
    while s.decision is not None:
        if len(s.answers) > 12 and s.checkpoints[-1].answers == len(s.answers) and len(s.decision.options) > 1:
            return s
        s.answer(bot.choose(s, s.decision))
    raise AssertionError("no checkpoint with a choice")


def _hidden(state: object, viewer: str) -> tuple[dict[str, tuple[object, ...]], list[object]]:
    bs = state.b  # type: ignore[attr-defined]
    return {n: a.hand.cards for n, a in bs.armies.items() if n != viewer}, list(bs.deck.draw_pile)


@pytest.mark.rule("ccr:base.cards")
def test_determinize_deals_the_other_hand_from_the_unseen_cards() -> None:
    s = _at_checkpoint()
    me = s.decision.side  # type: ignore[union-attr]
    state = GAME.copy_state(s.state)
    bs = state.b
    mine = bs.armies[me].hand.cards
    discards = list(bs.deck.discard_pile)
    hands, pile = _hidden(state, me)
    unseen = Counter(pile) + sum((Counter(h) for h in hands.values()), Counter())
    hand_objects = {n: a.hand for n, a in bs.armies.items()}
    GAME.determinize(state, me, Rng(1))
    hands2, pile2 = _hidden(state, me)
    assert bs.armies[me].hand.cards == mine and list(bs.deck.discard_pile) == discards
    assert {n: len(h) for n, h in hands2.items()} == {n: len(h) for n, h in hands.items()}
    assert len(pile2) == len(pile)
    assert Counter(pile2) + sum((Counter(h) for h in hands2.values()), Counter()) == unseen
    assert (hands2, pile2) != (hands, pile)
    assert all(bs.armies[n].hand is h for n, h in hand_objects.items())  # the rules hold these objects
    # The sample depends on the unseen cards, not on where they really lie.
    other = GAME.copy_state(s.state)
    o_bs = other.b
    (opp,) = hands
    pool = list(o_bs.deck.draw_pile) + list(o_bs.armies[opp].hand.cards)
    pool.reverse()
    for c in o_bs.armies[opp].hand.cards:
        o_bs.armies[opp].hand.remove(c)
    for _ in range(len(hands[opp])):
        o_bs.armies[opp].hand.add(pool.pop())
    o_bs.deck.draw_pile[:] = pool
    assert _hidden(other, me) != (hands, pile)
    GAME.determinize(other, me, Rng(1))
    assert _hidden(other, me) == (hands2, pile2)


@functools.cache
def _baseline() -> tuple[Session, str, SearchResult]:
    base = _at_checkpoint()
    return base, base.decision.side, search(base, iterations=6)  # type: ignore[union-attr]


@pytest.mark.rule("ccr:base.cards", "ccr:base.dice")
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(order=st.randoms(use_true_random=False), dice=st.integers(1, 2**64 - 1))
def test_search_answer_is_the_same_whatever_the_hidden_cards_and_future_dice(order: object, dice: int) -> None:
    base, me, expected = _baseline()
    s = base.fork()
    cp = s.checkpoints[-1]
    assert cp.answers == len(s.answers)  # a copy of s is rebuilt from this checkpoint
    # Another hand for the other side, another draw pile and other dice to come:
    state = GAME.copy_state(cp.state)
    bs = state.b
    (opp,) = [n for n in bs.armies if n != me]
    hand = bs.armies[opp].hand
    pool = list(bs.deck.draw_pile) + list(hand.cards)
    order.shuffle(pool)  # type: ignore[attr-defined]
    held = len(hand)
    for c in hand.cards:
        hand.remove(c)
    for _ in range(held):
        hand.add(pool.pop())
    bs.deck.draw_pile[:] = pool
    s._checkpoints[-1] = attrs.evolve(cp, state=state, chance=(Rng(dice).getstate(), *cp.chance[1:]))
    peek = s.fork()  # a plain copy sees the change: a bot reading it could be swayed
    assert peek.state.b.armies[opp].hand.cards == hand.cards
    assert peek.ctx.chance.rng.getstate() == Rng(dice).getstate()
    got = search(s, iterations=6)
    assert (got.answer, got.stats) == (expected.answer, expected.stats)


def test_mcts_bot_answers_legally_in_a_battle() -> None:
    s = Session(GAME, "first-bedriacum", seed=9)
    sides = GAME.sides(s.state)
    bots = {sides[0]: MCTSBot(iterations=3), sides[1]: RandomBot()}
    real_before = None
    for _ in range(40):
        if s.decision is None:
            break
        d = s.decision
        key = bots[d.side].choose(s, d)  # type: ignore[attr-defined]
        assert key in d.keys
        real_before = s.log.digest()
        s.answer(key)
    assert real_before is not None
    assert Session(GAME, "first-bedriacum", seed=9, answers=s.answers).log.digest() == s.log.digest()


@pytest.mark.rule("ccr:base.cards")
def test_search_copy_without_checkpoints_plays_and_undoes_like_one_with_them() -> None:
    base, me, _ = _baseline()
    kept = base.fork(reseed=5, viewer=me)
    light = base.fork(reseed=5, viewer=me, checkpoints=False)
    assert light.state.b.armies[me].hand.cards == base.state.b.armies[me].hand.cards
    bot = GreedyBot()
    for _ in range(25):
        if kept.decision is None:
            break
        key = bot.choose(kept, kept.decision)
        kept.answer(key)
        light.answer(key)
    assert light.log.digest() == kept.log.digest()
    assert len(light.checkpoints) < len(kept.checkpoints)
    kept.undo(7)
    light.undo(7)
    assert light.log.digest() == kept.log.digest()
    assert GAME.copy_state(light.state).b.armies[me].hand.cards == kept.state.b.armies[me].hand.cards


@pytest.mark.rule("ccr:sequence")
def test_turn_key_names_the_player_turn_whoever_answers_in_it() -> None:
    s = Session(GAME, "first-bedriacum", seed=100)
    bot = GreedyBot()
    inside = 0
    keys = []
    while s.decision is not None and len(s.answers) < 120:
        bs = s.state.b
        key = GAME.turn_key(s.state)
        assert key == (bs.turn, bs.active)
        if s.decision.side != bs.active:
            inside += 1  # a retreat or an evasion of the other side: the same player-turn
        if not keys or keys[-1] != key:
            keys.append(key)
        s.answer(bot.choose(s, s.decision))
    assert inside > 0
    assert [k[0] for k in keys] == list(range(1, len(keys) + 1))  # one key a player-turn, in order
    assert all(a[1] != b[1] for a, b in zip(keys, keys[1:]))


def _before_the_other_side_answers(seed: int = 100) -> list[str]:
    """Answers up to the active side's last real choice before the other side first
    answers inside its turn (a target whose battle may make it retreat)."""
    s = Session(GAME, "first-bedriacum", seed=seed)
    bot = GreedyBot()
    before: list[str] = []
    while s.decision is not None and s.decision.side == s.state.b.active:
        if len(s.decision.options) > 1:
            before = list(s.answers)
        s.answer(bot.choose(s, s.decision))
    return before


@pytest.mark.rule("ccr:sequence")
def test_search_looks_ahead_in_player_turns() -> None:
    """With plies=1 every future the search scores has ended the player-turn under
    way (or the battle): a retreat of the other side inside it does not end it
    (counting changes of the side asked instead fails here)."""
    answers = _before_the_other_side_answers()
    seen: list[tuple[object, bool]] = []

    class Watching(type(GAME)):  # type: ignore[misc]
        def evaluate(self, state: object, side: str) -> float:
            seen.append((GAME.turn_key(state), state.b.over))  # type: ignore[attr-defined]
            return GAME.evaluate(state, side)  # type: ignore[arg-type]

    watched = Session(Watching(), "first-bedriacum", seed=100, answers=answers)
    root = GAME.turn_key(watched.state)
    search(watched, iterations=12, plies=1)
    sides = len(GAME.sides(watched.state))
    base, futures = seen[:sides], seen[sides:]
    assert all(k == root for k, _ in base)
    assert futures and all(k != root or over for k, over in futures)


@pytest.mark.parametrize(("scenario", "bot"), [("tigranocerte", "greedy"), ("carrhes", "random")])
def test_batched_scores_are_the_option_by_option_scores(scenario: str, bot: str) -> None:
    """score_options (a move's hexes sharing the enemy units' hexes) gives exactly what
    score_option gives, option by option, on every decision of a battle."""
    s = Session(GAME, scenario, seed=8)
    player = GreedyBot() if bot == "greedy" else RandomBot()
    kinds: Counter[str] = Counter()
    while s.decision is not None and len(s.answers) < 1500:
        d = s.decision
        assert GAME.score_options(s.state, d) == [GAME.score_option(s.state, d, o.key) for o in d.options], \
            (d.kind, len(s.answers))
        kinds[d.kind] += 1
        s.answer(player.choose(s, d))
    assert kinds["move.hex"] >= 20 and kinds["card"] >= 5, kinds
