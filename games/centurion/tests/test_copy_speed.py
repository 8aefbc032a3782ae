"""The fast checkpoint copies of issue 11 item 5 against the code they replaced.

:meth:`CenturionState.copy <ancients_games.centurion.state.CenturionState.copy>` runs at
every session checkpoint (each choice of a unit to move). It used ``copy.deepcopy`` for
``state.extra`` and a ``setattr`` loop per unit; ``state._copy_extra`` and the generated
unit copier replace them. These tests hold the new code to the old one's results: the
same values, the same types, the same sharing (an object met twice is copied once), the
same iteration order of sets, nothing mutable shared with the original; the only
difference allowed is that a frozenset of plain values is shared, not rebuilt.
:attr:`MoveHooks.destination_check` must agree with ``refuse_destination`` (cen:barb.warrior).
"""

from __future__ import annotations

import copy
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ancients_kit.bots import RandomBot, play_out
from ancients_kit.checkpoints import every_safe_point
from ancients_kit.hexgrid import Hex
from ancients_kit.session import Session

from benchmarks import _centurion_reference as reference

from ancients_games.centurion import GAME
from ancients_games.centurion import state as cstate
from ancients_games.centurion.full import movement_hooks
from ancients_games.centurion.full.movement_hooks import move_hooks
from ancients_games.centurion.reach import reachable
from ancients_games.centurion.tests.positions import gaul_warrior


@attrs.define
class _Record:
    """A slotted attrs record, as the Full Simulation keeps in ``state.extra``."""

    a: Any = None
    b: Any = None


@attrs.define(slots=False)
class _DictRecord:
    """A record with a ``__dict__``: handed to ``copy.deepcopy``."""

    a: Any = None


def _shape(x: Any, seen: dict[int, int], out: list[Any], keep: dict[int, str]) -> None:
    """Types, plain values, set orders and the sharing pattern of mutable objects."""
    t = type(x)
    if t in cstate._ATOMIC:
        out.append(("v", t.__name__, x))
        return
    if id(x) in keep:
        out.append(("kept", keep[id(x)]))
        return
    if t is frozenset:
        out.append(("frozenset", frozenset(x) if all(type(v) in cstate._ATOMIC for v in x) else len(x)))
        if all(type(v) in cstate._ATOMIC for v in x):
            return
    if t is not tuple and t is not frozenset:
        if id(x) in seen:
            out.append(("ref", seen[id(x)]))
            return
        seen[id(x)] = len(seen)
    out.append(("t", t.__name__))
    if t is dict:
        for k, v in x.items():
            _shape(k, seen, out, keep)
            _shape(v, seen, out, keep)
    elif t in (list, tuple, set, frozenset):
        for v in x:
            _shape(v, seen, out, keep)
    elif attrs.has(t):
        for f in attrs.fields(t):
            _shape(getattr(x, f.name), seen, out, keep)
    else:
        out.append(("repr", repr(x)))


def _mutables(x: Any, acc: set[int], keep: dict[int, str]) -> set[int]:
    """Ids of the mutable objects in ``x``, not looking into those in ``keep`` (shared on purpose)."""
    t = type(x)
    if t in cstate._ATOMIC or id(x) in acc or id(x) in keep:
        return acc
    if t in (dict, list, set) or (attrs.has(t) and t is not _Frozen):
        acc.add(id(x))
    if t is dict:
        for k, v in x.items():
            _mutables(k, acc, keep)
            _mutables(v, acc, keep)
    elif t in (list, tuple, set, frozenset):
        for v in x:
            _mutables(v, acc, keep)
    elif attrs.has(t):
        for f in attrs.fields(t):
            _mutables(getattr(x, f.name), acc, keep)
    return acc


@attrs.frozen
class _Frozen:
    x: int = 0


