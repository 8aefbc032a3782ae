"""Walks of an exact length: simple paths of ``n`` steps, or fewer where a hex allows stopping.

Some moves are counted in hexes, not in movement points, and must be walked
to the end: a force that withdraws before battle rolls a die and moves that
many hexes without entering a hex twice, and may stop early only in certain
hexes (``xen:combat``: "must withdraw that many hexes ..., without entering
the same hex twice (except: a Force withdrawing into a City/Colony hex may
ignore the remainder of its withdrawal roll)"); a result that makes a force
retreat a die roll of hexes has the same shape (``xen:retreats``). The
least-cost search of :mod:`ancients_kit.movement` cannot express it: it keeps
one best way into each hex, while here every hex entered so far constrains the
rest of the walk.

A :class:`Walker` holds the adjacency and the rules of one kind of walk;
its :meth:`~Walker.walks`, :meth:`~Walker.count`, :meth:`~Walker.ends` and
:meth:`~Walker.next_steps` answer for a start hex and a number of steps.
A *walk* is a tuple ``(start, h1, ..., hk)`` in which

- each ``h(i+1)`` is a neighbour of ``h(i)`` (``neighbors``, usually
  ``HexMap.graph``), the step is allowed (``can_step(a, b)``) and the hex may
  be entered (``can_enter(b)``);
- no hex appears twice, the start included: a walk never comes back to the
  hex it left (a withdrawal that ended where it began would not withdraw);
- either ``k == steps``, or ``1 <= k < steps`` and ``may_stop(hk)``: the walk
  stopped early in a hex that allows it. Passing through such a hex without
  stopping is also a walk.

``steps == 0`` gives the one walk ``(start,)``. The game says what happens
when there is no walk at all (``walker.count(...) == 0``): elimination,
surrender, staying put. The predicates stand for the game's rules (EZOC,
occupied hexes, rivers crossed off a road, rough terrain that is not a pass,
cities and colonies); a walker calls each at most once per hex or hexside
and keeps the answer, so make a new walker when the position changes.

The search is depth-first in the order of ``neighbors``, so results come out
in the same order on every run. Its cost is the number of simple paths, at
most ``6 * 5**(n-1)`` per length on a hex grid (18,750 for ``n = 6``), not
the size of the map.

For a player who walks hex by hex, :meth:`Walker.next_steps` gives, after the hexes
walked so far, the hexes that can still begin a legal rest of the walk and
whether the walker may stop where it is: option lists stay short and no dead
end is offered.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

import attrs

from ancients_kit.hexgrid import Hex
from ancients_kit.movement import HexGraph, neighbour_fn

__all__ = [
    "NextSteps",
    "Walker",
]

Neighbors = HexGraph | Mapping[Hex, Iterable[Hex]] | Callable[[Hex], Iterable[Hex]] | None
"""Adjacency: ``HexMap.graph``, a mapping, a function, or None for the unbounded grid."""


@attrs.frozen
class NextSteps:
    """What a walker may do after the hexes walked so far (:meth:`Walker.next_steps`)."""

    hexes: tuple[Hex, ...]
    """Hexes to step into next, each the start of at least one legal rest of the walk."""
    may_stop: bool
    """True if the walk may end where it is: all steps walked, or an early stop here."""


class Walker:
    """Walks over one adjacency under one set of rules (see the module docstring).

    ``neighbors`` is usually ``HexMap.graph``; ``can_enter(b)`` and
    ``can_step(a, b)`` veto hexes and steps; ``may_stop(h)`` lets a walk end
    early in ``h``. ``start`` arguments are a hex, or the hexes walked so
    far, start first: then only walks beginning with them count.
    """

    __slots__ = ("around", "known", "can_enter", "can_step", "may_stop", "_enter", "_step", "_stop")

    def __init__(
        self,
        neighbors: Neighbors = None,
        *,
        can_enter: Callable[[Hex], bool] | None = None,
        can_step: Callable[[Hex, Hex], bool] | None = None,
        may_stop: Callable[[Hex], bool] | None = None,
    ) -> None:
        if isinstance(neighbors, HexGraph):
            self.around: Callable[[Hex], Iterable[Hex]] = neighbors.adjacency.__getitem__
            self.known: Callable[[Hex], bool] | None = neighbors.__contains__
        else:
            self.around = neighbour_fn(neighbors)
            self.known = neighbors.__contains__ if isinstance(neighbors, Mapping) else None
        self.can_enter, self.can_step, self.may_stop = can_enter, can_step, may_stop
        self._enter: dict[Hex, bool] = {}
        self._step: dict[tuple[Hex, Hex], bool] = {}
        self._stop: dict[Hex, bool] = {}

    # -- answers

    def walks(self, start: Hex | Sequence[Hex], steps: int) -> Iterator[tuple[Hex, ...]]:
        """Every walk of ``steps`` steps, depth-first in neighbour order; a walk
        that stops early comes just before the walks that go on from its hex.
        Bad input is a ``ValueError`` at the call, not at the first walk."""
        path = self._check_path(start, steps)

        def each() -> Iterator[tuple[Hex, ...]]:
            for _ in self._extend(path, set(path), steps):
                yield tuple(path)

        return each()

    def count(self, start: Hex | Sequence[Hex], steps: int) -> int:
        """How many walks :meth:`walks` gives, without building them."""
        path = self._check_path(start, steps)
        return sum(1 for _ in self._extend(path, set(path), steps))

    def ends(self, start: Hex | Sequence[Hex], steps: int) -> dict[Hex, int]:
        """Hex a walk may end in -> number of walks ending there, in the order first found."""
        path = self._check_path(start, steps)
        out: dict[Hex, int] = {}
        for _ in self._extend(path, set(path), steps):
            out[path[-1]] = out.get(path[-1], 0) + 1
        return out

    def next_steps(self, path: Hex | Sequence[Hex], steps: int) -> NextSteps:
        """The next hexes of a walk walked hex by hex, never offering a dead end.

        ``path`` holds the hexes walked so far, start first; ``ValueError`` if
        it is not the start of a walk under this walker's rules.
        """
        walked = self._check_path(path, steps)
        k = len(walked) - 1
        if k == steps:
            return NextSteps((), True)
        seen = set(walked)
        out: list[Hex] = []
        for b in self._moves(walked[-1]):
            if b in seen:
                continue
            # _extend is abandoned at its first walk, so it works on copies
            if next(self._extend([*walked, b], seen | {b}, steps), False) is None:
                out.append(b)
        return NextSteps(tuple(out), k > 0 and self._stops(walked[-1]))

    # -- machinery

    def _moves(self, a: Hex) -> Iterator[Hex]:
        """Neighbours of ``a`` that may be stepped into (ignoring the hexes already walked)."""
        for b in self.around(a):
            if type(b) is not Hex:
                b = Hex(*b)
            if self.can_enter is not None:
                ok = self._enter.get(b)
                if ok is None:
                    ok = self._enter[b] = bool(self.can_enter(b))
                if not ok:
                    continue
            if self.can_step is not None:
                ok = self._step.get((a, b))
                if ok is None:
                    ok = self._step[a, b] = bool(self.can_step(a, b))
                if not ok:
                    continue
            yield b

    def _stops(self, h: Hex) -> bool:
        if self.may_stop is None:
            return False
        ok = self._stop.get(h)
        if ok is None:
            ok = self._stop[h] = bool(self.may_stop(h))
        return ok

    def _check_path(self, start: Hex | Sequence[Hex], steps: int) -> list[Hex]:
        """The walked prefix as a list, after checking it is a legal start of a walk."""
        if not isinstance(steps, int) or isinstance(steps, bool) or steps < 0:
            raise ValueError(f"a walk needs a whole number of steps >= 0, got {steps!r}")
        one = isinstance(start, tuple) and len(start) == 2 and isinstance(start[0], int)
        hexes = [Hex(*start)] if one else [h if type(h) is Hex else Hex(*h) for h in start]  # type: ignore[misc, union-attr]
        if not hexes:
            raise ValueError("a walk needs a start hex")
        if self.known is not None and not self.known(hexes[0]):
            raise ValueError(f"cannot walk from {hexes[0]!r}: it is not on the map")
        if len(hexes) - 1 > steps:
            raise ValueError(f"{len(hexes) - 1} steps already walked, more than the {steps} of the walk")
        if len(set(hexes)) != len(hexes):
            raise ValueError("the hexes walked so far enter a hex twice")
        for a, b in zip(hexes, hexes[1:]):
            if b not in set(self._moves(a)):
                raise ValueError(f"the step from {a!r} to {b!r} is not allowed")
        return hexes

    def _extend(self, path: list[Hex], seen: set[Hex], steps: int) -> Iterator[None]:
        """Yield once for every legal walk extending ``path`` (which is its current value then)."""
        k = len(path) - 1
        if k == steps:
            yield None
            return
        if k and self._stops(path[-1]):
            yield None  # stop early here (the walk may also go on, below)
        for b in self._moves(path[-1]):
            if b in seen:
                continue
            path.append(b)
            seen.add(b)
            yield from self._extend(path, seen, steps)
            seen.discard(b)
            path.pop()
