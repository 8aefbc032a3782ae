"""Leaders: casualty checks, escape, and what an attached leader gives his unit.

Serves ``ccr:base.leaders``: a leader in a hex with a friendly unit is attached
and moves with it; when the unit loses blocks the leader risks death (two
battle dice, killed on two leader symbols), when the unit is eliminated one
die (killed on a leader symbol), otherwise he escapes up to 3 hexes back,
to a friendly unit of his owner's choice when one can be reached, or off his
own side of the battlefield when within 3 hexes of it (no banner), or is
captured when no hex back is open. A dead or
captured leader is a Victory Banner (ccr:victory). Also used by Caltrops
losses (``ccr:caltrops``).
"""

from __future__ import annotations

from collections.abc import Callable, Generator

from ancients_kit.protocol import Context, Decision

from .dice import BATTLE_DIE
from .protocol import ask
from .state import BattleState, Leader
from .victory import gain
from .vocab import Kind

__all__ = ["casualty_check", "escape", "escape_options", "kill_leader", "leader_called", "marsh_check_leader",
           "resolve_escapes", "why_not_escape"]

RULE = "ccr:base.leaders"
OFF = "off"
"""Answer for a leader evading off his own side of the battlefield: no banner for the enemy."""


def leader_called(ld: Leader, side: bool = True) -> str:
    """How the log names a leader: ``roman leader Marcus`` for a named one (``leader Marcus``
    without the side), and ``roman leader 2`` for a numbered one, whose name says it already."""
    if "leader" in ld.name.lower():
        return ld.name
    return f"{ld.side} leader {ld.name}" if side else f"leader {ld.name}"


def _own_leader(ld: Leader) -> str:
    """A leader named to its own side (``leader Maxentius``, ``leader 2``): the question is put
    to that side, whose name the views show before it (``roman: your leader 2 ...``)."""
    called = leader_called(ld, side=False)
    prefix = f"{ld.side} "
    return called[len(prefix):] if called.lower().startswith(prefix.lower()) else called


def kill_leader(ctx: Context, bs: BattleState, ld: Leader, why: str) -> None:
    if ld in bs.leaders:
        bs.leaders.remove(ld)
    ctx.event("loss", f"{leader_called(ld)} is {why} at {ld.hex}", rules=(RULE,), side=ld.side)
    gain(ctx, bs, bs.other(ld.side), 1, f"{leader_called(ld, side=False)} {why}", (RULE,))


def marsh_check_leader(ctx: Context, bs: BattleState, ld: Leader) -> None:
    """A leader entering a marsh hex alone rolls one die and is lost on a leader symbol, his own symbol
    (ccr:base.terrain; a leader who joins a unit standing there is attached, and does not roll)."""
    if not bs.board.spec(ld.hex).sink or ld.hex in bs.at or ld not in bs.leaders:
        return
    rules = ("ccr:base.terrain", RULE)
    faces = ctx.chance.symbols(BATTLE_DIE, 1, f"{leader_called(ld)} enters the {bs.board.terrain[ld.hex]} "
                               f"alone at {ld.hex}", rules)
    if "leader" in faces:
        kill_leader(ctx, bs, ld, f"lost in the {bs.board.terrain[ld.hex]}")


def casualty_check(ctx: Context, bs: BattleState, ld: Leader, eliminated: bool, extra: tuple[str, ...] = ()) -> None:
    """Leader Casualty Check after his unit lost blocks (ccr:base.leaders)."""
    n = 1 if eliminated else 2
    faces = ctx.chance.symbols(BATTLE_DIE, n, f"leader casualty check for {ld.name}", (RULE, *extra))
    helmets = faces.count("leader")
    if helmets >= n:
        kill_leader(ctx, bs, ld, "killed")
        return
    ctx.event("leader", f"{ld.name} survives the casualty check ({', '.join(faces)})", rules=(RULE, *extra), side=ld.side)
    if eliminated:
        escape(ctx, bs, ld)


def escape_options(bs: BattleState, ld: Leader) -> list[str]:
    """Hexes a leader left alone may escape to, 1-3 hexes back toward his own side (ccr:base.leaders).

    Friendly units without a leader come first: if one can be reached, he must join one of them
    (reconstructed reading, L); otherwise he evades to any free hex 1, 2 or 3 hexes back, the
    farthest back listed first (the leader rules: "1, 2, or 3 hexes back toward his own side").
    """
    board = bs.board
    back = _back(bs, ld)
    units: list[tuple[int, str]] = []
    free: list[tuple[int, int, str]] = []
    for h in board.hexes:
        d = board.distance(ld.hex, h)
        if not 1 <= d <= 3 or back(h) < 1:
            continue
        if any(o.hex == h for o in bs.leaders if o is not ld):
            continue
        u = bs.at.get(h)
        if u is not None:
            if u.side == ld.side:
                units.append((d, h))
            continue
        if h in board.impassable:
            continue
        free.append((-back(h), d, h))
    off = [OFF] if _can_leave(bs, ld) else []
    if units:
        return [h for _, h in sorted(units)] + off
    return [h for _, _, h in sorted(free)] + off


