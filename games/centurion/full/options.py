"""Optional and special rules as switchable options: the switches, and the set-up readings.

Every option names its rule ID. Rule options take ``scenario`` (the default:
in force if the scenario lists the rule, for the sides it lists it for),
``on`` or ``off``. The engine's ``options.py`` lists :data:`OPTION_SPECS` in
``option_specs``; the values arrive in ``ctx.options`` / ``state.options``.

=========================  ==============================  ======================================
option                     rule                            effect, where applied
=========================  ==============================  ======================================
fortune                    cen:opt.fortune                 a side's attacks round in its favour (combat)
earthworks                 cen:opt.earthworks              build action; defence x2, workers half; raze after moving
caltrops                   cen:opt.caltrops                build action; attack out half, cavalry barred (combat)
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
  and regains those two points (works.works_captured).
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

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ancients_kit.plugin import OptionSpec
from ancients_kit.protocol import Context

from ancients_games.centurion.full.book import book

if TYPE_CHECKING:
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
    return active_for(state, rule, None)


def active_for(state: CenturionState, rule: str, side: str | None) -> bool:
    """Is ``rule`` in force for ``side`` (scenario header, that side's options, or switched on)?
    ``side`` None: for anyone (the header or any side's options)."""
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
    """Is ``side`` called Roman (by its name in the scenario)?"""
    return "roman" in state.side_names.get(side, side).lower()


# ------------------------------------------------------------------ barbarian warrior


def describe_options(values: Sequence[tuple[str, Any]]) -> str:
    """``name=value`` pairs, comma-separated, for a log line."""
    return ", ".join(f"{k}={v}" for k, v in values)
