"""Building hand-made Full Simulation positions for tests.

``fresh`` starts a seeded session, ``clear`` takes every unit off the map,
``put`` places a unit on a hex with a facing, and ``first``/``nth`` find the
n-th unit of a type by its current or original side.
"""

from __future__ import annotations

from ancients_kit.session import Session

from ancients_games.centurion.full import options


def fresh(scenario: str = "numidia", **opts):
    s = Session.new("centurion", scenario, seed=3, options=opts)
    return s, s.ctx, s.state


def clear(state) -> None:
    for u in list(state.units.values()):
        if u.hex is not None:
            options._withdraw(state, u)


def put(state, uid: str, hid: str, facing: str = "N"):
    u = state.units[uid]
    u.eliminated = False
    u.hex = None
    state.move(u, state.hex_of(hid))
    u.facing = state.numbering.direction_from_name(facing)
    return u


def first(state, side: str, code: str, n: int = 0):
    """The n-th unit of ``code`` now serving ``side``."""
    return [u for u in state.units.values() if u.side == side and u.type == code][n]


def nth(state, side: str, code: str, n: int = 0):
    """The n-th unit of ``code`` that began the game with ``side``."""
    return [u for u in state.units.values() if u.original_side == side and u.type == code][n]