def _same_as_deepcopy(x: Any, memo_keep: tuple[Any, ...] = ()) -> None:
    memo_a = {id(k): k for k in memo_keep}
    memo_b = dict(memo_a)
    keep = {id(k): f"kept{i}" for i, k in enumerate(memo_keep)}
    a = cstate._copy_extra(x, memo_a)
    b = copy.deepcopy(x, memo_b)
    sa: list[Any] = []
    sb: list[Any] = []
    _shape(a, {}, sa, keep)
    _shape(b, {}, sb, keep)
    assert sa == sb
    assert not _mutables(a, set(), keep) & _mutables(x, set(), keep)


_leaf = st.one_of(st.integers(-3, 3), st.text("ab", max_size=2), st.none(), st.booleans(),
                  st.builds(Hex, st.integers(-2, 2), st.integers(-2, 2)))
_hashable = st.recursive(_leaf, lambda c: st.tuples(c, c) | st.frozensets(c, max_size=3), max_leaves=4)
_value = st.recursive(
    _leaf | _hashable,
    lambda c: st.one_of(
        st.lists(c, max_size=4),
        st.dictionaries(_hashable, c, max_size=4),
        st.sets(_hashable, max_size=4),
        st.tuples(c, c),
        st.builds(_Record, c, c),
        st.builds(_DictRecord, c),
        st.builds(_Frozen, st.integers(0, 3)),
    ),
    max_leaves=12,
)


@pytest.mark.rule("cen:full.sequence")
@settings(max_examples=120, deadline=None)
@given(_value, st.integers(0, 3))
def test_property_copy_extra_is_deepcopy(value: Any, share: int) -> None:
    """Random nests of dicts, lists, sets, tuples, frozensets, hexes and attrs records, with
    some parts met twice (shared) and one handed in through the memo (as the state's units are)."""
    nest = [value, value] if share == 1 else {"x": value, "y": [value]} if share == 2 else value
    kept = _Record(1, [2])
    _same_as_deepcopy([nest, kept, {"k": kept}] if share == 3 else nest, (kept,) if share == 3 else ())


@pytest.mark.rule("cen:full.sequence", "cen:full.movement")
@pytest.mark.parametrize("scenario", ["numidia", "carrhae"])
def test_checkpoint_copies_equal_the_old_copies(scenario: str) -> None:
    """At every checkpoint of a seeded Full Simulation game: ``state.extra`` copied as
    ``copy.deepcopy`` copied it, every unit as the ``setattr`` loop copied it."""
    with every_safe_point():
        s = Session(GAME, scenario, seed=5, options={"version": "full"})
        play_out(s, RandomBot(), max_decisions=160)
    assert len(s.checkpoints) > 5
    for cp in s.checkpoints:
        state = cp.state
        memo_keep = [state.scenario, state.map, state.types, state.capability, state.terrain_chart,
                     *state.units.values()]
        for key in (*cstate.SHARED_EXTRA, "full_tables"):
            if key in state.extra:
                memo_keep.append(state.extra[key])
        _same_as_deepcopy(state.extra, tuple(memo_keep))
        for u in state.units.values():
            new, old = cstate._copy_unit(u), reference.copy_unit(u)
            assert new is not u and new.contact is not u.contact
            assert attrs.asdict(new) == attrs.asdict(old) == attrs.asdict(u)


@pytest.mark.rule("cen:barb.warrior")
def test_destination_check_agrees_with_refuse_destination() -> None:
    """The Movement Phase filters destinations with MoveHooks.destination_check; refusals are
    explained by refuse_destination: the two agree on every hex the warrior can reach."""
    s, ctx, state, barb, bi = gaul_warrior("1519")
    from ancients_games.centurion.full.book import book

    for blood in (False, True):
        book(state).first_blood = blood
        hooks = move_hooks(state)
        check = hooks.destination_check(state, bi)
        hexes = list(reachable(state, bi, hooks).cost)
        refused = [h for h in hexes if movement_hooks.warrior_destination_problem(state, bi, h) is not None]
        assert refused == ([h for h in hexes if check(h) is not None] if check is not None else [])
        if blood:
            assert refused and check is not None
