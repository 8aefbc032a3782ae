"""Centurion's Movement Phase: the staged decisions "choose a unit or done" ->
"choose a destination" (-> "choose a facing" in the Full Simulation), and the
refusals that name their rule.

The search is :mod:`ancients_games.centurion.reach` (on the core's least-cost
engine); costs, stacking and the Full Simulation's hooks are
:mod:`ancients_games.centurion.movement_rules`. Rules this module serves:

- ``cen:basic.movement`` B: movement is voluntary (``done`` is always
  offered); I: each unit moves once; C: units move individually, a stack move
  being a convenience where each unit makes the move it could make alone;
- ``cen:basic.zoc`` B: a unit already adjacent to an enemy that controls its
  hex may not move at all; ``cen:full.contact``: units in contact may not
  break off; dispersed units do not move (:func:`movable_reason`);
- ``cen:basic.stacking`` / ``cen:full.stacking``: a stack's units must all
  fit where they end;
- ``cen:full.facing``: the final facing, chosen among those the search
  reached (E, F, G);
- ``cen:full.square`` D (through :attr:`MoveHooks.moves_with`): a square
  moves only whole, offered as one stack.

Refusals name their rule: a destination out of reach states the Movement
Factors it would need (the same search run with a larger allowance,
:func:`~ancients_games.centurion.reach.reachable_within`) against those the
unit has; a facing it may not end with names the turn rule
(``cen:full.facing`` E, F, G) and the Movement Factors again.
"""

from __future__ import annotations

from collections.abc import Generator, Hashable
from fractions import Fraction
from typing import Any

from ancients_kit.errors import IllegalAnswer
from ancients_kit.hexgrid import Hex
from ancients_kit.protocol import Context, Decision, Option

from ancients_games.centurion.movement_rules import MoveHooks, stack_limit, stack_room
from ancients_games.centurion.reach import Reach, reachable, reachable_within
from ancients_games.centurion.state import SHARED_EXTRA, CenturionState, Unit, log
from ancients_games.centurion.vocab import Kind

__all__ = [
    "LAST_REACH",
    "MOVING_GROUP",
    "movable_reason",
    "movement_phase",
]

DONE = "done"
LAST_REACH = "move_last_reach"
"""``state.extra`` key: (unit id, ``state.rev``, facing, :class:`Reach`) of the
last single unit chosen in a Movement Phase, taken before it moved, so an
``after_move`` hook that needs the same search again (the Full Simulation's
charge measure, cen:full.cavalry) can reuse it when nothing else has changed."""
SHARED_EXTRA.add(LAST_REACH)  # never changed once stored: state copies share it


def movable_reason(state: CenturionState, unit: Unit, hooks: MoveHooks | None = None) -> tuple[str, str] | None:
    """Why ``unit`` may not move now, as (reason, rule ID), or None if it may."""
    if unit.eliminated or unit.hex is None:
        return f"{unit.id} is no longer on the map", "cen:basic.movement"
    if unit.side != state.active:
        return f"{unit.id} belongs to {unit.side}; no enemy movement in a Movement Phase", "cen:basic.movement"
    if unit.moved:
        rule = "cen:basic.movement" if state.version == "basic" else "cen:full.movement"
        return f"{unit.id} has already moved this phase (case I: a unit moves once)", rule
    if unit.dispersed:
        rule = "cen:basic.combat" if state.version == "basic" else "cen:full.relief"
        return f"{unit.id} at {state.hid(unit.hex)} is dispersed and may not move", rule
    if state.version == "basic":
        if unit.hex in state.zoc_hexes(state.opponent(unit.side)):
            return (
                f"{unit.id} at {state.hid(unit.hex)} is adjacent to the enemy and locked in its Zone of Control (case B)",
                "cen:basic.zoc",
            )
    else:
        if unit.contact:
            return f"{unit.id} at {state.hid(unit.hex)} is in contact with the enemy and may not break off (case K)", "cen:full.contact"
    if hooks is not None and hooks.movable is not None:
        return hooks.movable(state, unit)
    return None


# ------------------------------------------------------------------ the phase


_MF_TEXT: dict[tuple[int, int], str] = {}


def _fmt_mf(ticks: int, scale: int) -> str:
    got = _MF_TEXT.get((ticks, scale))
    if got is None:
        f = Fraction(ticks, scale)
        got = str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"
        _MF_TEXT[(ticks, scale)] = got
    return got


