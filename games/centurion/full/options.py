"""Optional and special rules as switchable options, and the procedures they add.

Every option names its rule ID. Rule options take ``scenario`` (the default:
in force if the scenario lists the rule, for the sides it lists it for),
``on`` or ``off``. The engine's ``game.py`` returns :data:`OPTION_SPECS` from
``option_specs``; the values arrive in ``ctx.options`` / ``state.options``.

=========================  ==============================  ======================================
option                     rule                            effect, where applied
=========================  ==============================  ======================================
fortune                    cen:opt.fortune                 a side's attacks round in its favour (sequence)
earthworks                 cen:opt.earthworks              build action; defence x2, workers half; raze after moving
caltrops                   cen:opt.caltrops                build action; attack out half, cavalry barred (sequence)
skirmisher_equipment       cen:opt.skirmisher-equipment    SK read as LI / AR / SL by key (set-up)
weather                    cen:opt.weather                 roll or fix: fog, rain, mud (fire, movement, melee)
command                    cen:opt.command                 die modifiers A-C, E; command attacks D; F, G, I
non_roman_swordsmen        cen:opt.non-roman-swordsmen     SD of non-Roman sides read as SDN (set-up)
spearmen                   cen:opt.spearmen                Spearmen read as Pikemen, stack three (set-up)
barbarian_cavalry          cen:barb.cavalry                barbarian BC read as BHC (set-up)
barbarian_warrior          cen:barb.warrior                barbarians must attack when they can (allocation)
barbarian_tribe            cen:barb.tribe                  no mixed stacks, own chiefs only, isolated half
green_romans               cen:rom.green                   legions I / III read as 5-5-4 / 3-3-4 (set-up)
legion_integrity           cen:rom.legion-integrity        no mixing legions in one attack; own commanders
millenarian                cen:rom.millenarian             one stack of four Swordsmen per legion
mixed_legion               cen:rom.mixed-legion            Roman BC read as BCL (no fire and melee)
declining_legion           cen:rom.declining               no Roman Relief
mount_dismount             cen:opt.mount-dismount          dismount / mount actions, riderless mounts
treachery                  cen:full.treachery              who may have treachery invoked against it
placement                  cen:full.deployment             let players re-place units in their zones
=========================  ==============================  ======================================

No option is refused: each has an effect. Parts of rules left out or read
narrowly (L = our reading), also listed in the report:

* cen:barb.warrior: barbarians within seven hexes (after first blood: all of
  them) advance on their own after the player's moves; the "advance" is
  straight toward the nearest enemy.
* cen:opt.earthworks: capture (destroying the defenders) costs them two
  points; a "recapture" is a side taking back earthworks it lost by capture,
  and regains those two points (sequence.works_captured).
* cen:full.treachery H: turncoats are rolled for with the side they now
  serve when treachery is invoked against it; a defection result sends them
  back to their original side, which regains their points.
* cen:opt.mount-dismount H: the owner may destroy riderless mounts at the
  start of any of its turns (one point lost, F); mounts are never captured
  (B: an adjacent enemy destroys them by attacking them).
* cen:full.cavalry: a charge counts the longest straight run in the final
  facing that the unit could have made to its hex within its allowance (the
  engine's cheapest path need not be the straight one); roads not counted.
* Light Cavalry "may never be surrounded" (cen:full.cavalry): a Light Cavalry
  unit whose six neighbours are all enemy-held or off the map is pushed to the
  nearest hex outside the ring, after each Movement Phase and after treachery.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import TYPE_CHECKING, Any

from ancients_kit.plugin import OptionSpec
from ancients_kit.session import Context, Decision, Option

from ancients_games.centurion.full import square
from ancients_games.centurion.full.morale import book, command_groups, treachery
from ancients_games.centurion.model import UnitKind

if TYPE_CHECKING:
    from ancients_kit.hexgrid import Hex
    from ancients_kit.plugin import Outcome

    from ancients_games.centurion.full.sequence import Attack
    from ancients_games.centurion.state import CenturionState, Unit

__all__ = ["OPTION_SPECS", "RULE_OF_OPTION", "active", "active_for", "is_barbarian", "is_roman"]

_TRI = ("scenario", "on", "off")

RULE_OF_OPTION: dict[str, str] = {
    "earthworks": "cen:opt.earthworks",
    "caltrops": "cen:opt.caltrops",
    "skirmisher_equipment": "cen:opt.skirmisher-equipment",
    "command": "cen:opt.command",
    "non_roman_swordsmen": "cen:opt.non-roman-swordsmen",
    "spearmen": "cen:opt.spearmen",
    "barbarian_cavalry": "cen:barb.cavalry",
    "barbarian_warrior": "cen:barb.warrior",
    "barbarian_tribe": "cen:barb.tribe",
    "green_romans": "cen:rom.green",
    "legion_integrity": "cen:rom.legion-integrity",
    "millenarian": "cen:rom.millenarian",
    "mixed_legion": "cen:rom.mixed-legion",
    "declining_legion": "cen:rom.declining",
    "mount_dismount": "cen:opt.mount-dismount",
}
"""Tri-state rule options (``scenario`` / ``on`` / ``off``) -> rule ID."""
OPTION_OF_RULE = {v: k for k, v in RULE_OF_OPTION.items()}

_HELP = {
    "earthworks": "units may build earthworks (3 turns); defenders behind them doubled",
    "caltrops": "units may lay caltrops (3 turns): attacks out halved, cavalry kept out",
    "skirmisher_equipment": "Skirmishers split into Light Infantry 2-2-5, Archers and Slingers 0-1-5 by key I/II/III",
    "command": "Command units: -1 friendly / +1 enemy die rolls within 3 hexes, fury, civil-war loss",
    "non_roman_swordsmen": "non-Roman Swordsmen: stack two, no square, no relief",
    "spearmen": "Spearmen counters fight as Pikemen and stack three high",
    "barbarian_cavalry": "barbarian heavy cavalry on cataphract counters: stack two, no fire and melee",
    "barbarian_warrior": "barbarians must attack whenever they can",
    "barbarian_tribe": "tribes stack apart, obey their own chiefs, isolated tribesmen attack at half",
    "green_romans": "I Legion 5-5-4, III Legion 3-3-4 and no relief",
    "legion_integrity": "legions may not mix in combat (required by every chart scenario)",
    "millenarian": "one stack of four Swordsmen per legion (AD 200-350)",
    "mixed_legion": "legionary cataphracts (may not fire and melee in one turn)",
    "declining_legion": "no Roman Relief",
    "mount_dismount": "cataphracts may dismount as Swordsmen or Skirmishers and mount again",
}

OPTION_SPECS: list[OptionSpec] = [
    OptionSpec("fortune", "none", "the fortunate side rounds all its attack odds in its favour (first/second mover)",
               ("cen:opt.fortune",), ("none", "first", "second")),
    OptionSpec("weather", "fine", "weather: fine, roll at the start, or fixed (fog, light-rain, heavy-rain, mud)",
               ("cen:opt.weather",), ("fine", "roll", "fog", "light-rain", "heavy-rain", "mud")),
    OptionSpec("treachery", "off", "which side may have treachery invoked against it (once a game, after turn 1)",
               ("cen:full.treachery",), ("off", "first", "second", "both")),
    OptionSpec("placement", False, "let each side re-place units inside its deployment zone before play",
               ("cen:full.deployment", "cen:full.setup")),
] + [OptionSpec(name, "scenario", _HELP[name], (rule,), _TRI) for name, rule in RULE_OF_OPTION.items()]
"""Every optional and special rule of the Full Simulation, with its rule ID."""

WEATHER_BY_ROLL = {1: "fine", 2: "fine", 3: "fog", 4: "light-rain", 5: "heavy-rain", 6: "mud"}
"""cen:opt.weather: the die rolled at the start of the game."""


# ------------------------------------------------------------------ queries


def _value(state: CenturionState, name: str) -> Any:
    return state.options.get(name, "scenario")


_LISTED: dict[tuple[int, str, str | None], tuple[Any, bool]] = {}
"""(scenario id, rule, side or None) -> (scenario, listed): scenarios are immutable
and shared, and the rules ask about options at every search (movement hooks)."""


def _listed(sc: Any, rule: str, side: str | None) -> bool:
    """Does scenario ``sc`` list ``rule`` (in its header, or for ``side`` / any side)?"""
    k = (id(sc), rule, side)
    got = _LISTED.get(k)
    if got is not None and got[0] is sc:
        return got[1]
    v = rule in sc.options or any(rule in s.options for s in sc.sides if side is None or s.id == side)
    if len(_LISTED) > 4096:
        _LISTED.clear()
    _LISTED[k] = (sc, v)
    return v


def active(state: CenturionState, rule: str) -> bool:
    """Is ``rule`` in force for anyone: switched on, or listed by the scenario (and not switched off)?"""
    name = OPTION_OF_RULE.get(rule)
    v = state.options.get(name, "scenario") if name else "scenario"
    if v is True or v == "on":
        return True
    if v is False or v == "off":
        return False
    return _listed(state.scenario, rule, None)


def active_for(state: CenturionState, rule: str, side: str) -> bool:
    """Is ``rule`` in force for ``side`` (scenario header, that side's options, or switched on)?"""
    name = OPTION_OF_RULE.get(rule)
    v = state.options.get(name, "scenario") if name else "scenario"
    if v is True or v == "on":
        return True
    if v is False or v == "off":
        return False
    return _listed(state.scenario, rule, side)


def is_roman(state: CenturionState, side: str) -> bool:
    """A Roman army: it fields Roman Swordsmen (capability ``form_square``) or is called Roman."""
    cache = state.extra.setdefault("full_roman", {})
    if side not in cache:
        cache[side] = "roman" in side.lower() or any(
            state.capability.get(u.type) is not None and state.capability[u.type].form_square
            for u in state.units.values() if u.original_side == side
        )
    return cache[side]


def is_barbarian(state: CenturionState, side: str) -> bool:
    """A barbarian army: it fields Barbarian Infantry."""
    cache = state.extra.setdefault("full_barb", {})
    if side not in cache:
        cache[side] = any(u.type == "BI" for u in state.units.values() if u.original_side == side)
    return cache[side]


def isolated_tribesman(state: CenturionState, u: Unit) -> bool:
    """cen:barb.tribe: "isolated units among units of other tribes lose 50 per cent of their attack
    factor": a tribesman with no unit of its tribe in its hex or next to it, and Barbarian Infantry
    of another tribe of its army next to it, attacks at half. A tribesman alone, with no other
    tribe near, is not "among units of other tribes" and keeps its whole factor (our reading)."""
    if u.type != "BI" or not u.group or u.hex is None:
        return False
    among = False
    for h in (u.hex, *u.hex.neighbors()):
        for o in state.stack_at(h):
            if o is u or o.side != u.side or o.type != "BI" or not o.group:
                continue
            if o.group == u.group:
                return False
            among = True
    return among


# ------------------------------------------------------------------ set-up


def _retype(state: CenturionState, u: Unit, code: str) -> None:
    if code in state.types:
        u.type = code
        state.rev += 1  # the movement hooks' caches key on it


def apply_setup_options(ctx: Context, state: CenturionState) -> None:
    """Options that change the armies or the day before play (set-up readings)."""
    b = book(state)
    fo = state.options.get("fortune", "none")
    b.fortune = state.sides[0] if fo == "first" else state.sides[1] if fo == "second" else ""
    if b.fortune:
        ctx.event("setup", f"fortune favours {b.fortune}: its odds round in its favour", rules=("cen:opt.fortune",))
    w = state.options.get("weather", "fine")
    if w == "roll":
        roll = ctx.chance.d6("weather", ("cen:opt.weather",))
        w = WEATHER_BY_ROLL[roll]
    b.weather = w
    if w != "fine":
        ctx.event("setup", f"weather: {w}", rules=("cen:opt.weather",))
    changed = []
    skirm_cycle = ("LI", "AR", "SL")
    sk_i = 0
    for u in state.units.values():
        side = u.original_side or u.side
        if u.type == "SD" and active_for(state, "cen:rom.green", side) and is_roman(state, side):
            if u.group == "I":
                _retype(state, u, "SD-I")
            elif u.group == "III":
                _retype(state, u, "SD-III")
        # cen:opt.non-roman-swordsmen: "non-Roman, non-Barbarian sword-armed troops"; in a Civil War
        # both armies are Roman, whatever their sides are called.
        if u.type == "SD" and _value(state, "non_roman_swordsmen") == "on" and "roman" not in side.lower() \
                and not is_roman_side_by_name(state, side) and not state.scenario.civil_war:
            _retype(state, u, "SDN")
        if u.type == "SP" and _value(state, "spearmen") == "on":
            _retype(state, u, "PK")
        if u.type == "SK" and _value(state, "skirmisher_equipment") == "on":
            key = {"I": "LI", "II": "AR", "III": "SL"}.get(u.group)
            if key is None:
                key = skirm_cycle[sk_i % 3]
                sk_i += 1
            _retype(state, u, key)
        if u.type == "BC" and _value(state, "barbarian_cavalry") == "on" and is_barbarian(state, side):
            _retype(state, u, "BHC")
        if u.type == "BC" and _value(state, "mixed_legion") == "on" and is_roman(state, side):
            _retype(state, u, "BCL")
        changed.append(u.type)
    pts: dict[str, int] = {s: 0 for s in state.sides}
    for u in state.units.values():
        pts[u.original_side or u.side] = pts.get(u.original_side or u.side, 0) + state.types[u.type].points
    state.start_points.update(pts)


def is_roman_side_by_name(state: CenturionState, side: str) -> bool:
    return "roman" in state.side_names.get(side, side).lower()


# ------------------------------------------------------------------ treachery


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
                       rule="cen:full.treachery", kind="treachery")
    if k == "invoke":
        # cen:full.treachery F: "In multi-commander games" is read from the army, not from the optional
        # Command Unit Rules: an army with subordinate Command units (keyed I, II, III, as its troops
        # are) rolls once per command whether or not those rules are in force (see the rulings page).
        treachery(ctx, state, side, state.scenario.civil_war, multi=bool(command_groups(state, side)))
    return None


