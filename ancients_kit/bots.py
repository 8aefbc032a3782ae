"""Bots that play any game through the decision protocol.

A bot answers exactly as a human does: it is shown the current
:class:`~ancients_kit.session.Decision` and returns one option key. Its answers
are recorded in the session like anyone's, so a game with bots replays without
them. Each bot draws its own dice from a stream derived from the session seed,
its side and the number of answers so far, so a game between bots is fully
determined by the seed, and loading a save does not change what a bot will do.

- :class:`RandomBot` picks uniformly among the legal options.
- :class:`GreedyBot` picks the option the game's heuristic scores best: either
  the game's cheap ``score_option`` or, failing that, a one-step look-ahead on
  a copy of the session scored by ``evaluate``.
- ``mcts`` is :class:`~ancients_kit.search.MCTSBot`, the search bot.

A bot is named by a *spec* (:func:`make_bot`, :func:`check_bot`): ``random``,
``greedy``, ``mcts``, or ``mcts:SETTINGS`` for a search with its own budget:
``mcts:200`` searches 200 iterations a decision, ``mcts:seconds=1,depth=60``
takes the ``name=value`` settings of ``ANCIENTS_MCTS`` (which supplies any
setting the spec does not name). The spec is what a save file's sides and a
study's records hold, so a study with another budget is another study.

Every game must end. Wherever bots play (:func:`play_out`, :func:`simulate`,
``ancients new --bots``) a :class:`ProgressWatch` checks that the game keeps
moving: a decision that comes back unchanged (same side, prompt and options)
after an answer that logged nothing, the same silent cycle of decisions and
answers repeated, or a long run of answers without any new event, raises
:class:`EndlessGame` naming the scenario, the seed and the answer number
instead of running forever. A game that passes its decision cap raises it too
where a caller asks for a finished game (:func:`simulate`).
"""

from __future__ import annotations

import gc
import math
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Protocol

from ancients_kit.chance import Rng, spawned_below
from ancients_kit.errors import GameError
from ancients_kit.log import Event
from ancients_kit.plugin import Outcome
from ancients_kit.search import ENV_VAR, MCTSBot, SearchSettingsError
from ancients_kit.session import Decision, Session

__all__ = [
    "BOTS",
    "Bot",
    "EndlessGame",
    "GreedyBot",
    "ProgressWatch",
    "RandomBot",
    "SEARCH_BOTS",
    "bot_spec",
    "check_bot",
    "fewer_collections",
    "make_bot",
    "play_out",
    "play_until",
    "search_settings",
]


class Bot(Protocol):
    name: str

    def choose(self, session: Session, decision: Decision) -> str: ...


def _stream(session: Session, side: str, salt: str) -> Rng:
    return Rng(session.seed).spawn(f"{salt}:{side}:{len(session.answers)}")


class RandomBot:
    """Uniformly random legal play."""

    name = "random"

    def choose(self, session: Session, decision: Decision) -> str:
        opts = decision.options
        if len(opts) == 1:
            return opts[0].key
        # the first number of the stream _stream would give, without building it (issue 11 item 5)
        label = f"{self.name}:{decision.side}:{len(session.answers)}"
        return opts[spawned_below(session.seed, label, len(opts))].key


class GreedyBot:
    """One-step greedy play on the game's heuristic; ties broken at random."""

    name = "greedy"

    def __init__(self, lookahead_limit: int = 8) -> None:
        self.lookahead_limit = lookahead_limit

    def choose(self, session: Session, decision: Decision) -> str:
        opts = decision.options
        if len(opts) == 1:
            return opts[0].key
        rng = _stream(session, decision.side, self.name)
        game = session.game
        scores = game.score_options(session.state, decision)
        if all(s is None for s in scores):
            keys = [o.key for o in opts]
            if len(keys) > self.lookahead_limit:
                rng.shuffle(keys)
                keys = keys[: self.lookahead_limit]
            best: list[str] = []
            top = float("-inf")
            for k in keys:
                probe = session.fork()
                probe.answer(k)
                v = game.evaluate(probe.state, decision.side)
                if v > top:
                    top, best = v, [k]
                elif v == top:
                    best.append(k)
            return best[rng.randint(0, len(best) - 1)]
        top = max(s for s in scores if s is not None)
        best = [o.key for o, s in zip(opts, scores) if s == top]
        return best[rng.randint(0, len(best) - 1)]