_HEX_OPTIONS: dict[int, tuple[Any, dict[Hex, int], dict[tuple[Hex, int, int], Option]]] = {}
"""Per map: (map, hex -> rank in hex-ID order, (hex, ticks, scale) -> destination
option). Options are immutable, so sessions on the same map share them."""


def _hex_options(state: CenturionState, dest_cost: dict[Hex, int], scale: int) -> list[Option]:
    """Destination options in hex-ID order, labelled with their cost in MF."""
    m = state.map
    got = _HEX_OPTIONS.get(id(m))
    if got is None or got[0] is not m:
        ids = state._ids()
        if len(_HEX_OPTIONS) > 16:
            _HEX_OPTIONS.clear()
        got = _HEX_OPTIONS[id(m)] = (m, {h: k for k, h in enumerate(sorted(ids, key=ids.__getitem__))}, {})
    rank, made = got[1], got[2]
    out = []
    for h in sorted(dest_cost, key=rank.__getitem__):
        c = dest_cost[h]
        o = made.get((h, c, scale))
        if o is None:
            o = made[(h, c, scale)] = Option(state.hid(h), _fmt_mf(c, scale) + " MF", h)
        out.append(o)
    return out


def _group_room(state: CenturionState, group: list[Unit], h: Hex, hooks: MoveHooks | None) -> bool:
    """True if every unit of ``group`` fits on ``h`` together (stacking)."""
    counting = [u for u in group if state.types[u.type].counts_for_stacking]
    if not counting:
        return True
    n = state.stacking_count(h, group[0].side)
    lim_fn = hooks.stack_limit if hooks is not None and hooks.stack_limit is not None else stack_limit
    lim = min(lim_fn(state, u, h) for u in counting)
    return n + len(counting) <= lim


MOVING_GROUP = "moving_group"
"""``state.extra`` key: ids of the units making the current move together (a stack or a
square), set before the first of them moves, for the ``after_move`` hook."""


def _bound_units(state: CenturionState, movable: list[Unit],
                 hooks: MoveHooks | None) -> dict[str, tuple[frozenset[str], str, str]]:
    """Movable unit id -> (the units it moves only together with, reason, rule ID):
    :attr:`MoveHooks.moves_with` for each unit that is tied to others."""
    if hooks is None or hooks.moves_with is None:
        return {}
    out = {}
    for u in movable:
        got = hooks.moves_with(state, u)
        if got is not None and len(got[0]) > 1:
            out[u.id] = got
    return out


def _moved_count(state: CenturionState, side: str) -> int:
    """How many of ``side``'s units have moved this phase (the checkpoint rule of
    :func:`movement_phase` with ``every``)."""
    return sum(1 for u in state.live_units(side) if u.moved)


