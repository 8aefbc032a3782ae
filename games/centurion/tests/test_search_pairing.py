"""Search copies with keyed dice (``Session.fork(..., keyed_dice=True)``, the search's
``pairing=keyed``) on a real Basic Game: an attack gets the same die in two copies of
one sample whatever was attacked before it, so the search compares its options on
the same luck."""

from __future__ import annotations

import pytest

from ancients_kit.bots import GreedyBot
from ancients_kit.search import SearchSettingsError, Settings, search
from ancients_kit.session import Session

from ancients_games.centurion import GAME


def _first_combat_with_targets(n: int) -> Session:
    s = Session(GAME, "basic-civil-war", seed=3)
    bot = GreedyBot()
    while s.decision is not None:
        d = s.decision
        if d.kind == "combat.hex" and len(d.options) > n:  # "done" and n targets
            return s
        s.answer(bot.choose(s, d))
    raise AssertionError("the game ended before a Combat Phase with that many targets")


def _attack(copy: Session, target: str) -> str:
    """Attack ``target`` with what the greedy bot would send; the die rolled for it."""
    bot = GreedyBot()
    copy.answer(target)
    while copy.decision is not None and copy.decision.kind != "combat.hex":
        copy.answer(bot.choose(copy, copy.decision))
    rolls = [e for e in copy.log if e.kind == "roll" and f"attack on {target}" in e.text]
    assert len(rolls) == 1
    return rolls[0].text


@pytest.mark.rule("cen:basic.combat")
def test_an_attack_gets_the_same_die_whatever_was_attacked_before_it() -> None:
    s = _first_combat_with_targets(3)
    first, second, third = (o.key for o in s.decision.options[1:4])  # type: ignore[union-attr]
    orders = {}
    for keyed in (True, False):
        a = s.fork(reseed=5, checkpoints=False, keyed_dice=keyed)
        b = s.fork(reseed=5, checkpoints=False, keyed_dice=keyed)
        _attack(a, first)
        _attack(a, second)
        orders[keyed] = (_attack(a, third), _attack(b, third))
    assert orders[True][0] == orders[True][1]  # keyed: the third target's own die, either way
    # one stream: the third target's die depends on how many were rolled before it
    # (for this seed the two orders happen to give it different dice)
    assert orders[False][0] != orders[False][1]


def test_keyed_dice_need_a_search_copy_and_the_pairing_setting_is_checked() -> None:
    s = Session(GAME, "basic-civil-war", seed=3)
    with pytest.raises(ValueError, match="keyed_dice=True"):
        s.fork(keyed_dice=True)
    with pytest.raises(SearchSettingsError, match="pairing must be 'stream' or 'keyed'"):
        Settings(pairing="shared")


@pytest.mark.rule("cen:basic.combat")
def test_a_keyed_search_is_deterministic_and_keeps_the_real_game() -> None:
    s = _first_combat_with_targets(3)
    before = s.log.digest()
    st = Settings.for_game(GAME, iterations=24, pairing="keyed")
    one, two = search(s, st), search(s, st)
    assert one.answer == two.answer and one.stats == two.stats
    assert s.log.digest() == before
    # undo in a keyed copy rebuilds keyed dice (the branch is keyed again)
    first, second, third = (o.key for o in s.decision.options[1:4])  # type: ignore[union-attr]
    c = s.fork(reseed=5, keyed_dice=True)
    _attack(c, first)
    die = _attack(c, third)
    c.undo(len(c.answers) - len(s.answers))
    _attack(c, second)
    assert _attack(c, third) == die
