"""The game log: every event names the rule IDs it applied.

Rules code never prints. It records :class:`Event` objects through the session's
context (``ctx.event(...)``); the CLI renders them. An event may be private to
one side (a card drawn into a hand): other sides see its ``public_text``.

Rule IDs follow ``../shared/rules/*.index.toml`` (``cen:basic.zoc``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import attrs

__all__ = ["Event", "Log"]


def _freeze_rules(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    return tuple(value)


@attrs.frozen(slots=True)
class Event:
    """One thing that happened in a game."""

    kind: str
    """Machine tag: ``phase``, ``turn``, ``move``, ``roll``, ``draw``, ``combat``,
    ``loss``, ``result``, ``end`` ... (games may add their own)."""
    text: str
    """What happened, in the rulebook's vocabulary."""
    rules: tuple[str, ...] = attrs.field(default=(), converter=_freeze_rules)
    """Rule IDs this event applied."""
    side: str | None = None
    """The side that acted, if any."""
    dice: tuple[int, ...] = ()
    """The dice behind the event, when it is a roll."""
    private_to: str | None = None
    """If set, only this side may read ``text``; the others read ``public_text``."""
    public_text: str = ""
    """What the other sides see of a private event."""
    data: Mapping[str, Any] = attrs.field(factory=dict)
    """JSON-able details (hex IDs, factors, results) for tools and teachers."""
    silent: bool = False
    """With ``private_to``: the other sides do not see the event at all, not even
    that something happened (a reminder meant for one player, which tells the
    others nothing they could not see already)."""

    def seen_by(self, viewer: str | None) -> bool:
        """Whether ``viewer`` sees the event at all (a silent event only its side)."""
        return not self.silent or viewer is None or viewer == self.private_to

    def text_for(self, viewer: str | None) -> str:
        """The text ``viewer`` may read (``None`` = omniscient: replays, teachers)."""
        if self.private_to is None or viewer is None or viewer == self.private_to:
            return self.text
        return self.public_text or f"{self.private_to} does something hidden"

    def line(self, viewer: str | None = None) -> str:
        """One readable log line ending with the rule IDs applied."""
        rules = f"  [{', '.join(self.rules)}]" if self.rules else ""
        return f"{self.text_for(viewer)}{rules}"

    def to_json(self, viewer: str | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "text": self.text_for(viewer), "rules": list(self.rules)}
        if self.side is not None:
            out["side"] = self.side
        if self.dice:
            out["dice"] = list(self.dice)
        if self.data and (self.private_to is None or viewer is None or viewer == self.private_to):
            out["data"] = dict(self.data)
        if self.silent:
            out["silent"] = True
        return out


class Log:
    """An append-only sequence of events."""

    __slots__ = ("_events", "_hash", "_hashed")

    def __init__(self) -> None:
        self._events: list[Event] = []
        self._hash = hashlib.sha256()
        """The digest of the first ``_hashed`` events, carried forward (events are frozen and
        the log only grows), so a save after every answer does not rehash the whole game."""
        self._hashed = 0

    def __getstate__(self) -> list[Event]:
        return self._events  # pickles and deep copies rehash on demand

    def __setstate__(self, events: list[Event]) -> None:
        self._events = list(events)
        self._hash = hashlib.sha256()
        self._hashed = 0

    def append(self, event: Event) -> None:
        self._events.append(event)

    def __len__(self) -> int:
        return len(self._events)

    def __iter__(self) -> Iterator[Event]:
        return iter(self._events)

    def __getitem__(self, index: int) -> Event:
        return self._events[index]

    def copy(self, length: int | None = None) -> Log:
        """A new log holding the first ``length`` events (all by default).

        Events are frozen, so the copies share them; appending to one log
        never shows in the other (session forks and checkpoints)."""
        other = Log()
        other._events = self._events[:length] if length is not None else list(self._events)
        if len(other._events) >= self._hashed:
            other._hash, other._hashed = self._hash.copy(), self._hashed
        return other

    def since(self, start: int) -> list[Event]:
        return self._events[start:]

    def lines(self, viewer: str | None = None) -> list[str]:
        """The readable lines ``viewer`` sees (silent events of other sides left out)."""
        return [e.line(viewer) for e in self._events if e.seen_by(viewer)]

    def text(self, viewer: str | None = None) -> str:
        """The readable log; golden replays compare this text."""
        return "\n".join(self.lines(viewer)) + ("\n" if self._events else "")

    @staticmethod
    def _hash_events(h: Any, events: Iterable[Event]) -> None:
        """Feed ``events`` to the hash ``h``: each as sorted JSON and a newline."""
        for e in events:
            h.update(json.dumps(e.to_json(None), sort_keys=True, default=str).encode())
            h.update(b"\n")

    def digest_of_first(self, n: int) -> str:
        """sha256 of the first ``n`` events, as :meth:`digest` hashes them (a save's set-up)."""
        h = hashlib.sha256()
        self._hash_events(h, self._events[:n])
        return h.hexdigest()

    def digest(self) -> str:
        """sha256 of the full event stream (text, rules, dice and data)."""
        h = self._hash
        self._hash_events(h, self._events[self._hashed:])
        self._hashed = len(self._events)
        return h.hexdigest()
