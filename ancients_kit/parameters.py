"""The error of a command's ``key=value`` parameters (``ancients odds GAME key=value ...``).

A game's odds calculator reads parameters a user typed. :class:`ParameterError` is what
it raises when one cannot be read or a rule forbids it, so that the command line tells
the user (it catches every ``ValueError``: this is one) while a caller can tell a bad
parameter from a fault of the program. The message is the user's, unchanged: ``key``
names the parameter and ``rule`` the rule forbidding it, for callers that want them.
"""

from __future__ import annotations

from .errors import GameError

__all__ = ["ParameterError"]


class ParameterError(GameError, ValueError):
    """A ``key=value`` parameter that cannot be read, or that a rule forbids (``rule``)."""

    def __init__(self, message: str, *, key: str = "", rule: str = "") -> None:
        self.key = key
        self.rule = rule
        super().__init__(message)