BOTS: dict[str, Callable[[], Bot]] = {"random": RandomBot, "greedy": GreedyBot, "mcts": MCTSBot.from_env}
"""``mcts``: Monte Carlo tree search (ancients_kit.search), settings from ``ANCIENTS_MCTS``."""

SEARCH_BOTS = frozenset({"mcts"})
"""Bots that take settings after a colon (``mcts:200``) and search, so cost far more a decision."""

_BUDGETS = ("iterations", "seconds")


def _pairs(text: str) -> list[tuple[str, str]]:
    """``"iterations=200, depth=60"`` -> ``[("iterations", "iterations=200"), ("depth", "depth=60")]``."""
    out = []
    for item in (p.strip() for p in text.split(",")):
        if item:
            out.append((item.partition("=")[0].strip().lower(), item))
    return out


def bot_spec(spec: str) -> tuple[str, str]:
    """A bot spec ``NAME`` or ``NAME:SETTINGS`` split into its name and its settings
    (``"mcts:200"`` -> ``("mcts", "200")``); the name lower-cased, both stripped.
    ``ValueError`` (one line, naming the spec) for a name no bot has or settings
    given to a bot that takes none."""
    name, sep, settings = spec.partition(":")
    name, settings = name.strip().lower(), settings.strip()
    if name not in BOTS:
        where = f" in {spec!r}" if sep else ""
        raise ValueError(f"no bot called {name!r}{where} (bots: {', '.join(BOTS)})")
    if sep and name not in SEARCH_BOTS:
        raise ValueError(f"bot {spec!r}: {name} takes no settings (only {', '.join(sorted(SEARCH_BOTS))} does)")
    if sep and not settings:
        raise ValueError(f"bot {spec!r}: give settings after the colon ({name}:200, {name}:iterations=200,depth=60)")
    return name, settings


def search_settings(spec: str, environment: str = "") -> str:
    """The ``name=value`` settings a search bot spec plays with: those of the spec
    (a bare number is an iteration budget: ``mcts:200`` is ``iterations=200``),
    and for the rest those of ``environment`` (``ANCIENTS_MCTS``). A budget in the
    spec (iterations or seconds) replaces the environment's budget."""
    _, own = bot_spec(spec)
    if own.isdigit():
        own = f"iterations={own}"
    mine = _pairs(own)
    named = {k for k, _ in mine}
    drop = set(_BUDGETS) if named & set(_BUDGETS) else set()
    rest = [item for k, item in _pairs(environment) if k not in named and k not in drop]
    return ",".join([item for _, item in mine] + rest)


def check_bot(spec: str) -> str:
    """``spec`` as a bot spec (``random``, ``greedy``, ``mcts`` or ``mcts:SETTINGS``), normalised
    (``" MCTS : 200"`` -> ``"mcts:200"``); the bot is built once so that bad settings are
    refused here, with one line, not in the middle of a study."""
    name, settings = bot_spec(spec)
    norm = f"{name}:{settings}" if settings else name
    make_bot(norm)
    return norm


def make_bot(name: str) -> Bot:
    """The bot a spec names: ``random``, ``greedy``, ``mcts`` (settings from ``ANCIENTS_MCTS``)
    or ``mcts:SETTINGS``, where SETTINGS is an iteration budget (``mcts:200``) or
    ``name=value`` pairs as in ``ANCIENTS_MCTS`` (``mcts:seconds=1,depth=60``), which win
    over the environment's."""
    bare, settings = bot_spec(name)
    if not settings:
        return BOTS[bare]()
    environment = os.environ.get(ENV_VAR, "")
    try:
        return MCTSBot.from_settings(search_settings(name, environment))
    except SearchSettingsError as exc:
        where = f"bot {name!r} (with {ENV_VAR}={environment})" if environment.strip() else f"bot {name!r}"
        raise SearchSettingsError(str(exc).replace(f"{ENV_VAR}:", f"{where}:", 1)) from None


