"""The Random Events phase and the Revolt Table (xen:random-events, xen:revolt).

In his Random Events phase the phasing player rolls 2d6 as tens and units
(d66) on the Random Events Table (``tables/events.toml``) and applies the
result. 11-26 are printed; 31-66 are reconstructed (marked per row in the
data). Each result code has its handler in :data:`HANDLERS`.

Revolt (xen:revolt): for each satrapy an event names, 1d6 on the Revolt Table
(``tables/revolt.toml``), -1 if the satrapy has any Pillage marker, +1 if the
phasing player occupies a Colony in it, +1 with the public works option if
every City/Colony of the satrapy has Public Works (ruling 17); 1-2 revolts: a
neutral satrapy becomes Rebel-controlled, a player-controlled one neutral
(:func:`revolt_drm`, :func:`revolt`).

Mediterranean War lasts for the phasing player's player-turn (ruling 15): it
is the effect ``player-turn:mediterranean-war`` (the satrapies where he may
not tax, purchase or levy), read by :mod:`.treasury` and :mod:`.recruit`.
Famine lasts the game-turn (``turn:famine``, read by
:meth:`~.state.XenState.forage`).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from ancients_kit.protocol import Context, Decision, Option
from ancients_kit.tables import LookupTable

from . import control, leaders
from .chits import draw_chit, lose_chits, roll
from .pillage import mark_pillaged
from .treasury import disband_check, maintained_units
from .state import EMPIRE, NEUTRAL, REBEL, Unit, XenState, other_side, slug, type_name
from .vocab import Kind

__all__ = [
    "HANDLERS",
    "MEDITERRANEAN",
    "REVOLT_REGIONS",
    "events_phase",
    "revolt",
    "revolt_drm",
]

EV = "xen:random-events"
RV = "xen:revolt"

MEDITERRANEAN = ("Sparta", "Athens", "Illyria", "Thessaly", "Macedon", "Thrace", "Ionia", "Egypt", "Libya")
"""Where Mediterranean War forbids tax, purchase and levy (event 21-22, printed)."""

REVOLT_REGIONS: dict[str, tuple[str, ...]] = {
    "revolt-hellas": ("Sparta", "Athens", "Illyria", "Thessaly", "Macedon", "Thrace"),
    "revolt-anatolia": ("Ionia", "Lydia", "Phrygia", "Tibarene", "Cilicia"),
    "revolt-levant": ("Syria", "Egypt", "Libya", "Arabia"),
    "revolt-north": ("Scythia", "Colchis", "Armenia", "Alarodia"),
    "revolt-heartland": ("Assyria-Babylonia", "Media", "Elam", "Persis"),
    "revolt-upper": ("Hyrkania", "Parthia", "Drangiana", "Bactria", "Sogdiana"),
    "revolt-india": ("Gandara", "Parikania", "Persian India", "Greater India", "Sakans", "Massagetai"),
}
"""The satrapies each reconstructed regional Revolt event names (events.toml 31-41): all 34 once."""


# ---------------------------------------------------------------------------
# Revolt


def revolt_drm(state: XenState, satrapy: str, phasing: str) -> int:
    """The Revolt Table's DRM for ``satrapy`` (xen:revolt; xen:opt.public-works, ruling 17)."""
    hexes = state.hexes_of(satrapy)
    drm = 0
    if any(h in state.pillaged for h in hexes):
        drm -= 1
    if any(h in state.colonies and state.occupier(h) == phasing for h in hexes):
        drm += 1
    if state.options.public_works:
        cities = state.cities_of(satrapy)
        if cities and all(h in state.public_works for h in cities):
            drm += 1
    return drm


def revolt_result(control: str) -> str:
    """What a revolt makes of a satrapy's control (xen:revolt)."""
    return REBEL if control == NEUTRAL else NEUTRAL


def revolt(ctx: Context, state: XenState, satrapies: tuple[str, ...], phasing: str) -> Generator[Decision, str, None]:
    """Roll on the Revolt Table for each named satrapy (xen:revolt)."""
    table = state.data.tables["revolt"]
    assert isinstance(table, LookupTable)
    for s in satrapies:
        drm = revolt_drm(state, s, phasing)
        res = table.resolve((yield from roll(ctx, state, f"Revolt Table: {s}", (RV,))), drm)
        if res.result == "revolt":
            yield from control.turn(ctx, state, s, revolt_result(state.control[s]), "revolt", (RV,))
        else:
            ctx.event("revolt", f"{s}: no revolt (roll {res.roll}{drm:+d})", (RV,), satrapy=s)


