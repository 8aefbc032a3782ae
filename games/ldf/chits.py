"""Lest Darkness Fall event chits: drawing, holding and playing them (``ldf:8.17``-``8.19``, ``ldf:14.3``).

The chits' numbers, texts and return instructions are data
(``data/chits.toml``, :func:`ancients_games.ldf.model.load_chits`); this
module gives each number its effect and its moment of play:

- **resolved on the draw** (8.17): 10 Plague, 18 The Gods Are Bored, 19 Bread
  & Circuses, 20 Persecutions, 25 the cavalry units (:data:`ON_DRAW`);
- **shown and put back** when the side that cannot use it draws it, the draw
  action spent (14.3: 9, 11, 12, 14, 16, 22, 23, 24); 21 drawn by the
  Germano-Parthian is handed to the Roman (:func:`drawn_by_wrong_side`);
- **played at a window** outside one's own action (:data:`WINDOW_CHITS`):
  ``after-roll`` (2 Beseech the Gods, after any die roll by either player),
  ``battle-start`` (1 Flanking Move, 4 Inspired Subordinates' shift, 12 Savaran
  Cavalry), ``before-attack-roll`` (15 Overwhelming Assault by the attacker,
  then 6 They Shall Not Pass by the defender, not after 15), ``before-roll``
  (17 Agents in Enemy Camp before a diplomacy or treachery roll);
- **played as an action** (8.18): the others, and 3 From the Jaws of Death,
  13 (a hand shown), 4's extra hex of movement.

A hand holds at most six chits (8.17); its size is public and its contents
secret (10.9), so every window asks every side the rule allows, whatever it
holds (:mod:`ancients_kit.windows`).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Final

from ancients_games.ldf.model import Chit

__all__ = [
    "BATTLE_SHIFT",
    "HAND_LIMIT",
    "ON_DRAW",
    "WINDOW_CHITS",
    "cavalry_reserve_formed",
    "dole_cost",
    "drawn_by_wrong_side",
    "german_increase",
    "gods_bored_ends_turn",
    "jaws_draws",
    "may_draw",
    "plague_target",
    "revenue_windfall_tp",
    "windfall_distribution",
]

HAND_LIMIT: Final = 6
"""No player holds more than six unplayed chits (``ldf:8.17``)."""

FLANKING: Final = 1
BESEECH: Final = 2
JAWS: Final = 3
INSPIRED: Final = 4
VALLEY: Final = 5
NOT_PASS: Final = 6
MAD_DASH: Final = 7
FORCED_MARCH: Final = 8
MUTINY: Final = 9
PLAGUE: Final = 10
DEBASEMENT: Final = 11
SAVARAN: Final = 12
SPIES: Final = 13
LIMES: Final = 14
ASSAULT: Final = 15
SEA_RAIDERS: Final = 16
AGENTS: Final = 17
GODS_BORED: Final = 18
BREAD: Final = 19
PERSECUTIONS: Final = 20
SIEGE: Final = 21
RESURGENCE: Final = 22
GERMAN_INCREASE: Final = 23
WINDFALL: Final = 24
CAVALRY: Final = 25

ON_DRAW: Final = frozenset({PLAGUE, GODS_BORED, BREAD, PERSECUTIONS, CAVALRY})
"""Resolved the instant they are drawn, by whoever draws them (``ldf:8.17``)."""

WINDOW_CHITS: Final[Mapping[str, tuple[int, ...]]] = {
    "after-roll": (BESEECH,),
    "battle-start": (FLANKING, INSPIRED, SAVARAN),
    "before-attack-roll": (ASSAULT, NOT_PASS),
    "before-roll": (AGENTS,),
}
"""The interrupt windows (:mod:`ancients_kit.windows`) and the chits played at
each (``ldf:14.3``). ``after-roll`` follows every die roll of the game;
``battle-start`` opens at the start of each battle's resolution (both sides,
attacker first); ``before-attack-roll`` after an attack is declared and before
its roll (attacker, then defender); ``before-roll`` before each diplomacy or
treachery roll, after the Roman's salting (``ldf:8.8``)."""