def movement_phase(
    ctx: Context, state: CenturionState, side: str, hooks: MoveHooks | None = None,
    checkpoint: Hashable | None = None, every: int = 1,
) -> Generator[Decision, str, None]:
    """The staged Movement Phase of ``side``: choose a unit, or a hex to move
    its whole stack (or ``done``), then the destination (then, in the Full
    Simulation, the final facing).

    With ``checkpoint``, each choice of a unit is a session checkpoint of that
    name (``ctx.checkpoint``): what has moved is on the units, so the phase can
    be resumed there by calling it again. With ``every`` above 1, only the choices
    made while the number of ``side``'s units already moved is a multiple of
    ``every`` are checkpoints (a state copy, and the collector's walks over the copies
    a game keeps, cost more than replaying the few answers of a move or two); the
    count is read from the state, so a game resumed there checkpoints alike.

    cen:basic.movement B: movement is voluntary, so ``done`` is always offered.
    A stack move is a convenience: each unit makes the same move it could make
    alone (case C: units move individually), and all must fit where they end.
    Units that :attr:`MoveHooks.moves_with` ties together (a square, the
    exception of cen:full.movement C) are offered only as that one stack.
    """
    full = state.version != "basic"
    rule = "cen:full.movement" if full else "cen:basic.movement"
    stack_rule = "cen:full.stacking" if full else "cen:basic.stacking"
    state.phase = "movement"
    while True:
        if checkpoint is not None and (every == 1 or _moved_count(state, side) % every == 0):
            ctx.checkpoint(checkpoint)
        movable: list[Unit] = []
        for u in state.live_units(side):
            if not u.moved and movable_reason(state, u, hooks) is None:
                movable.append(u)
        if not movable:
            return
        opts = [Option(DONE, "end the Movement Phase")]
        by_hex: dict[Hex, list[Unit]] = {}
        for u in movable:
            by_hex.setdefault(u.hex, []).append(u)  # type: ignore[arg-type]
        ids = state._ids()
        bound = _bound_units(state, movable, hooks)
        for h, group in sorted(by_hex.items(), key=lambda kv: ids[kv[0]]):
            tied = [u for u in group if u.id in bound]
            if tied:
                need, _, _ = bound[tied[0].id]
                if need <= {u.id for u in group}:
                    together = [u for u in group if u.id in need]
                    opts.append(Option(ids[h], f"the stack: {', '.join(u.id for u in together)} (moving as one)",
                                       together))
                continue  # the others there move one by one
            if len(group) > 1:
                opts.append(Option(ids[h], f"the stack: {', '.join(u.id for u in group)}", group))
        for u in movable:
            if u.id not in bound:
                opts.append(Option(u.id, state.describe(u, with_id=False), [u]))

        def refuse_unit(text: str, _state: CenturionState = state) -> tuple[str, str] | None:
            u = _state.units.get(text.strip().upper()) or _state.units.get(text.strip())
            if u is None:
                try:
                    h = _state.hex_of(text.strip())
                except ValueError:
                    return f"{text!r} is neither one of your units nor a hex ID; answer a unit, a hex or done", rule
                here = [x for x in _state.stack_at(h) if x.side == side]
                if not here:
                    return f"no unit of {side} at {text}", rule
                tied = next((bound[x.id] for x in here if x.id in bound), None)
                if tied is not None:
                    done = sorted(i for i in tied[0] if _state.units[i].moved)
                    return f"{tied[1]}, and {', '.join(done)} has made its move this phase", tied[2]
                why = [movable_reason(_state, x, hooks) for x in here]
                return next((w for w in why if w is not None),
                            (f"only one unit at {text} may move: choose it by name", rule))
            why = movable_reason(_state, u, hooks)
            if why is None and u.side != side:
                why = (f"{u.id} is not yours", rule)
            if why is None and u.id in bound:
                why = bound[u.id][1] + f": answer its hex {ids[u.hex]}", bound[u.id][2]  # type: ignore[index]
            return why

        key = yield Decision(
            side,
            f"Movement Phase, turn {state.turn}: choose a unit (or a hex: its stack) to move, or done",
            tuple(opts),
            rule=rule,
            kind=Kind.MOVE_UNIT,
            refuse=refuse_unit,
            context={"highlight": sorted({ids[u.hex] for u in movable if u.hex is not None})},
        )
        if key == DONE:
            return
        group = list(next(o.data for o in opts if o.key == key))
        lead = group[0]
        who = lead.id if len(group) == 1 else f"the stack at {ids[lead.hex]}"  # type: ignore[index]
        reaches = [reachable(state, u, hooks) for u in group]
        if len(group) == 1:  # see LAST_REACH
            state.extra[LAST_REACH] = (lead.id, state.rev, lead.facing, reaches[0])
        if len(group) == 1:
            dest_cost = dict(reaches[0].cost)
        else:
            common = set(reaches[0].cost).intersection(*(r.cost for r in reaches[1:]))
            dest_cost = {
                h: max(r.cost[h] for r in reaches) for h in common if _group_room(state, group, h, hooks)
            }
        if hooks is not None and hooks.destination_check is not None:
            checks = [c for c in (hooks.destination_check(state, u) for u in group) if c is not None]
            if checks:
                dest_cost = {h: c for h, c in dest_cost.items() if all(ck(h) is None for ck in checks)}
        elif hooks is not None and hooks.refuse_destination is not None:
            rd = hooks.refuse_destination
            dest_cost = {h: c for h, c in dest_cost.items() if all(rd(state, u, h) is None for u in group)}
        scale = reaches[0].scale
        if not dest_cost:
            for u in group:
                u.moved = True
            log(ctx, state, "move", f"{who} at {ids[lead.hex]} has nowhere to go and stays", rule,  # type: ignore[index]
                private_to=side, public_text=f"{side}: the stack at {ids[lead.hex]} stays")  # type: ignore[index]
            continue
        hopts = [Option("stay", f"leave {who} where it is (counts as its move)"),
                 Option("back", "choose another unit instead")]
        hopts.extend(_hex_options(state, dest_cost, scale))

        def refuse_hex(text: str, _g: list[Unit] = group, _r: Reach = reaches[0]) -> tuple[str, str] | None:
            if hooks is not None and hooks.refuse_destination is not None:
                try:
                    hd = state.hex_of(text.strip())
                except ValueError:
                    hd = None
                if hd is not None:
                    for u in _g:
                        why = hooks.refuse_destination(state, u, hd)
                        if why is not None:
                            return why
            if len(_g) > 1:
                try:
                    h = state.hex_of(text.strip())
                except ValueError:
                    h = None
                if h is not None and state.side_at(h) == side and not _group_room(state, _g, h, hooks):
                    return f"{text.strip()} has no room for all {len(_g)} units of the stack", stack_rule
                for u, r in zip(_g, reaches):
                    if h is not None and h not in r.cost:
                        return _why_not_reachable(state, u, r, text.strip(), hooks)
            return _why_not_reachable(state, _g[0], _r, text.strip(), hooks)

        dest_key = yield Decision(
            side,
            f"Move {state.describe(lead) if len(group) == 1 else who}: choose a destination hex",
            tuple(hopts),
            rule=rule,
            kind=Kind.MOVE_HEX,
            refuse=refuse_hex,
            context={"highlight": [o.key for o in hopts[2:]], "unit": lead.id, "units": [u.id for u in group]},
        )
        if dest_key == "back":
            continue
        for u in group:
            u.moved = True
        if dest_key == "stay":
            log(ctx, state, "move", f"{who} stays at {ids[lead.hex]}", rule,  # type: ignore[index]
                units=[u.id for u in group], private_to=side,
                public_text=f"{side}: the stack at {ids[lead.hex]} stays")  # type: ignore[index]
            continue
        dest = state.hex_of(dest_key)
        if dest not in dest_cost:  # defensive: options are the reach
            raise IllegalAnswer(f"{dest_key} is not reachable by {who}", answer=dest_key, rule=rule)
        facing: int | None = None
        if full:
            common_f = set(reaches[0].facings[dest]).intersection(*(r.facings[dest] for r in reaches[1:]))
            fopts = []
            for g in sorted(common_f):
                c = max(r.facings[dest][g] for r in reaches)
                fopts.append(Option(state.numbering.direction_name(g), f"{_fmt_mf(c, scale)} MF", g))
            if not fopts:  # cannot happen: every reachable hex has a facing
                raise IllegalAnswer(f"no common facing at {dest_key}", answer=dest_key, rule="cen:full.facing")
            def refuse_facing(text: str, _g: list[Unit] = group, _rs: list[Reach] = reaches,
                              _dest: Hex = dest) -> tuple[str, str] | None:
                return _why_not_facing(state, _g, _rs, _dest, text.strip())

            fkey = yield Decision(
                side,
                f"{who} to {dest_key}: choose the facing",
                tuple(fopts),
                rule="cen:full.facing",
                kind=Kind.MOVE_FACING,
                refuse=refuse_facing,
                context={"highlight": [dest_key], "unit": lead.id},
            )
            facing = state.numbering.direction_from_name(fkey)
        state.extra[MOVING_GROUP] = frozenset(u.id for u in group)
        for u, r in zip(group, reaches):
            rules_used: tuple[str, ...] = (rule,)
            if facing is not None:
                spent = r.facings[dest][facing]
                u.facing = facing
                path = r.path(dest, facing)
                rules_used = (rule, "cen:full.facing")
            else:
                spent = r.cost[dest]
                path = r.path(dest)
            frm = u.hex
            if dest != frm:
                state.move(u, dest)
            stop = ""
            if not full and dest in state.zoc_hexes(state.opponent(side)):
                stop = ", stops in the enemy Zone of Control"
                rules_used = (*rules_used, "cen:basic.zoc")
            facing_txt = f" facing {state.numbering.direction_name(u.facing)}" if full else ""
            log(
                ctx,
                state,
                "move",
                f"{u.id} moves {ids[frm]} -> {dest_key}{facing_txt} ({_fmt_mf(spent, scale)} MF){stop}",  # type: ignore[index]
                rules_used,
                unit=u.id,
                path=[ids[h] for h in path],
                # cen:basic.stacking C: unit ids carry the type; the other side reads only where a
                # unit went (the map shows the stack's make-up where the rule lets it)
                private_to=side,
                public_text=f"a {side} unit moves {ids[frm]} -> {dest_key}{facing_txt}{stop}",  # type: ignore[index]
            )
            if hooks is not None and hooks.after_move is not None:
                hooks.after_move(ctx, state, u, path)


