"""The decision protocol: what a game asks, what it accepts, what its rules receive.

A game's rules are a generator that yields one :class:`Decision` at a time and
receives the key of the chosen :class:`Option`; the rules get a :class:`Context`
(the dice, the options, the data and the log). The session
(:mod:`ancients_kit.session`) drives that generator; bots, the prompt and the
full-screen table read the decisions. This module stands below all of them and
imports none: a game's contract (:mod:`ancients_kit.plugin`) names these types
without naming the session.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import attrs

from ancients_kit.chance import Chance, Rng, Roll
from ancients_kit.data import DataStore
from ancients_kit.errors import AmbiguousAnswer, IllegalAnswer, InvalidAnswer
from ancients_kit.log import Event, Log

__all__ = ["MAX_ANSWER_CHARS", "Context", "Decision", "DeferredContext", "Option", "check_answer_text"]

MAX_ANSWER_CHARS = 200
"""The longest answer (and name, option value) a game accepts or a save holds."""


@attrs.frozen(slots=True)
class Option:
    """One answer a decision accepts."""

    key: str
    """What is recorded and typed: a hex ID, a unit ID, ``pass`` ..."""
    label: str = ""
    """Human description shown next to the key."""
    data: Any = attrs.field(default=None, eq=False, repr=False)
    """Game-private payload (not saved; saves keep only ``key``)."""


class DeferredContext(Mapping[str, Any]):
    """A decision's context worked out when it is first read.

    The display hints a game adds to every question (the hexes to outline, the
    places among the options) cost time to find and a bot never reads them: a
    game's question hook (:mod:`ancients_kit.highlight`) wraps them in this, and
    only a table or a prompt that shows the question pays. ``make`` is called at
    most once, when the question is the one being asked (the state it reads is
    the question's)."""

    __slots__ = ("_make", "_made")

    def __init__(self, make: Callable[[], Mapping[str, Any]]) -> None:
        self._make: Callable[[], Mapping[str, Any]] | None = make
        self._made: dict[str, Any] | None = None

    def _context(self) -> dict[str, Any]:
        if self._made is None:
            assert self._make is not None
            self._made, self._make = dict(self._make()), None
        return self._made

    def __getitem__(self, key: str) -> Any:
        return self._context()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._context())

    def __len__(self) -> int:
        return len(self._context())

    def __repr__(self) -> str:
        return f"DeferredContext({self._made!r})" if self._made is not None else "DeferredContext(<not read yet>)"

    def updated(self, more: Mapping[str, Any]) -> DeferredContext:
        """This context with ``more`` added, still worked out when first read."""
        return DeferredContext(lambda: {**self._context(), **more})


@attrs.frozen(slots=True)
class Decision:
    """A question put to one side."""

    side: str
    """Who must answer."""
    prompt: str
    """What is asked, in the rulebook's vocabulary."""
    options: tuple[Option, ...]
    """Every legal answer (never empty)."""
    rule: str = ""
    """Rule ID of the rule asking (and the one an illegal answer breaks)."""
    kind: str = ""
    """Machine tag for bots and tools: ``move.unit``, ``move.hex``, ``attack`` ..."""
    refuse: Callable[[str], tuple[str, str] | str | None] | None = attrs.field(default=None, eq=False, repr=False)
    """Explains why an input that is not an option is illegal: returns a reason
    (optionally with the rule ID that forbids it), or ``None`` if unknown."""
    context: Mapping[str, Any] = attrs.field(factory=dict, eq=False, repr=False)
    """Extra display hints (``highlight``: hexes to mark on the map, ``unit``)."""

    def __attrs_post_init__(self) -> None:
        if not self.options:
            raise ValueError(f"decision {self.prompt!r} offers no options")

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(o.key for o in self.options)

    def option(self, key: str) -> Option:
        for o in self.options:
            if o.key == key:
                return o
        raise KeyError(key)

    def match(self, text: str) -> Option:
        """The option ``text`` names: its key exactly, or ignoring case.

        Anything else is refused: with the decision's own reason and rule when
        it has one, and with the options it might have meant when ``text``
        starts one or more keys. A start of a key is never taken silently:
        ``N`` must not become ``NE`` because ``N`` happens not to be legal.
        """
        check_answer_text(text, self.rule)
        raw = text
        text = text.strip()
        if not text:
            raise InvalidAnswer("empty answer", answer=raw, rule=self.rule)
        for o in self.options:
            if o.key == text:
                return o
        low = text.lower()
        exact = [o for o in self.options if o.key.lower() == low]
        if len(exact) == 1:
            return exact[0]
        if len(exact) > 1:
            raise AmbiguousAnswer(
                f"{text!r} matches {', '.join(o.key for o in exact)}: type it exactly", answer=text, rule=self.rule
            )
        reason = self.refuse(text) if self.refuse is not None else None
        why, rule = (reason if isinstance(reason, tuple) else (reason, self.rule))
        starts = [o.key for o in self.options if o.key.lower().startswith(low)]
        if starts:
            shown = ", ".join(starts[:8]) + (" ..." if len(starts) > 8 else "")
            hint = f"did you mean {shown}?"
            if why:
                raise IllegalAnswer(f"{why}; {hint}", answer=text, rule=rule or self.rule)
            raise AmbiguousAnswer(f"{text!r} is not an option: {hint}", answer=text, rule=self.rule)
        if why:
            raise IllegalAnswer(why, answer=text, rule=rule or self.rule)
        raise IllegalAnswer(
            f"{text!r} is not a legal answer to {self.prompt!r}", answer=text, rule=self.rule
        )