def _can_leave(bs: BattleState, ld: Leader) -> bool:
    """May the leader evade off his own side of the battlefield (within his 3 hexes; ccr:base.leaders)?"""
    row, rows = bs.board.row[ld.hex], max(bs.board.row.values())
    steps = row if bs.armies[ld.side].key == "top" else rows - row + 1
    return steps <= 3


def _back(bs: BattleState, ld: Leader) -> Callable[[str], int]:
    """Rows a hex lies behind the leader, toward his own baseline."""
    row0 = bs.board.row[ld.hex]
    row = bs.board.row
    if bs.armies[ld.side].key == "top":
        return lambda h: row0 - row[h]
    return lambda h: row[h] - row0


def why_not_escape(bs: BattleState, ld: Leader, text: str) -> tuple[str, str]:
    """Why ``text`` is not a hex the leader may escape to (for refusals, ccr:base.leaders)."""
    board = bs.board
    h = text.strip()
    if h.lower() == OFF:
        return f"{ld.name} at {ld.hex} is more than 3 hexes from your own edge and cannot leave the battlefield", RULE
    if h not in board.row:
        return f"{text!r} is not a hex of the battlefield", RULE
    d = board.distance(ld.hex, h)
    if d == 0:
        return f"{ld.name} must leave {h}", RULE
    if d > 3:
        return f"{h} is {d} hexes away; a leader escapes at most 3 hexes", RULE
    if _back(bs, ld)(h) < 1:
        return f"{h} is not toward your own baseline; a leader escapes back toward his side", RULE
    u = bs.at.get(h)
    if u is not None and u.side != ld.side:
        return f"{h} holds an enemy unit", RULE
    if any(o.hex == h for o in bs.leaders if o is not ld):
        return f"another leader is already at {h}", RULE
    if h in board.impassable:
        return f"{h} ({board.terrain[h]}) is impassable", "ccr:base.terrain"
    opts = escape_options(bs, ld)
    if opts and opts[0] in bs.at:
        return f"{h} holds no friendly unit; a leader who can reach one within 3 hexes must join it", RULE
    return f"{ld.name} cannot escape to {h}", RULE


def escape(ctx: Context, bs: BattleState, ld: Leader) -> None:
    """A leader left alone evades 1-3 hexes back toward his own side (ccr:base.leaders).

    With one way out he takes it at once, with none he is captured; with a choice the
    escape waits in ``bs.escapes`` for :func:`resolve_escapes` to ask his side.
    """
    opts = escape_options(bs, ld)
    if not opts:
        kill_leader(ctx, bs, ld, "captured")
    elif len(opts) == 1:
        _escape_to(ctx, bs, ld, opts[0])
    elif ld.lid not in bs.escapes:
        bs.escapes.append(ld.lid)


def _escape_to(ctx: Context, bs: BattleState, ld: Leader, dest: str) -> None:
    if dest == OFF:
        bs.leaders.remove(ld)
        ctx.event("leader", f"{ld.name} evades off your side of the battlefield from {ld.hex}: no banner for the enemy",
                  rules=(RULE,), side=ld.side)
        return
    old, ld.hex = ld.hex, dest
    with_unit = f" to the {bs.at[dest].code}" if dest in bs.at else ""
    ctx.event("leader", f"{ld.name} evades from {old} to {dest}{with_unit}", rules=(RULE,), side=ld.side)
    marsh_check_leader(ctx, bs, ld)


def resolve_escapes(ctx: Context, bs: BattleState) -> Generator[Decision, str, None]:
    """Ask the owner where each leader waiting to escape goes (ccr:base.leaders)."""
    while bs.escapes:
        lid = bs.escapes.pop(0)
        ld = next((x for x in bs.leaders if x.lid == lid), None)
        if ld is None or bs.over:
            continue
        opts = escape_options(bs, ld)
        if not opts:
            kill_leader(ctx, bs, ld, "captured")
            continue
        labels = [(h, "leave the battlefield by your own edge (no banner)" if h == OFF else
                   f"join the {bs.types[bs.at[h].code].name}" if h in bs.at else "free hex") for h in opts]
        dest = yield from ask(ld.side, f"Your {_own_leader(ld)} is left alone at {ld.hex}: escape to which hex?",
                              labels, RULE,
                              Kind.LEADER_ESCAPE, lambda text, _ld=ld: why_not_escape(bs, _ld, text),
                              highlight=[h for h in opts if h != OFF])
        _escape_to(ctx, bs, ld, dest)