class EndlessGame(GameError):
    """Bots played a game that does not move towards its end.

    Either the game makes no progress (a decision comes back unchanged after
    answers that changed nothing: a fault in the game's rules, or a bot that
    keeps undoing its own choice) or it passed its decision cap. ``answer`` is
    the 1-based number of the answer where the stall began (or the cap).
    """

    def __init__(self, message: str, *, game: str, scenario: str, seed: int, answer: int, since: bool = False) -> None:
        self.game = game
        self.scenario = scenario
        self.seed = seed
        self.answer = answer
        self._made = (message, game, scenario, seed, answer, since)
        at = f"from answer {answer}" if since else f"answer {answer}"
        super().__init__(f"{game} {scenario} (seed {seed}), {at}: {message}")

    def __reduce__(self) -> tuple[Any, ...]:
        # Raised in a worker process (``--jobs``, Dask), it must cross back whole.
        return (_endless_game, self._made)


def _endless_game(message: str, game: str, scenario: str, seed: int, answer: int, since: bool) -> EndlessGame:
    return EndlessGame(message, game=game, scenario=scenario, seed=seed, answer=answer, since=since)


def _where(session: Session) -> dict[str, Any]:
    return {"game": session.game.id, "scenario": session.scenario, "seed": session.seed}


class ProgressWatch:
    """Checks, answer by answer, that bot play moves the game on.

    Progress is a new log event (a move, a roll, a result, a phase: anything
    the rules record). Between two events the watch keeps the *quiet trail*
    of (decision, answer) pairs and raises :class:`EndlessGame` when

    - the decision after an answer is the decision that was answered (same
      side, prompt and options: :class:`~ancients_kit.session.Decision`
      equality) and nothing was logged: the answer changed nothing;
    - the trail ends in one cycle of decisions and answers, leading back to
      the decision now asked, repeated at least ``repeats`` times and so
      often that a player choosing uniformly at random would repeat it by
      chance with a probability below ``improbable`` (a forced cycle, where
      every decision has one option, after ``repeats`` times): a bot taking
      the same dead end again and again;
    - the trail grows to ``quiet`` answers.

    A random bot wandering through take-backs (choose a unit, then ``back``)
    does repeat short cycles by chance, which is why a repetition alone is
    not enough: the chance test keeps false alarms negligible while a greedy
    bot stuck in a dead end is caught within a few dozen answers.
    """

    def __init__(self, *, repeats: int = 3, improbable: float = 1e-12, quiet: int = 5_000) -> None:
        self.repeats = repeats
        self.improbable = improbable
        self.quiet = quiet
        self._trail: list[tuple[Decision, str]] = []
        self._start = 0
        """Number of answers given when the quiet trail began."""
        self.longest_quiet = 0
        """Most answers in a row without an event seen so far (for measuring the margins)."""
        self.closest = 0.0
        """Largest share of the chance threshold a repeated cycle has reached so far (1.0 raises)."""

    def reset(self, session: Session) -> None:
        """Forget the trail (after progress, or after an answer the watch did not see)."""
        self._trail.clear()
        self._start = len(session.answers)

    def observe(self, session: Session, decision: Decision, key: str, events: Sequence[Event]) -> None:
        """Record that ``key`` answered ``decision`` and produced ``events``; raise if play is stuck."""
        if events or session.decision is None:
            self.reset(session)
            return
        if not self._trail:
            self._start = len(session.answers) - 1
        self._trail.append((decision, key))
        self.longest_quiet = max(self.longest_quiet, len(self._trail))
        now = session.decision
        asked = f"the decision of {now.side} {now.prompt!r}"
        if now == decision:
            self._fail(session, f"{asked} came back unchanged after the answer {key!r}, which logged nothing")
        cycle, times = self._cycle(now)
        if cycle and times >= 2:
            choices = math.prod(len(d.options) for d, _ in cycle)
            share = (times - 1) * math.log(choices) / -math.log(self.improbable) if self.improbable < 1 else math.inf
            self.closest = max(self.closest, share)
            if times >= self.repeats and (choices == 1 or share >= 1):
                keys = ", ".join(k for _, k in cycle)
                self._fail(session, f"no progress: {asked} came back unchanged {times} times after the "
                                    f"answers {keys}, which log nothing")
        if len(self._trail) >= self.quiet:
            self._fail(session, f"no progress: {len(self._trail)} answers without any event")

    def _cycle(self, now: Decision) -> tuple[list[tuple[Decision, str]], int]:
        """The cycle the trail ends in (from the last time ``now`` was asked) and how many
        times in a row the trail repeats it; ``([], 0)`` if ``now`` was not asked before."""
        t = self._trail
        for start in range(len(t) - 1, -1, -1):
            if t[start][0] == now:
                break
        else:
            return [], 0
        n = len(t) - start
        tail = t[start:]
        times = 1
        while (times + 1) * n <= len(t) and t[len(t) - (times + 1) * n: len(t) - times * n] == tail:
            times += 1
        return tail, times

    def _fail(self, session: Session, why: str) -> None:
        raise EndlessGame(f"{why} (a loop in the game's rules, or bots that undo their own choices)",
                          answer=self._start + 1, since=True, **_where(session))


