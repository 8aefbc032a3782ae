"""Cheap heuristics for the greedy bot (``Game.score_option``, ``Game.evaluate``).

The greedy bot asks :func:`score` for every option of a decision. Every kind
of decision the xen-core phases ask has a score here (:data:`CORE_SCORES`);
the kinds of the other modules (operations, combat, chits, diplomacy,
negotiations ...) are scored by that module's own
``score(state, decision, key)`` (:data:`RULES_SCORES`): one table,
:data:`SCORES`, names the scorer of every :class:`~.vocab.Kind`; a kind nobody scores gets 0
(the greedy bot then picks at random among its options). The scores encode
the aims of xen:victory (cities, controlled satrapies' Levy Values, the
enemy's Supreme Leader) and sound housekeeping (pay upkeep, keep strong
units, spend spare $). They read only what the deciding side may see: its own
treasury and chits, the open map (xen:intelligence). They are hints, not
rules: every option offered is legal.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from ancients_kit.chance import Rng, redeal
from ancients_kit.protocol import Decision

from . import combat, diplomacy, operations, stratagems
from .state import Unit, XenState, other_side, slug, unit_value
from .treasury import income, upkeep
from .victory import scores
from .vocab import COMBAT_KINDS, DIPLOMACY_KINDS, OPERATIONS_KINDS, WINDOW_KINDS, Kind

__all__ = ["BATCH_SCORES", "CHIT_VALUE", "CORE_SCORES", "RULES_SCORES", "SCORES", "BatchScorer", "Scorer",
           "determinize", "evaluate", "score", "score_options", "unit_value"]

Scorer = Callable[[XenState, Decision, str], float | None]
"""A score of one option: ``(state, decision, key) -> score`` (None: no opinion, read as 0)."""

BatchScorer = Callable[[XenState, Decision], "list[float] | None"]
"""A score of all of a decision's options at once, or None to score them one by one."""

CHIT_VALUE: dict[str, float] = {
    "Agent": 3.0, "Treachery": 2.5, "Forced March": 2.0, "Military Advantage": 2.5, "Leader Arises": 3.0,
    "Successor": 2.0, "King's Eye": 1.0, "Great King": 3.5, "Hellenistic League": 3.5, "Expedition": 2.5,
    "Anabasis": 2.0, "Consult Oracles": 1.5, "Currency Reform": 2.0, "Empire Mobilizes": 3.0,
    "Ten Thousand": 2.5, "Royal Road": 1.5, "Bribery": 1.5, "Scorched Earth": 1.5, "Blank": 0.0,
}
"""What a chit is worth to hold (for returns and Favourable Omens)."""


def determinize(state: XenState, viewer: str, rng: Rng) -> None:
    """Deal the other hand again from the chits ``viewer`` has not seen (the pool and that
    hand; its size kept), and put the other treasury, unless open, at what ``viewer`` can
    estimate: that side's income now (xen:intelligence: $ and chits are secret; what King's
    Eye showed is a snapshot that later draws and spending make stale, so it is not used).
    For the search bots (``Game.determinize``)."""
    other = other_side(viewer)
    redeal(state.hands[other], state.pool, rng)
    money = state.treasury[other]
    if not money.open:
        money.value = income(state, other)[0]


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


