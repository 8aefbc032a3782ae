"""Small helpers to pose decisions in the game's vocabulary (the session protocol)."""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence

from ancients_kit.session import Decision, Option

__all__ = ["Ask", "ask"]

Ask = Generator[Decision, str, str]


def ask(side: str, prompt: str, options: Sequence[tuple[str, str]], rule: str, kind: str,
        refuse: Callable[[str], tuple[str, str] | str | None] | None = None,
        highlight: Sequence[str] = ()) -> Ask:
    """Yield one decision and return the key chosen (skips the question when there is one option)."""
    if len(options) == 1:
        return options[0][0]
    key = yield Decision(side, prompt, tuple(Option(k, lbl) for k, lbl in options), rule=rule, kind=kind,
                         refuse=refuse, context={"highlight": list(highlight)} if highlight else {})
    return key
