"""Errors for bad input, in three kinds (as python-chess does), each naming the rule.

- :class:`InvalidAnswer`: the input cannot be read at all (empty, malformed).
- :class:`IllegalAnswer`: it can be read but a rule forbids it; ``rule`` says which.
- :class:`AmbiguousAnswer`: it matches more than one option.

All are ``ValueError`` subclasses; the session stays as it was after any of them.
:class:`ReplayError` is a save that cannot be replayed, :class:`DataError` a data,
variant or save file that cannot be read or does not fit its schema (it lives here,
below both the data loaders and the path checks that raise it; ``ancients_kit.data``
exports it too). :class:`ParameterError` is a value typed for a named parameter
(a scenario option, an ``ancients odds`` or ``compare`` ``key=value``) that cannot be
read or is out of range.
"""

from __future__ import annotations

__all__ = ["AmbiguousAnswer", "AnswerError", "DataError", "GameError", "IllegalAnswer", "InvalidAnswer", "ParameterError",
           "ReplayError"]


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


class ParameterError(GameError, ValueError):
    """A value typed for a named parameter cannot be read or is out of range.

    ``name`` is the parameter (``dice``, ``option 'weather'``), ``rule`` the rule
    it serves if any. The command line prints it as one line and how to ask for
    help; a ``ValueError``, so callers that catch those still do."""

    def __init__(self, message: str, *, name: str = "", rule: str = "") -> None:
        self.name = name
        self.rule = rule
        self.reason = message
        super().__init__(message if not rule or rule in message else f"{message} [{rule}]")


class ReplayError(GameError, ValueError):
    """A saved game cannot be replayed (changed rules, data or variant)."""


class DataError(ValueError):
    """A data file cannot be read or does not fit its schema.

    The message names the file and the key path of the offending value.
    """

    def __init__(self, file: str, message: str, path: str = "") -> None:
        self.file = file
        self.path = path
        self.detail = message
        where = f"{file}: {path}: " if path else f"{file}: "
        super().__init__(_one_line(where + message))


def _one_line(text: str) -> str:
    """``text`` with line breaks and other unprintable characters escaped, so a key
    or a file name holding them cannot break the one-line message."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
