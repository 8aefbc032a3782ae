"""The session: runs a game one decision at a time (the decision protocol).

A session *is* scenario + options + seed + variants + the list of answers.
Replaying the answers reproduces the game exactly, which gives save, load,
undo, replay and look-ahead copies in one idea::

    s = Session.new("centurion", "servile-war", seed=7)
    d = s.decision            # who is asked, what, the options, the rule asking
    s.answer(d.options[0].key)
    s.log                     # every event with the rule IDs it applied
    s.save("game.json"); s2 = Session.load("game.json")
    s.undo()                  # replays all answers but the last

Everything a human, a bot or a test does goes through :meth:`Session.answer`.
Illegal input raises an :class:`~ancients_kit.errors.AnswerError` naming the
rule, and leaves the session exactly as it was.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import attrs

from ancients_kit.chance import Chance, Rng, Roll
from ancients_kit.data import DataError, DataStore, Variant
from ancients_kit.errors import AmbiguousAnswer, AnswerError, IllegalAnswer, InvalidAnswer, ReplayError
from ancients_kit.log import Event, Log
from ancients_kit.plugin import Game, Outcome, find_game

__all__ = ["SAVE_FORMAT", "Context", "Decision", "Option", "Session"]

SAVE_FORMAT = "ancients-kit/session"
SAVE_VERSION = 1


@attrs.frozen(slots=True)
class Option:
    """One answer a decision accepts."""

    key: str
    """What is recorded and typed: a hex ID, a unit ID, ``pass`` ..."""
    label: str = ""
    """Human description shown next to the key."""
    data: Any = attrs.field(default=None, eq=False, repr=False)
    """Game-private payload (not saved; saves keep only ``key``)."""


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


class Context:
    """What rules code receives: dice, options, data and the log."""

    __slots__ = ("_log", "_secret", "chance", "options", "seed", "store")

    def __init__(self, store: DataStore, options: Mapping[str, Any], seed: int, log: Log) -> None:
        self.store = store
        self.options = options
        self.seed = seed
        self._log = log
        self._secret: str | None = None
        self.chance = Chance(Rng(seed), record=self._record_roll)

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
        **data: Any,
    ) -> Event:
        """Record an event in the log and return it."""
        ev = Event(kind, text, rules, side, tuple(dice), private_to, public_text, data)
        self._log.append(ev)
        return ev

    @property
    def log(self) -> Log:
        return self._log


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
        merged: dict[str, Any] = {}
        for v in self.variants:
            merged.update(v.options)
        merged.update(options or {})
        self.store = DataStore(game.package, self.variants)
        self.store.check_replacements()
        known = [info.id for info in game.scenarios(self.store)]
        if scenario not in known:
            raise InvalidAnswer(f"{game.id} has no scenario {scenario!r} (scenarios: {', '.join(known)})")
        for v in self.variants:
            self._check_variant_options(v)
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
            out[k] = specs[k].parse(v) if isinstance(v, str) else v
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
        self.state = self.game.setup(self.ctx, self.scenario)
        self._gen: Generator[Decision, str, Outcome] = self.game.play(self.ctx, self.state)
        self._step(None)

    def _step(self, key: str | None) -> None:
        try:
            d = self._gen.send(key) if key is not None else next(self._gen)
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

        Illegal input raises an AnswerError and leaves the session unchanged.
        """
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

    def _rebuild(self, answers: Sequence[str]) -> None:
        self._start()
        for a in answers:
            self._apply(a)

    def undo(self, count: int = 1) -> None:
        """Take back the last ``count`` answers."""
        if count < 1:
            return
        if count > len(self.answers):
            raise IllegalAnswer(f"cannot undo {count} answers: only {len(self.answers)} given")
        self._rebuild(self.answers[: len(self.answers) - count])

    def fork(self) -> Session:
        """An independent copy at the same point (for bots that look ahead)."""
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

    # -- persistence ----------------------------------------------------------
    def to_record(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.game.id,
            "scenario": self.scenario,
            "seed": self.seed,
            "options": {k: v for k, v in sorted(self.options.items())},
            "variants": [{"path": v.path, "id": v.meta.id, "sha256": v.digest} for v in self.variants],
            "answers": list(self.answers),
            "finished": self.finished,
            "outcome": self.outcome.to_json() if self.outcome else None,
            "log_sha256": self.log.digest(),
            "meta": self.meta,
        }

    def save(self, path: str | Path) -> Path:
        """Write the session as readable JSON, atomically (temp file + rename)."""
        p = Path(path)
        data = json.dumps(self.to_record(), indent=1, sort_keys=False) + "\n"
        write_atomic(p, data)
        return p

    @classmethod
    def from_record(cls, rec: Mapping[str, Any], *, where: str = "save") -> Session:
        if rec.get("format") != SAVE_FORMAT:
            raise ReplayError(f"{where}: not an ancients-kit save file")
        if rec.get("version") != SAVE_VERSION:
            raise ReplayError(f"{where}: save version {rec.get('version')} is not supported")
        try:
            game = find_game(rec["game"])
        except LookupError as exc:
            raise ReplayError(f"{where}: {exc}") from None
        variants = []
        for v in rec.get("variants", []):
            var = Variant.from_file(v["path"])
            if var.digest != v["sha256"]:
                raise ReplayError(f"{where}: variant {v['path']} has changed since the game was saved")
            variants.append(var)
        s = cls(
            game,
            rec["scenario"],
            seed=rec["seed"],
            options=rec.get("options", {}),
            variants=variants,
            answers=rec.get("answers", []),
            meta=rec.get("meta", {}),
        )
        s.replay_matches = rec.get("log_sha256") in (None, s.log.digest())
        return s

    replay_matches: bool = True
    """False if a loaded game's log differs from the one saved (rules changed)."""

    @classmethod
    def load(cls, path: str | Path) -> Session:
        p = Path(path)
        try:
            rec = json.loads(p.read_text("utf-8"))
        except OSError as exc:
            raise ReplayError(f"cannot read {p}: {exc.strerror}") from None
        except json.JSONDecodeError as exc:
            raise ReplayError(f"{p}: not valid JSON ({exc})") from None
        try:
            return cls.from_record(rec, where=str(p))
        except KeyError as exc:
            raise ReplayError(f"{p}: missing field {exc.args[0]!r}") from None


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that a crash leaves the old file or the new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