# ------------------------------------------------------------------ start-of-turn actions


def _withdraw(state: CenturionState, u: Unit) -> None:
    """Take a counter off the map without counting a loss (a mount remounted)."""
    if u.hex is not None:
        ids = state.stacks[u.hex]
        ids.remove(u.id)
        if not ids:
            del state.stacks[u.hex]
    u.hex = None
    u.eliminated = True
    state._zoc_cache.clear()


def _square_hexes(state: CenturionState, side: str) -> list[Hex]:
    out = []
    for h in sorted(set(state.occupied_by(side))):
        units = [u for u in state.stack_at(h) if u.side == side]
        if any(u.in_square or u.id in book(state).square_disbanded for u in units):
            continue
        if any(u.dispersed or u.contact for u in units if state.capability.get(u.type) and
               state.capability[u.type].form_square):
            continue
        allowed = _square_allowed(state, h)
        why = square.form_square_problem([state.types[u.type] for u in units], dict(state.capability), allowed,
                                         is_roman(state, side))
        if why is None:
            out.append(h)
    return out


def _is_sd(state: CenturionState, u: Unit) -> bool:
    c = state.capability.get(u.type)
    return c is not None and c.form_square


def _square_leavers(state: CenturionState, side: str) -> list[Unit]:
    """Non-Swordsmen and Command units in a square that may step out (cen:full.square F)."""
    return [u for u in state.live_units(side) if u.in_square and not _is_sd(state, u) and not u.moved
            and not u.contact and not u.dispersed]