CORE_SCORES: Final[Mapping[Kind, Scorer]] = {
    Kind.SETUP_SUPREME: _supreme,
    Kind.SETUP_LEADER: _setup_near_sardis,
    Kind.SETUP_GUARD: _setup_near_sardis,
    Kind.SETUP_GUARD_HEX: _setup_near_sardis,
    Kind.SETUP_PLACE: _setup_place,
    Kind.CHIT_RETURN: _chit_return,
    Kind.EVENT_PLACE: _place,
    Kind.EVENT_LEADER: _leader,
    Kind.EVENT_UNIT: _rally,
    Kind.EVENT_ATTRITION: _lose,
    Kind.EVENT_RESISTS: _resists,
    Kind.EVENT_UNPAID: _lose,
    Kind.EVENT_FAMINE: _famine,
    Kind.EVENT_OMENS: _chit_choice,
    Kind.EVENT_CONSPIRACY: _conspiracy,
    Kind.TREASURY_SPEND: _treasury_spend,
    Kind.TREASURY_UPKEEP: _upkeep,
    Kind.RECRUIT_CITY: _recruit_city,
    Kind.RECRUIT_UNIT: _recruit_unit,
    Kind.LEVY_TYPE: _levy_type,
    Kind.LEVY_HEX: _levy_hex,
    Kind.SUPPLY_TRAIN: _supply_train,
    Kind.SUPPLY_LOSE: _lose,
}
"""Decision kind -> its score, for every decision the xen-core modules ask."""

RULES_SCORES: Final[Mapping[Kind, Scorer]] = {
    # the chits (xen:stratagem, xen:chits): stratagems.py
    Kind.STRATAGEM_PLAY: stratagems.score,
    Kind.STRATAGEM_RETURN: stratagems.score,
    Kind.STRATAGEM_REVEAL: stratagems.score,
    Kind.LEADER_ARISE: stratagems.score,
    Kind.TEN_THOUSAND_CITY: stratagems.score,
    Kind.TEN_THOUSAND_COUNT: stratagems.score,
    Kind.MOBILIZE_SATRAPY: stratagems.score,
    Kind.MOBILIZE_TYPE: stratagems.score,
    Kind.MOBILIZE_HEX: stratagems.score,
    Kind.SCORCHED_EARTH_HEX: stratagems.score,
    # the windows the chits are played at: the bot's taste for each, stratagems.py
    **dict.fromkeys(WINDOW_KINDS, stratagems.window_score),
    # c. Diplomacy (xen:diplomacy) and agreements (xen:negotiations): diplomacy.py
    **dict.fromkeys(DIPLOMACY_KINDS, diplomacy.score),
    # g. Operations (xen:operations): operations.py
    **dict.fromkeys(OPERATIONS_KINDS, operations.score),
    # battles (xen:combat, xen:opt.personal-combat): the score the rules put in each option, combat.py
    **dict.fromkeys(COMBAT_KINDS, combat.score),
}
"""Decision kind -> the rules module's ``score(state, decision, key)`` that scores it (the kinds
not in :data:`CORE_SCORES`; its None reads as 0)."""

SCORES: Final[Mapping[Kind, Scorer]] = {**CORE_SCORES, **RULES_SCORES}
"""Every decision kind -> its score (:data:`CORE_SCORES` and :data:`RULES_SCORES`)."""

BATCH_SCORES: Final[Mapping[Kind, BatchScorer]] = {
    Kind.OPS_ACTION: operations.score_options,  # the moves share one distance field
}
"""Decision kind -> a score of all its options at once, where they share costly work."""


def score(state: XenState, decision: Decision, key: str) -> float | None:
    """A cheap score for answering ``decision`` with ``key`` (higher is better): by
    :data:`SCORES`; a kind nobody scores gets 0."""
    fn = CORE_SCORES.get(decision.kind)  # type: ignore[call-overload]  # a Kind is its string
    if fn is not None:
        return fn(state, decision, key)
    hook = RULES_SCORES.get(decision.kind)  # type: ignore[call-overload]
    if hook is not None:
        value = hook(state, decision, key)
        return float(value) if value is not None else 0.0
    return 0.0


def score_options(state: XenState, decision: Decision) -> list[float | None]:
    """:func:`score` of every option of ``decision``, in order; a kind whose options share
    costly work is scored all at once by :data:`BATCH_SCORES` (the Operations phase's moves
    share one distance field)."""
    batch = BATCH_SCORES.get(decision.kind)  # type: ignore[call-overload]
    if batch is not None:
        got = batch(state, decision)
        if got is not None:
            return list(got)
    return [score(state, decision, o.key) for o in decision.options]
