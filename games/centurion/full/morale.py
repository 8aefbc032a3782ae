"""Morale: demoralization, panic, running for the edge, rallying, treachery.

Rules served:

* ``cen:full.demoralization``: an army is demoralized for one complete turn
  (half Melee Combat Factor; dispersals last two turns) when a Barbarian
  Command unit fails to join an attack in a turn its forces attack, when 80
  per cent or more of its attacks in a turn fail, when 20 per cent or more of
  its force (in points) is destroyed in one turn, or when all its Command
  units are dispersed in one turn.
* ``cen:full.panic`` A-J: once an army's losses reach its panic threshold
  (scenario PT, 20 less for every turn in which it lost 20 or more points, H),
  panic strikes at the start of its next turn, once per game (C): units within
  ten hexes of the enemy and not stacked with a Command unit panic (A, D);
  panicked units run straight for the nearest board edge free of the enemy
  (avoiding hexes next to the enemy where they can), cannot attack, and have
  half their MDF and FCF (B); dispersed troops must run too (F); Command units
  never panic (G). Command units and stout-hearted units (and rallied ones)
  may each try to rally one panicked stack in their hex or adjacent to the
  panicked unit's front at the start of each turn: 3-6 rallies (E; the book gives the number
  for Command units, we use it for every rallier, L).
* ``cen:full.treachery`` A-I (single-commander form, B): once a game, after the
  first turn, at the start of a side's turn, one die per hex of its troops
  (Command units excepted; Roman Swordsmen only in Civil Wars, I): 1-3 loyal,
  4-5 leave the field by the most direct route (points lost unless destroyed
  first), 6 defect to the enemy (points lost to the old owner). Treacherous
  troops are never rallied (G). Turncoats serving the enemy are rolled for
  when treachery is invoked against the side they now serve; a defection
  result sends them back to their original side, which regains their points
  (H; our reading, L: the book gives no other procedure for re-defection).

Running uses the terrain costs of the engine's movement cost table; a unit
on the chosen edge with Movement Factors to spare leaves the field (lost,
cen:full.movement I).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from ancients_kit.hexgrid import Hex, direction_to, is_frontal

from ancients_games.centurion.full.book import FullBook, book, log_event
from ancients_games.centurion.full.movement_hooks import move_hooks
from ancients_games.centurion.full.options import is_roman
from ancients_games.centurion.full.square import drop_out_of_square
from ancients_games.centurion.full.units import is_command
from ancients_games.centurion.movement_rules import cost_table, stack_room

if TYPE_CHECKING:
    from ancients_kit.protocol import Context

    from ancients_games.centurion.state import CenturionState, Unit

__all__ = [
    "PANIC_DISTANCE",
    "RALLY_ROLLS",
    "FullBook",
    "book",
    "check_panic",
    "demoralize",
    "end_of_player_turn_morale",
    "flee_step_path",
    "rally",
    "run_for_the_edge",
    "start_panic",
    "threshold_drop",
    "treachery",
]

PANIC_DISTANCE = 10
"""Units within this many hexes of the enemy panic (cen:full.panic A, D)."""
RALLY_ROLLS = frozenset({3, 4, 5, 6})
"""Die rolls that rally panicked troops (cen:full.panic E)."""
THRESHOLD_DROP = 20
"""Points lost in one turn that lower the panic threshold by the same (cen:full.panic H)."""


# ------------------------------------------------------------------ demoralization


def demoralize(ctx: Context, state: CenturionState, side: str, why: str) -> None:
    """Demoralize ``side``'s army for one complete turn (cen:full.demoralization)."""
    for u in state.live_units(side):
        u.demoralized = 2
    log_event(ctx, state, "morale", f"{state.side_names.get(side, side)} demoralized: {why}", ("cen:full.demoralization",),
         side=side)


