"""Test helpers for the Xenophon stratagem, diplomacy, intelligence and negotiation tests: a game
at the start of Turn 1 on the real data (both set-ups made, the Empire's choices the first
options), chits dealt by name from the pool, and a driver that runs a rules generator with
scripted answers (by decision kind; windows answer ``no`` unless scripted)."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from ancients_kit.data import DataStore
from ancients_kit.log import Log
from ancients_kit.session import Context, Decision
from ancients_games.ldf.tests.politics_helpers import Script as LDFScript
from ancients_games.xenophon import PACKAGE
from ancients_games.xenophon.setup import build, deploy
from ancients_games.xenophon.state import XenState, load_data
from ancients_games.xenophon.tests.ops_helpers import drive as ops_drive


def world(seed: int = 1, scenario: str = "cyrus-revolt", **options: Any) -> tuple[Context, XenState]:
    store = DataStore(PACKAGE)
    data = load_data(store)
    ctx = Context(store, options, seed, Log())
    state = build(ctx, data, scenario)
    drive(deploy(ctx, state), lambda d: d.options[0].key)
    state.phase = "stratagem"
    return ctx, state


def deal(state: XenState, side: str, *chits: str, clear: bool = True) -> None:
    """Give ``side`` exactly these chits (from the pool, or else from the other hand), its old hand back to the pool."""
    hand = state.hands[side]
    if clear:
        for c in list(hand.cards):
            hand.remove(c)
            state.pool.add(c)
    for c in chits:
        if c in state.pool:
            state.pool.remove(c)
        else:  # held by the other side: it loses it
            other = next(h for s, h in state.hands.items() if s != side and c in h)
            other.remove(c)
        hand.add(c)


class Script(LDFScript):
    """Answers by decision kind (LDF's test Script: a key, or a list of keys used in turn;
    windows answer ``no`` unless scripted; other decisions their first option); records
    every decision asked."""

    def kinds(self) -> list[str]:
        return [d.kind for d in self.asked]


def drive(gen: Generator[Decision, str, Any], answer: Callable[[Decision], str]) -> Any:
    """Run a rules generator to its end, answering each decision with ``answer``, which must
    name one of its options (:func:`ancients_kit.testing.drive` reads it as a typed answer)."""
    return ops_drive(gen, answer)


def texts(ctx: Context, viewer: str | None = None) -> str:
    return "\n".join(ctx.log.lines(viewer))