def _why_not_reachable(
    state: CenturionState, unit: Unit, reach: Reach, text: str, hooks: MoveHooks | None
) -> tuple[str, str] | None:
    """Explain an unreachable destination with the rule that forbids it."""
    rule = "cen:basic.movement" if state.version == "basic" else "cen:full.movement"
    try:
        h = state.hex_of(text)
    except ValueError as exc:
        if len(text) == 4 and text.isdigit():
            return f"{exc} (case J: units may not move off the map)", rule
        return f"{text!r} is not a hex ID: answer a destination hex, stay or back", rule
    if h == unit.hex:
        return f"{unit.id} is already at {text}; answer 'stay' to leave it", rule
    occ = state.side_at(h)
    if occ is not None and occ != unit.side:
        return f"{text} holds enemy units: units may never enter a hex containing Enemy units (case G)", rule
    if occ == unit.side and not stack_room(state, unit, h, hooks):
        stack_rule = "cen:basic.stacking" if state.version == "basic" else "cen:full.stacking"
        return f"{text} already holds {state.stacking_count(h, unit.side)} friendly units: stacking limit", stack_rule
    need = _least_mf(state, unit, hooks, h)
    have = reach.allowance
    if need is not None and need > have:
        how = (" (case A: terrain costs per the Terrain Effects Chart)" if state.version == "basic" else
               " (case G: it must have them before entering a hex; moving only to its front, turns of more than "
               "60 degrees included, cen:full.facing)")
        return (f"{unit.id} cannot reach {text}: it needs {_fmt_frac(need)} Movement Factors and has "
                f"{_fmt_frac(have)}{how}", rule)
    if state.version == "basic":
        return (
            f"{unit.id} cannot reach {text}: every way there is blocked "
            f"by enemy units, full friendly stacks or an enemy Zone of Control (it must stop on entering one)",
            "cen:basic.zoc" if any(n in state.zoc_hexes(state.opponent(unit.side)) for n in state.neighbors(h)) else rule,
        )
    return (f"{unit.id} cannot reach {text}: every way there is blocked (enemy units, full stacks, squares it may "
            f"not join, terrain closed to it, or a hex where it must stop first)", rule)


