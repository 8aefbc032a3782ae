"""The start of a Player-Turn: panic, treachery invoked, rally, then formations, relief, works and mounts
(cen:full.treachery, cen:full.square, cen:full.relief, cen:opt.earthworks, cen:opt.caltrops,
cen:opt.mount-dismount).

Staged choices, ``done`` always offered; each refusal names its rule.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from ancients_kit.plugin import Outcome
from ancients_kit.protocol import Context, Decision, Option

from ancients_games.centurion.full import morale
from ancients_games.centurion.full.book import book, units_text
from ancients_games.centurion.full.light_cavalry import push_out_light_cavalry
from ancients_games.centurion.full.morale import command_groups, treachery
from ancients_games.centurion.full.mounts import (
    destroy_mounts, dismount, dismountable, mount, mountable, own_mounts,
)
from ancients_games.centurion.full.options import OPTION_OF_RULE, active, active_for, is_roman
from ancients_games.centurion.full.square import (
    is_square_swordsman, square_hex_problem, square_hexes, square_leavers,
)
from ancients_games.centurion.full.works import builder_hexes, progress_works
from ancients_games.centurion.model import UnitKind
from ancients_games.centurion.state import CenturionState, Unit
from ancients_games.centurion.vocab import Kind


def start_of_player_turn(ctx: Context, state: CenturionState, side: str) -> Generator[Decision, str, Outcome | None]:
    """The start of ``side``'s Player-Turn (cen:full.sequence), before its Movement Phase: the
    turn's bookkeeping cleared, fury wearing off (cen:opt.command I), panic striking if due
    (cen:full.panic, cen:barb.tribe), treachery if invoked (cen:full.treachery), Light Cavalry
    pushed out of a ring defectors closed (cen:full.cavalry), rally attempts (cen:full.panic E),
    then the formations, relief, works and mounts (:func:`start_of_turn_actions`)."""
    b = book(state)
    b.squares_formed.clear()
    b.square_disbanded.clear()
    b.dismounting.clear()
    b.charge_start.clear()
    b.square_joined.clear()
    b.left_square.clear()
    b.river_passed.clear()
    for k in [k for k in state.extra if isinstance(k, tuple) and k and k[0] == "river_ctl"]:
        del state.extra[k]
    for u in state.live_units(side):
        if u.furious:
            u.furious -= 1
    if b.panic_pending.get(side):
        morale.start_panic(ctx, state, side)
    for g in sorted(b.tribe_panic.pop(side, ())):
        morale.start_panic(ctx, state, side, group=g)
    out = yield from treachery_step(ctx, state, side)
    if out is not None:
        return out
    push_out_light_cavalry(ctx, state)  # defectors may have closed a ring
    morale.rally(ctx, state, side)
    yield from start_of_turn_actions(ctx, state, side)
    return None


def treachery_step(ctx: Context, state: CenturionState, side: str) -> Generator[Decision, str, Outcome | None]:
    """cen:full.treachery A: the enemy may invoke treachery against ``side`` at the start of its turn."""
    v = state.options.get("treachery", "off")
    targets = {"first": (state.sides[0],), "second": (state.sides[1],), "both": state.sides}.get(v, ())
    b = book(state)
    if side not in targets or state.turn < 2 or b.treachery_used.get(side):
        return None
    if is_roman(state, side) and not state.scenario.civil_war:
        roman_only = all(
            state.capability.get(u.type) is not None and state.capability[u.type].form_square
            or state.types[u.type].kind is UnitKind.COMMAND for u in state.live_units(side))
        if roman_only:
            return None  # cen:full.treachery I
    enemy = state.opponent(side)
    k = yield Decision(enemy, f"Invoke treachery against {state.side_names.get(side, side)} now (once a game)?",
                       (Option("no", "not now"), Option("invoke", "roll for every stack")),
                       rule="cen:full.treachery", kind=Kind.TREACHERY)
    if k == "invoke":
        # cen:full.treachery F: "In multi-commander games" is read from the army, not from the optional
        # Command Unit Rules: an army with subordinate Command units (keyed I, II, III, as its troops
        # are) rolls once per command whether or not those rules are in force (see the rulings page).
        treachery(ctx, state, side, state.scenario.civil_war, multi=bool(command_groups(state, side)))
    return None


def _relief_pairs(state: CenturionState, side: str) -> list[tuple[Unit, Unit]]:
    """cen:full.relief: a dispersed Swordsmen unit and an adjacent non-engaged one that may swap."""
    if active_for(state, "cen:rom.declining", side):
        return []
    li = active(state, "cen:rom.legion-integrity")
    out = []
    cap = state.capability
    for d in state.live_units(side):
        c = cap.get(d.type)
        if not d.dispersed or c is None or not c.relief or d.hex is None or d.moved:
            continue
        for n in d.hex.neighbors():
            for r in state.stack_at(n):
                rc = cap.get(r.type)
                if r.side != side or rc is None or not rc.relief or r.dispersed or r.contact or r.moved \
                        or r.in_square or r.panicked:
                    continue
                if li and d.group and r.group and d.group != r.group:
                    continue
                out.append((d, r))
    return out


def start_of_turn_actions(ctx: Context, state: CenturionState, side: str) -> Generator[Decision, str, None]:
    """Square, relief, works and mounting before movement; staged, ``done`` always offered."""
    b = book(state)
    progress_works(ctx, state, side)
    while True:
        # Labels in words; the rule of each action is the decision's and its refusals' (cen:full.square,
        # cen:full.relief, cen:opt.earthworks, cen:opt.caltrops, cen:opt.mount-dismount).
        menu: list[Option] = [Option("done", "no more formations or works: go to the Movement Phase")]
        sq_hexes = square_hexes(state, side) if is_roman(state, side) else []
        if sq_hexes:
            menu.append(Option("square", "form Swordsmen in square"))
        formed = sorted({u.hex for u in state.live_units(side) if u.in_square and u.hex is not None
                         and u.id not in b.squares_formed})
        if formed:
            menu.append(Option("disband", "disband a square"))
        pairs = _relief_pairs(state, side)
        if pairs:
            menu.append(Option("relieve", "relieve dispersed Swordsmen"))
        builders = builder_hexes(state, side)
        if builders and active_for(state, "cen:opt.earthworks", side):
            menu.append(Option("earthworks", "start building earthworks"))
        if builders and active_for(state, "cen:opt.caltrops", side):
            menu.append(Option("caltrops", "start laying caltrops"))
        leavers = square_leavers(state, side)
        if leavers:
            menu.append(Option("leave", "take a non-Swordsmen unit out of a square"))
        if active_for(state, "cen:opt.mount-dismount", side):
            if dismountable(state, side):
                menu.append(Option("dismount", "dismount cataphracts"))
            if mountable(state, side):
                menu.append(Option("mount", "mount dismounted cataphracts"))
            if own_mounts(state, side):
                menu.append(Option("destroy-mounts", "destroy riderless mounts to prevent capture "
                                                     "(one point lost)"))
        if len(menu) == 1:
            return

        def refuse_action(text: str) -> tuple[str, str] | None:
            return start_action_problem(state, side, text.strip().lower())

        k = yield Decision(side, f"Start of turn {state.turn}: formations and works, or done", tuple(menu),
                           rule="cen:full.sequence", kind=Kind.START_ACTION, refuse=refuse_action)
        if k == "done":
            return
        if k == "square":
            def refuse_square(text: str) -> tuple[str, str] | None:
                try:
                    h = state.hex_of(text.strip())
                except ValueError:
                    return None
                return square_hex_problem(state, side, h)

            hk = yield Decision(side, "Form square on which hex?",
                                tuple(Option(state.hid(h), units_text(state, h, side)) for h in sq_hexes),
                                rule="cen:full.square", kind=Kind.START_SQUARE, refuse=refuse_square)
            h = state.hex_of(hk)
            for u in state.stack_at(h):
                u.in_square = True
                b.squares_formed.add(u.id)
            state.rev += 1  # formations change what the movement hooks (cached by rev) answer
            ctx.event("formation", f"square formed at {hk}", rules=("cen:full.square",), side=side)
        elif k == "disband":
            hk = yield Decision(side, "Disband the square on which hex?",
                                tuple(Option(state.hid(h), units_text(state, h, side)) for h in formed),
                                rule="cen:full.square", kind=Kind.START_DISBAND, refuse=_refuser(state, side, "disband"))
            h = state.hex_of(hk)
            for u in state.stack_at(h):
                if u.in_square:
                    u.in_square = False
                    b.square_disbanded.add(u.id)
            state.rev += 1
            ctx.event("formation", f"square at {hk} disbands (one hex of movement this turn)",
                      rules=("cen:full.square",), side=side)
        elif k == "relieve":
            opts = tuple(Option(f"{d.id}>{r.id}", f"{r.id} relieves {d.id}") for d, r in pairs)
            pk = yield Decision(side, "Which relief?", opts, rule="cen:full.relief", kind=Kind.START_RELIEF)
            did, rid = pk.split(">")
            d, r = state.units[did], state.units[rid]
            dh, rh = d.hex, r.hex
            assert dh is not None and rh is not None
            state.move(d, rh)
            state.move(r, dh)
            d.moved = r.moved = True
            ctx.event("move", f"{r.id} relieves dispersed {d.id}: {state.hid(rh)} <-> {state.hid(dh)}",
                      rules=("cen:full.relief",), side=side)
        elif k in ("earthworks", "caltrops"):
            hk = yield Decision(side, f"Start {k} on which hex?",
                                tuple(Option(state.hid(h), units_text(state, h, side)) for h in builders),
                                rule=f"cen:opt.{k}", kind=Kind.START_WORKS, refuse=_refuser(state, side, k))
            h = state.hex_of(hk)
            ids = [u.id for u in state.stack_at(h) if state.capability.get(u.type) is not None
                   and state.capability[u.type].build_earthworks and not u.contact and not u.dispersed]
            for i in ids:
                state.units[i].building = 1
            state.extra.setdefault("full_works", {})[h] = (k, ids)
            ctx.event("works", f"{', '.join(ids)} start {k} at {hk} (three turns)", rules=(f"cen:opt.{k}",), side=side)
        elif k == "leave":
            lk = yield Decision(side, "Which unit leaves its square?",
                                tuple(Option(u.id, state.describe(u)) for u in leavers), rule="cen:full.square",
                                kind=Kind.START_LEAVE, refuse=_refuser(state, side, "leave"))
            u = state.units[lk]
            u.in_square = False
            b.left_square.add(u.id)
            state.rev += 1
            ctx.event("formation", f"{u.id} leaves the square at {state.hid(u.hex)} (two Movement Factors)",
                      rules=("cen:full.square",), side=side)
        elif k == "dismount":
            units = dismountable(state, side)
            uk = yield Decision(side, "Dismount which unit?", tuple(Option(u.id, state.describe(u)) for u in units),
                                rule="cen:opt.mount-dismount", kind=Kind.START_DISMOUNT,
                                refuse=_refuser(state, side, "dismount"))
            u = state.units[uk]
            choices = state.capability[u.type].dismount_as
            ck = choices[0]
            if len(choices) > 1:
                ck = yield Decision(side, f"Dismount {u.id} as?",
                                    tuple(Option(c, state.types[c].name) for c in choices if c in state.types),
                                    rule="cen:opt.mount-dismount", kind=Kind.START_DISMOUNT_AS)
            dismount(ctx, state, u, ck)
        elif k == "mount":
            units = mountable(state, side)
            uk = yield Decision(side, "Mount which unit?", tuple(Option(u.id, state.describe(u)) for u in units),
                                rule="cen:opt.mount-dismount", kind=Kind.START_MOUNT, refuse=_refuser(state, side, "mount"))
            mount(ctx, state, state.units[uk])
        elif k == "destroy-mounts":
            mts = own_mounts(state, side)
            mk = yield Decision(side, "Destroy which riderless mounts?",
                                tuple(Option(m.id, f"mounts at {state.hid(m.hex)}") for m in mts),
                                rule="cen:opt.mount-dismount", kind=Kind.START_DESTROY_MOUNTS,
                                refuse=_refuser(state, side, "destroy-mounts"))
            destroy_mounts(ctx, state, state.units[mk])


def _refuser(state: CenturionState, side: str, action: str) -> Any:
    """A ``refuse`` hook for the second stage of a start-of-turn action (a hex or a unit)."""

    def refuse(text: str) -> tuple[str, str] | None:
        return answer_problem(state, side, action, text.strip())

    return refuse


def answer_problem(state: CenturionState, side: str, action: str, text: str) -> tuple[str, str] | None:
    """Why ``text`` (a hex or a unit) may not be the object of the start-of-turn ``action``, or None."""
    rule = _ACTION_RULES[action]
    b = book(state)
    if action in ("disband", "earthworks", "caltrops"):
        try:
            h = state.hex_of(text)
        except ValueError as exc:
            return f"{exc}: answer a hex ID", rule
        hk = state.hid(h)
        mine = [u for u in state.stack_at(h) if u.side == side]
        if not mine:
            return f"no unit of yours at {hk}", rule
        if action == "disband":
            if not any(u.in_square for u in mine):
                return f"the units at {hk} are not in square", rule
            return f"the square at {hk} formed this turn and may not disband before its next turn", rule
        if state.markers.get(h):
            return f"{hk} already has {', '.join(sorted(state.markers[h]))}", rule
        if any(u.building for u in mine):
            return f"the units at {hk} are already at work", rule
        return (f"no unit at {hk} can build: Command units never do, nor units in contact, dispersed, panicked "
                f"or in square", rule)
    u = state.units.get(text.upper()) or state.units.get(text)
    if u is None:
        return f"{text!r} is not a unit: answer a unit ID", rule
    if u.side != side:
        return f"{u.id} is not yours", rule
    cond = ("in contact with the enemy" if u.contact else "dispersed" if u.dispersed else "panicked" if u.panicked
            else "")
    if action == "leave":
        if not u.in_square:
            return f"{u.id} is not in a square", rule
        if is_square_swordsman(state, u):
            return f"{u.id} is a Swordsmen unit: Swordsmen leave a square only by disbanding it (K)", rule
        return f"{u.id} may not leave the square now" + (f": it is {cond}" if cond else " (it has moved)"), rule
    if action == "dismount":
        cap = state.capability.get(u.type)
        if cap is None or not cap.dismount_as:
            return f"{u.id} ({state.types[u.type].name}) has no mounts to leave: only cataphracts dismount", rule
        if u.id in b.dismounting:
            return f"{u.id} is already mounting or dismounting this turn (E: it takes one full turn)", rule
        return f"{u.id} may not dismount while {cond or 'unable'}", rule
    if action == "mount":
        mounts = state.extra.get("full_mounts", {})
        if u.id not in mounts:
            return f"{u.id} is not a dismounted rider", rule
        mt = state.units.get(mounts[u.id][0])
        if mt is None or not mt.on_map:
            return f"the mounts of {u.id} are gone (destroyed)", rule
        if mt.dispersed:
            return f"the mounts of {u.id} are dispersed: a dispersed mount unit may not be mounted (B)", rule
        if u.hex is not None and mt.hex is not None and u.hex.distance(mt.hex) > 1:
            return f"{u.id} is not with or next to its mounts at {state.hid(mt.hex)}", rule
        if u.id in b.dismounting:
            return f"{u.id} is already mounting or dismounting this turn (E: it takes one full turn)", rule
        return f"{u.id} may not mount while {cond or 'unable'}", rule
    if action == "destroy-mounts":
        if state.types[u.type].kind is not UnitKind.MOUNT:
            return f"{u.id} is not a riderless mount", rule
    return None


_ACTION_RULES = {
    "square": "cen:full.square", "disband": "cen:full.square", "join": "cen:full.square", "leave": "cen:full.square",
    "relieve": "cen:full.relief", "earthworks": "cen:opt.earthworks", "caltrops": "cen:opt.caltrops",
    "raze": "cen:opt.earthworks", "dismount": "cen:opt.mount-dismount", "mount": "cen:opt.mount-dismount",
    "destroy-mounts": "cen:opt.mount-dismount",
}


def start_action_problem(state: CenturionState, side: str, key: str) -> tuple[str, str] | None:
    """Why the start-of-turn action ``key`` is not open to ``side`` now (reason, rule ID), or None if unknown."""
    rule = _ACTION_RULES.get(key)
    if rule is None:
        return None
    option = OPTION_OF_RULE.get(rule)
    if option is not None and not active_for(state, rule, side):
        return f"{rule} is not in force for {side} (option {option})", rule
    if key == "square":
        hexes = sorted({u.hex for u in state.live_units(side) if is_square_swordsman(state, u) and u.hex is not None})
        if not is_roman(state, side) or not hexes:
            return "only Roman Swordsmen form square, and you have none on the map", rule
        return square_hex_problem(state, side, hexes[0]) or ("no stack of yours may form square now", rule)
    if key == "relieve" and active_for(state, "cen:rom.declining", side):
        return "the Declining Legion Rule removes the Roman Relief Rule", "cen:rom.declining"
    why = {
        "disband": "you have no square formed before this turn",
        "join": "units join a square by moving into it in the Movement Phase (three Movement Factors for "
                "Swordsmen, two for others, on top of the terrain), not before it",
        "leave": "no non-Swordsmen unit of yours in a square may leave it now",
        "relieve": "no dispersed Swordsmen of yours has an adjacent unengaged Swordsmen unit to relieve it",
        "earthworks": "no stack of yours can start works: it needs unengaged, undispersed non-Command units on a hex "
                      "without works",
        "caltrops": "no stack of yours can start works: it needs unengaged, undispersed non-Command units on a hex "
                    "without works",
        "raze": "earthworks are destroyed at the end of the Movement Phase, not before it",
        "dismount": "no cataphract of yours can dismount now (not in contact, dispersed, panicked, or already "
                    "mounting or dismounting this turn)",
        "mount": "no dismounted unit of yours stands with or next to its mounts, free to mount this turn "
                 "(a dispersed mount may not be mounted)",
        "destroy-mounts": "you have no riderless mounts on the map",
    }[key]
    return why, rule
