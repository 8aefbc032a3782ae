"""How the search bot judges a Basic Game position it stops looking at.

The Basic Game is won on the percentage of units lost (``cen:basic.victory``),
so that is the start of the value. But units adjacent to the enemy are locked
together (``cen:basic.zoc`` B) and the side whose Combat Phase is next will
attack them (``cen:basic.combat``): a position where one side's stacks stand
next to weak enemy hexes is worth more to it than the losses so far say, and
counting only the losses made the search judge every move by the dice of the
rollout that followed it. :func:`appraise` adds to the losses what the next
Combat Phase of the side to play is *expected* to change, exactly from the
melee CRT, without rolling a die:

- the attacks are the ones the greedy bot would make (:func:`~ancients_games.centurion.bot.score`:
  the target with the best odds first, with every eligible unit, while the
  odds are better than 3 to 2), each unit attacking once (case D), with the
  strongest case-G-compatible group (:func:`~ancients_games.centurion.combat.best_group`)
  and the rounding of cases I and J;
- a defender eliminated (DE) counts its units lost, an attacker eliminated
  (AE) the attackers;
- dispersal is a loss of tempo, not of units, but not an even one: dispersed
  attackers (AD) sit out their next turn defending at 1 against an enemy
  whose Combat Phase comes first, so each counts :data:`DISPERSED_ATTACKER`
  of a unit; dispersed defenders (DD) recover before the attacker can strike
  again, so each counts :data:`DISPERSED_DEFENDER` (both shares are chosen
  on these grounds, not fitted).

The expected units lost are divided by each side's units at start, as
``cen:basic.victory`` counts them. The Full Simulation keeps its own value
(loss percentages), as before.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ancients_kit.data import DataStore
from ancients_kit.tables import OddsRefused, OddsTable

from ancients_games.centurion.basic import loss_fractions
from ancients_games.centurion.combat import (
    basic_attack_factor,
    basic_defence,
    best_group,
    command_rounding,
    eligible_attackers,
)
from ancients_games.centurion.equipment import PACKAGE, load_all
from ancients_games.centurion.state import SHARED_EXTRA, CenturionState
from ancients_games.centurion.vocab import PHASES_BASIC

__all__ = [
    "ATTACK_ODDS",
    "BASIC_CRT",
    "DISPERSED_ATTACKER",
    "DISPERSED_DEFENDER",
    "appraise",
    "appraise_sides",
    "expected_losses",
]

ATTACK_ODDS = 1.5
"""Attack factors over defence factors above which the greedy bot attacks (its score
for ending the Combat Phase); the expected Combat Phase makes the same attacks."""

DISPERSED_ATTACKER = 0.7
"""Share of a unit an attacker dispersed by the CRT (AD) is counted as lost: it defends
at 1 (combat.DISPERSED_DEFENCE) through the enemy's next Combat Phase."""

DISPERSED_DEFENDER = 0.15
"""Share of a unit a defender dispersed by the CRT (DD) is counted as lost: it sits out
its own next Player-Turn and recovers before it can be attacked again."""

BASIC_CRT = "basic_melee_crt"
"""``state.extra`` key: the melee CRT this game is played with (put there by
``sequence.play`` and ``resume``, so a designer's table is the one
appraised; shared by copies, never changed)."""
SHARED_EXTRA.add(BASIC_CRT)

_DEFAULT_TABLE: list[OddsTable] = []
_DISTRIBUTIONS: dict[int, tuple[OddsTable, dict[tuple[int, int, str], dict[str, float]]]] = {}
"""id of a table -> (the table, kept so its id is not reused; (attack, defence, rounding)
-> result code -> probability)."""


def _table(state: CenturionState) -> OddsTable:
    got = state.extra.get(BASIC_CRT)
    if got is not None:
        return got  # type: ignore[no-any-return]
    if not _DEFAULT_TABLE:  # a position built by hand (sandbox_state): the game's own table
        _DEFAULT_TABLE.append(load_all(DataStore(PACKAGE))["melee"])
    return _DEFAULT_TABLE[0]