# ---------------------------------------------------------------------------
# The events

Handler = Callable[[Context, XenState, str], Generator[Decision, str, None]]


def _leader_arises(ctx: Context, state: XenState, side: str) -> Generator[Decision, str, None]:
    # One list with the chit and Anabasis (xen:leaders): neither the current Supreme Leader nor
    # the scenario's (dead, after a Successor) may arise as an ordinary leader.
    allowed = set(leaders.available_leaders(state, side))
    avail = [u for u in state.units.values() if u.id in allowed]
    if not avail:
        ctx.event("event", f"Leader Arises: {side} has no leader available", (EV, "xen:leaders"), side=side)
        return
    key = yield Decision(side, "Leader Arises: which leader?", tuple(Option(slug(u.id), u.id) for u in avail),
                         rule=EV, kind=Kind.EVENT_LEADER)
    u = next(u for u in avail if slug(u.id) == key)
    yield from leaders.place_with_friendly(ctx, state, side, u, "Leader Arises", (EV, "xen:leaders"))


def _troops_rally(ctx: Context, state: XenState, side: str) -> Generator[Decision, str, None]:
    choices: list[tuple[str, Unit]] = []
    for s in state.controlled(side):
        seen: set[str] = set()
        for u in state.units.values():
            if u.satrapy == s and u.where == "mix" and u.type not in seen:
                seen.add(u.type)
                choices.append((f"{slug(s)}:{u.type}", u))
    if not choices:
        ctx.event("event", f"Troops Rally: no unit of a {side} satrapy is in the counter mix", (EV,), side=side)
        return
    key = yield Decision(side, "Troops Rally: which unit (satrapy and type)?",
                         tuple(Option(k, f"{u.satrapy}: {type_name(u.type)}") for k, u in choices),
                         rule=EV, kind=Kind.EVENT_UNIT)
    u = dict(choices)[key]
    yield from leaders.place_with_friendly(ctx, state, side, u, "Troops Rally", (EV,))


def _attrition(ctx: Context, state: XenState, side: str) -> Generator[Decision, str, None]:
    n = yield from roll(ctx, state, "Attrition: friendly units lost", (EV,))
    must_leader = n % 2 == 0 and bool(state.leaders(side))
    for i in range(n):
        pool = [u for u in state.side_units(side) if (u.leader or not must_leader)]
        if not pool:
            break
        what = "a leader (the roll was even)" if must_leader else "a unit"
        key = yield Decision(side, f"Attrition ({i + 1} of {n}): eliminate {what}",
                             tuple(Option(u.id, f"{u.id} in {u.hex}") for u in sorted(pool, key=lambda u: u.id)),
                             rule=EV, kind=Kind.EVENT_ATTRITION)
        yield from leaders.eliminate_unit(ctx, state, key, "Attrition", (EV,))
        must_leader = False


def _mediterranean_war(ctx: Context, state: XenState, side: str) -> Generator[Decision, str, None]:
    state.effects["player-turn:mediterranean-war"] = MEDITERRANEAN
    ctx.event("event", f"Mediterranean War: {side} may not tax, purchase or levy this player-turn in "
              f"{', '.join(MEDITERRANEAN)}", (EV,), side=side)
    return
    yield


def _plague(ctx: Context, state: XenState, side: str) -> Generator[Decision, str, None]:
    for s in state.data.satrapies:
        if (yield from roll(ctx, state, f"Plague: {s}", (EV,))) != 6:
            continue
        ctx.event("event", f"Plague in {s}", (EV,), satrapy=s)
        for h in state.hexes_of(s):
            for u in list(state.units_at(h)):
                if u.where == "map" and (yield from roll(ctx, state, f"Plague: {u.id}", (EV,))) <= 2:
                    yield from leaders.eliminate_unit(ctx, state, u.id, f"plague in {s}", (EV,))
        for h in state.cities_of(s):
            if h in state.pillaged:
                continue
            if (yield from roll(ctx, state, f"Plague: city {h}", (EV,))) <= 2:
                mark_pillaged(ctx, state, h, f"plague in {s}", (EV,))
    for p in (REBEL, EMPIRE):
        n = yield from roll(ctx, state, f"Plague: {p} discards chits", (EV,))
        lose_chits(ctx, state, p, n, "plague", (EV, "xen:stratagem"))


