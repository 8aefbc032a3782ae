"""Interrupt windows: optional plays offered outside one's own action.

Some chits are played at a named moment of somebody else's action: right
after any die roll (Lest Darkness Fall's Beseech the Gods, ldf:14.3, the
reroll that ldf:8.8 calls chit no. 2; Xenophon's Consult Oracles, xen:chits),
at the start of a battle (LDF Flanking Move), after an enemy force's
operations (Xenophon's Reaction, xen:opt.reaction). The rules open a **window** at that moment; the sides
that may answer are asked, in order, whether they play; the first play found is
returned to the rules, which apply it and carry on::

    window = Window("after-roll", "after a die roll", "ldf:14.3", sides=(other, actor), detail=roll.describe())
    play = yield from offer(window, state.standing, plays=lambda side: chit_options(state, side))
    if play is not None:
        ...                                       # the rules apply play.key for play.side

A chain of plays and counter-plays inside one action (LDF 8.8: a roll, a
counter-play of chit 2, a new salting, another chit ...) is :func:`chain`: it
reopens the window after each play, starting with the sides after the one
that played, until every side declines.

Who is asked
------------
(docs/architecture.md, "Interrupt windows: who is asked")

*A side is asked at a window only when it holds a play it may make there.*
A question that can only be answered ``no`` is not a question: asking it after
every roll, with a screen hand-over in hotseat, is what made the strategic games
unplayable at a table. The number of chits (or cards) in a hand is public in
both strategic games (``ldf:10.9``; Xenophon's hand limit and purchases are
open), so skipping an **empty** hand tells nobody anything. Skipping a hand that
holds nothing playable *here* does tell an attentive opponent that the hand holds
no chit for this moment, exactly as the pause of a player who looks at his chits
does at a real table; the project accepts that (issue 23) and tells it in the
players' guide. A question's side, ``kind`` (``window.<name>``) and rule are
public; its options are seen only by the side asked (:func:`seen_by`). Declining
logs nothing; a play is logged by the rules as a public event (the chit is shown
as it is played).

Standing choices
----------------
Each side has a **standing choice** per window (:class:`Standing`): ``ask`` (the
default), ``not this turn`` or ``never``. Answering ``turn`` at a window declines
and stops the questions there until the game calls :meth:`Standing.begin_turn`;
answering ``never`` stops them for good. A side's own decisions wrapped in
:func:`own` then offer ``ask:<window>`` to be asked again (answering it is free:
the same decision is put again). When a standing choice passes a side that holds
a play, the log gets a one-line **reminder** seen by that side only (a silent
event, :attr:`ancients_kit.log.Event.silent`) when the rules pass their context
(``ctx=``). All of these are ordinary answers, so they are saved and replayed like
any other (answers are the one truth of a save). Bots answer windows through the
same protocol (``no``, ``turn``, ``never``, ``ask:...`` and the plays are plain
options).

The standing choices belong to the game state (keep a :class:`Standing` in it),
so copies and snapshots of the state carry them.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Final

import attrs

from ancients_kit.protocol import Decision, Option

if TYPE_CHECKING:
    from ancients_kit.protocol import Context

__all__ = [
    "ASK",
    "CLOSE",
    "NEVER",
    "NO",
    "TURN",
    "Play",
    "Standing",
    "Window",
    "chain",
    "offer",
    "own",
    "seen_by",
]

NO: Final = "no"
"""Answer at a window: no play this time."""
NEVER: Final = "never"
"""Answer at a window: no play, and do not ask me at this window again."""
TURN: Final = "turn"
"""Answer at a window: no play, and do not ask me at this window again this turn."""
ASK: Final = "ask:"
"""Prefix of the option on a side's own decisions that resumes asking at a window."""

_RESERVED = (NO, TURN, NEVER)

_TIME_WORDS: Final = frozenset({"after", "before", "during", "when", "while", "at", "on", "upon", "in", "once"})
"""First words of a window title that already say when (``after a die roll``): no ``at`` before them."""


def _moment(title: str) -> str:
    """A window's ``title`` as words that follow a verb (see :attr:`Window.moment`)."""
    first = title.split(" ", 1)[0].lower()
    return title if first in _TIME_WORDS else f"at {title}"


class _Close:
    def __repr__(self) -> str:
        return "CLOSE"


CLOSE: Final = _Close()
"""Returned by a :func:`chain` resolver to end the chain without reopening the window."""