_FAR_MF = 60
"""How far (in Movement Factors) a refusal looks for what a destination would cost."""


def _least_mf(state: CenturionState, unit: Unit, hooks: MoveHooks | None, h: Hex) -> Fraction | None:
    """Least Movement Factors ``unit`` would need to end on ``h`` had it more than
    its allowance (up to ``_FAR_MF``), or None if no way leads there
    (cen:basic.movement A, cen:full.movement, cen:full.facing G)."""
    far = reachable_within(state, unit, hooks, _FAR_MF)
    return far.mf(h) if h in far.cost else None


def _fmt_frac(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _why_not_facing(
    state: CenturionState, group: list[Unit], reaches: list[Reach], dest: Hex, text: str
) -> tuple[str, str]:
    """Explain a facing the unit (or stack) may not end ``dest`` with (cen:full.facing)."""
    rule = "cen:full.facing"
    dk = state.hid(dest)
    try:
        g = state.numbering.direction_from_name(text)
    except ValueError as exc:
        return f"{exc}: answer the facing {', '.join(u.id for u in group)} end with at {dk}", rule
    name = state.numbering.direction_name(g)
    for u, r in zip(group, reaches):
        if g in r.facings[dest]:
            continue
        if dest == u.hex and g == u.facing % 6:
            return (f"{u.id} began at {dk} facing {name}: ending so is no move; choose another facing "
                    f"(or go back to the destination and answer 'stay')", "cen:full.movement")
        got = r.facing_need(dest, g)
        if got is None:  # not expected: dest is reachable
            break
        need, paid = got
        turn = (" a turn of more than 60 degrees after arriving costs one Movement Factor (G), and with its "
                "allowance spent a unit turns at most 60 degrees (E);") if paid else ""
        return (f"{u.id} cannot end at {dk} facing {name}:{turn} that needs {_fmt_frac(need)} Movement Factors "
                f"and it has {_fmt_frac(r.allowance)}", rule)
    return f"{text} is not a facing the whole stack can end with at {dk}", rule