def _square_allowed(state: CenturionState, h: Hex) -> bool:
    ter = state.terrain_chart.get(state.map.terrain(h))
    if ter is not None and not ter.square_allowed:
        return False
    for m in state.markers.get(h, ()):
        mt = state.terrain_chart.get(m)
        if mt is not None and not mt.square_allowed:
            return False
    return True


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


def _builders(state: CenturionState, side: str) -> list[Hex]:
    out = []
    for h in sorted(set(state.occupied_by(side))):
        if state.markers.get(h):
            continue
        units = [u for u in state.stack_at(h) if u.side == side]
        if any(u.building for u in units):
            continue
        ok = [u for u in units if state.capability.get(u.type) is not None and state.capability[u.type].build_earthworks
              and not u.contact and not u.dispersed and not u.panicked and not u.in_square]
        if ok:
            out.append(h)
    return out


def _dismountable(state: CenturionState, side: str) -> list[Unit]:
    out = []
    for u in state.live_units(side):
        c = state.capability.get(u.type)
        if c is not None and c.dismount_as and not u.contact and not u.dispersed and not u.panicked \
                and u.id not in book(state).dismounting and u.hex is not None and _mount_spot(state, u) is not None:
            out.append(u)
    return out


def _mountable(state: CenturionState, side: str) -> list[Unit]:
    mounts = state.extra.get("full_mounts", {})
    out = []
    for rid, (mid, _orig) in mounts.items():
        r, m = state.units.get(rid), state.units.get(mid)
        if r is None or m is None or not r.on_map or not m.on_map or r.side != side or r.contact or r.dispersed \
                or rid in book(state).dismounting:
            continue
        if m.dispersed:
            continue  # case B: a dispersed mount may not be mounted
        if r.hex is not None and m.hex is not None and r.hex.distance(m.hex) <= 1:
            out.append(r)
    return out