def end_of_player_turn_morale(ctx: Context, state: CenturionState, side: str, barbarian: dict[str, bool]) -> None:
    """Demoralization checks at the end of ``side``'s Player-Turn, and the
    count-down of demoralization (cen:full.demoralization)."""
    b = book(state)
    for s in state.sides:
        for u in state.live_units(s):
            if u.demoralized:
                u.demoralized -= 1
    if b.attacks:
        if b.failed * 5 >= b.attacks * 4:
            demoralize(ctx, state, side, f"{b.failed} of {b.attacks} attacks failed (80 per cent or more)")
        if barbarian.get(side):
            # "A Barbarian COMMAND UNIT fails to participate in an attack during a turn when its
            # forces are engaged". Without the Command Unit Rules a Command unit melees only
            # dispersed units and enemy Command units (cen:full.combat), so a chief fails only when
            # he could have joined one of the turn's melee attacks (cmd_able; our reading).
            idle = [u for u in state.live_units(side) if is_command(state, u) and u.id not in b.cmd_attacked
                    and not u.dispersed and (b.cmd_able is None or u.id in b.cmd_able)]
            if idle:
                demoralize(ctx, state, side, f"Barbarian Command unit {idle[0].id} took no part in the attacks")
    for s in state.sides:
        start = state.start_points.get(s, 0)
        lost = state.turn_lost_points.get(s, 0)
        if start and lost * 5 >= start and lost > 0 and not b.cmd_dispersed.get(f"big:{s}:{state.turn}"):
            b.cmd_dispersed[f"big:{s}:{state.turn}"] = True
            demoralize(ctx, state, s, f"lost {lost} of {start} points this turn (20 per cent or more)")
        cmds = [u for u in state.live_units(s) if is_command(state, u)]
        key = f"cmd:{s}:{state.turn}"
        if cmds and all(u.dispersed for u in cmds) and b.cmd_dispersed.get(s) and not b.cmd_dispersed.get(key):
            b.cmd_dispersed[key] = True
            demoralize(ctx, state, s, "all its Command units are dispersed")
    b.attacks = 0
    b.failed = 0
    b.cmd_attacked.clear()
    b.cmd_able = None


# ------------------------------------------------------------------ panic


def threshold_drop(ctx: Context, state: CenturionState) -> None:
    """End of a Game-Turn: a loss of 20 or more points lowers the panic threshold by 20 (cen:full.panic H)."""
    b = book(state)
    for s in state.sides:
        lost = state.turn_lost_points.get(s, 0)
        if lost >= THRESHOLD_DROP and not b.panic_used.get(s):
            b.threshold[s] = b.threshold.get(s, 0) - THRESHOLD_DROP
            log_event(ctx, state, "morale", f"{s} lost {lost} points this turn: panic threshold falls to {b.threshold[s]}",
                 ("cen:full.panic",), side=s)


def check_panic(ctx: Context, state: CenturionState) -> None:
    """Mark panic to come for any side whose losses reached its threshold (cen:full.panic)."""
    b = book(state)
    for s in state.sides:
        if b.panic_used.get(s) or b.panic_pending.get(s):
            continue
        if state.lost_points.get(s, 0) >= b.threshold.get(s, 10**9):
            b.panic_pending[s] = True
            log_event(ctx, state, "morale",
                 f"{s} has lost {state.lost_points.get(s, 0)} points, its panic threshold is {b.threshold[s]}: "
                 f"panic at the start of its next turn", ("cen:full.panic",), side=s)


def _enemy_distance(state: CenturionState, h: Hex, side: str) -> int:
    best = 10**6
    for e in state.live_units(state.opponent(side)):
        if e.hex is not None:
            d = h.distance(e.hex)
            if d < best:
                best = d
    return best


