"""Helpers for the xen-core tests: a set-up game on the real data, a phase driven by answers."""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import Any

from ancients_kit.data import DataStore
from ancients_kit.log import Log
from ancients_kit.session import Context, Decision
from ancients_games.xenophon import PACKAGE
from ancients_games.xenophon.setup import build, deploy
from ancients_games.xenophon.state import XenState, load_data

STORE = DataStore(PACKAGE)


def context(seed: int = 1, **options: Any) -> Context:
    return Context(STORE, options, seed, Log())


Answer = str | Callable[[Decision], str]


def decline(d: Decision) -> str:
    """The answer to a chit window that plays nothing (``no``)."""
    return "no"


def run(gen: Generator[Decision, str, Any], answers: Sequence[Answer] = (),
        default: Callable[[Decision], str] = lambda d: d.options[0].key, asked: list[Decision] | None = None,
        window: Callable[[Decision], str] = decline, windows: list[Decision] | None = None) -> Any:
    """Drive a rules generator: the given answers in order (keys or functions of the decision),
    then ``default``; returns the generator's value. ``asked`` collects the decisions.

    A chit window (``window.*``: Consult Oracles after a roll, Currency Reform at the Treasury
    phase ...) is answered by ``window`` (by default :func:`decline`) without using an answer,
    and collected in ``windows``: a test that cares whether a window opens passes that list
    (and a ``window`` answer that plays a chit) instead of letting it be declined unseen."""
    todo = list(answers)
    try:
        d = next(gen)
        while True:
            if d.kind.startswith("window."):
                if windows is not None:
                    windows.append(d)
                key = window(d)
                assert key in d.keys, f"{key!r} is not an option of window {d.prompt!r}: {d.keys}"
                d = gen.send(key)
                continue
            if asked is not None:
                asked.append(d)
            a = todo.pop(0) if todo else default
            key = a(d) if callable(a) else a
            assert key in d.keys, f"{key!r} is not an option of {d.prompt!r}: {d.keys}"
            d = gen.send(key)
    except StopIteration as stop:
        return stop.value


def game(seed: int = 1, scenario: str = "cyrus-revolt", **options: Any) -> tuple[Context, XenState]:
    """A game set up (the Empire's choices: the first options), Turn 1, before the first phase."""
    ctx = context(seed, **options)
    state = build(ctx, load_data(STORE), scenario)
    run(deploy(ctx, state))
    return ctx, state


def hex_of(state: XenState, place: str) -> str:
    return state.data.map.to_id(state.data.map.place(place))


def events(ctx: Context, kind: str | None = None) -> list[Any]:
    return [e for e in ctx.log if kind is None or e.kind == kind]


def clear_hex(state: XenState, hex_id: str) -> None:
    """Send every unit in a hex back to the counter mix."""
    for u in list(state.units_at(hex_id)):
        state.to_mix(u.id)
