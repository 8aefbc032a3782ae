"""Errors for bad input, in three kinds (as python-chess does), each naming the rule.

- :class:`InvalidAnswer`: the input cannot be read at all (empty, malformed).
- :class:`IllegalAnswer`: it can be read but a rule forbids it; ``rule`` says which.
- :class:`AmbiguousAnswer`: it matches more than one option.

All are ``ValueError`` subclasses; the session stays as it was after any of them.
"""

from __future__ import annotations

__all__ = ["AmbiguousAnswer", "AnswerError", "GameError", "IllegalAnswer", "InvalidAnswer", "ReplayError"]


class GameError(Exception):
    """Base class of the errors ancients-kit reports to users."""


class AnswerError(GameError, ValueError):
    """An answer to the current decision was refused."""

    def __init__(self, message: str, *, answer: str = "", rule: str = "", position: str = "") -> None:
        self.answer = answer
        self.rule = rule
        self.position = position
        self.reason = message
        text = message
        if position:
            text = f"{text} ({position})"
        if rule and rule not in message:
            text = f"{text} [{rule}]"
        super().__init__(text)


class InvalidAnswer(AnswerError):
    """The input cannot be read."""


class IllegalAnswer(AnswerError):
    """The input breaks a rule; ``rule`` names it."""


class AmbiguousAnswer(AnswerError):
    """The input matches more than one option."""


class ReplayError(GameError, ValueError):
    """A saved game cannot be replayed (changed rules, data or variant)."""
