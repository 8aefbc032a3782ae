"""Xenophon intelligence and fog of war: what each side may see (``xen:intelligence``).

- Forces are open: "a player may freely examine enemy and neutral Forces at
  any time", so every unit on the map is in every view.
- Each player's $ is secret (``xen:treasury``) unless the scenario option
  ``open_treasury`` is on (the printed "[Option: Treasury totals ($) may
  instead be tracked openly]"); the option opens the treasuries only, not
  the chits, which the printed option does not name (ruling in
  docs/games/xenophon.md, "Rulings: stratagems and diplomacy").
- Each hand of chits is secret; its size is public (counters in hand).
- A player sees the opponent's chits and $ by playing King's Eye, one of them
  by a D1 result of the Diplomacy Table, or when the opponent reveals them
  voluntarily (:func:`reveal`). What he saw is remembered with when he saw
  it (``state.revealed``, ``"<viewer>:chits"`` / ``"<viewer>:treasury"``): a
  snapshot, not a live window.

:func:`view_for` is everything a side may know; render.py and the bots read
it, never the state's hidden parts, so a side's decisions never depend on
what it may not see. :func:`unseen_chits` and :func:`sample_hand` let a bot
reason about the opponent's hand from what it has not seen.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Final

import attrs

from ancients_kit.chance import Rng
from ancients_kit.protocol import Context

from .state import EMPIRE, NEUTRAL, REBEL, XenState, other_side

__all__ = ["RULE", "Seen", "UnitView", "View", "hand_of", "reveal", "sample_hand", "seen", "status_line", "unseen_chits",
           "view_for"]

RULE: Final = "xen:intelligence"


@attrs.frozen
class Seen:
    """What a side was shown of the other's chits or $, and when."""

    turn: int
    player_turn: str
    phase: str
    chits: tuple[str, ...] | None = None
    treasury: int | None = None


@attrs.frozen
class UnitView:
    """A unit as everybody sees it (forces are open)."""

    id: str
    type: str
    side: str
    satrapy: str | None
    hex: str | None
    cs: int
    ov: int
    embarked: str | None


@attrs.frozen
class View:
    """Everything ``side`` may know of the game (``xen:intelligence``)."""

    side: str
    turn: int
    player_turn: str
    phase: str
    control: Mapping[str, str]
    units: tuple[UnitView, ...]
    pillaged: frozenset[str]
    colonies: frozenset[str]
    hand: tuple[str, ...]
    """Its own chits, sorted."""
    treasury: int
    """Its own $."""
    opponent_hand_size: int
    opponent_treasury: int | None
    """The opponent's $ now: only with the open option."""
    seen_chits: Seen | None
    """The last look at the opponent's chits (King's Eye, D1, a voluntary reveal)."""
    seen_treasury: Seen | None
    """The last look at the opponent's $."""
    pool_size: int
    removed_chits: tuple[str, ...]
    open_treasury: bool


def seen(state: XenState, viewer: str, what: str) -> Seen | None:
    """The last look ``viewer`` had at the opponent's ``chits`` or ``treasury``."""
    got = state.revealed.get(f"{viewer}:{what}")
    return got if isinstance(got, Seen) else None


def view_for(state: XenState, side: str) -> View:
    """What ``side`` may see: open forces, its own hand and $, the opponent's hand
    size, his $ only if open, and its remembered looks."""
    other = other_side(side)
    units = tuple(
        UnitView(u.id, u.type, u.side, u.satrapy, u.hex, u.cs, u.ov, u.embarked)
        for u in sorted(state.on_map(), key=lambda u: u.id)
    )
    return View(
        side=side,
        turn=state.turn,
        player_turn=state.player_turn,
        phase=state.phase,
        control=dict(state.control),
        units=units,
        pillaged=frozenset(state.pillaged),
        colonies=frozenset(state.colonies),
        hand=tuple(sorted(str(c) for c in state.hands[side].cards)),
        treasury=state.treasury[side].value,
        opponent_hand_size=len(state.hands[other]),
        opponent_treasury=state.treasury[other].visible_to(side),
        seen_chits=seen(state, side, "chits"),
        seen_treasury=seen(state, side, "treasury"),
        pool_size=len(state.pool),
        removed_chits=tuple(state.removed_chits),
        open_treasury=state.options.open_treasury,
    )


