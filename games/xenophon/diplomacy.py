"""Xenophon diplomacy: the bidding of Agent and Treachery chits, the Diplomacy Table (``xen:diplomacy``).

Procedure (``xen:diplomacy``, the Diplomacy Procedure and Table):

1. the phasing player designates a neutral or enemy-controlled satrapy and
   plays at least one chit worth at least one Agent;
2. the non-phasing player may play Agent chits that cancel the phasing
   player's on a 1 Agent : 1 Agent basis; either player may play Treachery
   chits that cancel one Agent or Treachery chit each, a whole chit whatever
   it counts as (:func:`cancelled`). The bidding goes on, each side in turn,
   until both decline one after the other (an interrupt window named
   ``"diplomacy"``, :mod:`ancients_kit.windows`, asked whatever each holds);
3. the differential (:func:`differential`) is the uncancelled phasing Agents
   less the uncancelled non-phasing ones (which may be <= 0); it is the column;
4. column shifts (:func:`column_shifts`; there are no die modifiers): +1 if
   the phasing Supreme Leader occupies a Capital City, +1 if the phasing
   player occupies every City/Colony of the satrapy, +1 for the Rebel in his
   fourteen satrapies and for the Empire in Persis, Media and Elam;
5. one d6 on that column of ``data/tables/diplomacy.toml`` (row 4 columns
   3..>=5 and rows 5-6 rebuilt, D3 only there); every chit played returns to
   the pool.

Chit values (``xen:chits``): Agent 1; Expedition 2 in an attempt on Libya,
Scythia, Colchis, Sakans, Massagetai or Greater India (elsewhere it may not
be played: the chit gives it no other value); Great King 3 for the Empire in
Persis, Media or Elam, 2 elsewhere, 1 for the Rebel; Hellenistic League 3 for
the Rebel in Sparta, Athens, Thessaly, Macedon, Illyria, Thrace or Ionia, 2
elsewhere, 1 for the Empire (rulings 18 and "Rulings: stratagems and
diplomacy" of docs/games/xenophon.md).

The pure arithmetic (values, cancellation, differential, shifts, the table's
exact odds) needs no game state and comes first; the phase follows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Final

import attrs

from ancients_kit.tables import DifferentialTable, Resolution

__all__ = [
    "AGENT_CHITS",
    "Bid",
    "EMPIRE_SHIFT_SATRAPIES",
    "EXPEDITION_SATRAPIES",
    "GREAT_KING_HEARTLAND",
    "HELLENISTIC_HEARTLAND",
    "REBEL_SHIFT_SATRAPIES",
    "RULE",
    "Shift",
    "TREACHERY",
    "agent_value",
    "assassination_chance",
    "assassination_succeeds",
    "bid_key",
    "cancelled",
    "column_shifts",
    "differential",
    "key_chit",
    "may_play",
    "outcome_distribution",
    "read_table",
    "treachery_targets",
]

RULE: Final = "xen:diplomacy"
CHITS_RULE: Final = "xen:chits"

EMPIRE: Final = "empire"
REBEL: Final = "rebel"

AGENT: Final = "Agent"
EXPEDITION: Final = "Expedition"
GREAT_KING: Final = "Great King"
HELLENISTIC_LEAGUE: Final = "Hellenistic League"
TREACHERY: Final = "Treachery"

AGENT_CHITS: Final = (AGENT, EXPEDITION, GREAT_KING, HELLENISTIC_LEAGUE)
"""The chits that count as Agents in a Diplomacy attempt (``xen:chits``)."""
BIDDING_CHITS: Final = (*AGENT_CHITS, TREACHERY)
"""Every chit played in the bidding."""

EXPEDITION_SATRAPIES: Final = frozenset({"Libya", "Scythia", "Colchis", "Sakans", "Massagetai", "Greater India"})
"""Expedition counts as 2 Agents for one attempt involving these (``xen:chits``, printed)."""
GREAT_KING_HEARTLAND: Final = frozenset({"Persis", "Media", "Elam"})
"""Where Great King counts 3 for the Empire (reconstructed; the Empire's +1 list)."""
HELLENISTIC_HEARTLAND: Final = frozenset({"Sparta", "Athens", "Thessaly", "Macedon", "Illyria", "Thrace", "Ionia"})
"""Where Hellenistic League counts 3 for the Rebel (reconstructed; the Greek part of the Rebel's +1 list)."""
REBEL_SHIFT_SATRAPIES: Final = frozenset(
    {
        "Sparta", "Athens", "Illyria", "Thessaly", "Macedon", "Thrace", "Ionia",
        "Libya", "Egypt", "Arabia", "Scythia", "Colchis", "Sakans", "Massagetai",
    }
)  # fmt: skip
"""+1 column for a Rebel attempt on these (``xen:diplomacy``, printed)."""
EMPIRE_SHIFT_SATRAPIES: Final = frozenset({"Persis", "Media", "Elam"})
"""+1 column for an Empire attempt on these (``xen:diplomacy``, printed)."""

KEYS: Final = {
    AGENT: "agent",
    EXPEDITION: "expedition",
    GREAT_KING: "great-king",
    HELLENISTIC_LEAGUE: "hellenistic-league",
}
"""Stable option keys of the Agent-kind chits in the bidding."""


def agent_value(chit: str, side: str, satrapy: str) -> int:
    """What ``chit`` counts as, in Agents, for ``side`` in an attempt on ``satrapy``
    (0: not an Agent there; Treachery counts 0, it only cancels)."""
    if chit == AGENT:
        return 1
    if chit == EXPEDITION:
        return 2 if satrapy in EXPEDITION_SATRAPIES else 0
    if chit == GREAT_KING:
        if side != EMPIRE:
            return 1
        return 3 if satrapy in GREAT_KING_HEARTLAND else 2
    if chit == HELLENISTIC_LEAGUE:
        if side != REBEL:
            return 1
        return 3 if satrapy in HELLENISTIC_HEARTLAND else 2
    return 0


def may_play(chit: str, side: str, satrapy: str) -> bool:
    """Whether ``chit`` may be played in the bidding on ``satrapy`` (an Agent
    worth at least 1 there, or a Treachery)."""
    return chit == TREACHERY or agent_value(chit, side, satrapy) >= 1


@attrs.frozen
class Bid:
    """One chit played in a Diplomacy attempt, numbered from 1 in playing order."""

    number: int
    side: str
    chit: str
    value: int = 0
    """Agents it counts as (0 for Treachery)."""
    target: int | None = None
    """Treachery only: the number of the bid it cancels."""

    def describe(self) -> str:
        if self.chit == TREACHERY:
            return f"#{self.number} {self.side} Treachery on #{self.target}"
        return f"#{self.number} {self.side} {self.chit} ({self.value} Agent{'s' if self.value != 1 else ''})"


def cancelled(bids: Sequence[Bid]) -> frozenset[int]:
    """Numbers of the bids cancelled by an uncancelled Treachery.

    A Treachery cancels its target unless it is itself cancelled (by a later
    Treachery), so a chain is read from its last link back (``xen:diplomacy``:
    "Treachery Chits cancel Agent or Treachery Chits on a 1:1 basis").
    """
    by_number = {b.number: b for b in bids}
    out: set[int] = set()
    for b in sorted(bids, key=lambda b: -b.number):
        if b.chit != TREACHERY or b.number in out or b.target is None:
            continue
        if b.target not in by_number:
            raise ValueError(f"Treachery #{b.number} targets no bid #{b.target} ({RULE})")
        out.add(b.target)
    return frozenset(out)


def differential(bids: Sequence[Bid], phasing: str) -> int:
    """Uncancelled phasing Agents less uncancelled non-phasing Agents (``xen:diplomacy``)."""
    gone = cancelled(bids)
    total = 0
    for b in bids:
        if b.number in gone or b.chit == TREACHERY:
            continue
        total += b.value if b.side == phasing else -b.value
    return total


def treachery_targets(bids: Sequence[Bid], side: str) -> tuple[Bid, ...]:
    """The opponent's uncancelled bids a Treachery by ``side`` may cancel now."""
    gone = cancelled(bids)
    return tuple(b for b in bids if b.side != side and b.number not in gone)


def bid_key(chit: str, target: int | None = None) -> str:
    """Stable option key of a play in the bidding: ``agent``, ``treachery:3`` ..."""
    if chit == TREACHERY:
        return f"treachery:{target}"
    return KEYS[chit]


def key_chit(key: str) -> tuple[str, int | None]:
    """The chit (and Treachery target) an option key names; ValueError if none."""
    if key.startswith("treachery:"):
        return TREACHERY, int(key.split(":", 1)[1])
    for chit, k in KEYS.items():
        if k == key:
            return chit, None
    raise ValueError(f"{key!r} is not a diplomacy play ({RULE})")


@attrs.frozen
class Shift:
    """One column shift of a Diplomacy attempt and why."""

    columns: int
    reason: str


def column_shifts(
    side: str,
    satrapy: str,
    *,
    supreme_in_capital: bool,
    occupies_all_cities: bool,
) -> tuple[Shift, ...]:
    """The printed column shifts (``xen:diplomacy``; there are no die modifiers).

    ``occupies_all_cities`` is the caller's finding that the phasing player
    occupies every City/Colony of the satrapy, pillaged ones included (errata);
    a satrapy with none gives no shift (ruling: "all" of nothing is no help).
    """
    out: list[Shift] = []
    if supreme_in_capital:
        out.append(Shift(1, "Supreme Leader occupies a Capital City"))
    if occupies_all_cities:
        out.append(Shift(1, f"occupies every City/Colony of {satrapy}"))
    if side == REBEL and satrapy in REBEL_SHIFT_SATRAPIES:
        out.append(Shift(1, f"Rebel attempt on {satrapy}"))
    if side == EMPIRE and satrapy in EMPIRE_SHIFT_SATRAPIES:
        out.append(Shift(1, f"Empire attempt on {satrapy}"))
    return tuple(out)


def read_table(table: DifferentialTable, diff: int, roll: int, shifts: Iterable[Shift] = ()) -> Resolution:
    """The Diplomacy Table's result for a differential, a d6 and the shifts."""
    return table.resolve_value(diff, roll, shift=sum(s.columns for s in shifts))


def outcome_distribution(table: DifferentialTable, diff: int, shift: int = 0) -> dict[str, Fraction]:
    """Exact probability of each result code (for ``ancients odds xenophon diplomacy``)."""
    return table.distribution_value(diff, shift)


def assassination_succeeds(roll: int, supreme: bool) -> bool:
    """D3's assassination (``xen:diplomacy``): 1d6, 1-2 kills a Supreme Leader, 1-3 another leader."""
    if not 1 <= roll <= 6:
        raise ValueError(f"a d6 roll is 1-6, not {roll} ({RULE})")
    return roll <= (2 if supreme else 3)


def assassination_chance(supreme: bool) -> Fraction:
    """Exact chance that D3's assassination kills the leader chosen: 1/3 or 1/2."""
    return Fraction(sum(assassination_succeeds(r, supreme) for r in range(1, 7)), 6)