PLAY_GC_THRESHOLD = 20_000
"""The collector's first threshold while bots play (Python's default is 700): a game
allocates and drops many small objects a decision (questions, options, events), and
each collection scans the kept checkpoint copies too; the games do not depend on it."""


@contextmanager
def fewer_collections(threshold: int = PLAY_GC_THRESHOLD) -> Iterator[None]:
    """Run the block with the garbage collector's first threshold raised to ``threshold``
    (never lowered), and put it back after."""
    old = gc.get_threshold()
    gc.set_threshold(max(old[0], threshold), *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


def play_out(
    session: Session,
    bots: Mapping[str, Bot] | Bot,
    *,
    max_decisions: int = 200_000,
    on_answer: Callable[[Session, Decision, str], Any] | None = None,
    watch: ProgressWatch | None = None,
    check_progress: bool = True,
) -> Outcome | None:
    """Let bots answer until the game ends (or ``max_decisions`` is reached: then ``None``).

    Unless ``check_progress`` is false, a :class:`ProgressWatch` (``watch``,
    or a default one) raises :class:`EndlessGame` when play stops making
    progress, so a loop in a game's rules fails fast instead of running on.
    """
    if not check_progress:
        watch = None
    elif watch is None:
        watch = ProgressWatch()
    if watch is not None:
        watch.reset(session)
    n = 0
    with fewer_collections():
        while session.decision is not None and n < max_decisions:
            d = session.decision
            bot = bots if not isinstance(bots, Mapping) else bots[d.side]
            key = bot.choose(session, d)
            events = session.answer(key)
            if watch is not None:
                watch.observe(session, d, key, events)
            if on_answer is not None:
                on_answer(session, d, key)
            n += 1
    return session.outcome


def play_until(session: Session, kind: str, bot: Bot | None = None, *, limit: int = 1000) -> Decision:
    """Let ``bot`` (greedy by default) answer until a question of ``kind`` is asked, and return it
    (for tests, tutorials and tools that need a position with, say, an attack pending).
    Raises ``LookupError`` if the game ends or ``limit`` answers pass first."""
    bot = bot or make_bot("greedy")
    for _ in range(limit):
        d = session.decision
        if d is None:
            break
        if d.kind == kind:
            return d
        session.answer(bot.choose(session, d))
    raise LookupError(f"no {kind!r} question within {limit} answers")
