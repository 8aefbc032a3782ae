"""The session: runs a game one decision at a time (the decision protocol).

A session *is* scenario + options + seed + variants + the list of answers.
Replaying the answers reproduces the game exactly, which gives save, load,
undo, replay and look-ahead copies in one idea::

    s = Session.new("centurion", "servile-war", seed=7)
    d = s.decision            # who is asked, what, the options, the rule asking
    s.answer(d.options[0].key)
    s.log                     # every event with the rule IDs it applied
    savefile.save(s, "game.json")   # ancients_kit.savefile, a layer up
    s2 = savefile.load("game.json")
    s.undo()                  # replays all answers but the last

Everything a human, a bot or a test does goes through :meth:`Session.answer`.
Illegal input raises an :class:`~ancients_kit.errors.AnswerError` naming the
rule, and leaves the session exactly as it was.
"""

from __future__ import annotations

from collections.abc import Generator, Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from ancients_kit.chance import Rng
from ancients_kit.data import DataError, DataStore, Variant
from ancients_kit.errors import AnswerError, IllegalAnswer, InvalidAnswer, ReplayError
from ancients_kit.log import Event, Log
from ancients_kit.paths import MAX_DATA_BYTES
from ancients_kit.plugin import Game, Outcome, find_game, supports_checkpoints
from ancients_kit.protocol import Context, Decision, DeferredContext, Option, check_answer_text

__all__ = ["Checkpoint", "Context", "Decision", "DeferredContext", "Option", "Session"]
"""Decision, Option, Context and DeferredContext are :mod:`ancients_kit.protocol`'s, named
here too because a game's rules and tests meet them with the session."""


@attrs.frozen(slots=True)
class Checkpoint:
    """A safe point of a game: the state and dice there, and how far the game had got.

    Checkpoints are never changed once taken (the state is a private copy), so
    a session and its forks share them."""

    answers: int
    """Answers given before it (the game reached it while playing answer ``answers``)."""
    log_length: int
    """Events in the log when it was taken."""
    where: Hashable
    """The game's name for the safe point, handed back to ``Game.resume``."""
    state: Any = attrs.field(eq=False, repr=False)
    """A copy of the game state, never played on."""
    chance: tuple[Any, ...] = attrs.field(eq=False, repr=False)
    """:meth:`Chance.getstate <ancients_kit.chance.Chance.getstate>` there."""


_NOT_RESUMING = object()

_SCENARIO_IDS: dict[tuple[Any, ...], tuple[Game, frozenset[str], tuple[str, ...]]] = {}
"""Scenario IDs per game and data (documents are shared per process, so is this list)."""


def _known_scenarios(game: Game, store: DataStore) -> tuple[frozenset[str], tuple[str, ...]]:
    key = store.shared_key
    if key is not None:
        got = _SCENARIO_IDS.get((id(game), *key))
        if got is not None and got[0] is game:
            return got[1], got[2]
    ids = tuple(info.id for info in game.scenarios(store))
    if key is not None:
        _SCENARIO_IDS[(id(game), *key)] = (game, frozenset(ids), ids)
    return frozenset(ids), ids


def _check_carried(variants: Sequence[Variant]) -> None:
    """A save carries its variants' texts: together at most
    :data:`~ancients_kit.paths.MAX_DATA_BYTES`, so the save stays readable."""
    size = sum(len(text.encode("utf-8")) for v in variants for _, text in v.sources)
    if size > MAX_DATA_BYTES:
        raise DataError(variants[-1].path, f"the variants hold {size} bytes together; a saved game carries at most "
                        f"{MAX_DATA_BYTES} bytes of variants")


def _seed_for(seed: int) -> int:
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise InvalidAnswer(f"seed must be a whole number, not {seed!r}")
    return seed