def _progress_works(ctx: Context, state: CenturionState, side: str) -> None:
    """Works in progress (cen:opt.earthworks, cen:opt.caltrops): three turns uninterrupted by
    combat, then the counter. A turn after which the builders were attacked does not count; the
    work done stays ("they may continue working where they left off")."""
    from ancients_games.centurion.full.sequence import WORKS_ATTACKED

    works = state.extra.setdefault("full_works", {})
    hit = state.extra.get(WORKS_ATTACKED, set())
    for h, (kind, ids) in list(works.items()):
        units = [state.units[i] for i in ids if state.units[i].on_map and state.units[i].hex == h]
        if not units or units[0].side != side:
            if not units:
                del works[h]
                hit.discard(h)
            continue
        rule = "cen:opt.earthworks" if kind == "earthworks" else "cen:opt.caltrops"
        if h in hit:
            hit.discard(h)
            ctx.event("works", f"the {kind} at {state.hid(h)} were interrupted by combat: this turn's work does "
                               f"not count ({units[0].building - 1} of 3 turns done)", rules=(rule,), side=side)
            continue
        for u in units:
            u.building += 1
        if units[0].building > 3:
            state.markers.setdefault(h, set()).add(kind)
            state.rev += 1
            for u in units:
                u.building = 0
            del works[h]
            ctx.event("works", f"{kind} completed at {state.hid(h)}", rules=(rule,), side=side)