def start_panic(ctx: Context, state: CenturionState, side: str, group: str = "") -> list[Unit]:
    """Panic strikes ``side`` (cen:full.panic A, C, D, F, G): returns the panicked units.

    ``group``: only that tribe panics (its chief lost, cen:opt.command F with
    cen:barb.tribe); this does not use up the army's one panic.
    """
    b = book(state)
    if not group:
        b.panic_pending[side] = False
        b.panic_used[side] = True
    out = []
    for u in list(state.live_units(side)):
        if group and u.group != group:
            continue
        if is_command(state, u):
            if u.dispersed:
                u.dispersed += 1  # F: dispersed Command units stay so one more turn
            continue
        h = u.hex
        assert h is not None
        with_cmd = any(is_command(state, o) for o in state.stack_at(h) if o.side == side)
        if with_cmd or _enemy_distance(state, h, side) > PANIC_DISTANCE:
            continue  # stout-hearted (D)
        u.panicked = True
        out.append(u)
    drop_out_of_square(state, out)  # panicked units run one by one (A)
    log_event(ctx, state, "morale", f"PANIC in the army of {state.side_names.get(side, side)}: {len(out)} units break",
         ("cen:full.panic",), side=side, units=[u.id for u in out])
    return out


def _edges(state: CenturionState) -> dict[str, set[Hex]]:
    num = state.numbering
    out: dict[str, set[Hex]] = {"W": set(), "E": set(), "N": set(), "S": set()}
    c0, r0 = num.first_column, num.first_row
    c1, r1 = c0 + num.columns - 1, r0 + num.rows - 1
    for h in num.hexes():
        c, r = num.to_offset(h)
        if c == c0:
            out["W"].add(h)
        if c == c1:
            out["E"].add(h)
        if r == r0:
            out["N"].add(h)
        if r == r1:
            out["S"].add(h)
    return out


def _edge_distance(state: CenturionState, h: Hex, edge: str) -> int:
    num = state.numbering
    c, r = num.to_offset(h)
    if edge == "W":
        return c - num.first_column
    if edge == "E":
        return num.first_column + num.columns - 1 - c
    if edge == "N":
        return r - num.first_row
    return num.first_row + num.rows - 1 - r


def flee_step_path(state: CenturionState, u: Unit) -> tuple[list[Hex], bool]:
    """The path a panicked or deserting unit runs this turn, and whether it leaves the field.

    cen:full.panic A, B: toward the nearest board edge free of enemy troops,
    by the straightest route; hexes next to the enemy avoided if at all possible;
    never into enemy units or over-full stacks.
    """
    assert u.hex is not None
    edges = _edges(state)
    enemy = state.opponent(u.side)
    enemy_hexes = set(state.occupied_by(enemy))
    free = [e for e, hs in edges.items() if not (hs & enemy_hexes)] or list(edges)
    edge = min(free, key=lambda e: (_edge_distance(state, u.hex, e), e))
    ct = cost_table(state)
    t = state.types[u.type]
    kind = str(t.kind)
    budget = t.movement * ct.scale
    if book(state).weather in ("heavy-rain", "mud"):
        budget -= 2 * ct.scale
    near_enemy: set[Hex] = set()
    for eh in enemy_hexes:
        near_enemy.update(eh.neighbors())
    path = [u.hex]
    h = u.hex
    spent = 0
    while spent < budget:
        if h in edges[edge]:
            return path, True
        best = None
        here = _edge_distance(state, h, edge)
        # The movement search's own steps (cen:full.movement, Terrain Effects Chart): the entry
        # cost plus the hexside's (river, ford; None: closed), or the road rate, plus any exit cost.
        out_cost = ct.exit_marker.get(h, 0)
        for n, step, _road in ct.edges[kind].get(h, ()):
            if n in enemy_hexes or n in path:
                continue
            c = step + out_cost
            if spent + c > budget or not stack_room(state, u, n):
                continue
            d = _edge_distance(state, n, edge)
            if d >= here and not (d == here and n not in near_enemy and h in near_enemy):
                continue
            key = (n in near_enemy, d, c, n)
            if best is None or key < best[0]:
                best = (key, n, c)
        if best is None:
            break
        _, h, c = best
        spent += c
        path.append(h)
    return path, False