@attrs.frozen
class Window:
    """A named moment at which some sides may make an optional play."""

    name: str
    """Stable ID, the key of standing preferences (``after-roll``, ``battle-start``)."""
    title: str
    """Public words for the moment, used in prompts: a moment (``the start of a battle``,
    asked as ``play at the start of a battle?``) or words that begin with a word of
    time (``after a die roll``, asked as ``play after a die roll?``)."""
    rule: str
    """Rule ID of the rule that opens the window (and that an illegal answer breaks)."""
    sides: tuple[str, ...] = attrs.field(converter=tuple)
    """Sides that may answer, in the order they are asked. Decided from public
    facts only (``either player``, ``the defender``), never from a hand."""
    detail: str = ""
    """Public description of this opening (the roll just made, the battle)."""
    @property
    def moment(self) -> str:
        """When the window opens, as words that follow a verb: the title itself when it
        already begins with a word of time (``after a die roll``), else ``at`` and the
        title (``at the start of a battle``), so that no prompt reads ``at after``."""
        return _moment(self.title)

    def prompt(self, side: str) -> str:
        """The question put to ``side``: the same whatever ``side`` holds.

        It does not begin with the side: every view of a question shows who is
        asked before the prompt (``Romans: play after a die roll (d6 [3])?``)."""
        detail = f" ({self.detail})" if self.detail else ""
        return f"play {self.moment}{detail}?"


@attrs.frozen
class Play:
    """A play made at a window."""

    window: str
    side: str
    key: str
    """The option key the side chose (one of the plays offered)."""
    option: Option = attrs.field(eq=False, repr=False)
    """The chosen option (its ``data`` is the game's payload)."""


class Standing:
    """Each side's standing choice per window: asked (the default), not asked again
    this turn, or never asked."""

    __slots__ = ("_never", "_turn")

    def __init__(self, never: Iterable[tuple[str, str, str]] = (),
                 this_turn: Iterable[tuple[str, str, str]] = ()) -> None:
        self._never: dict[tuple[str, str], str] = {(side, name): title for side, name, title in never}
        self._turn: dict[tuple[str, str], str] = {(side, name): title for side, name, title in this_turn}

    def asks(self, side: str, window: str) -> bool:
        """Whether ``side`` is asked at the window called ``window``."""
        return (side, window) not in self._never and (side, window) not in self._turn

    def choice(self, side: str, window: str) -> str:
        """``ask``, ``not this turn`` or ``never``: the standing choice in words."""
        if (side, window) in self._never:
            return "never"
        return "not this turn" if (side, window) in self._turn else "ask"

    def never(self, side: str, window: Window) -> None:
        """Stop asking ``side`` at ``window``."""
        self._turn.pop((side, window.name), None)
        self._never[(side, window.name)] = window.title

    def not_this_turn(self, side: str, window: Window) -> None:
        """Stop asking ``side`` at ``window`` until :meth:`begin_turn`."""
        if (side, window.name) not in self._never:
            self._turn[(side, window.name)] = window.title

    def begin_turn(self) -> None:
        """A new game turn: every ``not this turn`` choice goes back to ``ask``."""
        self._turn.clear()

    def ask(self, side: str, window: str) -> None:
        """Ask ``side`` again at the window called ``window``."""
        self._never.pop((side, window), None)
        self._turn.pop((side, window), None)

    def muted(self, side: str) -> tuple[tuple[str, str], ...]:
        """``(name, title)`` of the windows ``side`` is not asked at now, by name."""
        both = {**self._turn, **self._never}
        return tuple(sorted((name, title) for (s, name), title in both.items() if s == side))

    def copy(self) -> Standing:
        other = Standing()
        other._never = dict(self._never)
        other._turn = dict(self._turn)
        return other

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Standing) and self._never == other._never and self._turn == other._turn

    def __repr__(self) -> str:
        never = sorted((s, n, t) for (s, n), t in self._never.items())
        turn = sorted((s, n, t) for (s, n), t in self._turn.items())
        return f"Standing({never!r}, {turn!r})"


def _remind(ctx: Context | None, window: Window, standing: Standing, side: str, offered: Sequence[Option]) -> None:
    """The one-line reminder, seen by ``side`` only, that a standing choice passed a play."""
    if ctx is None or not offered:
        return
    what = ", ".join(o.label or o.key for o in offered[:3]) + (" ..." if len(offered) > 3 else "")
    choice = standing.choice(side, window.name)
    ctx.event("reminder", f"{side}: not asked {window.moment} ({choice}); you could have played: {what}. "
              f"Answer ask:{window.name} at one of your own questions to be asked again",
              (window.rule,), side=side, private_to=side, silent=True, window=window.name)