BATTLE_SHIFT: Final[Mapping[int, str]] = {
    FLANKING: "one column in the player's favour",
    INSPIRED: "one column in the player's favour",
    SAVARAN: "one column in the Parthians' favour",
    NOT_PASS: "one column toward the defender; a DR becomes AS",
}
"""Chits that shift a battle's odds by one column (``ldf:14.3``)."""

ONE_SIDE_SHOWN: Final = frozenset({MUTINY, DEBASEMENT, SAVARAN, LIMES, SEA_RAIDERS, RESURGENCE, GERMAN_INCREASE,
                                   WINDFALL})
"""One-side chits that the other side, drawing them, shows and puts back, its
action spent (``ldf:14.3``; 23 by ruling, docs/games/ldf.md)."""


def may_draw(hand_size: int) -> bool:
    """Whether a player may draw without first putting a chit back: only while he
    holds five or fewer, so that no hand ever passes six (``ldf:8.17``; ruling)."""
    return hand_size < HAND_LIMIT


def drawn_by_wrong_side(chit: Chit, drawer: str) -> str | None:
    """What happens when ``drawer`` draws a chit only the other side may use
    (``ldf:14.3``): ``"shown"`` (shown and put back in the pool, the action
    spent), ``"handed"`` (21, given to the Roman) or ``None`` (he keeps it)."""
    if chit.player in ("both", drawer):
        return None
    if chit.number == SIEGE:
        return "handed"
    if chit.number in ONE_SIDE_SHOWN:
        return "shown"
    raise ValueError(f"chit {chit.number} ({chit.name}) is for {chit.player} only and has no rule for "
                     f"{drawer} drawing it (ldf:14.3)")


def plague_target(die: int) -> str:
    """Chit 10 (``ldf:14.3``, reconstructed): ``parthian`` on 1-2, ``caucasus`` on
    3-4, ``palmyra`` on 5, ``emperor`` on 6."""
    return {1: "parthian", 2: "parthian", 3: "caucasus", 4: "caucasus", 5: "palmyra", 6: "emperor"}[die]


def gods_bored_ends_turn(die: int, turn: int) -> bool:
    """Chit 18 (``ldf:14.3``, ``ldf:5.4``): in Turns 1-4 an even roll ends the turn;
    in Turn 5 there is no roll and no event."""
    return turn <= 4 and die % 2 == 0


def dole_cost(die: int) -> int:
    """Chits 19 and 20 (``ldf:14.3``): the Roman pays a die plus one, 2-7 TP."""
    return die + 1


def german_increase(die: int) -> int:
    """Chit 23 (``ldf:14.3``): up to a die plus three, 4-9, dead tribes return."""
    return die + 3


def revenue_windfall_tp(die: int) -> int:
    """Chit 24 taken all in TP (``ldf:14.3``): the die plus three, never more than five."""
    return min(die + 3, 5)


def windfall_distribution() -> dict[int, Fraction]:
    """Exact TP of chit 24 taken all in TP: 4 with 1/6, 5 with 5/6 (``ldf:14.3``)."""
    out: dict[int, Fraction] = {}
    for d in range(1, 7):
        tp = revenue_windfall_tp(d)
        out[tp] = out.get(tp, Fraction(0)) + Fraction(1, 6)
    return out


def cavalry_reserve_formed(die: int) -> bool:
    """Cavalry drawn (25): on a 6 the central cavalry reserve may be formed (``ldf:14.3``, ``ldf:10.8``)."""
    return die == 6


def jaws_draws(die: int, hand_size: int) -> int:
    """From the Jaws of Death (3): chits drawn after putting chits back, the die
    but never past the hand limit of six (``ldf:14.3``, ``ldf:8.17``)."""
    return max(0, min(die, HAND_LIMIT - hand_size))
