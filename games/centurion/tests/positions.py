"""Building hand-made Full Simulation positions for tests.

``fresh`` starts a seeded session, ``clear`` takes every unit off the map,
``put`` places a unit on a hex with a facing, and ``first``/``nth`` find the
n-th unit of a type by its current or original side; ``gaul_warrior`` sets a
Gaulish warrior against one Roman (cen:barb.warrior).
"""

from __future__ import annotations

from ancients_kit.session import Session

from ancients_games.centurion.full import mounts, options


def fresh(scenario: str = "numidia", **opts):
    s = Session.new("centurion", scenario, seed=3, options=opts)
    return s, s.ctx, s.state


def clear(state) -> None:
    for u in list(state.units.values()):
        if u.hex is not None:
            mounts.withdraw(state, u)


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


def gaul_warrior(bi_hex: str, foe_hex: str = "1510"):
    """Gaul with the warrior rule: one barbarian infantry unit on ``bi_hex`` (facing north), one
    enemy unit on ``foe_hex``, the barbarians' Player-Turn begun. Returns (session, ctx, state,
    barbarian side, the warrior)."""
    s = Session.new("centurion", "gaul", seed=3, options={"barbarian_warrior": "on"})
    st, ctx = s.state, s.ctx
    barb = next(x for x in st.sides if options.is_barbarian(st, x))
    other = st.opponent(barb)
    clear(st)
    st.begin_player_turn(barb)
    bi = put(st, next(u for u in st.units.values() if u.side == barb and u.type == "BI").id, bi_hex, "N")
    put(st, next(u for u in st.units.values() if u.side == other and u.type != "CM").id, foe_hex, "S")
    return s, ctx, st, barb, bi