class Session:
    """One game in progress (or finished), reproducible from its answers."""

    def __init__(
        self,
        game: Game,
        scenario: str,
        *,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        variants: Sequence[Variant] = (),
        answers: Sequence[str] = (),
        meta: Mapping[str, Any] | None = None,
    ) -> None:
        self.game = game
        self.scenario = scenario
        self.seed = _seed_for(seed)
        self.variants = tuple(variants)
        _check_carried(self.variants)
        merged: dict[str, Any] = {}
        for v in self.variants:
            merged.update(v.options)
        merged.update(options or {})
        self.store = DataStore(game.package, self.variants)
        self.store.check_replacements()
        known, listed = _known_scenarios(game, self.store)
        if scenario not in known:
            raise InvalidAnswer(f"{game.id} has no scenario {scenario!r} (scenarios: {', '.join(listed)})")
        for v in self.variants:
            self._check_variant_options(v)
        self._checkpoints: list[Checkpoint] = []
        """Safe points reached so far, in order (empty for games without ``resume``)."""
        self._resume_where: Any = _NOT_RESUMING
        self.options = self._check_options(merged)
        self.meta: dict[str, Any] = dict(meta or {})
        """Free-form record kept in saves (who plays which side ...)."""
        self._start()
        for i, a in enumerate(answers):
            if self.decision is None:
                raise ReplayError(f"saved answer {i + 1} ({a!r}) comes after the end of the game")
            try:
                self._apply(a)
            except AnswerError as exc:
                raise ReplayError(f"saved answer {i + 1} ({a!r}) is no longer legal: {exc}") from None

    # -- construction -------------------------------------------------------
    @classmethod
    def new(
        cls,
        game: str | Game,
        scenario: str,
        *,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        variants: Sequence[Variant | str | Path] = (),
        answers: Sequence[str] = (),
    ) -> Session:
        g = find_game(game) if isinstance(game, str) else game
        vs = tuple(v if isinstance(v, Variant) else Variant.from_file(v) for v in variants)
        return cls(g, scenario, seed=seed, options=options, variants=vs, answers=answers)

    def _check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        specs = {s.name: s for s in self.game.option_specs(self.store, self.scenario)}
        out = {name: spec.default for name, spec in specs.items()}
        for k, v in options.items():
            if k not in specs:
                known = ", ".join(sorted(specs)) or "none"
                raise InvalidAnswer(f"{self.game.id} has no option {k!r} (options: {known})")
            try:
                out[k] = specs[k].check(v)  # text as on the command line, other values of the option's type
            except ValueError as exc:
                raise InvalidAnswer(str(exc)) from None
        return out

    def _check_variant_options(self, variant: Variant) -> None:
        """A variant's ``[options]``: known names and values of the option's type, or a
        DataError naming the variant file and the key (``options.fortune``)."""
        specs = {s.name: s for s in self.game.option_specs(self.store, self.scenario)}
        for k, v in variant.options.items():
            if k not in specs:
                known = ", ".join(sorted(specs)) or "none"
                raise DataError(variant.path, f"{self.game.id} has no option {k!r} (options: {known})", f"options.{k}")
            try:
                specs[k].check(v)
            except ValueError as exc:
                raise DataError(variant.path, str(exc), f"options.{k}") from None

    def _start(self) -> None:
        self.log = Log()
        self.answers: list[str] = []
        self.asked: list[str] = []
        """The side that gave each answer."""
        self.outcome: Outcome | None = None
        self.decision: Decision | None = None
        self.ctx = Context(self.store, self.options, self.seed, self.log)
        self._checkpoints = []
        self._resume_where = _NOT_RESUMING
        if supports_checkpoints(self.game):
            self.ctx._checkpoint = self._on_checkpoint
        self.state = self.game.setup(self.ctx, self.scenario)
        self._gen: Generator[Decision, str, Outcome] = self.game.play(self.ctx, self.state)
        self._step(None)
        self._setup_events = len(self.log)
        """Events before the first answer: the scenario's set-up (:meth:`setup_digest`)."""

    def setup_digest(self) -> str:
        """sha256 of the log up to the first question (the set-up a save records)."""
        return self.log.digest_of_first(self._setup_events)

    # -- checkpoints ----------------------------------------------------------
    def _on_checkpoint(self, where: Hashable) -> None:
        if self._resume_where is not _NOT_RESUMING:
            expected, self._resume_where = self._resume_where, _NOT_RESUMING
            if where != expected:
                raise ReplayError(
                    f"{self.game.id}: resuming at checkpoint {expected!r} reached {where!r} first (Game.resume)"
                )
            return
        if not self._keep_checkpoints:
            return  # a search copy that will not fork again: rebuilds go from its branch point
        if self.ctx._secret is not None:
            raise ReplayError(f"{self.game.id}: checkpoint {where!r} inside a secret block of {self.ctx._secret}")
        cps = self._checkpoints
        if cps and cps[-1].answers == len(self.answers):
            cps.pop()  # no answer since the previous one: this one, further on, serves every rebuild it did
        elif cps and len(self.answers) - cps[-1].answers < self._gap():
            return  # too near the previous one to pay for its copy (a fork reaching here keeps it: _plain_fork)
        elif cps and not self._used:
            self._thinned = min(2 * self._gap(), self.checkpoint_spacing_max)  # no rebuild asked for since
        cps.append(
            Checkpoint(len(self.answers), len(self.log), where, self.game.copy_state(self.state),
                       self.ctx.chance.getstate())
        )
        self._used = False

    @property
    def checkpoints(self) -> tuple[Checkpoint, ...]:
        """The safe points this game has passed, oldest first (for tests and tools)."""
        return tuple(self._checkpoints)

    def _latest_checkpoint(self, answers: int) -> int:
        """Index of the last checkpoint reached with at most ``answers`` answers, or -1."""
        cps = self._checkpoints
        i = len(cps) - 1
        while i >= 0 and cps[i].answers > answers:
            i -= 1
        return i

    def _resume(self, index: int, log: Log, answers: Sequence[str], asked: Sequence[str]) -> None:
        """Put the game at checkpoint ``index``: its state and dice, ``log`` and the
        answers up to it; later checkpoints are dropped (they are reached again)."""
        cp = self._checkpoints[index]
        del self._checkpoints[index + 1 :]
        self.log = log.copy(cp.log_length)
        self.answers = list(answers[: cp.answers])
        self.asked = list(asked[: cp.answers])
        self.outcome = None
        self.decision = None
        self.ctx = Context(self.store, self.options, self.seed, self.log)
        self.ctx.chance.setstate(cp.chance)
        self.ctx._checkpoint = self._on_checkpoint
        self.state = self.game.copy_state(cp.state)
        self._resume_where = cp.where
        self._gen = self.game.resume(self.ctx, self.state, cp.where)
        self._step(None)
        if self._resume_where is not _NOT_RESUMING:
            self._resume_where = _NOT_RESUMING
            raise ReplayError(f"{self.game.id}: resuming at checkpoint {cp.where!r} never reached it (Game.resume)")

    def _step(self, key: str | None) -> None:
        forced = not self.game.asks_forced
        try:
            d = self._gen.send(key) if key is not None else next(self._gen)
            while forced and len(d.options) == 1:
                d = self._gen.send(d.options[0].key)  # a forced answer is not a question (Game.asks_forced)
        except StopIteration as stop:
            self.decision = None
            self.outcome = stop.value
            if self.outcome is not None:
                self.log.append(Event("end", self.outcome.text, self.outcome.rules, data=self.outcome.to_json()))
            return
        self.decision = d

    # -- the protocol -------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.decision is None

    def answer(self, text: str) -> list[Event]:
        """Answer the current decision; returns the events it produced.

        Illegal input raises an AnswerError and leaves the session unchanged;
        anything but a string (``None``, a number, bytes, a list) and a string
        longer than :data:`~ancients_kit.protocol.MAX_ANSWER_CHARS` are an
        :class:`~ancients_kit.errors.InvalidAnswer`.
        """
        check_answer_text(text, self.decision.rule if self.decision is not None else "")
        if self.decision is None:
            raise IllegalAnswer("the game is over", answer=text)
        start = len(self.log)
        self._apply(text)
        return self.log.since(start)

    def _apply(self, text: str) -> None:
        assert self.decision is not None
        opt = self.decision.match(text)
        self.asked.append(self.decision.side)
        self.answers.append(opt.key)
        try:
            self._step(opt.key)
        except Exception:
            # The rules refused the answer after reading it (an AnswerError), or
            # failed on it: the generator is spent, so rebuild the game from the
            # answers before this one. Nothing the player did earlier is lost.
            self._rebuild(self.answers[:-1])
            raise

    def _at_checkpoint(self, index: int) -> Session:
        """A new session of this game standing at checkpoint ``index`` (no answer since
        replayed); it shares the checkpoints up to that one, which are never changed."""
        other = Session.__new__(Session)
        other.game = self.game
        other.scenario = self.scenario
        other.seed = self.seed
        other.variants = self.variants
        other.store = self.store
        other.options = dict(self.options)
        other.meta = dict(self.meta)
        other._checkpoints = list(self._checkpoints[: index + 1])
        other._resume_where = _NOT_RESUMING
        other._setup_events = self._setup_events
        other._resume(index, self.log, self.answers, self.asked)
        return other

    def _rebuild(self, answers: Sequence[str]) -> None:
        """The game after ``answers`` (a prefix of the answers given): from the
        latest checkpoint before their end plus the answers since, or from the
        start for a game without checkpoints."""
        self._asked_to_rebuild()
        branch = self._branch
        if branch is not None:
            at = branch[0]
            if len(answers) < at:
                self._branch = None  # back before the branch point: the real game's past and dice
            else:
                index = self._latest_checkpoint(len(answers))
                if index < 0 or self._checkpoints[index].answers <= at:
                    # Only checkpoints of the real game lie behind: play to the branch
                    # point, branch again (same sample, same new dice), then the rest.
                    self._branch = None
                    self._rebuild(answers[:at])
                    self._branch_here(branch[1], branch[2])
                    for a in answers[at:]:
                        self._apply(a)
                    return
        index = self._latest_checkpoint(len(answers))
        if index < 0:
            self._start()
            done = 0
        else:
            self._resume(index, self.log, answers, self.asked)
            done = len(self.answers)
        for a in answers[done:]:
            self._apply(a)

    def undo(self, count: int = 1) -> None:
        """Take back the last ``count`` answers."""
        if count < 1:
            return
        if count > len(self.answers):
            raise IllegalAnswer(f"cannot undo {count} answers: only {len(self.answers)} given")
        self._rebuild(self.answers[: len(self.answers) - count])

    def fork(self, *, reseed: int | None = None, viewer: str | None = None, checkpoints: bool = True,
             keyed_dice: bool = False) -> Session:
        """An independent copy at the same point (for bots that look ahead).

        With checkpoints, the copy starts from the latest one and plays only the
        answers since (it shares the checkpoints, which are never changed);
        otherwise it replays every answer.

        ``reseed`` makes a *search copy*: from this point on the copy rolls and
        draws from its own stream (``Rng(reseed)``), not the real game's future
        dice; the past is unchanged. With ``viewer`` as well, what that side may
        not see is first replaced by a sample of what it could be
        (:meth:`Game.determinize <ancients_kit.plugin.Game.determinize>`: the
        other sides' hands, the order of the draw pile), drawn from the same
        stream. The real game is untouched. The copy remembers the branch: undo
        or a refused answer after it rebuilds the same sample and dice; undo to
        before it returns to the real game's past (and dice). A search copy
        cannot be saved (its dice are not the seed's).

        ``checkpoints=False`` (with ``reseed``) saves the cost of copying the
        state at the copy's own safe points, for a copy played once and
        thrown away (a search rollout); its undo and refused answers then
        rebuild from the branch point.

        ``keyed_dice`` (with ``reseed``): the copy takes each roll from a stream
        of its own, derived from ``reseed``, the roll's reason and how many rolls
        had that reason before (:meth:`Chance.key_by_reason
        <ancients_kit.chance.Chance.key_by_reason>`), so two copies with the same
        ``reseed`` give the same attack the same die even when other rolls came
        before it in one of them (a search compares its options on such pairs).
        """
        if viewer is not None and reseed is None:
            raise ValueError("fork(viewer=...) needs reseed=...: the sample of what is hidden is drawn from it")
        if not checkpoints and reseed is None:
            raise ValueError("fork(checkpoints=False) is for search copies: give reseed=... too")
        if keyed_dice and reseed is None:
            raise ValueError("fork(keyed_dice=True) is for search copies: give reseed=... too")
        self._asked_to_rebuild()
        if self._branch is not None:
            other = self._clone_for_rebuild()
            other._rebuild(self.answers)
        else:
            other = self._plain_fork()
        if reseed is not None:
            other._keyed_dice = keyed_dice
            other._branch_here(reseed, viewer)
            other._keep_checkpoints = checkpoints
        return other

    def _branch_here(self, reseed: int, viewer: str | None) -> None:
        """Make this session a search copy from its current point (see :meth:`fork`)."""
        if isinstance(reseed, bool) or not isinstance(reseed, int):
            raise ValueError(f"reseed must be a whole number, not {reseed!r}")
        if viewer is not None and viewer not in self.game.sides(self.state):
            raise ValueError(f"fork(viewer={viewer!r}): not a side of this game ({', '.join(self.game.sides(self.state))})")
        stream = Rng(reseed)
        if viewer is not None:
            self.game.determinize(self.state, viewer, stream.spawn("determinize"))
        self.ctx.chance.rng.setstate(stream.spawn("dice").getstate())
        if self._keyed_dice:
            self.ctx.chance.key_by_reason(stream.spawn("keyed dice").next_u64())
        self._branch = (len(self.answers), reseed, viewer)

    def _clone_for_rebuild(self) -> Session:
        """A session of this game sharing its checkpoints and answers, to be
        :meth:`_rebuild` (which replaces the log, answers and state)."""
        other = Session.__new__(Session)
        other.game, other.scenario, other.seed = self.game, self.scenario, self.seed
        other.variants, other.store = self.variants, self.store
        other.options, other.meta = dict(self.options), dict(self.meta)
        other._checkpoints = list(self._checkpoints)
        other._resume_where = _NOT_RESUMING
        other._branch = self._branch
        other._keep_checkpoints = self._keep_checkpoints
        other._keyed_dice = self._keyed_dice
        other.log, other.answers, other.asked = self.log, list(self.answers), list(self.asked)
        other._setup_events = self._setup_events
        return other

    @property
    def branched(self) -> tuple[int, int, str | None] | None:
        """For a search copy (:meth:`fork` with ``reseed``): (answers at the branch,
        reseed, viewer); ``None`` for a game that follows its seed."""
        return self._branch

    def _plain_fork(self) -> Session:
        if self._checkpoints:
            other = self._at_checkpoint(len(self._checkpoints) - 1)
            other._spacing = 1  # every safe point on the way: the last one is kept here too
            for a in self.answers[len(other.answers):]:
                other._apply(a)
            other._spacing = self._spacing
            mine, theirs = self._checkpoints, other._checkpoints
            if theirs[-1].answers > mine[-1].answers:
                # The checkpoint nearest this point, which the game passed without a copy: the
                # next fork or undo here replays from it (checkpoints are never changed: shared).
                mine.append(theirs[-1])
            other._checkpoints = list(mine)  # the same as the game's: the ones passed on the way are dropped
            return other
        return Session(
            self.game,
            self.scenario,
            seed=self.seed,
            options=self.options,
            variants=self.variants,
            answers=self.answers,
            meta=self.meta,
        )

    def events_for(self, viewer: str | None) -> list[str]:
        return self.log.lines(viewer)

    def _gap(self) -> int:
        """Answers at least between this checkpoint and the next one."""
        base = self._spacing or self.checkpoint_spacing
        return base if base <= 1 else max(base, self._thinned)

    def _asked_to_rebuild(self) -> None:
        """A fork, an undo or a refused answer: checkpoints pay again, at the base spacing."""
        self._used = True
        self._thinned = 0

    checkpoint_spacing: int = 16
    """Answers at least between two checkpoints a game keeps as it plays (its copies
    cost more than the rules between most safe points): undo and fork replay at most
    about this many answers, and the first fork at a point keeps the checkpoint nearest
    it, so that the next ones replay less (:meth:`_plain_fork`). A class setting (1
    keeps every safe point); the games it plays do not depend on it."""
    checkpoint_spacing_max: int = 256
    """The spacing doubles at each checkpoint taken with no fork, undo or refused answer since
    the one before (a game played on by bots that never look ahead, ``ancients simulate``
    with random or greedy bots, makes a copy every few hundred answers), up to this; the
    next fork or undo brings it back to :attr:`checkpoint_spacing`, so a bot that looks
    ahead at every decision finds one at most that many answers back. A spacing of 1
    keeps every safe point, never thinned."""
    _thinned: int = 0
    """The spacing reached by doubling (0: the base one)."""
    _used: bool = False
    """A fork, an undo or a refused answer came since the last checkpoint taken."""
    _spacing: int | None = None
    """This session's own spacing, if not the class's (a fork replays with 1, to find the
    nearest checkpoint)."""
    replay_matches: bool = True
    """False if a loaded game's log differs from the one saved (rules changed)."""
    _keep_checkpoints: bool = True
    """False on a search copy made with ``fork(..., checkpoints=False)``: it takes no new checkpoints."""
    _branch: tuple[int, int, str | None] | None = None
    """Set on a search copy: (answers at the branch, reseed, viewer), see :meth:`fork`."""
    _keyed_dice: bool = False
    """True on a search copy made with ``fork(..., keyed_dice=True)``: its dice are keyed by their reasons."""