def _ask(
    window: Window, standing: Standing, side: str, plays: Callable[[str], Sequence[Option]]
) -> Generator[Decision, str, Play | None]:
    offered = tuple(plays(side))
    if not offered:
        return None  # nothing playable here: no question (see "Who is asked")
    for o in offered:
        if o.key in _RESERVED or o.key.startswith(ASK):
            raise ValueError(f"window {window.name!r}: a play may not use the reserved key {o.key!r}")
    options = (
        Option(NO, "no play this time"),
        Option(TURN, f"no play, and do not ask me {window.moment} again this turn"),
        Option(NEVER, f"no play, and do not ask me {window.moment} again"),
        *offered,
    )
    key = yield Decision(
        side,
        window.prompt(side),
        options,
        rule=window.rule,
        kind=f"window.{window.name}",
        context={"window": window.name},
    )
    if key == NEVER:
        standing.never(side, window)
        return None
    if key == TURN:
        standing.not_this_turn(side, window)
        return None
    if key == NO:
        return None
    return Play(window.name, side, key, next(o for o in offered if o.key == key))


def offer(
    window: Window, standing: Standing, plays: Callable[[str], Sequence[Option]], *, ctx: Context | None = None
) -> Generator[Decision, str, Play | None]:
    """Ask each side of ``window`` that holds a play there (unless its standing
    choice passes it) whether it plays; return the first play, or ``None`` when
    all decline.

    ``plays(side)`` lists the plays ``side`` may make now (from its hand, its
    secret treasury ...): possibly none, and then the side is not asked. Only the
    side asked sees the options. With ``ctx``, a side that a standing choice
    passes while it holds a play gets a reminder in the log (seen by it only).
    """
    for side in window.sides:
        if not standing.asks(side, window.name):
            if ctx is not None:
                _remind(ctx, window, standing, side, tuple(plays(side)))
            continue
        play = yield from _ask(window, standing, side, plays)
        if play is not None:
            return play
    return None


def chain(
    window: Window,
    standing: Standing,
    plays: Callable[[str], Sequence[Option]],
    resolve: Callable[[Play], Generator[Decision, str, Any]],
    *,
    limit: int = 100,
    ctx: Context | None = None,
) -> Generator[Decision, str, tuple[Play, ...]]:
    """Plays and counter-plays at one moment (LDF 8.8), until everybody declines.

    After each play ``resolve(play)`` runs (a generator: it may roll, ask its
    own questions and log). It returns ``None`` to reopen the window as it
    was, a string to reopen it with that new public ``detail`` (the reroll),
    or :data:`CLOSE` to end the chain. The reopened window asks first the
    sides after the one that played, then that side last. Returns the plays
    made, in order. ``limit`` guards against rules that never run out of plays.
    """
    made: list[Play] = []
    current = window
    while True:
        play = yield from offer(current, standing, plays, ctx=ctx if not made else None)
        if play is None:
            return tuple(made)
        made.append(play)
        if len(made) > limit:
            raise RuntimeError(f"window {window.name!r}: more than {limit} plays in one chain")
        outcome = yield from resolve(play)
        if outcome is CLOSE:
            return tuple(made)
        sides = current.sides
        i = sides.index(play.side)
        reordered = sides[i + 1 :] + sides[: i + 1]
        detail = outcome if isinstance(outcome, str) else current.detail
        current = attrs.evolve(current, sides=reordered, detail=detail)


def own(decision: Decision, standing: Standing) -> Generator[Decision, str, str]:
    """Put one of a side's own decisions, offering ``ask:<window>`` for every
    window it has asked never to be asked at. Choosing one resumes the questions
    there and puts the same decision again; any other answer is returned.

    A decision with a single option gets no ``ask:`` options: it stays a forced
    answer, which the session does not put to a person (:attr:`Game.asks_forced`)."""
    while True:
        muted = standing.muted(decision.side)
        if not muted or len(decision.options) == 1:
            key = yield decision
            return key
        extra = tuple(Option(f"{ASK}{name}", f"ask me again {_moment(title)}") for name, title in muted)
        clash = {o.key for o in extra} & set(decision.keys)
        if clash:
            raise ValueError(f"decision {decision.prompt!r} already uses the key(s) {sorted(clash)}")
        key = yield attrs.evolve(decision, options=decision.options + extra)
        if key.startswith(ASK) and any(key == o.key for o in extra):
            standing.ask(decision.side, key[len(ASK) :])
            continue
        return key


def seen_by(decision: Decision, viewer: str | None) -> tuple[Any, ...]:
    """What ``viewer`` sees of a question: all of it when it is asked (or for
    ``None``, omniscient), otherwise only who is asked, the kind and the rule."""
    if viewer is None or viewer == decision.side:
        return (decision.side, decision.kind, decision.rule, decision.prompt, decision.keys)
    return (decision.side, decision.kind, decision.rule)
