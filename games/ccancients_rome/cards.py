"""The 60-card Command deck and what each card lets a side order.

Owns :class:`CardSpec` (``data/deck.toml``), the deck builder and
:func:`order_plan`, which turns a played card into an :class:`OrderPlan`
(how many units in which sections, which troops, leaders or not, the
tactic's effect). Serves ``ccr:base.cards`` and ``ccr:base.sections``; the
Baggage Wagon's card restrictions (``ccr:baggage-wagon``) are encoded here too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

import attrs

from ancients_kit.data import DataError, DataStore, Meta, RangeError, bounded, document_file

__all__ = ["CardSpec", "Deckfile", "OrderPlan", "load_deck", "mirror_plan", "order_plan"]


TACTIC_EFFECTS = ("clash-of-shields", "counter-attack", "darken-the-sky", "double-time", "first-strike",
                  "i-am-spartacus", "line-command", "mounted-charge", "move-fire-move", "rally")
"""The tactic cards' effects :func:`order_plan` plays (ccr:base.cards)."""

DECK_SIZE = 60
"""Cards in the Command deck (ccr:base.cards)."""


@attrs.frozen
class CardSpec:
    """One Command card kind (ccr:base.cards)."""

    id: str
    name: str
    count: int = attrs.field(validator=bounded(1, DECK_SIZE, rule="ccr:base.cards"))
    kind: Literal["section", "troop", "leadership", "tactic"]
    """section | troop | leadership | tactic"""
    orders: Mapping[str, int] = attrs.field(factory=dict, validator=bounded(0, 9, rule="ccr:base.cards"))
    """Units ordered per section (0 = as many as the side's command); printed cards order 1 to 4."""
    troops: Literal["", "light", "medium", "heavy", "mounted"] = ""
    size: Literal["", "command"] = ""
    """'command' when the card orders as many units as the side's command."""
    leaders: bool = False
    effect: str = ""
    special: str = ""

    def __attrs_post_init__(self) -> None:
        # What order_plan can play (ccr:base.cards): refused when the deck is
        # loaded rather than when the card is first played, mid-game.
        for section in self.orders:
            if section not in _MIRROR or section == "all":
                raise RangeError(f"orders.{section}", f"unknown section {section!r} (left, centre, right or any) "
                                 "[ccr:base.sections]")
        if self.kind == "tactic" and self.effect not in TACTIC_EFFECTS:
            raise RangeError("effect", f"unknown tactic effect {self.effect!r} (known: {', '.join(TACTIC_EFFECTS)}) "
                             "[ccr:base.cards]")


@attrs.frozen
class Deckfile:
    meta: Meta
    cards: tuple[CardSpec, ...]

    def by_id(self) -> dict[str, CardSpec]:
        return {c.id: c for c in self.cards}

    def deck_list(self) -> list[str]:
        out: list[str] = []
        for c in self.cards:
            out.extend([c.id] * c.count)
        return out


@attrs.frozen
class _DeckFile:
    card: tuple[CardSpec, ...]


def load_deck(store: DataStore) -> Deckfile:
    meta, doc = store.load("deck.toml", _DeckFile)
    total = sum(c.count for c in doc.card)
    if total != DECK_SIZE:
        # the same check for `ancients tables` as for `ancients new`: both load the deck here
        raise DataError(document_file(store, "deck.toml", meta.id),
                        f"the cards' counts add up to {total}, the Command deck has {DECK_SIZE} [ccr:base.cards]",
                        "card")
    return Deckfile(meta, tuple(doc.card))


@attrs.frozen
class OrderPlan:
    """What a played card lets the side order this turn (ccr:base.cards)."""

    card: str
    sections: Mapping[str, int] = attrs.field(factory=dict)
    """Units per section; key 'any' = that many in any one section; 'all' = anywhere."""
    troops: str = ""
    """light | medium | heavy | mounted | foot | ranged | adjacent: which units qualify."""
    leaders: bool = False
    """Leaders (attached or alone) may be ordered (helmet cards)."""
    wagon: int = 0
    """Hexes an ordered Baggage Wagon may move (0 = it may not be ordered)."""
    cc_bonus: int = 0
    """Extra close combat dice for ordered units (Mounted Charge, Clash of Shields, I Am Spartacus)."""
    move_bonus: int = 0
    move_cap: int = -1
    """-1 = normal movement; otherwise the most hexes an ordered unit may move."""
    no_ranged: bool = False
    no_close: bool = False
    fire_twice: bool = False
    move_after_fire: bool = False
    chain: bool = False
    """Ordered units must form a chain of adjacent hexes (Line Command, Double Time)."""
    leader_chain: tuple[str, ...] = ()
    """Leadership cards: first a leader in one of these sections ('any' = anywhere), then units
    in adjacent linked hexes from him; his attached unit comes with him."""
    fallback_one: bool = False
    """Order 1 unit of choice if no unit qualifies (troop cards)."""
    effect: str = ""


_MIRROR = {"left": "right", "right": "left", "centre": "centre", "any": "any", "all": "all"}


def mirror_plan(plan: OrderPlan) -> OrderPlan:
    """The card played back by Counter Attack: flanks swap (ccr:base.cards)."""
    return attrs.evolve(plan, sections={_MIRROR[k]: v for k, v in plan.sections.items()},
                        leader_chain=tuple(_MIRROR[k] for k in plan.leader_chain))


def order_plan(spec: CardSpec, command: int) -> OrderPlan:
    """The orders a card gives a side whose War Council grants ``command`` cards."""
    size = command if spec.size == "command" else 0
    if spec.kind == "section":
        # section cards carry the helmet: leaders may detach or move alone for one order each
        return OrderPlan(spec.id, dict(spec.orders), leaders=True, wagon=2)
    if spec.kind == "troop":
        return OrderPlan(spec.id, {"all": size}, troops=spec.troops, fallback_one=True,
                         leaders=spec.troops == "mounted", wagon=2 if spec.troops == "mounted" else 0)
    if spec.kind == "leadership":
        n = sum(v or size for v in spec.orders.values())
        return OrderPlan(spec.id, {"all": n}, leader_chain=tuple(spec.orders), fallback_one=True, wagon=0)
    e = spec.effect
    if e == "mounted-charge":
        return OrderPlan(spec.id, {"all": size}, troops="mounted", cc_bonus=1, wagon=3, fallback_one=True, effect=e)
    if e == "double-time":
        return OrderPlan(spec.id, {"all": 4}, move_bonus=1, chain=True, effect=e)
    if e == "line-command":
        return OrderPlan(spec.id, {"all": 99}, troops="foot", move_cap=1, chain=True, effect=e, fallback_one=True)
    if e == "darken-the-sky":
        return OrderPlan(spec.id, {"all": size}, troops="ranged", move_cap=0, no_close=True, fire_twice=True,
                         effect=e, fallback_one=True)
    if e == "move-fire-move":
        return OrderPlan(spec.id, {"all": size}, troops="ranged", no_close=True, move_after_fire=True, effect=e,
                         fallback_one=True)
    if e == "clash-of-shields":
        return OrderPlan(spec.id, {"all": 99}, troops="adjacent", move_cap=0, no_ranged=True, cc_bonus=1, effect=e)
    if e == "first-strike":
        return OrderPlan(spec.id, {"all": 1}, effect=e)
    if e == "i-am-spartacus":
        return OrderPlan(spec.id, {}, cc_bonus=1, effect=e)
    if e in ("rally", "counter-attack"):
        return OrderPlan(spec.id, {}, effect=e)
    raise ValueError(f"card {spec.id!r} has unknown effect {e!r} [ccr:base.cards]")
