"""Where each question is on the map: the hexes the players' table marks and scrolls to.

The full-screen table (``ancients_kit.tui``) scrolls its map to the hexes of a
decision's ``context["highlight"]`` and puts its cursor on the first. The
rules set a highlight where they ask for a hex; :func:`focused` wraps the
whole sequence of play and completes every question's highlight from what
the question names, so the map follows the question from the Rhine to the
Euphrates:

1. the hexes the prompt names (``Moving I28, I29 in 4718``, ``roman attacks
   4719 from 4620``: the force, the battle or the roll's place) and the
   places the rules put in the context (``origin``, ``target``);
2. the highlight the rules set;
3. the hexes the options stand for: a hex ID, a key made of hex IDs
   (``3113-3114``: from 3113 against 3114), a unit on the map (``G1``,
   ``drop:I28``);
4. failing all of these, the deciding side's main force (the Roman emperor,
   else the co-emperor, else the side's largest stack).

The first of these hexes holding a unit of the deciding side goes first (the
deciding force's hex). Only the display changes: the context is neither
saved nor logged, so saves, replays and digests are the same.
"""

from __future__ import annotations

import re
from collections.abc import Generator

from ancients_kit.highlight import HEX_NUMBER, completed, each_question, largest_stack
from ancients_kit.plugin import Outcome
from ancients_kit.session import Decision

from .state import ROMAN, LDFState

__all__ = ["focus", "focused", "option_hexes"]

_SPLIT = re.compile(r"[:\-]")
_PLACE_KEYS = ("origin", "target", "battle", "hex")
"""Context keys the rules use for the place a question is about."""


def _is_hex(state: LDFState, text: str) -> bool:
    return text in state.data.ids


def _unit_hex(state: LDFState, uid: str) -> str | None:
    u = state.units.get(uid)
    return u.hex if u is not None and u.where == "map" and u.hex else None


def option_hexes(state: LDFState, key: str) -> tuple[str, ...]:
    """The hexes an option key stands for (none for ``pass``, ``done`` ...)."""
    if _is_hex(state, key):
        return (key,)
    at = _unit_hex(state, key)
    if at is not None:
        return (at,)
    if ":" in key or "-" in key:
        parts = _SPLIT.split(key)
        hexes = tuple(p for p in parts if _is_hex(state, p))
        if hexes:
            return hexes
        at = _unit_hex(state, parts[-1])
        if at is not None:
            return (at,)
    return ()


def _main_force(state: LDFState, side: str) -> str | None:
    """The hex of the Roman emperor (else co-emperor), else of ``side``'s largest stack."""
    if side == ROMAN:
        for kind in ("emperor", "co-emperor"):
            u = state.leader(kind)
            if u is not None and u.hex and state.side_of(u) == side:
                return u.hex
    return largest_stack(u.hex for u in state.on_map() if u.hex and state.side_of(u) == side)


def focus(state: LDFState, decision: Decision) -> Decision:
    """``decision`` with its highlight completed and ordered (see the module docstring)."""
    named = HEX_NUMBER.findall(decision.prompt)
    named += [str(decision.context[k]) for k in _PLACE_KEYS if decision.context.get(k)]
    side = decision.side
    return completed(decision, named, lambda key: option_hexes(state, key), lambda h: _is_hex(state, h),
                     lambda h: any(state.side_of(u) == side for u in state.units_at(h)),
                     lambda: _main_force(state, side))


def focused(state: LDFState, play: Generator[Decision, str, Outcome]) -> Generator[Decision, str, Outcome]:
    """The sequence of play ``play`` with every question passed through :func:`focus`."""
    return each_question(play, lambda decision: focus(state, decision))
