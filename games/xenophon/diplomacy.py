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

Results (:func:`attempt`): R and 2R, the non-phasing player draws; D1, the
phasing player examines the chits or the $ (:func:`.intelligence.reveal`); D2
and D3 change control (:func:`.control.turn_and_unstack`), or D3 tries an assassination
(:func:`.leaders.assassinate`, whose odds are :func:`.leaders.assassination_chance`).
The phase (:func:`diplomacy_phase`) starts with the negotiation window
(:func:`.negotiations.negotiate`).

The pure arithmetic (values, cancellation, differential, shifts, the table's
exact odds) needs no game state and comes first; the phase follows.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Sequence
from fractions import Fraction
from typing import Any, Final

import attrs

from ancients_kit.protocol import Context, Decision, Option
from ancients_kit.tables import DifferentialTable, Resolution
from ancients_kit.windows import Play, Window, chain, own

from . import chits, control, intelligence, leaders, negotiations
from .chits import held
from .state import EMPIRE, REBEL, XenState, other_side
from .vocab import Kind

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
    "bid_key",
    "attempt",
    "cancelled",
    "column_value",
    "column_shifts",
    "diplomacy_phase",
    "differential",
    "key_chit",
    "may_play",
    "outcome_distribution",
    "read_table",
    "score",
    "shifts_for",
    "targets",
    "treachery_targets",
]

RULE: Final = "xen:diplomacy"
CHITS_RULE: Final = "xen:chits"

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


def column_value(diff: int, shift: int) -> tuple[int, int]:
    """The (value, shift) to read the table with: the shifts count from the differential itself,
    so a negative differential spends shifts before it reaches column <=0's right edge
    (``xen:diplomacy``: "Differential = (# phasing player's Agent Chits) - (# non-phasing
    player's Agent Chits)" with its "+1" modifiers; docs/games/xenophon.md, Rulings: second
    reading 3). -2 with +1 is -1, still column <=0; 0 with +1 is column 1."""
    if diff < 0 and shift:
        return min(diff + shift, 0), max(diff + shift, 0)
    return diff, shift


def read_table(table: DifferentialTable, diff: int, roll: int, shifts: Iterable[Shift] = ()) -> Resolution:
    """The Diplomacy Table's result for a differential, a d6 and the shifts (:func:`column_value`)."""
    value, shift = column_value(diff, sum(s.columns for s in shifts))
    return table.resolve_value(value, roll, shift=shift)


def outcome_distribution(table: DifferentialTable, diff: int, shift: int = 0) -> dict[str, Fraction]:
    """Exact probability of each result code (for ``ancients odds xenophon diplomacy``)."""
    return table.distribution_value(*column_value(diff, shift))


# ---------------------------------------------------------------------------
# The phase (phase c)


def targets(state: XenState, side: str) -> list[str]:
    """Satrapies ``side`` may attempt: neutral or enemy-controlled (``xen:diplomacy``)."""
    return [s for s in state.data.satrapies if state.control.get(s) in ("neutral", other_side(side))]


def shifts_for(state: XenState, side: str, satrapy: str) -> tuple[Shift, ...]:
    """:func:`column_shifts` read from the state: the Supreme Leader in an unpillaged
    Capital, every City/Colony of the satrapy occupied (pillaged ones count, errata)."""
    return column_shifts(
        side,
        satrapy,
        supreme_in_capital=control.capital_occupied(state, side) is not None,
        occupies_all_cities=control.occupies_all_cities(state, side, satrapy),
    )


def _agent_options(state: XenState, side: str, satrapy: str) -> list[Option]:
    return [Option(KEYS[c], f"play {c} ({agent_value(c, side, satrapy)} Agent)", data=c)
            for c in held(state, side) if c in AGENT_CHITS and agent_value(c, side, satrapy) >= 1]


def _slug(name: str) -> str:
    return name.lower().replace(" ", "-")


def diplomacy_phase(ctx: Context, state: XenState, side: str) -> Generator[Decision, str, None]:
    """Phase c (``xen:diplomacy``): negotiations first (``xen:negotiations``), then any
    number of attempts, each with at least one Agent chit, until the player is done.
    The player is asked whatever he holds; his options show only what he can play."""

    yield from negotiations.negotiate(ctx, state, side)
    while not state.over:
        opts = [Option("done", "end the Diplomacy phase")]
        for sat in targets(state, side):
            if _agent_options(state, side, sat):
                shift = sum(s.columns for s in shifts_for(state, side, sat))
                opts.append(Option(_slug(sat), f"{sat} ({state.control[sat]}, shift +{shift})", data=sat))
        key = yield from own(Decision(side, "Diplomacy: designate a satrapy, or done", tuple(opts), rule=RULE,
                                      kind=Kind.DIPLOMACY_SATRAPY), state.standing)
        if key == "done":
            return
        sat = next(o.data for o in opts if o.key == key)
        yield from attempt(ctx, state, side, sat)