def run_for_the_edge(ctx: Context, state: CenturionState, side: str) -> None:
    """Move every panicked (and deserting) unit of ``side`` toward the edge (cen:full.panic A, F;
    cen:full.treachery D)."""
    for u in list(state.live_units(side)):
        if not (u.panicked or u.treachery == "leaving") or u.hex is None:
            continue
        if u.contact:
            u.contact.clear()
        path, leaves = flee_step_path(state, u)
        rules = ("cen:full.treachery",) if u.treachery == "leaving" else ("cen:full.panic",)
        if path[-1] != u.hex:
            frm = u.hex
            state.move(u, path[-1])
            u.facing = _direction_of(path)
            log_event(ctx, state, "move", f"{u.id} runs {state.hid(frm)} -> {state.hid(u.hex)}", rules, side=side,
                 unit=u.id, path=[state.hid(h) for h in path])
        u.moved = True
        if leaves:
            log_event(ctx, state, "loss", f"{u.id} leaves the field at {state.hid(u.hex)} and is lost",
                 (*rules, "cen:full.movement"), side=side, unit=u.id)
            state.remove(u, left_field=True)


def _direction_of(path: list[Hex]) -> int:
    if len(path) < 2:
        return 0
    return direction_to(path[-2], path[-1])


def rally(ctx: Context, state: CenturionState, side: str) -> None:
    """Rally attempts at the start of ``side``'s turn (cen:full.panic E, G; cen:full.treachery G).

    Each Command unit and each stout-hearted (or rallied) unit tries once, on a
    panicked stack in its hex or one it stands adjacent to the front of; 3-6
    rallies the stack.

    "They must intercept the panicked units by placing themselves in the same hex
    or adjacent to its front": "its" is the panicked unit's (the ralliers are
    "they"), and to intercept running troops is to stand in their way, ahead of
    them (our reading; see the rulings page). A rallier's own facing does not matter.

    "The Supreme COMMAND UNIT and the appropriate sub-ordinate COMMAND UNITS may rally": a
    subordinate Command unit that heads a command of its own (a legion or tribe, multiple
    commanders) rallies only a stack of its own command's troops; the Supreme Command unit and
    stout-hearted troops rally any (our reading; see the rulings page).
    """
    panicked = {u.hex for u in state.live_units(side) if u.panicked and u.treachery == ""}
    if not panicked:
        return
    tried: set[Hex] = set()
    for r in list(state.live_units(side)):
        if r.panicked or r.treachery or r.hex is None or r.dispersed:
            continue
        rh = r.hex
        ahead = sorted((p.hex for p in state.live_units(side)
                        if p.panicked and p.treachery == "" and p.hex is not None and p.hex.distance(rh) == 1
                        and is_frontal(p.hex, p.facing, rh)), key=lambda h: state.hid(h))
        targets = [rh, *dict.fromkeys(ahead)]
        if is_command(state, r) and not r.supreme and r.group:  # the "appropriate" subordinate only
            targets = [h for h in targets if all(u.group == r.group for u in state.stack_at(h)
                                                 if u.side == side and u.panicked and not u.treachery)]
        target = next((h for h in targets if h in panicked and h not in tried), None)
        if target is None:
            continue
        tried.add(target)
        roll = ctx.chance.d6(f"{r.id} tries to rally the panicked stack at {state.hid(target)}", ("cen:full.panic",))
        stack = [u for u in state.stack_at(target) if u.side == side and u.panicked and not u.treachery]
        if roll in RALLY_ROLLS:
            for u in stack:
                u.panicked = False
                u.rallied = True
            panicked.discard(target)
            log_event(ctx, state, "morale", f"{r.id} rallies {', '.join(u.id for u in stack)} (roll {roll})",
                 ("cen:full.panic",), side=side, dice=(roll,))
        else:
            log_event(ctx, state, "morale", f"{r.id} fails to rally the stack at {state.hid(target)} (roll {roll})",
                 ("cen:full.panic",), side=side, dice=(roll,))
        if not panicked:
            return


# ------------------------------------------------------------------ treachery


