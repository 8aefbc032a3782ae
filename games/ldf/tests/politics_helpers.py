"""Test helpers for the LDF politics, clients and chits tests: a campaign state at the start of
Turn 1 (the Roman set-up of 3.2, the pool of 3.5) on the real data, and a driver that runs a
rules generator with scripted answers and forced dice."""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from typing import Any

from ancients_kit import testing
from ancients_kit.data import DataStore
from ancients_kit.log import Log
from ancients_kit.session import Context, Decision
from ancients_games.ldf import model
from ancients_games.ldf.setup import build_campaign
from ancients_games.ldf.state import LDFState, load_data

_DATA = None


def world(seed: int = 1) -> tuple[Context, LDFState]:
    global _DATA
    store = DataStore(model.PACKAGE)
    if _DATA is None:
        _DATA = load_data(store)
    ctx = Context(store, {}, seed, Log())
    return ctx, build_campaign(ctx, _DATA)


class Script:
    """Answers by decision kind: a key, or a list of keys used in turn; windows answer ``no``
    unless scripted. Records every decision asked."""

    def __init__(self, answers: Mapping[str, Any] | None = None) -> None:
        self.answers = {k: (list(v) if isinstance(v, list) else v) for k, v in (answers or {}).items()}
        self.asked: list[Decision] = []

    def __call__(self, d: Decision) -> str:
        self.asked.append(d)
        a = self.answers.get(d.kind)
        if isinstance(a, list):
            if a:
                return a.pop(0)
            a = None
        if a is None:
            if d.kind.startswith("window."):
                return "no"
            return d.options[0].key
        return a


def drive(gen: Generator[Decision, str, Any], answer: Callable[[Decision], str]) -> Any:
    """Run a rules generator to its end, answering each decision with ``answer``, which must
    name one of its options (:func:`ancients_kit.testing.drive` reads it as a typed answer)."""
    return testing.drive(gen, answer)[1]


def kinds(ctx: Context) -> list[str]:
    return [e.kind for e in ctx.log]


def texts(ctx: Context) -> str:
    return "\n".join(e.text for e in ctx.log)
