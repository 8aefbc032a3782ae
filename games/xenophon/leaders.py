"""Xenophon leaders: OP multipliers, Supreme Leaders, Xenophon, Successor and Anabasis,
assassination and personal combat.

Rules: ``xen:leaders``, ``xen:supreme-leaders``, ``xen:xenophon``,
``xen:opt.personal-combat`` (docs/games/xenophon.md, "Rulings: combat").

* A leader doubles a force's OP die, Xenophon triples it (``xen:leaders``,
  ``xen:xenophon``): :func:`op_multiplier`.
* A leader adds his CS to his force and gives it one CS multiplier
  (``xen:leaders``; :mod:`combat`).
* A leader is eliminated like any unit and returns only by Leader Arises
  (chit or event). A Supreme Leader's death costs his player every chit held,
  unless he plays Anabasis first (``xen:supreme-leaders``, ``xen:stratagem``);
  Successor makes a friendly leader the new Supreme Leader. Xenophon, when
  eliminated, escapes to the nearest friendly force on 1-3 and dies on 4-6
  (ruling 1, the printed escape roll read for Xenophon); he is never replaced.
* Assassination (the Diplomacy Table's D3): 1-2 kills a Supreme Leader, 1-3 a
  regular leader; otherwise the victim's player draws a chit.
* Personal combat (optional): each player's chosen leader rolls a d6, Cyrus +1;
  the high roll kills the other leader, a tie kills neither.
"""

from __future__ import annotations

from fractions import Fraction

__all__ = [
    "PERSONAL_DRM",
    "XENOPHON",
    "assassination_chance",
    "personal_combat_chances",
]

XENOPHON = "Xenophon"
"""The leader whose force triples its OP die (``xen:xenophon``)."""

PERSONAL_DRM: dict[str, int] = {"Cyrus": 1}
"""Die modifiers in personal combat (``xen:opt.personal-combat``: "Cyrus: +1 DRM")."""

ESCAPE_ROLLS = (1, 2, 3)
"""Xenophon's escape roll on elimination: 1-3 escapes to the nearest friendly force (ruling 1)."""


def personal_combat_chances(drm: int = 0, other_drm: int = 0) -> dict[str, Fraction]:
    """Exact chances that a leader rolling d6 + ``drm`` beats, ties or loses to
    one rolling d6 + ``other_drm`` (``xen:opt.personal-combat``)."""
    out = {"win": Fraction(0), "tie": Fraction(0), "lose": Fraction(0)}
    for a in range(1, 7):
        for b in range(1, 7):
            x, y = a + drm, b + other_drm
            out["win" if x > y else "tie" if x == y else "lose"] += Fraction(1, 36)
    return out


def assassination_chance(supreme: bool) -> Fraction:
    """P(the leader chosen dies) on a D3 assassination: 1-2 a Supreme Leader, 1-3 another leader."""
    return Fraction(2 if supreme else 3, 6)


def assassination_kills(supreme: bool, roll: int) -> bool:
    """Whether an assassination roll kills (D3 on the Diplomacy Table, ``xen:diplomacy``, ``xen:leaders``)."""
    return roll <= (2 if supreme else 3)