def is_turncoat(u: Unit) -> bool:
    """A unit fighting for the enemy after defecting (cen:full.treachery E), which may re-defect (H)."""
    return u.treachery == "defected" and bool(u.original_side) and u.original_side != u.side


ROMAN_ALLIED_LIABLE = frozenset({"BI", "LC", "SP", "PK"})
"""Troops of a Roman army liable to treachery outside Civil Wars (cen:full.treachery I)."""


def _may_betray(state: CenturionState, u: Unit, civil_war: bool) -> bool:
    """cen:full.treachery I: a Roman army's troops only in Civil Wars, bar its Barbarian Infantry,
    Light Cavalry and Spearmen; Command units never (B).

    Turncoats are troops of the side they now serve: when treachery is invoked
    against that side they are rolled for too, and a defection sends them back
    to their original side (H, re-defection; our reading, L)."""
    if is_command(state, u):
        return False
    if is_turncoat(u):
        return True
    if u.treachery:
        return False
    if civil_war:
        return True
    if is_roman(state, u.original_side):
        # I: Roman troops are not affected, "However, Barbarian Infantry, Light Cavalry, and
        # Spearmen with the Roman Swordsmen may be affected" (Pikemen are retyped Spearmen).
        return u.type in ROMAN_ALLIED_LIABLE
    return True


def command_groups(state: CenturionState, side: str) -> list[str]:
    """Keys of the subordinate commands of ``side`` (multi-commander games, cen:full.treachery F)."""
    return sorted({u.group for u in state.live_units(side) if is_command(state, u) and not u.supreme and u.group})


def _leave_the_field(state: CenturionState, troops: list[Unit]) -> None:
    """Traitors that must leave the field (cen:full.treachery): out of panic, contact and square."""
    for u in troops:
        u.treachery = "leaving"
        u.panicked = False
        u.contact.clear()
    drop_out_of_square(state, troops)


def treachery_of_command(ctx: Context, state: CenturionState, side: str, group: str, civil_war: bool) -> None:
    """cen:full.treachery F (and cen:opt.command G): one die for a whole command;
    1-3 loyal, 4 leave the field, 5 or 6 defect."""
    troops = [u for u in state.live_units(side) if u.group == group and u.original_side == side
              and _may_betray(state, u, civil_war)]
    if not troops:
        return
    roll = ctx.chance.d6(f"treachery of command {group}", ("cen:full.treachery",))
    ids = ", ".join(u.id for u in troops)
    if roll <= 3:
        log_event(ctx, state, "morale", f"command {group} stays loyal (roll {roll})", ("cen:full.treachery",), side=side,
             dice=(roll,))
    elif roll == 4:
        _leave_the_field(state, troops)
        log_event(ctx, state, "morale", f"command {group} ({ids}) turns traitor and leaves the field (roll {roll})",
             ("cen:full.treachery",), side=side, dice=(roll,))
    else:
        by_hex: dict[Hex, list[Unit]] = {}
        for u in troops:
            assert u.hex is not None
            by_hex.setdefault(u.hex, []).append(u)
        for h in sorted(by_hex):
            defect(ctx, state, by_hex[h], state.opponent(side), roll)


def treachery(ctx: Context, state: CenturionState, side: str, civil_war: bool, multi: bool = False) -> None:
    """Roll for treachery against ``side`` (cen:full.treachery B-F, I).

    ``multi``: a multi-commander game (F): each subordinate command rolls once
    for all its troops; the ranking command's troops are rolled for by hex (B).
    """
    b = book(state)
    b.treachery_used[side] = True
    enemy = state.opponent(side)
    groups = command_groups(state, side) if multi else []
    for g in groups:
        treachery_of_command(ctx, state, side, g, civil_war)
    for h in sorted(set(state.occupied_by(side))):
        troops = [
            u for u in state.stack_at(h)
            if u.side == side and _may_betray(state, u, civil_war)
            and (u.group not in groups or is_turncoat(u))  # turncoats answer to no command of this side
        ]
        if not troops:
            continue
        roll = ctx.chance.d6(f"treachery at {state.hid(h)}", ("cen:full.treachery",))
        ids = ", ".join(u.id for u in troops)
        if roll <= 3:
            log_event(ctx, state, "morale", f"{ids} at {state.hid(h)} stay loyal (roll {roll})", ("cen:full.treachery",),
                 side=side, dice=(roll,))
        elif roll <= 5:
            _leave_the_field(state, troops)
            log_event(ctx, state, "morale", f"{ids} at {state.hid(h)} turn traitor and leave the field (roll {roll})",
                 ("cen:full.treachery",), side=side, dice=(roll,))
        else:
            defect(ctx, state, troops, enemy, roll)


