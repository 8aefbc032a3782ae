"""Proof that a game's checkpoints are right: rebuilt games equal full replays.

A game implementing :meth:`Game.resume <ancients_kit.plugin.Game.resume>`
lets sessions rebuild from a copy of the state at a safe point plus the
answers since, instead of replaying every answer (see
docs/architecture.md, "Checkpoints"). That is only sound if the resumed
generator plays exactly as the original one did. :func:`verify` checks it for
a played session, checkpoint by checkpoint:

- the session rebuilt from checkpoint *i* and given the answers up to the next
  checkpoint logs the same events, byte for byte (text, rules, dice, data), as
  the original game did, and reaches the next checkpoint with the same state,
  the same dice and at the same place;
- the session rebuilt from the last checkpoint and given every remaining
  answer ends with the same log digest, the same decision (or outcome).

By induction, a game rebuilt from any checkpoint then equals the full replay.
Each answer is replayed about once, so a whole game is checked in about the
time it takes to play it.

:func:`same_state` is the structural comparison used for states: it walks
attrs classes, slotted and plain objects, and containers, and reports the
path of the first difference.
"""

from __future__ import annotations

import types
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from enum import Enum
from fractions import Fraction
from typing import Any

from ancients_kit.data import FrozenDict
from ancients_kit.errors import ReplayError
from ancients_kit.session import Checkpoint, Session

__all__ = ["dump", "every_safe_point", "restored", "same_state", "verify"]

_FUNCTIONS = (types.FunctionType, types.MethodType, types.BuiltinFunctionType, types.BuiltinMethodType)


@contextmanager
def every_safe_point() -> Iterator[None]:
    """Sessions made inside the block keep a checkpoint at every safe point
    (``Session.checkpoint_spacing = 1``), so a test rebuilds the game from each."""
    before, Session.checkpoint_spacing = Session.checkpoint_spacing, 1
    try:
        yield
    finally:
        Session.checkpoint_spacing = before


def restored(session: Session, index: int) -> Session:
    """A new session put at checkpoint ``index`` of ``session`` (no answer replayed yet)."""
    return session._at_checkpoint(index)


def _fields(obj: Any) -> list[tuple[str, Any]] | None:
    cls = type(obj)
    attrs_fields = getattr(cls, "__attrs_attrs__", None)
    if attrs_fields is not None:
        return [(f.name, getattr(obj, f.name)) for f in attrs_fields]
    names: list[str] = []
    for klass in cls.__mro__:
        for name in getattr(klass, "__slots__", ()):
            if name not in ("__weakref__", "__dict__") and name not in names:
                names.append(name)
    out = [(n, getattr(obj, n)) for n in names if hasattr(obj, n)]
    if hasattr(obj, "__dict__"):
        out.extend(sorted(vars(obj).items()))
    return out if names or hasattr(obj, "__dict__") else None


def same_state(a: Any, b: Any, path: str = "state", _seen: set[tuple[int, int]] | None = None) -> str | None:
    """None if ``a`` and ``b`` hold the same values, else the path of the first difference.

    Objects that are the same object compare equal at once (parsed data shared
    by copies); functions compare by identity; sets by their sorted reprs.
    """
    if a is b:
        return None
    if type(a) is not type(b):
        return f"{path}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, (str, bytes, int, float, complex, Fraction, Enum)) or a is None:
        return None if a == b else f"{path}: {a!r} != {b!r}"
    seen = _seen if _seen is not None else set()
    key = (id(a), id(b))
    if key in seen:
        return None
    seen.add(key)
    if isinstance(a, Mapping):
        if list(a.keys()) != list(b.keys()):
            return f"{path}: keys {list(a.keys())!r} != {list(b.keys())!r}"
        for k in a:
            got = same_state(a[k], b[k], f"{path}[{k!r}]", seen)
            if got:
                return got
        return None
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            return f"{path}: length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            got = same_state(x, y, f"{path}[{i}]", seen)
            if got:
                return got
        return None
    if isinstance(a, (set, frozenset)):
        ra, rb = sorted(map(repr, a)), sorted(map(repr, b))
        return None if ra == rb else f"{path}: {ra!r} != {rb!r}"
    if isinstance(a, _FUNCTIONS):
        # the same code (a closure made again by a rebuilt game is another object)
        same = getattr(a, "__qualname__", a) == getattr(b, "__qualname__", b)
        return None if same else f"{path}: {a!r} != {b!r}"
    fa, fb = _fields(a), _fields(b)
    if fa is None or fb is None:
        return None if a == b else f"{path}: {a!r} != {b!r}"
    if [n for n, _ in fa] != [n for n, _ in fb]:
        return f"{path}: attributes {[n for n, _ in fa]!r} != {[n for n, _ in fb]!r}"
    for (name, x), (_, y) in zip(fa, fb):
        got = same_state(x, y, f"{path}.{name}", seen)
        if got:
            return got
    return None


def _frozen(obj: Any) -> bool:
    """Data that cannot change: frozen attrs classes, FrozenDict, mapping proxies."""
    cls = type(obj)
    if isinstance(obj, (FrozenDict, types.MappingProxyType)):
        return True
    return hasattr(cls, "__attrs_attrs__") and getattr(cls.__setattr__, "__name__", "") == "_frozen_setattrs"


