"""The search bot's value of a Basic Game position: losses so far plus the expected
result of the coming Combat Phase, read exactly from the melee CRT (crt_melee.toml)."""

from __future__ import annotations

import pytest

from ancients_kit.bots import GreedyBot
from ancients_kit.session import Session

from ancients_games.centurion import GAME
from ancients_games.centurion.appraisal import (
    DISPERSED_ATTACKER,
    DISPERSED_DEFENDER,
    appraise,
    expected_losses,
)
from ancients_games.centurion.basic import loss_fractions
from ancients_games.centurion.setup import sandbox_state


def _moving(units):
    s = sandbox_state(units)
    s.phase = "movement"
    return s


@pytest.mark.rule("cen:basic.combat", "cen:basic.stacking")
def test_a_stack_against_a_skirmisher_is_expected_to_eliminate_it() -> None:
    # three Swordsmen (12) against a Skirmisher (1): 12 to 1 reads the 6-1 column,
    # 1-5 DE and 6 DD in crt_melee.toml; nothing can befall the attacker there
    s = _moving([("red", "SD", "0605"), ("red", "SD", "0605"), ("red", "SD", "0605"), ("blue", "SK", "0606")])
    own, enemy = expected_losses(s, "red")
    assert own == 0.0
    assert enemy == pytest.approx(5 / 6 + DISPERSED_DEFENDER / 6)
    assert expected_losses(s, "blue") == (0.0, 0.0)  # 1 against 12 is no attack


@pytest.mark.rule("cen:basic.combat")
def test_an_even_fight_is_not_an_attack_the_bots_would_make() -> None:
    s = _moving([("red", "SD", "0605"), ("blue", "SD", "0606")])
    assert expected_losses(s, "red") == (0.0, 0.0)


@pytest.mark.rule("cen:basic.combat")
def test_a_one_to_one_attack_counts_both_sides_risks() -> None:
    # 8 against 5 (Swordsman and Skirmisher) rounds for the defender to 1-1:
    # 1 DE, 2 DD, 3-4 C, 5 AD, 6 AE
    s = _moving([("red", "SD", "0605"), ("red", "SD", "0605"), ("blue", "SD", "0606"), ("blue", "SK", "0606")])
    own, enemy = expected_losses(s, "red")
    assert own == pytest.approx(2 * (1 / 6 + DISPERSED_ATTACKER / 6))
    assert enemy == pytest.approx(2 * (1 / 6 + DISPERSED_DEFENDER / 6))


@pytest.mark.rule("cen:basic.combat")
def test_each_unit_attacks_once() -> None:
    # case D: one Barbarian (6) next to two Skirmishers (1 each) makes one attack, not two
    s = _moving([("red", "BI", "0605"), ("blue", "SK", "0604"), ("blue", "SK", "0606")])
    _, enemy = expected_losses(s, "red")
    assert enemy == pytest.approx(5 / 6 + DISPERSED_DEFENDER / 6)


@pytest.mark.rule("cen:basic.victory", "cen:basic.combat")
def test_the_value_is_losses_plus_the_expected_phase_for_either_side() -> None:
    units = [("red", "SD", "0605"), ("red", "SD", "0605"), ("red", "SD", "0605"), ("blue", "SK", "0606"),
             ("blue", "SD", "1010"), ("red", "SD", "0101")]
    s = _moving(units)
    s.remove(s.units["BLU-SD01"])
    fr = loss_fractions(s)
    _, enemy = expected_losses(s, "red")
    want = float(fr["blue"] - fr["red"]) + enemy / 2  # blue started with two units
    assert appraise(s, "red") == pytest.approx(want)
    assert appraise(s, "blue") == pytest.approx(-want)
    assert GAME.evaluate(s, "red") == appraise(s, "red")


@pytest.mark.rule("cen:basic.combat", "cen:basic.victory")
def test_the_game_appraises_with_its_own_table_along_a_game() -> None:
    s = Session(GAME, "basic-gaul", seed=5)
    bot = GreedyBot()
    seen_gain = False
    while s.decision is not None and len(s.answers) < 400:
        st = s.state
        a, b = st.sides
        assert GAME.evaluate(st, a) == pytest.approx(-GAME.evaluate(st, b))
        fr = loss_fractions(st)
        seen_gain |= GAME.evaluate(st, a) != pytest.approx(float(fr[b] - fr[a]))
        s.answer(bot.choose(s, s.decision))
    assert seen_gain  # contact came, and with it an expected Combat Phase


@pytest.mark.rule("cen:basic.combat", "cen:basic.victory")
def test_a_command_unit_in_the_stack_is_lost_with_it() -> None:
    # the victory count counts every unit lost, Command units too: the Skirmisher and the
    # Command unit with it both go on a DE (12 against 1 + 1 = 6-1 column)
    s = _moving([("red", "SD", "0605"), ("red", "SD", "0605"), ("red", "SD", "0605"),
                 ("blue", "SK", "0606"), ("blue", "CM", "0606")])
    _, enemy = expected_losses(s, "red")
    assert enemy == pytest.approx(2 * (5 / 6 + DISPERSED_DEFENDER / 6))


@pytest.mark.rule("cen:basic.combat")
def test_the_table_appraised_is_the_one_in_play() -> None:
    from ancients_games.centurion.appraisal import BASIC_CRT
    from ancients_games.centurion.equipment import load_all

    s = Session(GAME, "basic-gaul", seed=5)
    table = s.state.extra[BASIC_CRT]
    assert table is load_all(s.store)["melee"]
    assert s.fork().state.extra[BASIC_CRT] is table  # shared by the search's copies, not copied
    pos = _moving([("red", "SD", "0605"), ("red", "SD", "0605"), ("red", "SD", "0605"), ("blue", "SK", "0606")])
    pos.extra[BASIC_CRT] = table
    assert expected_losses(pos, "red")[1] == pytest.approx(5 / 6 + DISPERSED_DEFENDER / 6)


@pytest.mark.rule("cen:basic.victory", "cen:basic.combat")
def test_both_sides_values_at_once_are_each_sides_value() -> None:
    # the search reads both sides' values at the end of every sample: one appraisal, the
    # same figures as one call a side, on the positions of a greedy game
    s = Session(GAME, "basic-gaul", seed=4)
    bot = GreedyBot()
    for _ in range(150):
        if s.decision is None:
            break
        both = GAME.evaluate_sides(s.state, GAME.sides(s.state))
        assert both == {side: GAME.evaluate(s.state, side) for side in GAME.sides(s.state)}
        s.answer(bot.choose(s, s.decision))
