"""The bots' hooks: the greedy bot's scores declared per decision kind (bot.SCORERS), the
search bot's player-turns (``turn_key``, sequence.player_turn)."""

from __future__ import annotations

import pytest

from ancients_kit.bots import GreedyBot
from ancients_kit.session import Session

from ancients_games.ldf import GAME, bot
from ancients_games.ldf.state import GP, ROMAN, ROME
from ancients_games.ldf.victory import core_intruders
from ancients_games.ldf.vocab import Kind


def test_every_kind_is_scored_or_left_at_zero_on_purpose() -> None:
    scored, unscored = set(bot.SCORERS), set(bot.UNSCORED)
    assert not scored & unscored, f"both scored and unscored: {sorted(scored & unscored)}"
    missing = set(Kind) - scored - unscored
    assert not missing, f"kinds without a scorer, not listed as scored 0 on purpose: {sorted(missing)}"


def test_a_kind_looks_its_scorer_up_as_its_string() -> None:
    assert bot.SCORERS.get("move.to") is bot.SCORERS[Kind.MOVE_TO]


def _keyed_game(seed: int) -> list[tuple[object, str, str, str, int]]:
    """A greedy campaign: per decision, the turn key, its kind, who answers, the phase, the action number."""
    s = Session(GAME, "campaign", seed=seed, options={"concession": False})
    seen = []
    bot_ = GreedyBot()
    while s.decision is not None:
        d = s.decision
        seen.append((GAME.turn_key(s.state), str(d.kind), d.side, s.state.phase, s.state.action_number))
        s.answer(bot_.choose(s, d))
    return seen


def test_turn_key_is_one_action_one_administrative_phase() -> None:
    """ldf:8.1: each action is a player-turn of its side's, whoever answers inside it;
    ldf:5.5: the administrative phase is one turn of its own."""
    seen = _keyed_game(2)
    menus = [i for i, (_, kind, *_rest) in enumerate(seen) if kind == Kind.ACTION]
    assert len(menus) > 20
    for a, b in zip(menus, menus[1:]):
        inside = {key for key, *_ in seen[a:b]}
        if seen[a][4] != seen[b][4]:  # an action was taken between the two menus
            assert seen[a][0] != seen[b][0]
        if seen[a][0][:2] == seen[b][0][:2]:  # the same turn's actions phase
            assert len(inside) <= 2  # this action, and the free chit (8.19) drawn before the next
    # the other side answers inside an action (a retreat, a window) in the acting side's turn
    assert any(key[3] and key[3] != side for key, _, side, phase, _ in seen if phase == "actions")
    admins: dict[int, set[object]] = {}
    for key, _, _, phase, _ in seen:
        if phase == "admin":
            admins.setdefault(key[0], set()).add(key)
    assert admins and all(len(keys) == 1 for keys in admins.values())
    assert len({key for key, *_ in seen}) == len({(key[0], key[1], key[2]) for key, *_ in seen})


@pytest.mark.rule("ldf:4.2")
def test_a_german_tribe_nearer_rome_is_worse_for_the_roman() -> None:
    """4.2: a German tribe entering Rome/Ostia wins the game, so the search's value of a
    position counts each tribe's nearness to it (bot.rome_threat), for both sides alike."""
    s = Session(GAME, "campaign", seed=3)
    st = s.state
    tribe = next(u for u in st.units.values() if u.kind == "german-tribe")
    rome = st.hex(ROME)
    far, near = (next(st.map.to_id(h) for h in st.map.hexes() if h.distance(rome) == d) for d in (6, 1))
    st.put_on_map(tribe.id, far)
    at_six, held = bot.evaluate(st, ROMAN), len(core_intruders(st))
    assert bot.rome_threat(st) == pytest.approx(bot.ROME_THREAT / 6)
    st.put_on_map(tribe.id, near)
    assert bot.rome_threat(st) == pytest.approx(bot.ROME_THREAT)
    held_now = len(core_intruders(st))  # next to Rome it stands in the core too (4.3)
    assert bot.evaluate(st, ROMAN) == pytest.approx(at_six - bot.ROME_THREAT * (1 - 1 / 6) - 2.0 * (held_now - held))
    assert bot.evaluate(st, GP) == -bot.evaluate(st, ROMAN)
