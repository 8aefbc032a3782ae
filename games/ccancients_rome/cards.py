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

from ancients_kit.data import DataError, DataStore, Meta, RangeError, bounded, document_file, first_repeat

from .packaged import load_packaged

__all__ = ["CardSpec", "Deckfile", "OrderPlan", "load_deck", "mirror_plan", "mirror_sections", "order_plan"]


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
    meta, doc = load_packaged(store, "deck.toml", _DeckFile)
    repeat = first_repeat(c.id for c in doc.card)
    if repeat is not None:  # by_id() kept the last, the deck list both: one card counted for two
        i, card_id = repeat
        raise DataError(document_file(store, "deck.toml", meta.id), f"card {card_id!r} is listed twice "
                        "[ccr:base.cards]", f"card[{i}].id")
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
    cc_bonus_first_only: bool = False
    """The extra dice serve the first close combat only; a momentum bonus combat rolls the normal dice
    (Clash of Shields)."""
    ranged_bonus: int = 0
    """Extra ranged combat dice for ordered units (I Am Spartacus: 'battle with 1 additional die')."""
    hc_move: int = 0
    """Hexes heavy cavalry may move and still battle (Mounted Charge: 3; 0 = normal)."""
    light_foot_through_friends: bool = False
    """Light foot may move through a friendly unit (Order Light Troops, Move-Fire-Move)."""
    reshuffle: bool = False
    """The deck and the discards are reshuffled at the end of the turn (I Am Spartacus)."""
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
    choice_one: bool = False
    """Leadership cards: 'or order one unit of your choice' is offered beside the leaders."""
    effect: str = ""


_MIRROR = {"left": "right", "right": "left", "centre": "centre", "any": "any", "all": "all"}


def mirror_plan(plan: OrderPlan) -> OrderPlan:
    """The card played back by Counter Attack: flanks swap (ccr:base.cards)."""
    return attrs.evolve(plan, sections={_MIRROR[k]: v for k, v in plan.sections.items()},
                        leader_chain=mirror_sections(plan.leader_chain))


def mirror_sections(sections: tuple[str, ...]) -> tuple[str, ...]:
    """The opponent's sections seen from the other side of the table: his left is your right (ccr:base.cards)."""
    return tuple(_MIRROR[s] for s in sections)


def order_plan(spec: CardSpec, command: int) -> OrderPlan:
    """The orders a card gives a side whose War Council grants ``command`` cards."""
    size = command if spec.size == "command" else 0
    if spec.kind == "section":
        # section cards carry the helmet: leaders may detach or move alone for one order each
        return OrderPlan(spec.id, dict(spec.orders), leaders=True, wagon=2)
    if spec.kind == "troop":
        # Order Light Troops: light foot may move through a friendly unit (printed card)
        return OrderPlan(spec.id, {"all": size}, troops=spec.troops, fallback_one=True,
                         leaders=spec.troops == "mounted", wagon=2 if spec.troops == "mounted" else 0,
                         light_foot_through_friends=spec.troops == "light")
    if spec.kind == "leadership":
        # The leader's hex and up to N adjacent linked hexes (the card's number: 3 for Leadership Any
        # Section, 4 for Inspired Leadership), "or order one unit of your choice" (printed cards).
        n = 1 + sum(spec.orders.values())
        return OrderPlan(spec.id, {"all": n}, leader_chain=tuple(spec.orders), fallback_one=True, choice_one=True,
                         wagon=0)
    e = spec.effect
    if e == "mounted-charge":
        # +1 die in close combat all turn; heavy cavalry may move 3 and still battle; no fire (printed card)
        return OrderPlan(spec.id, {"all": size}, troops="mounted", cc_bonus=1, wagon=3, fallback_one=True,
                         no_ranged=True, hc_move=3, effect=e)
    if e == "double-time":
        # Up to 4 foot units in a linked group, one hex more (not light foot, not war machines), no ranged
        # combat; no foot units: one unit of choice (commandsandcolors.net Double Time card page)
        return OrderPlan(spec.id, {"all": 4}, troops="foot", move_bonus=1, chain=True, no_ranged=True,
                         fallback_one=True, effect=e)
    if e == "line-command":
        return OrderPlan(spec.id, {"all": 99}, troops="foot", move_cap=1, chain=True, effect=e, fallback_one=True)
    if e == "darken-the-sky":
        # every ranged weapon unit may fire twice, whatever the side's command (printed card)
        return OrderPlan(spec.id, {"all": 99}, troops="ranged", move_cap=0, no_close=True, fire_twice=True,
                         effect=e, fallback_one=True)
    if e == "move-fire-move":
        # light foot and light mounted units equal to command; light foot may move through a friend (printed card)
        return OrderPlan(spec.id, {"all": size}, troops="light", no_close=True, move_after_fire=True, effect=e,
                         fallback_one=True, light_foot_through_friends=True)
    if e == "clash-of-shields":
        # +2 dice; no move before close combat; a momentum bonus combat rolls the normal dice (printed card)
        return OrderPlan(spec.id, {"all": 99}, troops="adjacent", move_cap=0, no_ranged=True, cc_bonus=2,
                         cc_bonus_first_only=True, effect=e)
    if e == "first-strike":
        return OrderPlan(spec.id, {"all": 1}, effect=e)
    if e == "i-am-spartacus":
        # ordered units battle with 1 more die, close and ranged; reshuffle deck and discards (printed card)
        return OrderPlan(spec.id, {}, cc_bonus=1, ranged_bonus=1, reshuffle=True, effect=e)
    if e in ("rally", "counter-attack"):
        return OrderPlan(spec.id, {}, effect=e)
    raise ValueError(f"card {spec.id!r} has unknown effect {e!r} [ccr:base.cards]")
