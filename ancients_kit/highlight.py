"""Where a question is on the map: the pieces a game uses to complete a decision's highlight.

The full-screen table scrolls its map to the hexes of ``decision.context["highlight"]``
and puts its cursor on the first. A game whose rules do not set a highlight at every
question (the strategic games ask about forces, battles and rolls all over a large
map) wraps its sequence of play in :func:`each_question` with a function that reads
the hexes a question names and calls :func:`completed`: the named hexes, the rules'
own highlight and the options' hexes, the deciding side's hex first, or failing all
of these the side's main force. Only the display changes: the context is neither
saved nor logged.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Mapping
from typing import Any

import attrs

from ancients_kit.plugin import Outcome
from ancients_kit.protocol import Decision, DeferredContext

__all__ = ["HEX_NUMBER", "completed", "each_question", "largest_stack", "own_first", "with_highlight"]

HEX_NUMBER = re.compile(r"(?<![\d.$])\d{4}(?!\.?\d)")
"""A printed four-digit hex number in a sentence (not part of a longer number or a sum)."""


def own_first(hexes: Iterable[str], known: Callable[[str], bool], own: Callable[[str], bool]) -> list[str]:
    """``hexes`` that are on the map (``known``), each once in the order given, except
    that the first hex holding a unit of the deciding side (``own``) goes first."""
    out = list(dict.fromkeys(h for h in hexes if known(h)))
    first = next((h for h in out if own(h)), None)
    if first is not None and out[0] != first:
        out.remove(first)
        out.insert(0, first)
    return out


def with_highlight(decision: Decision, hexes: list[str]) -> Decision:
    """``decision`` with ``hexes`` as its highlight (itself if that is its highlight already)."""
    if hexes == [str(h) for h in decision.context.get("highlight", ())]:
        return decision
    return attrs.evolve(decision, context={**decision.context, "highlight": tuple(hexes)})


def largest_stack(hexes: Iterable[str]) -> str | None:
    """The hex that occurs most often in ``hexes`` (one entry a unit: the largest stack),
    the lowest-numbered of equals; ``None`` for none."""
    counts = Counter(hexes)
    return min(counts, key=lambda h: (-counts[h], h)) if counts else None


def completed(decision: Decision, named: Iterable[str], option_hexes: Callable[[str], Iterable[str]],
              known: Callable[[str], bool], own: Callable[[str], bool],
              main_force: Callable[[], str | None]) -> Decision:
    """``decision`` with its highlight completed: the hexes it ``named``, the highlight the
    rules set, the hexes its options stand for (``option_hexes`` of a key), those on the map
    (``known``) each once, the first holding the deciding side's unit (``own``) first; failing
    all of these, the deciding side's ``main_force``.

    The highlight is worked out when the context is first read
    (:class:`~ancients_kit.protocol.DeferredContext`): a bot's game never pays for it."""
    named = list(named)

    def context() -> Mapping[str, Any]:
        given = [str(h) for h in decision.context.get("highlight", ())]
        from_options = [h for o in decision.options for h in option_hexes(o.key)]
        hexes = own_first([*named, *given, *from_options], known, own)
        if not hexes:
            main = main_force()
            hexes = [main] if main else []
        return with_highlight(decision, hexes).context

    return attrs.evolve(decision, context=DeferredContext(context))


def each_question(play: Generator[Decision, str, Outcome],
                  change: Callable[[Decision], Decision]) -> Generator[Decision, str, Outcome]:
    """The sequence of play ``play`` with every question passed through ``change``."""
    try:
        decision = next(play)
        while True:
            key = yield change(decision)
            decision = play.send(key)
    except StopIteration as stop:
        return stop.value