def start_of_turn_actions(ctx: Context, state: CenturionState, side: str) -> Generator[Decision, str, None]:
    """Square, relief, works and mounting before movement; staged, ``done`` always offered."""
    b = book(state)
    _progress_works(ctx, state, side)
    while True:
        # Labels in words; the rule of each action is the decision's and its refusals' (cen:full.square,
        # cen:full.relief, cen:opt.earthworks, cen:opt.caltrops, cen:opt.mount-dismount).
        menu: list[Option] = [Option("done", "no more formations or works: go to the Movement Phase")]
        sq_hexes = _square_hexes(state, side) if is_roman(state, side) else []
        if sq_hexes:
            menu.append(Option("square", "form Swordsmen in square"))
        formed = sorted({u.hex for u in state.live_units(side) if u.in_square and u.hex is not None
                         and u.id not in b.squares_formed})
        if formed:
            menu.append(Option("disband", "disband a square"))
        pairs = _relief_pairs(state, side)
        if pairs:
            menu.append(Option("relieve", "relieve dispersed Swordsmen"))
        builders = _builders(state, side)
        if builders and active_for(state, "cen:opt.earthworks", side):
            menu.append(Option("earthworks", "start building earthworks"))
        if builders and active_for(state, "cen:opt.caltrops", side):
            menu.append(Option("caltrops", "start laying caltrops"))
        leavers = _square_leavers(state, side)
        if leavers:
            menu.append(Option("leave", "take a non-Swordsmen unit out of a square"))
        if active_for(state, "cen:opt.mount-dismount", side):
            if _dismountable(state, side):
                menu.append(Option("dismount", "dismount cataphracts"))
            if _mountable(state, side):
                menu.append(Option("mount", "mount dismounted cataphracts"))
            if _own_mounts(state, side):
                menu.append(Option("destroy-mounts", "destroy riderless mounts to prevent capture "
                                                     "(one point lost)"))
        if len(menu) == 1:
            return

        def refuse_action(text: str) -> tuple[str, str] | None:
            return start_action_problem(state, side, text.strip().lower())

        k = yield Decision(side, f"Start of turn {state.turn}: formations and works, or done", tuple(menu),
                           rule="cen:full.sequence", kind="start.action", refuse=refuse_action)
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
                                tuple(Option(state.hid(h), _units_text(state, h, side)) for h in sq_hexes),
                                rule="cen:full.square", kind="start.square", refuse=refuse_square)
            h = state.hex_of(hk)
            for u in state.stack_at(h):
                u.in_square = True
                b.squares_formed.add(u.id)
            state.rev += 1  # formations change what the movement hooks (cached by rev) answer
            ctx.event("formation", f"square formed at {hk}", rules=("cen:full.square",), side=side)
        elif k == "disband":
            hk = yield Decision(side, "Disband the square on which hex?",
                                tuple(Option(state.hid(h), _units_text(state, h, side)) for h in formed),
                                rule="cen:full.square", kind="start.disband", refuse=_refuser(state, side, "disband"))
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
            pk = yield Decision(side, "Which relief?", opts, rule="cen:full.relief", kind="start.relief")
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
                                tuple(Option(state.hid(h), _units_text(state, h, side)) for h in builders),
                                rule=f"cen:opt.{k}", kind="start.works", refuse=_refuser(state, side, k))
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
                                kind="start.leave", refuse=_refuser(state, side, "leave"))
            u = state.units[lk]
            u.in_square = False
            b.left_square.add(u.id)
            state.rev += 1
            ctx.event("formation", f"{u.id} leaves the square at {state.hid(u.hex)} (two Movement Factors)",
                      rules=("cen:full.square",), side=side)
        elif k == "dismount":
            units = _dismountable(state, side)
            uk = yield Decision(side, "Dismount which unit?", tuple(Option(u.id, state.describe(u)) for u in units),
                                rule="cen:opt.mount-dismount", kind="start.dismount", refuse=_refuser(state, side, "dismount"))
            u = state.units[uk]
            choices = state.capability[u.type].dismount_as
            ck = choices[0]
            if len(choices) > 1:
                ck = yield Decision(side, f"Dismount {u.id} as?",
                                    tuple(Option(c, state.types[c].name) for c in choices if c in state.types),
                                    rule="cen:opt.mount-dismount", kind="start.dismount-as")
            dismount(ctx, state, u, ck)
        elif k == "mount":
            units = _mountable(state, side)
            uk = yield Decision(side, "Mount which unit?", tuple(Option(u.id, state.describe(u)) for u in units),
                                rule="cen:opt.mount-dismount", kind="start.mount", refuse=_refuser(state, side, "mount"))
            mount(ctx, state, state.units[uk])
        elif k == "destroy-mounts":
            mts = _own_mounts(state, side)
            mk = yield Decision(side, "Destroy which riderless mounts?",
                                tuple(Option(m.id, f"mounts at {state.hid(m.hex)}") for m in mts),
                                rule="cen:opt.mount-dismount", kind="start.destroy-mounts", refuse=_refuser(state, side, "destroy-mounts"))
            destroy_mounts(ctx, state, state.units[mk])


