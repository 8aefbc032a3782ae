"""Centurion's hooks for the search bot: the Player-Turn key, the suggested
settings, and the greedy heuristic's distances on the per-map neighbour table."""

from __future__ import annotations

import pytest

from ancients_kit.bots import GreedyBot, RandomBot
from ancients_kit.search import MCTSBot
from ancients_kit.session import Session

from ancients_games.centurion import GAME
from ancients_games.centurion.bot import enemy_distance


def _plain_distances(state, side):
    """Steps to the nearest enemy by a plain breadth-first walk over Hex.neighbors."""
    frontier = list(state.occupied_by(state.opponent(side)))
    dist = {h: 0 for h in frontier}
    d = 0
    while frontier:
        d += 1
        nxt = []
        for h in frontier:
            for n in h.neighbors():
                if n not in dist and n in state.numbering:
                    dist[n] = d
                    nxt.append(n)
        frontier = nxt
    return dist


@pytest.mark.rule("cen:basic.sequence")
def test_turn_key_is_the_player_turn() -> None:
    s = Session(GAME, "basic-carrhae", seed=3)
    bot = RandomBot()
    keys = []
    while s.decision is not None and len(s.answers) < 400:
        key = GAME.turn_key(s.state)
        assert key == s.state.player_turn
        if not keys or keys[-1] != key:
            keys.append(key)
        s.answer(bot.choose(s, s.decision))
    assert keys == list(range(keys[0], keys[0] + len(keys))) and len(keys) > 2


def test_greedy_distances_are_those_of_a_plain_walk() -> None:
    s = Session(GAME, "basic-gaul", seed=8)
    bot = GreedyBot()
    checked = 0
    while s.decision is not None and len(s.answers) < 120:
        if len(s.answers) % 10 == 0:
            for side in s.state.sides:
                assert list(enemy_distance(s.state, side).items()) == list(_plain_distances(s.state, side).items())
                checked += 1
        s.answer(bot.choose(s, s.decision))
    assert checked >= 10


@pytest.mark.parametrize("scenario", ["basic-gaul", "basic-carrhae", "basic-civil-war"])
def test_batched_scores_are_the_option_by_option_scores(scenario: str) -> None:
    """score_options (one distance map for a whole choice of hex) gives exactly
    what score_option gives, option by option, on every decision of a game."""
    s = Session(GAME, scenario, seed=11)
    bot = GreedyBot()
    kinds: dict[str, int] = {}
    while s.decision is not None and len(s.answers) < 500:
        d = s.decision
        one = [GAME.score_option(s.state, d, o.key) for o in d.options]
        assert GAME.score_options(s.state, d) == one, (d.kind, len(s.answers))
        kinds[d.kind] = kinds.get(d.kind, 0) + 1
        s.answer(bot.choose(s, d))
    assert kinds.get("move.hex", 0) >= 20 and kinds.get("combat.hex", 0) >= 5


def test_mcts_takes_the_suggested_budget_and_answers_legally() -> None:
    bot = MCTSBot()
    st = bot.settings_for(GAME)
    assert st.iterations == GAME.search_defaults()["iterations"] and st.plies == 2
    s = Session(GAME, "basic-civil-war", seed=2)
    small = MCTSBot(iterations=3)
    while s.decision is not None and len(s.decision.options) < 3:
        s.answer(s.decision.options[0].key)
    assert s.decision is not None
    key = small.choose(s, s.decision)
    assert key in {o.key for o in s.decision.options} and small.last is not None and small.last.iterations == 3