def reveal(
    ctx: Context,
    state: XenState,
    owner: str,
    to: str,
    what: Sequence[str],
    rules: Sequence[str],
    reason: str,
) -> None:
    """Show ``to`` the ``owner``'s ``chits`` and/or ``treasury`` (King's Eye, D1,
    a voluntary reveal): the content is logged privately to ``to``; the others
    read only that it was shown. ``to`` remembers it (:func:`seen`)."""
    rules = tuple(rules)
    for item in what:
        if item == "chits":
            chits = tuple(sorted(str(c) for c in state.hands[owner].cards))
            ctx.event(
                "secret",
                f"{to} sees {owner}'s chits ({reason}): {', '.join(chits) or 'none'}",
                rules,
                side=to,
                private_to=to,
                public_text=f"{to} sees {owner}'s chits ({reason})",
                owner=owner,
                chits=chits,
            )
            state.revealed[f"{to}:chits"] = Seen(state.turn, state.player_turn, state.phase, chits=chits)
        elif item == "treasury":
            money = state.treasury[owner]
            money.reveal(ctx, to, rules, reason=reason)
            state.revealed[f"{to}:treasury"] = Seen(state.turn, state.player_turn, state.phase,
                                                    treasury=money.value)
        else:
            raise ValueError(f"one may reveal chits or treasury, not {item!r} ({RULE})")


def unseen_chits(state: XenState, side: str) -> Counter[str]:
    """The chits ``side`` cannot see: the 40 less its own hand and those out of the
    game; the opponent's hand is some of these (the rest are in the pool)."""
    every: Counter[str] = Counter()
    for name, chit in state.data.chits.items():
        every[name] += chit.count
    every.subtract(Counter(str(c) for c in state.hands[side].cards))
    every.subtract(Counter(state.removed_chits))
    return +every


def sample_hand(state: XenState, side: str, rng: Rng) -> tuple[str, ...]:
    """A guess at the opponent's hand for ``side``'s bot: the hand it saw, if
    it saw it this player-turn and the size still matches; otherwise the
    opponent's hand size drawn at random from :func:`unseen_chits`."""
    other = other_side(side)
    n = len(state.hands[other])
    look = seen(state, side, "chits")
    if look is not None and look.chits is not None and (look.turn, look.player_turn) == (
        state.turn, state.player_turn) and len(look.chits) == n:
        return look.chits
    pool = sorted(unseen_chits(state, side).elements())
    rng.shuffle(pool)
    return tuple(sorted(pool[:n]))


def status_line(state: XenState, viewer: str | None) -> str:
    """The one-line status ``viewer`` may see: turn and phase, satrapies held, the treasuries
    (the other's only if open or shown), the hands' sizes (public) and the pool's."""
    money = ", ".join(f"{s} ${t.shown_to(viewer)}" for s, t in state.treasury.items())
    hands = ", ".join(f"{s} {len(h)} chits" for s, h in state.hands.items())
    control = ", ".join(f"{s} {len(state.controlled(s))}" for s in (EMPIRE, REBEL, NEUTRAL))
    return (f"Turn {state.turn}/{state.last_turn} {state.player_turn} {state.phase}; satrapies {control}; "
            f"{money}; {hands}; pool {len(state.pool)}")


def hand_of(state: XenState, viewer: str | None) -> tuple[tuple[str, str], ...]:
    """The chits ``viewer`` holds, each with its text (only their number is public, xen:intelligence)."""
    if viewer not in state.hands:
        return ()
    return tuple((str(c), state.data.chits[str(c)].text) for c in state.hands[viewer].cards)