def _nearest_room(state: CenturionState, u: Unit, h: Hex, side: str) -> Hex | None:
    """The nearest hex to ``h`` (rings outward, hex ID order within a ring) that ``side`` may
    share and that has stacking room for ``u`` (cen:full.stacking)."""
    hooks = move_hooks(state)
    seen = {h}
    ring = [h]
    while ring:
        nxt: list[Hex] = []
        for x in ring:
            for n in state.neighbors(x):
                if n not in seen:
                    seen.add(n)
                    nxt.append(n)
        for n in sorted(nxt, key=state.hid):
            if state.side_at(n) in (None, side) and stack_room(state, u, n, hooks):
                return n
        ring = nxt
    return None


def defect(ctx: Context, state: CenturionState, troops: list[Unit], enemy: str, roll: int) -> None:
    """Troops defect (cen:full.treachery E): they change sides; the old owner
    counts them as points lost. If loyal units share the hex, the defectors
    stay where they are only if the hex is theirs alone."""
    side = troops[0].side
    h = troops[0].hex
    assert h is not None
    loyal_left = [u for u in state.stack_at(h) if u.side == side and u not in troops]
    back = [u for u in troops if u.original_side == enemy]
    drop_out_of_square(state, [*troops, *loyal_left])  # the hex's square is no more
    for u in troops:
        pts = state.types[u.type].points
        if u.original_side == enemy:
            # H: re-defection to the original side, "counted as points regained"
            # by it; the side they leave never counted them (L).
            state.lost_points[enemy] = state.lost_points.get(enemy, 0) - pts
        else:
            state.lost_points[side] = state.lost_points.get(side, 0) + pts
            state.turn_lost_points[side] = state.turn_lost_points.get(side, 0) + pts
        for o in state.units.values():
            o.contact.discard(u.id)
        u.contact.clear()
        u.side = enemy
        u.treachery = "returned" if u.original_side == enemy else "defected"
        u.panicked = False
        u.demoralized = 0
    state.rev += 1  # sides changed: the movement hooks' caches key on it
    if loyal_left:
        # Two armies cannot share a hex: the loyal units step aside to the nearest
        # friendly or empty hex with stacking room (cen:full.stacking A, C; no rule covers
        # the step, the least change, L). They are never removed: no rule makes it a loss.
        for u in loyal_left:
            dest = _nearest_room(state, u, h, side)
            if dest is not None:
                state.move(u, dest)
    state._zoc_cache.clear()
    state.rev += 1
    gone = [u for u in troops if u not in back]
    if gone:
        log_event(ctx, state, "morale",
             f"{', '.join(u.id for u in gone)} at {state.hid(h)} defect to {enemy} (roll {roll})",
             ("cen:full.treachery",), side=side, dice=(roll,))
    if back:
        pts = sum(state.types[u.type].points for u in back)
        log_event(ctx, state, "morale",
             f"{', '.join(u.id for u in back)} at {state.hid(h)} re-defect to their original side {enemy} "
             f"(roll {roll}): {pts} points regained by {enemy}", ("cen:full.treachery",), side=side, dice=(roll,),
             units=[u.id for u in back])


def fraction_half(x: int) -> Fraction:
    """Half of ``x`` as an exact fraction."""
    return Fraction(x, 2)
