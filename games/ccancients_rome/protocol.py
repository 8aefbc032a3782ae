"""Small helpers to pose decisions in the game's vocabulary (the session protocol)."""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence

from ancients_kit.protocol import Decision, Option

from .vocab import Kind

__all__ = ["Ask", "ask"]

Ask = Generator[Decision, str, str]


_OPTIONS: dict[tuple[str, str], Option] = {}
"""(key, label) -> the :class:`Option`: options are frozen and carry no data here, so every
decision and session shares them (the same few hundred keys and labels recur all game long)."""


def _option(k: str, lbl: str) -> Option:
    got = _OPTIONS.get((k, lbl))
    if got is None:
        if len(_OPTIONS) > 50_000:
            _OPTIONS.clear()
        got = _OPTIONS[(k, lbl)] = Option(k, lbl)
    return got


def ask(side: str, prompt: str, options: Sequence[tuple[str, str]], rule: str, kind: Kind,
        refuse: Callable[[str], tuple[str, str] | str | None] | None = None,
        highlight: Sequence[str] = ()) -> Ask:
    """Yield one decision and return the key chosen (skips the question when there is one option)."""
    if len(options) == 1:
        return options[0][0]
    key = yield Decision(side, prompt, tuple([_option(k, lbl) for k, lbl in options]), rule=rule, kind=kind,
                         refuse=refuse, context={"highlight": list(highlight)} if highlight else {})
    return key