def attempt(ctx: Context, state: XenState, side: str, satrapy: str) -> Generator[Decision, str, str]:
    """One Diplomacy attempt on ``satrapy`` by the phasing ``side``; returns the result code."""

    other = other_side(side)
    if satrapy not in targets(state, side):
        raise ValueError(f"{side} may attempt only a neutral or enemy satrapy, not {satrapy} ({RULE})")
    opening = _agent_options(state, side, satrapy)
    if not opening:
        raise ValueError(f"{side} holds no chit worth an Agent in {satrapy} ({RULE})")
    key = yield Decision(side, f"Diplomacy in {satrapy}: play which Agent chit first?", tuple(opening),
                         rule=RULE, kind=Kind.DIPLOMACY_OPEN)
    bids: list[Bid] = []
    played: list[tuple[str, str]] = []

    def put(who: str, chit: str, target: int | None) -> None:
        state.hands[who].remove(chit)
        played.append((who, chit))
        b = Bid(len(bids) + 1, who, chit, agent_value(chit, who, satrapy), target)
        bids.append(b)
        ctx.event("bid", f"Diplomacy in {satrapy}: {b.describe()}; differential {differential(bids, side)}",
                  chits.EFFECTS[chit].rules, side=who, chit=chit, number=b.number, target=target)

    chit, _ = key_chit(key)
    put(side, chit, None)

    def plays(who: str) -> list[Option]:
        out = _agent_options(state, who, satrapy)
        if TREACHERY in state.hands[who]:
            out += [Option(bid_key(TREACHERY, b.number), f"play Treachery on {b.describe()}")
                    for b in treachery_targets(bids, who)]
        return out

    def resolve(p: Play) -> Generator[Decision, str, Any]:
        c, target = key_chit(p.key)
        put(p.side, c, target)
        return f"{satrapy}: differential {differential(bids, side)}"
        yield  # a generator

    w = Window("diplomacy", chits.WINDOWS["diplomacy"].title, RULE, sides=(other, side),
               detail=f"{satrapy}: differential {differential(bids, side)}")
    yield from chain(w, state.standing, plays, resolve, ctx=ctx)
    diff = differential(bids, side)
    shifts = shifts_for(state, side, satrapy)
    roll = yield from chits.roll(ctx, state, f"Diplomacy in {satrapy}", (RULE,))
    res = read_table(state.data.tables["diplomacy"], diff, roll, shifts)  # type: ignore[arg-type]
    for who, c in played:
        state.pool.add(c)
    why = "; ".join(s.reason for s in shifts)
    ctx.event("diplomacy", f"Diplomacy in {satrapy}: {res.explain()}" + (f" (shifts: {why})" if why else ""),
              (RULE,), side=side, satrapy=satrapy, result=res.result, differential=diff, roll=roll)
    yield from _apply(ctx, state, side, satrapy, res.result)
    return res.result


def _apply(ctx: Context, state: XenState, side: str, satrapy: str, code: str) -> Generator[Decision, str, None]:

    other = other_side(side)
    if code in ("R", "2R"):
        yield from chits.draw(ctx, state, other, 2 if code == "2R" else 1, f"Reaction to Diplomacy in {satrapy}",
                                   (RULE,))
        return
    if code not in ("D1", "D2", "D3"):
        return
    opts = [Option("examine-chits", f"examine {other}'s chits"), Option("examine-treasury", f"examine {other}'s $")]
    held_by = state.control[satrapy]
    if code == "D2":
        new = side if held_by == "neutral" else "neutral"
        opts.append(Option("control", f"{satrapy} becomes {new}"))
    if code == "D3":
        opts.append(Option("control", f"{satrapy} becomes {side}"))
        for u in sorted(state.leaders(other), key=lambda u: u.id):
            opts.append(Option(f"assassinate:{u.id}", f"attempt to assassinate {u.id}"))
    key = yield Decision(side, f"Diplomacy in {satrapy}: {code}; choose", tuple(opts), rule=RULE,
                         kind=Kind.DIPLOMACY_RESULT)
    if key.startswith("examine-"):
        what = key.removeprefix("examine-")
        intelligence.reveal(ctx, state, other, side, (what,), (RULE, intelligence.RULE), f"Diplomacy {code}")
    elif key == "control":
        new = side if code == "D3" or held_by == "neutral" else "neutral"
        yield from control.turn_and_unstack(ctx, state, satrapy, new, (RULE, "xen:control"), f"Diplomacy {code}")
    else:
        yield from leaders.assassinate(ctx, state, side, key.split(":", 1)[1])


_DECLINE: Final = {Kind.NEGOTIATIONS_TERM: "cancel", Kind.NEGOTIATIONS_ANSWER: "reject"}
"""The greedy bot makes no offer and accepts none."""


def score(state: XenState, decision: Decision, key: str) -> float | None:
    """Greedy-bot heuristics for the diplomacy and negotiation decisions (from the
    deciding side's view: its hand, the open map): an attempt is worth its chance of
    a D2/D3 times the satrapy's Levy Value; the greedy bot makes no offer and
    accepts none."""
    side, kind = decision.side, decision.kind
    if kind == Kind.DIPLOMACY_SATRAPY:
        if key == "done":
            return 0.0
        sat = next((o.data for o in decision.options if o.key == key), None)
        if sat is None:
            return None
        agents = sum(agent_value(c, side, sat) * state.hands[side].cards.count(c) for c in held(state, side)
                     if c in AGENT_CHITS)
        shift = sum(s.columns for s in shifts_for(state, side, sat))
        dist = outcome_distribution(state.data.tables["diplomacy"], agents, shift)  # type: ignore[arg-type]
        win = dist.get("D2", Fraction(0)) + dist.get("D3", Fraction(0))
        return float(win) * 2 * state.data.row(sat).levy_value - 0.6
    if kind == Kind.DIPLOMACY_OPEN:
        chit, _ = key_chit(key)
        return -float(chit != AGENT)  # open with a plain Agent, keep the big ones to answer
    if kind == Kind.DIPLOMACY_RESULT:
        if key == "control":
            return 4.0
        if key.startswith("assassinate:"):
            leader = key.split(":", 1)[1]
            supreme = state.supreme.get(other_side(side)) == leader
            return float(leaders.assassination_chance(supreme)) * (12.0 if supreme else 4.0)
        return 0.5 if key == "examine-chits" else 0.3
    if kind in _DECLINE:
        return 1.0 if key == _DECLINE[kind] else 0.0
    if kind == Kind.NEGOTIATIONS_CHIT:
        return -float(chits.KEEP.get(chits.key_chit(key), 3))
    return None
