"""Cheap heuristics for the greedy bot (``Game.score_option``, ``Game.evaluate``).

The greedy bot asks :func:`score` for every option of a decision. Every kind
of decision the xen-core phases ask has a score here (:data:`CORE_SCORES`);
the kinds of the other modules (operations, movement, combat, chits,
diplomacy, negotiations ...) are scored by that module's own
``score(state, decision, key)`` (:data:`_SCORING`); a kind nobody scores gets 0
(the greedy bot then picks at random among its options). The scores encode
the aims of xen:victory (cities, controlled satrapies' Levy Values, the
enemy's Supreme Leader) and sound housekeeping (pay upkeep, keep strong
units, spend spare $). They read only what the deciding side may see: its own
treasury and chits, the open map (xen:intelligence). They are hints, not
rules: every option offered is legal.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

from ancients_kit.session import Decision

from . import combat, diplomacy, operations, stratagems
from .state import Unit, XenState, other_side, slug, unit_value
from .treasury import upkeep
from .victory import scores

__all__ = ["CORE_SCORES", "CHIT_VALUE", "evaluate", "score", "score_options", "unit_value"]

CHIT_VALUE: dict[str, float] = {
    "Agent": 3.0, "Treachery": 2.5, "Forced March": 2.0, "Military Advantage": 2.5, "Leader Arises": 3.0,
    "Successor": 2.0, "King's Eye": 1.0, "Great King": 3.5, "Hellenistic League": 3.5, "Expedition": 2.5,
    "Anabasis": 2.0, "Consult Oracles": 1.5, "Currency Reform": 2.0, "Empire Mobilizes": 3.0,
    "Ten Thousand": 2.5, "Royal Road": 1.5, "Bribery": 1.5, "Scorched Earth": 1.5, "Blank": 0.0,
}
"""What a chit is worth to hold (for returns and Favourable Omens)."""


def evaluate(state: XenState, side: str) -> float:
    """The position for ``side``: the VP difference, units on the map, $ (own only), chits."""
    vp = scores(state)
    mine = sum(unit_value(state, u) for u in state.side_units(side))
    theirs = sum(unit_value(state, u) for u in state.side_units(other_side(side)))
    value = (vp[side] - vp[other_side(side)]) + 0.05 * (mine - theirs) + 0.2 * state.treasury[side].value \
        + 0.5 * len(state.hands[side])
    if state.over:
        value += 1000.0 if state.winner == side else (-1000.0 if state.winner else 0.0)
    return value


def _distance(a: str, b: str, state: XenState) -> int:
    return state.map.from_id(a).distance(state.map.from_id(b))


def _enemy_centre(state: XenState, side: str) -> str | None:
    """The enemy Supreme Leader's hex (where the war is), or None."""
    u = state.supreme_leader(other_side(side))
    return u.hex if u is not None else None


def _near_enemy(state: XenState, side: str, h: str) -> float:
    target = _enemy_centre(state, side)
    if target is None or h not in state.data.neighbours:
        return 0.0
    return -0.05 * _distance(h, target, state)


def _unit_from_key(state: XenState, key: str) -> Unit | None:
    uid = key.split(":", 1)[-1]
    return state.units.get(uid)


def _chit_named(key: str) -> str | None:
    for c in CHIT_VALUE:
        if slug(c) == key:
            return c
    return None


def _reserve(state: XenState, side: str) -> int:
    """$ the side wants left for next turn's upkeep."""
    return sum(c for _, c in upkeep(state, side))


def _treasury_spend(state: XenState, d: Decision, key: str) -> float:
    side = d.side
    money = state.treasury[side].value
    spare = money - _reserve(state, side)
    if key == "done":
        return 1.0
    if key == "buy-chit":
        return 2.0 if spare >= 6 and len(state.hands[side]) < 8 else -1.0
    if key.startswith("remove-pillage:"):
        h = key.split(":", 1)[1]
        cost = 5 if h in state.data.city_kind else 3
        return (3.0 if h in state.data.city_kind else 1.2) if spare >= cost else -1.0
    return 0.0


def _upkeep(state: XenState, d: Decision, key: str) -> float:
    if key == "pay":
        return 100.0
    u = _unit_from_key(state, key)
    return -unit_value(state, u) if u is not None else 0.0


def _recruit_city(state: XenState, d: Decision, key: str) -> float:
    if key == "done":
        return 1.0
    spare = state.treasury[d.side].value - _reserve(state, d.side)
    h = key.split(":", 1)[1]
    return (2.0 if spare >= 4 else 0.5) + _near_enemy(state, d.side, h)


def _recruit_unit(state: XenState, d: Decision, key: str) -> float:
    if key == "back":
        return 0.0
    if key == "public-works":
        return 0.4
    t = key.removeprefix("guard-")
    if t == "mercenary":
        t = "phalanx"
    f = state.data.units.get(t)
    if f is None or not f.recruit:
        return 0.1
    worth = f.cs + f.ov / 8 + (3.0 if t == "supply_train" else 0.0)
    return worth / (f.recruit + f.upkeep * 2)


def _levy_type(state: XenState, d: Decision, key: str) -> float:
    if key == "done":
        return -1.0
    f = state.data.units.get(key)
    return (f.cs + f.ov / 8) if f is not None else 0.0


def _levy_hex(state: XenState, d: Decision, key: str) -> float:
    if key not in state.data.neighbours:
        return 0.0
    crowd = len(state.units_at(key))
    city = 3.0 if state.is_city(key) and state.occupier(key) is None else (1.0 if state.is_city(key) else 0.0)
    room = state.forage(key) - crowd
    return city + (1.0 if room > 0 else -2.0) + _near_enemy(state, d.side, key)