def _dissent(ctx: Context, state: XenState, side: str) -> Generator[Decision, str, None]:
    n = (len(state.hands[side]) + 1) // 2
    lose_chits(ctx, state, side, n, "Dissent in High Office: half, rounded up", (EV, "xen:stratagem"))
    return
    yield


def _revolt(code: str) -> Handler:
    def handler(ctx: Context, state: XenState, side: str) -> Generator[Decision, str, None]:
        yield from revolt(ctx, state, REVOLT_REGIONS[code], side)

    return handler


def _resists(against_phasing: bool) -> Handler:
    """Satrapy Resists: one chooser names a satrapy the other controls with none of its units inside."""

    def handler(ctx: Context, state: XenState, side: str) -> Generator[Decision, str, None]:
        owner = side if against_phasing else other_side(side)
        chooser = other_side(owner)
        cand = [s for s in state.controlled(owner) if not any(state.occupier(h) == owner for h in state.hexes_of(s))]
        if not cand:
            ctx.event("event", f"Satrapy Resists: {owner} controls no satrapy without a {owner} unit in it",
                      (EV, "xen:control"))
            return
        key = yield Decision(chooser, f"Satrapy Resists: name {'an' if owner[0] in 'aeiou' else 'a'} {owner} satrapy (none of its units inside) "
                             "that becomes neutral", tuple(Option(slug(s), s) for s in cand), rule=EV,
                             kind=Kind.EVENT_RESISTS)
        s = next(s for s in cand if slug(s) == key)
        yield from control.turn(ctx, state, s, NEUTRAL, "Satrapy Resists", (EV, "xen:control"))

    return handler


def _tribute(ctx: Context, state: XenState, side: str) -> Generator[Decision, str, None]:
    n = yield from roll(ctx, state, "Tribute", (EV,))
    state.treasury[side].gain(ctx, n, "Tribute", (EV, "xen:treasury"))


def _persian_gold(ctx: Context, state: XenState, side: str) -> Generator[Decision, str, None]:
    state.treasury[side].gain(ctx, 6 if side == EMPIRE else 3, "Persian Gold", (EV, "xen:treasury"))
    return
    yield


def _intrigue(ctx: Context, state: XenState, side: str) -> Generator[Decision, str, None]:
    yield from draw_chit(ctx, state, side, "Intrigue", (EV, "xen:stratagem"))


def _quiet(ctx: Context, state: XenState, side: str) -> Generator[Decision, str, None]:
    ctx.event("event", "No event", (EV,), side=side)
    return
    yield


def _mercenaries(ctx: Context, state: XenState, side: str) -> Generator[Decision, str, None]:
    state.effects["player-turn:mercenaries"] = side
    ctx.event("event", f"Mercenaries: {side} may recruit 1 Phalanx for $2 this player-turn in a friendly-occupied "
              "City (its Recruit phase)", (EV, "xen:recruit"), side=side)
    return
    yield


def _unpaid_troops(ctx: Context, state: XenState, side: str) -> Generator[Decision, str, None]:
    n = yield from roll(ctx, state, "Unpaid Troops: units checking", (EV,))
    for i in range(n):
        cand = [u for u in maintained_units(state, side) if u.embarked is None]
        if not cand:
            break
        key = yield Decision(side, f"Unpaid Troops ({i + 1} of {n}): which maintained unit rolls on the Disband "
                             "Table?", tuple(Option(u.id, f"{u.id} in {u.hex}") for u in cand), rule=EV,
                             kind=Kind.EVENT_UNPAID)
        yield from disband_check(ctx, state, key, (EV, "xen:disband"))


def _famine(ctx: Context, state: XenState, side: str) -> Generator[Decision, str, None]:
    chooser = other_side(side)
    opts = tuple(Option(slug(s), s) for s in state.data.satrapies)
    key = yield Decision(chooser, "Famine: which satrapy's non-City hexes have FV 0 in this turn's Supply phases?",
                         opts, rule=EV, kind=Kind.EVENT_FAMINE)
    s = next(s for s in state.data.satrapies if slug(s) == key)
    state.effects["turn:famine"] = tuple(state.effects.get("turn:famine", ())) + (s,)
    ctx.event("event", f"Famine in {s}: its non-City hexes have FV 0 this turn", (EV, "xen:supply"), satrapy=s)