def square_hex_problem(state: CenturionState, side: str, h: Hex) -> tuple[str, str] | None:
    """Why ``side`` may not form a square on ``h`` now (cen:full.square A, B, E, F; earthworks,
    caltrops), or None."""
    rule = "cen:full.square"
    hk = state.hid(h)
    units = [u for u in state.stack_at(h) if u.side == side]
    if not units:
        return f"no unit of yours at {hk}", rule
    if not is_roman(state, side):
        return "only Roman Swordsmen form square (these rules apply only to Roman Swordsmen)", rule
    if any(u.in_square for u in units):
        return f"the units at {hk} are in square already", rule
    if any(u.id in book(state).square_disbanded for u in units):
        return f"the square at {hk} disbanded this turn", rule
    sd = [u for u in units if _is_sd(state, u)]
    if any(u.dispersed or u.contact for u in sd):
        return f"Swordsmen at {hk} are dispersed or in contact with the enemy and may not form square", rule
    why = square.form_square_problem([state.types[u.type] for u in units], dict(state.capability),
                                     _square_allowed(state, h), True)
    if why is None:
        return None
    if "this hex" in why:
        marks = state.markers.get(h, set())
        r = "cen:opt.earthworks" if "earthworks" in marks else "cen:opt.caltrops" if "caltrops" in marks else rule
        return f"{why} ({hk})", r
    kinds = ", ".join(sorted({state.types[u.type].name for u in units if not _is_sd(state, u)
                              and state.types[u.type].kind is not UnitKind.COMMAND})) or "none"
    return f"{why}: {hk} holds {_units_text(state, h, side)} (non-Swordsmen: {kinds})", rule


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
        if _is_sd(state, u):
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
        hexes = sorted({u.hex for u in state.live_units(side) if _is_sd(state, u) and u.hex is not None})
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


RAZE_POINTS = 1
"""Points lost for destroying one's own earthworks (cen:opt.earthworks)."""


def razable(state: CenturionState, side: str) -> list[Hex]:
    """Earthworks ``side`` occupies and so may destroy (cen:opt.earthworks: "must be occupied")."""
    if not active_for(state, "cen:opt.earthworks", side):
        return []
    return sorted(h for h in set(state.occupied_by(side)) if "earthworks" in state.markers.get(h, ()))


def raze_step(ctx: Context, state: CenturionState, side: str) -> Generator[Decision, str, None]:
    """cen:opt.earthworks: "Earthworks may be voluntarily destroyed at the end of any movement
    turn by removing the earthworks counter from the board for a one point loss. Earthworks
    must be occupied to be destroyed." Asked after the Movement Phase; ``done`` always offered."""
    while True:
        hexes = razable(state, side)
        if not hexes:
            return

        def refuse(text: str, _hexes: list[Hex] = hexes) -> tuple[str, str] | None:
            try:
                h = state.hex_of(text.strip())
            except ValueError:
                return None
            if "earthworks" not in state.markers.get(h, ()):
                return f"there are no earthworks at {state.hid(h)}", "cen:opt.earthworks"
            return f"earthworks must be occupied by your units to be destroyed ({state.hid(h)})", "cen:opt.earthworks"

        rk = yield Decision(side, "End of the Movement Phase: destroy earthworks you occupy (one point lost), or done",
                            (Option("done", "keep the earthworks"),
                             *(Option(state.hid(h), _units_text(state, h, side)) for h in hexes)),
                            rule="cen:opt.earthworks", kind="works.raze", refuse=refuse)
        if rk == "done":
            return
        h = state.hex_of(rk)
        state.markers[h].discard("earthworks")
        state.rev += 1
        state.lost_points[side] = state.lost_points.get(side, 0) + RAZE_POINTS
        ctx.event("works", f"earthworks at {rk} destroyed ({RAZE_POINTS} point lost)", rules=("cen:opt.earthworks",),
                  side=side)


def _units_text(state: CenturionState, h: Hex, side: str) -> str:
    return ", ".join(u.id for u in state.stack_at(h) if u.side == side)


def _mount_spot(state: CenturionState, u: Unit, mt: Unit | None = None) -> Hex | None:
    """Where ``u``'s riderless mounts would stand on dismounting: the hex directly behind it if it
    is on the map, not enemy-held, has stacking room and is open to mounts, else its own hex if
    that has room; ``None`` if neither has (cen:opt.mount-dismount A; mounts count for stacking,
    cen:full.stacking). "Riderless mounts are subject to all terrain restrictions" (G): never
    into earthworks (only unmounted units occupy them, cen:opt.earthworks), caltrops (cavalry may
    not enter them voluntarily, cen:opt.caltrops) or anything else closed to a mount's kind."""
    from ancients_games.centurion.full.sequence import move_hooks
    from ancients_games.centurion.movement import stack_room, step_ticks, terrain_open
    from ancients_games.centurion.state import Unit as UnitCls

    assert u.hex is not None
    if mt is None:
        mt = UnitCls(id=f"{u.id}-MT?", side=u.side, type="MT", hex=None, facing=u.facing, group=u.group,
                     original_side=u.original_side)
    hooks = move_hooks(state)
    behind = u.hex.neighbor((u.facing + 3) % 6)
    if behind in state.numbering and state.side_at(behind) in (None, u.side) and stack_room(state, mt, behind, hooks) \
            and step_ticks(state, mt, u.hex, behind, hooks) is not None:
        return behind
    if stack_room(state, mt, u.hex, hooks) and terrain_open(state, mt, u.hex, hooks):
        return u.hex
    return None