def _supply_train(state: XenState, d: Decision, key: str) -> float:
    return 1.0 if key == "expend" else 0.0


def _lose(state: XenState, d: Decision, key: str) -> float:
    u = state.units.get(key)
    return -unit_value(state, u) if u is not None else 0.0


def _place(state: XenState, d: Decision, key: str) -> float:
    if key not in state.data.neighbours:
        return 0.0
    units = state.units_at(key)
    return len(units) + (3.0 if any(u.leader for u in units) else 0.0) + (2.0 if state.is_city(key) else 0.0)


def _leader(state: XenState, d: Decision, key: str) -> float:
    return 5.0 if key == "xenophon" else 1.0


def _rally(state: XenState, d: Decision, key: str) -> float:
    t = key.split(":", 1)[-1]
    f = state.data.units.get(t)
    return (f.cs + f.ov / 8) if f is not None else 0.0


def _satrapy_named(state: XenState, key: str) -> str | None:
    return next((s for s in state.data.satrapies if slug(s) == key), None)


def _resists(state: XenState, d: Decision, key: str) -> float:
    s = _satrapy_named(state, key)
    return float(state.data.row(s).levy_value) if s else 0.0


def _famine(state: XenState, d: Decision, key: str) -> float:
    s = _satrapy_named(state, key)
    if s is None:
        return 0.0
    foe = other_side(d.side)
    return float(sum(len(state.units_at(h)) for h in state.hexes_of(s) if state.occupier(h) == foe)) \
        - float(sum(len(state.units_at(h)) for h in state.hexes_of(s) if state.occupier(h) == d.side))


def _chit_choice(state: XenState, d: Decision, key: str) -> float:
    c = _chit_named(key)
    return CHIT_VALUE.get(c, 1.0) if c else 0.0


def _chit_return(state: XenState, d: Decision, key: str) -> float:
    return -_chit_choice(state, d, key)


def _conspiracy(state: XenState, d: Decision, key: str) -> float:
    if key == "none":
        return 0.0
    u = next((x for x in state.leaders(other_side(d.side)) if slug(x.id) == key), None)
    return 2.0 if u is not None and state.supreme.get(u.side) == u.id else 1.0


def _setup_near_sardis(state: XenState, d: Decision, key: str) -> float:
    sardis = state.map.to_id(state.map.place("Sardis"))
    if key in state.data.neighbours:
        return -0.1 * _distance(key, sardis, state)
    s = _satrapy_named(state, key)
    if s is not None and state.cities_of(s):
        return -0.1 * _distance(state.cities_of(s)[0], sardis, state)
    return 0.0


def _setup_place(state: XenState, d: Decision, key: str) -> float:
    if key not in state.data.neighbours:
        return 0.0
    return (3.0 if state.is_city(key) else 0.0) + 0.5 * state.data.forage.get(key, 0) - len(state.units_at(key))


def _supreme(state: XenState, d: Decision, key: str) -> float:
    return 1.0 if key == "susa" else 0.0  # the central capital, on the Royal Road


CORE_SCORES: dict[str, Callable[[XenState, Decision, str], float]] = {
    "setup.supreme": _supreme,
    "setup.leader": _setup_near_sardis,
    "setup.guard": _setup_near_sardis,
    "setup.guard-hex": _setup_near_sardis,
    "setup.place": _setup_place,
    "chit.return": _chit_return,
    "event.place": _place,
    "event.leader": _leader,
    "event.unit": _rally,
    "event.attrition": _lose,
    "event.resists": _resists,
    "event.unpaid": _lose,
    "event.famine": _famine,
    "event.omens": _chit_choice,
    "event.conspiracy": _conspiracy,
    "treasury.spend": _treasury_spend,
    "treasury.upkeep": _upkeep,
    "recruit.city": _recruit_city,
    "recruit.unit": _recruit_unit,
    "levy.type": _levy_type,
    "levy.hex": _levy_hex,
    "supply.train": _supply_train,
    "supply.lose": _lose,
}
"""Decision kind -> its score, for every decision the xen-core modules ask."""

_SCORING: dict[str, ModuleType] = {
    "ops": operations,
    "combat": combat,
    "diplomacy": diplomacy,
    "negotiations": diplomacy,
    "window": stratagems,
    "stratagem": stratagems,
    "leader": stratagems,
    "ten-thousand": stratagems,
    "scorched-earth": stratagems,
    "mobilize": stratagems,
}
"""Decision-kind prefix -> the rules module whose ``score(state, decision, key)`` (and, where
its options share costly work, ``score_options``) scores it (the kinds not in CORE_SCORES)."""


def _module(kind: str) -> ModuleType | None:
    """The module that scores a decision kind (by :data:`_SCORING`)."""
    return _SCORING.get(kind.split(".", 1)[0])


def score(state: XenState, decision: Decision, key: str) -> float | None:
    """A cheap score for answering ``decision`` with ``key`` (higher is better)."""
    fn = CORE_SCORES.get(decision.kind)
    if fn is not None:
        return fn(state, decision, key)
    hook = getattr(_module(decision.kind), "score", None)
    if hook is not None:
        value = hook(state, decision, key)
        return float(value) if value is not None else 0.0
    return 0.0


def score_options(state: XenState, decision: Decision) -> list[float | None]:
    """:func:`score` of every option of ``decision``, in order; a module whose options share
    costly work scores them all at once through its own ``score_options`` (the Operations
    phase's moves share one distance field)."""
    if decision.kind not in CORE_SCORES:
        batch = getattr(_module(decision.kind), "score_options", None)
        if batch is not None:
            got = batch(state, decision)
            if got is not None:
                return list(got)
    return [score(state, decision, o.key) for o in decision.options]
