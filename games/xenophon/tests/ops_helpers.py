"""Helpers for the operations tests: a real game state, positions, and scripted answers."""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable
from typing import Any

from ancients_kit import testing
from ancients_kit.data import DataStore
from ancients_kit.log import Log
from ancients_kit.session import Context, Decision

from ancients_games.xenophon import GAME, PACKAGE
from ancients_games.xenophon.setup import deploy
from ancients_games.xenophon.state import XenState

STORE = DataStore(PACKAGE)
QUIET = ("stop", "end", "done", "no")


def drive(gen: Generator[Decision, Any, Any], answer: Callable[[Decision], str]) -> Any:
    """Run a rules generator to its end, answering each decision with ``answer``; its return value
    (:func:`ancients_kit.testing.drive` with a scripted player)."""
    return testing.drive(gen, answer)[1]


class Script:
    """Answers in order; each must be one of the options. Then the first quiet option
    (stop, end, done, no) or, failing that, the first option. A stratagem window
    (``window.*``) takes the next answer only if it is one of its plays, else ``no``.
    Records every decision."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.asked: list[Decision] = []

    def __call__(self, d: Decision) -> str:
        self.asked.append(d)
        if d.kind.startswith("window.") and not (self.answers and self.answers[0] in d.keys):
            return "no"
        if self.answers:
            key = self.answers.pop(0)
            assert key in d.keys, f"{key!r} is not an option of {d.prompt!r}: {d.keys}"
            return key
        return next((k for k in QUIET if k in d.keys), d.keys[0])


def world(seed: int = 1, **options: Any) -> tuple[Context, XenState]:
    """Cyrus' Revolt set up (the Empire's set-up choices: the first options)."""
    ctx = Context(STORE, options, seed, Log())
    st = GAME.setup(ctx, "cyrus-revolt")
    drive(deploy(ctx, st), lambda d: d.keys[0])
    return ctx, st


def empty(seed: int = 1, **options: Any) -> tuple[Context, XenState]:
    """The set-up state with every unit taken off the map: tests place what they need."""
    ctx, st = world(seed, **options)
    for u in list(st.on_map()):
        st.to_mix(u.id)
    return ctx, st


def put(st: XenState, hex_id: str, ids: Iterable[str]) -> list[str]:
    out = []
    for uid in ids:
        st.place(uid, hex_id)
        out.append(uid)
    return out


def pick(st: XenState, type_: str, side: str, n: int = 1, exclude: Iterable[str] = ()) -> list[str]:
    """IDs of ``n`` units of a type belonging to ``side`` (satrapy units of its satrapies, or its guard)."""
    skip = set(exclude)
    found = [u.id for u in st.units.values() if u.type == type_ and u.side == side and u.where == "mix"
             and u.id not in skip]
    assert len(found) >= n, (type_, side, found)
    return found[:n]


def give(st: XenState, side: str, chit: str) -> None:
    """Deal ``chit`` from the pool into ``side``'s hand, returning chits to the pool first if it is full."""
    hand = st.hands[side]
    while len(hand) >= 15:
        st.pool.add(hand.cards[0])
        hand.remove(hand.cards[0])
    st.pool.remove(chit)
    hand.add(chit)