OMENS_DRAW = 2
"""Favourable Omens (rebuilt 63): how many chits the player draws unseen from the pool."""


def _omens(ctx: Context, state: XenState, side: str) -> Generator[Decision, str, None]:
    """Favourable Omens (reconstructed 63): the phasing player draws :data:`OMENS_DRAW` chits at
    random from the pool, privately, keeps one of them (or none) and returns the rest. He sees
    only the chits drawn, never the pool, whose missing kinds would tell him part of the other
    hand (xen:intelligence: only King's Eye and the D1 result reveal chits)."""
    hand = state.hands[side]
    if hand.limit is not None and len(hand) >= hand.limit:
        ctx.event("event", f"Favourable Omens: {side} holds 15 chits and takes none", (EV, "xen:stratagem"), side=side)
        return
    if not len(state.pool):
        ctx.event("event", "Favourable Omens: the pool is empty", (EV,), side=side)
        return
    with ctx.secret(side):
        drawn = [str(state.pool.draw(ctx.chance, f"{side} draws a chit (Favourable Omens)", (EV, "xen:stratagem")))
                 for _ in range(min(OMENS_DRAW, len(state.pool)))]
    kinds = sorted(set(drawn))
    key = yield Decision(side, f"Favourable Omens: you drew {', '.join(drawn)}; keep which (the rest go back)?",
                         tuple(Option(slug(c), c) for c in kinds) + (Option("none", "keep none"),),
                         rule=EV, kind=Kind.EVENT_OMENS)
    kept = next((c for c in kinds if slug(c) == key), None)
    back = list(drawn)
    if kept is not None:
        back.remove(kept)
        hand.add(kept)
    state.pool.add(*back)
    ctx.event("chit", f"{side} keeps {kept or 'no chit'} and returns {len(back)} to the pool (Favourable Omens)",
              (EV, "xen:stratagem"), side=side, private_to=side,
              public_text=f"{side} draws {len(drawn)} chits, keeps {0 if kept is None else 1} and returns "
                          f"{len(back)} to the pool (Favourable Omens)")


def _conspiracy(ctx: Context, state: XenState, side: str) -> Generator[Decision, str, None]:
    foe = other_side(side)
    targets = sorted(state.leaders(foe), key=lambda u: u.id)
    if not targets:
        ctx.event("event", f"Conspiracy: {foe} has no leader on the map", (EV,), side=side)
        return
    opts = tuple(Option(slug(u.id), f"attempt on {u.id}") for u in targets) + (Option("none", "no attempt"),)
    key = yield Decision(side, "Conspiracy: attempt an assassination (as the D3 result)?", opts, rule=EV,
                         kind=Kind.EVENT_CONSPIRACY)
    if key == "none":
        return
    victim = next(u for u in targets if slug(u.id) == key)
    yield from leaders.assassinate(ctx, state, side, victim.id)


HANDLERS: dict[str, Handler] = {
    "leader-arises": _leader_arises,
    "troops-rally": _troops_rally,
    "attrition": _attrition,
    "mediterranean-war": _mediterranean_war,
    "plague": _plague,
    "dissent": _dissent,
    **{code: _revolt(code) for code in REVOLT_REGIONS},
    "satrapy-resists": _resists(against_phasing=True),
    "satrapy-resists-enemy": _resists(against_phasing=False),
    "tribute": _tribute,
    "stratagem": _intrigue,
    "quiet": _quiet,
    "quiet-late": _quiet,
    "persian-gold": _persian_gold,
    "mercenaries": _mercenaries,
    "unpaid-troops": _unpaid_troops,
    "famine": _famine,
    "omens": _omens,
    "conspiracy": _conspiracy,
}
"""Result code of the Random Events Table -> its handler."""


def events_phase(ctx: Context, state: XenState, side: str) -> Generator[Decision, Any, None]:
    """a. Random Events phase: roll d66 and apply the result (xen:random-events)."""
    table = state.data.tables["random-events"]
    assert isinstance(table, LookupTable)
    res = table.resolve((yield from roll(ctx, state, f"{side}: Random Events Table", (EV,), "d66")))
    mark = " [reconstructed row]" if res.source == "reconstructed" else ""
    ctx.event("random-event", f"{side} rolls {res.roll}: {res.meaning}{mark}",
              (EV,) + ((RV,) if res.result in REVOLT_REGIONS else ()), side=side, code=res.result, roll=res.roll)
    yield from HANDLERS[res.result](ctx, state, side)
