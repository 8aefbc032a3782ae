"""Walks of an exact length (ancients_kit.walks) against a brute-force reference."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ancients_kit.hexgrid import Hex, Hexside, Numbering
from ancients_kit.hexmap import HexMap
from ancients_kit.walks import NextSteps, Walker

MAPS = Path(__file__).parent / "data" / "maps"


def reference(
    adj: dict[Hex, tuple[Hex, ...]],
    start: Hex,
    steps: int,
    can_enter: Callable[[Hex], bool],
    can_step: Callable[[Hex, Hex], bool],
    may_stop: Callable[[Hex], bool],
) -> set[tuple[Hex, ...]]:
    """Every sequence of neighbour choices, filtered afterwards by the definition."""
    out: set[tuple[Hex, ...]] = set()
    if steps == 0:
        return {(start,)}
    for k in range(1, steps + 1):
        for choice in itertools.product(range(6), repeat=k):
            path = [start]
            for c in choice:
                ns = adj[path[-1]]
                if c >= len(ns):
                    break
                path.append(ns[c])
            else:
                if len(set(path)) != len(path):
                    continue
                if not all(can_enter(b) and can_step(a, b) for a, b in zip(path, path[1:])):
                    continue
                if k == steps or may_stop(path[-1]):
                    out.add(tuple(path))
    return out


@st.composite
def problems(draw: st.DrawFn) -> tuple:
    cols = draw(st.integers(2, 5))
    rows = draw(st.integers(2, 5))
    num = Numbering(orientation="flat", shifted=draw(st.sampled_from(["odd", "even"])), columns=cols, rows=rows)
    m = HexMap.build(num)
    hexes = list(m.hexes())
    start = draw(st.sampled_from(hexes))
    blocked = frozenset(draw(st.sets(st.sampled_from(hexes), max_size=len(hexes) // 3)))
    cities = frozenset(draw(st.sets(st.sampled_from(hexes), max_size=len(hexes) // 2)))
    sides = sorted({Hexside.between(h, n) for h in hexes for n in m.neighbors(h)})
    rivers = frozenset(draw(st.sets(st.sampled_from(sides), max_size=len(sides) // 3))) if sides else frozenset()
    steps = draw(st.integers(0, 4))
    return m, start, steps, blocked, cities, rivers


@settings(max_examples=80, deadline=None)
@given(problems())
@pytest.mark.rule("xen:combat", "xen:retreats")
def test_walks_match_the_brute_force_reference(problem: tuple) -> None:
    m, start, steps, blocked, cities, rivers = problem

    def can_enter(h: Hex) -> bool:
        return h not in blocked

    def can_step(a: Hex, b: Hex) -> bool:
        return Hexside.between(a, b) not in rivers

    def may_stop(h: Hex) -> bool:
        return h in cities

    kw = dict(can_enter=can_enter, can_step=can_step, may_stop=may_stop)
    want = reference(dict(m.adjacency), start, steps, can_enter, can_step, may_stop)
    walker = Walker(m.graph, **kw)
    got = list(walker.walks(start, steps))
    assert len(got) == len(set(got))
    assert set(got) == want
    assert walker.count(start, steps) == len(want)
    ends: dict[Hex, int] = {}
    for w in want:
        ends[w[-1]] = ends.get(w[-1], 0) + 1
    assert walker.ends(start, steps) == ends
    # the same through a plain mapping and a function, with fresh caches
    assert list(Walker(dict(m.adjacency), **kw).walks(start, steps)) == got
    assert list(Walker(m.neighbors, **kw).walks(start, steps)) == got
    # hex by hex: every offered step leads on to a walk, and every walk is offered
    first = walker.next_steps([start], steps)
    assert set(first.hexes) == {w[1] for w in want if len(w) > 1}
    assert first.may_stop == (steps == 0)
    for w in want:
        for k in range(1, len(w)):
            assert w[k] in walker.next_steps(w[:k], steps).hexes
        assert walker.next_steps(w, steps).may_stop
        assert set(walker.walks(w, steps)) == {v for v in want if v[: len(w)] == w}


def test_no_stop_means_exact_length_only() -> None:
    num = Numbering(orientation="flat", shifted="even", columns=6, rows=6)
    m = HexMap.build(num)
    start = num.from_id("0303")
    for n in range(0, 5):
        ws = list(Walker(m.graph).walks(start, n))
        assert ws and all(len(w) == n + 1 and len(set(w)) == n + 1 for w in ws)
    assert list(Walker(m.graph).walks(start, 0)) == [(start,)]
    assert Walker(m.graph).count(start, 1) == 6
    assert Walker(m.graph).count(start, 2) == 6 * 5  # no coming back to the start
    # on the open grid: 6 * 5 * 5 sequences, less the 6 * 2 that come back to the start
    assert Walker().count(start, 3) == 6 * 5 * 5 - 6 * 2


def test_start_is_never_reentered_and_early_stops_need_a_step() -> None:
    num = Numbering(orientation="flat", shifted="even", columns=3, rows=1)
    m = HexMap.build(num)
    a, b, c = m.hexes()
    plain, city = Walker(m.graph), Walker(m.graph, may_stop=lambda h: h == b)
    assert set(plain.walks(a, 2)) == {(a, b, c)}
    assert list(plain.walks(b, 2)) == []  # a dead end either way
    assert list(plain.walks(a, 3)) == []
    # an early stop in a city; passing through it is also a walk; the start is no stop
    assert list(city.walks(a, 3)) == [(a, b)]
    assert list(city.walks(a, 2)) == [(a, b), (a, b, c)]
    assert list(city.walks(b, 2)) == []
    assert city.next_steps([a], 3) == NextSteps((b,), False)
    assert city.next_steps([a, b], 3) == NextSteps((), True)
    assert plain.next_steps([a], 3) == NextSteps((), False)
    assert plain.next_steps(a, 0) == NextSteps((), True)


def test_bad_input_is_a_clear_value_error() -> None:
    num = Numbering(orientation="flat", shifted="even", columns=3, rows=3)
    m = HexMap.build(num)
    h = num.from_id("0202")
    with pytest.raises(ValueError, match="whole number of steps"):
        Walker(m.graph).walks(h, -1)  # refused at the call, before any walk is asked for
    with pytest.raises(ValueError, match="not on the map"):
        Walker(m.graph).count(Hex(9, 9), 2)
    with pytest.raises(ValueError, match="enter a hex twice"):
        Walker(m.graph).next_steps([h, num.from_id("0201"), h], 4)
    with pytest.raises(ValueError, match="not allowed"):
        Walker(m.graph, can_enter=lambda x: x != num.from_id("0201")).next_steps([h, num.from_id("0201")], 4)
    with pytest.raises(ValueError, match="more than the 1"):
        Walker(m.graph).next_steps([h, num.from_id("0201"), num.from_id("0101")], 1)


def test_predicates_are_asked_once_per_hex_and_hexside() -> None:
    num = Numbering(orientation="flat", shifted="even", columns=9, rows=9)
    m = HexMap.build(num)
    asked: list[Hex] = []
    stepped: list[tuple[Hex, Hex]] = []

    def can_enter(h: Hex) -> bool:
        asked.append(h)
        return True

    def can_step(a: Hex, b: Hex) -> bool:
        stepped.append((a, b))
        return True

    walker = Walker(m.graph, can_enter=can_enter, can_step=can_step)
    n = walker.count(num.from_id("0505"), 4)
    assert walker.count(num.from_id("0505"), 4) == n  # asked again: answered from the walker's cache
    assert n > 500
    assert len(asked) == len(set(asked))
    assert len(stepped) == len(set(stepped))


@pytest.mark.rule("xen:combat", "xen:retreats")
def test_xenophon_shaped_withdrawal() -> None:
    """Withdraw d6 = 3 hexes from 0402 on the fixture: not into rough (xen:combat,
    no passes on this map) nor into the enemy's ZOC; a city ends it early."""
    m = HexMap.from_file(MAPS / "strategic_xen.toml")
    start = m.from_id("0402")
    ezoc = {m.from_id("0302")}

    def can_enter(h: Hex) -> bool:
        return m.terrain(h) not in ("rough", "sea") and h not in ezoc

    def may_stop(h: Hex) -> bool:
        return m.value(h, "city") is not None

    walker = Walker(m.graph, can_enter=can_enter, may_stop=may_stop)
    ends = walker.ends(start, 3)
    ids = {m.to_id(h): n for h, n in ends.items()}
    assert "0502" in ids  # the treasury city next door: may stop after one hex
    every = list(walker.walks(start, 3))
    assert m.terrain(start) == "rough"  # a force may withdraw out of rough, not into it
    assert all(can_enter(h) for w in every for h in w[1:])
    stop_early = [w for w in every if len(w) < 4]
    assert stop_early and all(m.value(w[-1], "city") for w in stop_early)