def dismount(ctx: Context, state: CenturionState, u: Unit, as_code: str) -> Unit:
    """cen:opt.mount-dismount A, D, E: the rider becomes ``as_code``; a riderless
    mount is placed directly behind (or in the same hex if behind is not free)."""
    from ancients_games.centurion.state import Unit as UnitCls

    assert u.hex is not None
    n = sum(1 for x in state.units if x.startswith(f"{u.id}-MT"))
    mt = UnitCls(id=f"{u.id}-MT{n + 1}", side=u.side, type="MT", hex=None, facing=u.facing, group=u.group,
                 original_side=u.original_side)
    where = _mount_spot(state, u, mt)
    if where is None:
        raise ValueError(f"{u.id} at {state.hid(u.hex)} may not dismount: neither the hex behind it nor its own "
                         f"has room for its mounts (cen:full.stacking, cen:opt.mount-dismount)")
    orig = u.type
    u.type = as_code
    u.dismounted = True
    state.rev += 1
    book(state).dismounting.add(u.id)
    state.place(mt, where)
    state.extra.setdefault("full_mounts", {})[u.id] = (mt.id, orig)
    ctx.event("formation", f"{u.id} dismounts as {as_code}; its mounts stand at {state.hid(where)}",
              rules=("cen:opt.mount-dismount",), side=u.side)
    return mt


def _own_mounts(state: CenturionState, side: str) -> list[Unit]:
    """Riderless mounts of ``side`` on the map (cen:opt.mount-dismount H)."""
    return [u for u in state.live_units(side) if state.types[u.type].kind is UnitKind.MOUNT]


MOUNT_LOSS_POINTS = 1
"""Destroyed or captured mounts are a one-point loss (cen:opt.mount-dismount F)."""


def destroy_mounts(ctx: Context, state: CenturionState, mt: Unit) -> None:
    """cen:opt.mount-dismount H: the owner destroys its riderless mounts to prevent their
    capture; like any destroyed mounts they are a one-point loss (F). Their rider can
    never mount again (B: only mounts that exist may be mounted)."""
    if state.types[mt.type].kind is not UnitKind.MOUNT or not mt.on_map:
        raise ValueError(f"{mt.id} is not a riderless mount on the map (cen:opt.mount-dismount H)")
    at = state.hid(mt.hex)
    state.remove(mt)
    state.lost_points[mt.side] = state.lost_points.get(mt.side, 0) + MOUNT_LOSS_POINTS
    ctx.event("loss", f"{mt.id} at {at} destroyed by its own side to prevent capture ({MOUNT_LOSS_POINTS} point lost)",
              rules=("cen:opt.mount-dismount",), side=mt.side, unit=mt.id)


def mount(ctx: Context, state: CenturionState, u: Unit) -> None:
    """cen:opt.mount-dismount E: the rider takes its mounts back (one full turn)."""
    mounts = state.extra.get("full_mounts", {})
    mid, orig = mounts.pop(u.id)
    _withdraw(state, state.units[mid])
    u.type = orig
    u.dismounted = False
    state.rev += 1
    book(state).dismounting.add(u.id)
    ctx.event("formation", f"{u.id} mounts again", rules=("cen:opt.mount-dismount",), side=u.side)


WARRIOR_RANGE = 7
"""Barbarians within this many hexes of the foe must advance to the attack (cen:barb.warrior)."""


def warrior_destination_problem(state: CenturionState, unit: Unit, h: Hex) -> tuple[str, str] | None:
    """MoveHooks.refuse_destination (cen:barb.warrior): barbarian troops within seven hexes of the
    foe "must advance to the attack", so they may not end a move farther from the nearest enemy
    than they started."""
    check = warrior_destination_check(state, unit)
    return None if check is None else check(h)


def warrior_destination_check(state: CenturionState, unit: Unit) -> Callable[[Hex], tuple[str, str] | None] | None:
    """MoveHooks.destination_check: :func:`warrior_destination_problem` for ``unit``, its
    hexes from the foe worked out once for every destination; None when cen:barb.warrior
    leaves the unit free to end anywhere."""
    if unit.type not in ("BI", "BHC") or unit.hex is None or not is_barbarian(state, unit.side) \
            or not active_for(state, "cen:barb.warrior", unit.side):
        return None
    enemy = [u.hex for u in state.live_units(state.opponent(unit.side)) if u.hex is not None]
    if not enemy:
        return None
    near = min(unit.hex.distance(e) for e in enemy)
    if not warrior_bound(state, near):
        return None
    return lambda h: _warrior_farther(state, unit, h, enemy, near)


def _warrior_farther(state: CenturionState, unit: Unit, h: Hex, enemy: list[Hex], near: int) -> tuple[str, str] | None:
    there = min(h.distance(e) for e in enemy)
    if there > near:
        why = ("blood has been drawn, so every barbarian must attack" if book(state).first_blood
               else f"{unit.id} is within {WARRIOR_RANGE} hexes of the foe")
        return (f"{why} and must advance to the attack: "
                f"{state.hid(h)} is {there} hexes from the nearest enemy, farther than its {near}",
                "cen:barb.warrior")
    return None