def check_answer_text(text: Any, rule: str) -> None:
    """Refuse, as an :class:`InvalidAnswer`, an answer that is not a string
    (``None``, a number, bytes, a list ...) or is longer than any key."""
    if not isinstance(text, str):
        shown = repr(text) if len(repr(text)) <= 40 else repr(text)[:36] + "..."
        raise InvalidAnswer(f"an answer must be text, not {type(text).__name__} {shown}", answer=shown, rule=rule)
    if len(text) > MAX_ANSWER_CHARS:
        raise InvalidAnswer(
            f"an answer is at most {MAX_ANSWER_CHARS} characters, not {len(text)}", answer=text[:40] + "...", rule=rule
        )


class Context:
    """What rules code receives: dice, options, data and the log."""

    __slots__ = ("_checkpoint", "_log", "_secret", "chance", "options", "seed", "store")

    def __init__(self, store: DataStore, options: Mapping[str, Any], seed: int, log: Log) -> None:
        self.store = store
        self.options = options
        self.seed = seed
        self._log = log
        self._secret: str | None = None
        self.chance = Chance(Rng(seed), record=self._record_roll)
        self._checkpoint: Callable[[Hashable], None] | None = None
        """Set by a session whose game supports checkpoints (:meth:`checkpoint`)."""

    def _record_roll(self, roll: Roll) -> None:
        faces = tuple(f for f in roll.faces if isinstance(f, int) and not isinstance(f, bool))
        secret = self._secret
        public = ""
        if secret is not None:
            n = len(roll.faces)
            public = f"{secret} draws {n} from {roll.source}" if roll.kind in ("draw", "pick") else f"{secret} rolls"
        self._log.append(
            Event(
                "roll",
                roll.describe(),
                rules=roll.rules,
                side=secret,
                dice=faces if roll.kind not in ("draw", "pick") else (),
                private_to=secret,
                public_text=public,
            )
        )

    @contextmanager
    def secret(self, side: str) -> Iterator[None]:
        """Rolls and draws inside this block are logged as private to ``side``
        (cards drawn into a hand): the other sides see only that a draw happened."""
        before, self._secret = self._secret, side
        try:
            yield
        finally:
            self._secret = before

    def event(
        self,
        kind: str,
        text: str,
        rules: str | Sequence[str] = (),
        *,
        side: str | None = None,
        dice: Sequence[int] = (),
        private_to: str | None = None,
        public_text: str = "",
        silent: bool = False,
        **data: Any,
    ) -> Event:
        """Record an event in the log and return it (``silent`` with ``private_to``:
        the other sides do not see it at all, see :attr:`Event.silent`)."""
        ev = Event(kind, text, rules, side, tuple(dice), private_to, public_text, data, silent)
        self._log.append(ev)
        return ev

    @property
    def log(self) -> Log:
        return self._log

    def checkpoint(self, where: Hashable) -> None:
        """Mark a safe point of the rules: from here on the game depends only on
        the state, the dice and ``where`` (see :meth:`Game.resume
        <ancients_kit.plugin.Game.resume>`). The session keeps a copy there so
        that undo and fork replay only the answers since. Without a session, or
        for a game without ``resume``, it does nothing."""
        if self._checkpoint is not None:
            self._checkpoint(where)