def _distribution(table: OddsTable, attack: int, defence: int, rounding: str) -> dict[str, float]:
    known = _DISTRIBUTIONS.get(id(table))
    if known is None or known[0] is not table:
        if len(_DISTRIBUTIONS) > 16:
            _DISTRIBUTIONS.clear()
        known = _DISTRIBUTIONS[id(table)] = (table, {})
    cells = known[1]
    got = cells.get((attack, defence, rounding))
    if got is None:
        try:
            exact: dict[str, Fraction] = table.distribution(attack, defence, rounding=rounding)
            got = {code: float(p) for code, p in exact.items()}
        except OddsRefused:  # below 1-2: non-viable, no attack
            got = {}
        cells[(attack, defence, rounding)] = got
    return got


def expected_losses(state: CenturionState, side: str) -> tuple[float, float]:
    """Units ``side`` and its enemy are expected to lose in ``side``'s next Combat
    Phase from the position as it stands (see the module docstring), as
    ``(side's, enemy's)``; every unit counts one, Command units too, as
    ``cen:basic.victory`` counts them (a result removes or disperses them all)."""
    table = _table(state)
    seen: dict[Any, None] = {}
    for u in state.live_units(side):
        if u.attacked or u.dispersed or u.hex is None:
            continue
        for n in state.enemy_hexes_adjacent(u.hex, side):
            seen[n] = None
    if not seen:
        return 0.0, 0.0
    ranked = []
    for h in seen:
        eligible = eligible_attackers(state, side, h)
        group = best_group(state, eligible)
        attack = sum(basic_attack_factor(state, u) for u in group)
        if attack > 0:
            defence = basic_defence(state, h)
            ranked.append((-attack / max(defence, 1), state.hid(h), h, eligible, group, attack, defence))
    ranked.sort(key=lambda r: (r[0], r[1]))
    used: set[str] = set()
    own = enemy = 0.0
    for _, _, h, eligible, group, attack, defence in ranked:
        if used and any(u.id in used for u in eligible):  # some went into a better attack (case D)
            group = best_group(state, [u for u in eligible if u.id not in used])
            attack = sum(basic_attack_factor(state, u) for u in group)
        if attack <= 0 or attack / max(defence, 1) <= ATTACK_ODDS:
            continue
        rounding, _ = command_rounding(state, {u.hex for u in group}, h, side)
        p = _distribution(table, attack, defence, rounding)
        if not p:
            continue
        defenders = len(state.stack_at(h))  # every unit of the hex goes, Command units too
        attackers = len(group)
        enemy += defenders * (p.get("DE", 0.0) + DISPERSED_DEFENDER * p.get("DD", 0.0))
        own += attackers * (p.get("AE", 0.0) + DISPERSED_ATTACKER * p.get("AD", 0.0))
        used.update(u.id for u in group)
    return own, enemy


def appraise(state: CenturionState, side: str) -> float:
    """Value of a Basic Game position for ``side``: the enemy's share of units lost
    minus ``side``'s (cen:basic.victory), each plus what the next Combat Phase of
    the side to play is expected to take (cen:basic.combat)."""
    return appraise_sides(state)[side]


def appraise_sides(state: CenturionState) -> dict[str, float]:
    """:func:`appraise` for both sides at once: the expected Combat Phase worked out
    once (what one side gains, the other loses)."""
    fr = loss_fractions(state)
    a, b = state.sides[0], state.sides[1]
    value = float(fr[b] - fr[a])  # for a
    active = state.active
    if active in state.sides and state.phase in PHASES_BASIC:
        lost_active, lost_other = expected_losses(state, active)
        other = state.opponent(active)
        gain = (lost_other / max(1, state.start_units.get(other, 0))
                - lost_active / max(1, state.start_units.get(active, 0)))
        value += gain if active == a else -gain
    return {a: value, b: -value}