def warrior_bound(state: CenturionState, near: int) -> bool:
    """cen:barb.warrior: is a barbarian ``near`` hexes from the nearest foe bound to advance?
    Within seven hexes always; beyond them only once "the first blood has been drawn; i.e.,
    the first combat, whatever the outcome. At that point all barbarian troops must attack
    if they are physically able" (``FullBook.first_blood``, set by every fire and melee)."""
    return near <= WARRIOR_RANGE or book(state).first_blood


def after_movement(ctx: Context, state: CenturionState, side: str) -> None:
    """cen:barb.warrior: barbarian troops within seven hexes of the foe that the player
    left standing advance to the attack on their own, as far toward the nearest enemy
    as they can, facing it. Beyond seven hexes they manoeuvre freely until first blood;
    after it all must advance and attack if able (:func:`warrior_bound`; the attack
    itself is :func:`barbarian_must_attack`'s)."""
    if not is_barbarian(state, side) or not active_for(state, "cen:barb.warrior", side):
        return
    from ancients_kit.hexgrid import direction_to

    from ancients_games.centurion.full.sequence import move_hooks
    from ancients_games.centurion.movement import movable_reason, reachable

    hooks = move_hooks(state)
    enemy = [u.hex for u in state.live_units(state.opponent(side)) if u.hex is not None]
    if not enemy:
        return
    start = state.extra.get("full_move_start_hex", {})
    for u in list(state.live_units(side)):
        if u.type not in ("BI", "BHC") or u.hex is None:
            continue
        # Left standing = still on its start hex, whether the player answered "stay", only turned, or
        # never picked it (a "stay" answer marks the unit moved, yet it has not advanced).
        if start.get(u.id, u.hex if not u.moved else None) != u.hex:
            continue
        near = min(u.hex.distance(e) for e in enemy)
        if not warrior_bound(state, near) or near <= 1:
            continue
        was_moved, u.moved = u.moved, False  # "stay" spent the move without moving: it advances now
        why = movable_reason(state, u, hooks)
        if why is not None:
            u.moved = was_moved
            continue
        reach = reachable(state, u, hooks)
        if not reach.cost:
            u.moved = was_moved
            continue
        best = min(reach.cost, key=lambda h: (min(h.distance(e) for e in enemy), reach.cost[h], state.hid(h)))
        if min(best.distance(e) for e in enemy) >= near:
            u.moved = was_moved
            continue
        goal = min(enemy, key=lambda e: (best.distance(e), e))
        facings = reach.facings.get(best, {})
        want = min(range(6), key=lambda g: (best.neighbor(g).distance(goal), g))
        face = want if want in facings else min(facings, key=lambda g: (facings[g], g)) if facings else u.facing
        frm = u.hex
        state.move(u, best)
        u.facing = face
        u.moved = True
        if best.distance(goal) == 1:
            try:
                d = direction_to(best, goal)
                if d in facings:
                    u.facing = d
            except ValueError:
                pass
        ctx.event("move", f"{u.id} must advance to the attack: {state.hid(frm)} -> {state.hid(best)}",
                  rules=("cen:barb.warrior", "cen:full.movement"), side=side, unit=u.id, private_to=side,
                  public_text=f"a {side} unit must advance to the attack: {state.hid(frm)} -> {state.hid(best)}")


# ------------------------------------------------------------------ barbarian warrior


def barbarian_must_attack(ctx: Context, state: CenturionState, side: str, attacks: list[Attack]) -> None:
    """cen:barb.warrior: barbarian troops close enough to attack MUST attack.

    Every barbarian unit not yet allocated that fronts on an enemy hex joins a
    melee attack on it (an existing one if it may, else a new one). The advance
    within seven hexes is :func:`after_movement`'s.
    """
    if not is_barbarian(state, side) or not active_for(state, "cen:barb.warrior", side):
        return
    from ancients_games.centurion.full import melee as melee_mod
    from ancients_games.centurion.full.sequence import Attack as AttackCls, _melee_factor, _melee_targets

    used = {uid for a in attacks for uid in a.units}
    li = active(state, "cen:rom.legion-integrity")
    for u in list(state.live_units(side)):
        if u.id in used or u.hex is None or u.type not in ("BI", "BHC") or _melee_factor(state, u) is None:
            continue
        tg = [h for h in _melee_targets(state, u) if state.side_at(h) != side]  # the foe, not deserters
        if not tg:
            continue
        h = tg[0]
        joined = False
        for a in attacks:
            if a.target == h and a.mode == "melee":
                same = [state.units[i] for i in a.units if state.units[i].hex == u.hex]
                if not same or melee_mod.homogeneity_problem(
                        [state.types[x.type] for x in [*same, u]], [x.group for x in [*same, u]], li) is None:
                    a.units.append(u.id)
                    joined = True
                    break
        if not joined:
            attacks.append(AttackCls(h, "melee", [u.id]))
        used.add(u.id)
        ctx.event("combat", f"{u.id} must attack {state.hid(h)} (barbarian warriors)", rules=("cen:barb.warrior",),
                  side=side)


def describe_options(values: Sequence[tuple[str, Any]]) -> str:
    return ", ".join(f"{k}={v}" for k, v in values)