def dump(obj: Any, _memo: dict[int, int] | None = None) -> Any:
    """A comparable image of everything in ``obj`` that can change.

    Frozen data is represented by its identity (it must stay the same object),
    an object met again by a back-reference, sets by their sorted reprs."""
    if obj is None or isinstance(obj, (str, bytes, int, float, complex, Fraction, Enum)):
        return obj
    if isinstance(obj, _FUNCTIONS) or _frozen(obj) or isinstance(obj, type):
        return ("shared", id(obj))
    memo = _memo if _memo is not None else {}
    got = memo.get(id(obj))
    if got is not None:
        return ("ref", got)
    memo[id(obj)] = len(memo)
    if isinstance(obj, Mapping):
        return ("map", tuple((dump(k, memo), dump(v, memo)) for k, v in obj.items()))
    if isinstance(obj, (list, tuple)):
        return (type(obj).__name__, tuple(dump(v, memo) for v in obj))
    if isinstance(obj, (set, frozenset)):
        return ("set", tuple(sorted(map(repr, obj))))
    fields = _fields(obj)
    if fields is None:
        return ("repr", repr(obj))
    return (type(obj).__qualname__, tuple((n, dump(v, memo)) for n, v in fields))


def _same_checkpoint(mine: Checkpoint, theirs: Checkpoint) -> str | None:
    for what in ("answers", "log_length", "where"):
        if getattr(mine, what) != getattr(theirs, what):
            return f"{what} {getattr(mine, what)!r} != {getattr(theirs, what)!r}"
    got = same_state(mine.chance, theirs.chance, "dice")
    if got:
        return got
    return same_state(mine.state, theirs.state)


def _same_log(session: Session, rebuilt: Session, where: str) -> None:
    n = len(rebuilt.log)
    if n > len(session.log):
        raise ReplayError(f"{where}: the rebuilt game logged {n} events, the game only {len(session.log)}")
    for i in range(n):
        a, b = session.log[i], rebuilt.log[i]
        if a.to_json(None) != b.to_json(None) or a.line() != b.line():
            raise ReplayError(f"{where}: event {i + 1} differs: {a.line()!r} != {b.line()!r}")


def verify(session: Session, watched: int = 6) -> int:
    """Check every checkpoint of ``session`` (see the module docstring); return how many.

    ``watched`` checkpoints, spread over the game, are also deep-copied before
    the rebuilds and compared after them: a ``copy_state`` that shares
    something the rules change lets a rebuilt game change the checkpoint it
    came from, which shows there.

    Raises :class:`~ancients_kit.errors.ReplayError` naming the checkpoint and the
    first difference. A game without checkpoints passes with 0.
    """
    cps = session.checkpoints
    step = max(1, len(cps) // max(1, watched))
    kept = {i: dump(cps[i].state) for i in range(0, len(cps), step)} if watched else {}
    for i, cp in enumerate(cps):
        where = f"{session.game.id} {session.scenario}: checkpoint {i + 1}/{len(cps)} {cp.where!r}"
        rebuilt = restored(session, i)
        rebuilt._spacing = 1  # every safe point: the next one kept here is among them
        last = i == len(cps) - 1
        upto = len(session.answers) if last else cps[i + 1].answers
        for a in session.answers[cp.answers : upto]:
            rebuilt.answer(a)
        _same_log(session, rebuilt, where)
        if last:
            if rebuilt.log.digest() != session.log.digest() or rebuilt.log.text() != session.log.text():
                raise ReplayError(f"{where}: the rebuilt game's log differs from the game's")
            if (rebuilt.decision is None) != (session.decision is None) or (
                rebuilt.decision is not None and session.decision is not None
                and (rebuilt.decision.side, rebuilt.decision.prompt, rebuilt.decision.keys)
                != (session.decision.side, session.decision.prompt, session.decision.keys)
            ):
                raise ReplayError(f"{where}: the rebuilt game asks another question than the game")
            if rebuilt.outcome != session.outcome:
                raise ReplayError(f"{where}: outcome {rebuilt.outcome!r} != {session.outcome!r}")
            # compared as copies: a copy drops what is only a scratch cache of the state
            got = same_state(session.game.copy_state(session.state), rebuilt.game.copy_state(rebuilt.state))
            if got:
                raise ReplayError(f"{where}: final state differs: {got}")
        else:
            # the last safe point with as many answers as the next checkpoint (the one a game keeps)
            mine = [cp for cp in rebuilt.checkpoints[i + 1:] if cp.answers == cps[i + 1].answers]
            if not mine:
                raise ReplayError(f"{where}: the rebuilt game never reached checkpoint {i + 2} {cps[i + 1].where!r}")
            got = _same_checkpoint(mine[-1], cps[i + 1])
            if got:
                raise ReplayError(f"{where}: at checkpoint {i + 2} {cps[i + 1].where!r}: {got}")
    for i, before in kept.items():
        if dump(cps[i].state) != before:
            raise ReplayError(f"{session.game.id} {session.scenario}: checkpoint {i + 1} {cps[i].where!r} was changed "
                              f"by the games rebuilt from it (Game.copy_state shares something the rules change)")
    return len(cps)
