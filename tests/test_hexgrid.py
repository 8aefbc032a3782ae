"""Hex geometry: numbering round trips, metric, rings, lines, hexsides, facing."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ancients_kit.hexgrid import (
    DIRECTIONS,
    Hex,
    HexIdError,
    Hexside,
    Numbering,
    arc_side,
    direction_to,
    flank_hexes,
    front_hexes,
    hex_range,
    in_front_arc,
    is_frontal,
    line,
    line_candidates,
    ring,
    spiral,
    turn,
    turn_distance,
)

coords = st.integers(min_value=-60, max_value=60)
hexes = st.builds(Hex, coords, coords)
directions = st.integers(min_value=0, max_value=5)


@st.composite
def numberings(draw: st.DrawFn) -> Numbering:
    orientation = draw(st.sampled_from(["flat", "pointy"]))
    short = orientation == "pointy" and draw(st.booleans())
    return Numbering(
        orientation=orientation,
        shifted=draw(st.sampled_from(["odd", "even"])),
        columns=draw(st.integers(2 if short else 1, 40)),
        rows=draw(st.integers(1, 40)),
        first_column=draw(st.integers(0, 5)),
        first_row=draw(st.integers(0, 5)),
        digits=2,
        short_rows=short,
    )


# ------------------------------------------------------------------ numbering


@given(numberings())
@settings(max_examples=60)
def test_printed_ids_round_trip(n: Numbering) -> None:
    seen = set()
    for h in n.hexes():
        hid = n.to_id(h)
        assert len(hid) == 4
        assert n.from_id(hid) == h
        assert n.from_offset(*n.to_offset(h)) == h
        seen.add(hid)
    short = sum(1 for y in range(n.rows) if n.is_shifted(n.first_row + y)) if n.short_rows else 0
    assert len(seen) == len(n) == n.columns * n.rows - short


@given(numberings(), hexes)
def test_offsets_round_trip_off_map_too(n: Numbering, h: Hex) -> None:
    assert n.from_offset(*n.to_offset(h)) == h


@given(numberings())
@settings(max_examples=40)
def test_offset_neighbours_match_the_shift(n: Numbering) -> None:
    # Flat: a shifted column sits half a hex lower, so its NE neighbour has the same row number.
    # Pointy: a shifted row sits half a hex right, so its SE neighbour has the same column number.
    for h in n.hexes()[:50]:
        col, row = n.to_offset(h)
        if n.orientation == "flat":
            ne = n.to_offset(h.neighbor(n.direction_from_name("NE")))
            assert ne == (col + 1, row if n.is_shifted(col) else row - 1)
            assert n.to_offset(h.neighbor(n.direction_from_name("S"))) == (col, row + 1)
        else:
            se = n.to_offset(h.neighbor(n.direction_from_name("SE")))
            assert se == (col if not n.is_shifted(row) else col + 1, row + 1)
            assert n.to_offset(h.neighbor(n.direction_from_name("E"))) == (col + 1, row)


def test_flat_even_known_neighbours() -> None:
    n = Numbering("flat", "even", 30, 20)
    h = n.from_id("0101")
    assert h == Hex(0, 0)
    assert [n.to_id(x) for x in n.on_map_neighbors(h)] == ["0201", "0102"]  # SE, S
    names = {n.direction_name(direction_to(h, x)): n.to_id(x) for x in n.on_map_neighbors(h)}
    assert names == {"SE": "0201", "S": "0102"}
    # an even (shifted) column: 0202 touches 0302 to the NE and 0303 to the SE
    h = n.from_id("0202")
    around = {n.direction_name(d): n.to_id(h.neighbor(d)) for d in range(6)}
    assert around == {"N": "0201", "NE": "0302", "SE": "0303", "S": "0203", "SW": "0103", "NW": "0102"}


def test_flat_odd_known_neighbours() -> None:
    n = Numbering("flat", "odd", 10, 10)
    h = n.from_id("0101")  # column 1 is the shifted (lower) one
    assert sorted(n.to_id(x) for x in n.on_map_neighbors(h)) == ["0102", "0201", "0202"]


def test_cca_board_has_113_hexes() -> None:
    n = Numbering("pointy", "even", 13, 9, short_rows=True)
    assert len(n) == 13 * 5 + 12 * 4 == 113
    assert n.contains(n.from_id("1301"))
    assert not n.contains(n.from_offset(13, 2))  # short row: no 13th hex
    with pytest.raises(HexIdError, match="'1302' is not on this map"):
        n.from_id("1302")
    h = n.from_id("0505")
    around = {n.direction_name(d): n.to_id(h.neighbor(d)) for d in range(6)}
    assert around == {"NE": "0504", "E": "0605", "SE": "0506", "SW": "0406", "W": "0405", "NW": "0404"}


def test_bad_ids_name_the_input() -> None:
    n = Numbering("flat", "even", 30, 20)
    for bad in ("33x8", "123", "", "01011", "٠١٠١"):
        with pytest.raises(HexIdError, match="invalid hex ID"):
            n.from_id(bad)
    with pytest.raises(ValueError, match="'3318' is not on this map"):
        n.from_id("3318")
    assert n.from_id("3318", on_map=False) == n.from_offset(33, 18)
    with pytest.raises(HexIdError, match="no printed ID"):
        n.to_id(Hex(-3, 0))


def test_direction_names() -> None:
    flat = Numbering("flat", "even", 5, 5)
    pointy = Numbering("pointy", "odd", 5, 5)
    assert flat.direction_names == ("N", "NE", "SE", "S", "SW", "NW")
    assert pointy.direction_names == ("NE", "E", "SE", "SW", "W", "NW")
    assert pointy.direction_from_name("w") == 4
    with pytest.raises(ValueError, match="unknown direction 'N' on a pointy map"):
        pointy.direction_from_name("N")


def test_numbering_validation() -> None:
    with pytest.raises(ValueError, match="orientation"):
        Numbering("square", "even", 5, 5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="short_rows applies to pointy"):
        Numbering("flat", "even", 5, 5, short_rows=True)
    with pytest.raises(ValueError, match="digit"):
        Numbering("flat", "even", 120, 5)
    with pytest.raises(ValueError, match="columns must be a positive"):
        Numbering("flat", "even", 0, 5)


# ------------------------------------------------------------------ metric, areas


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a: Hex, b: Hex, c: Hex) -> None:
    assert a.distance(a) == 0
    assert (a.distance(b) == 0) == (a == b)
    assert a.distance(b) == b.distance(a)
    assert a.distance(c) <= a.distance(b) + b.distance(c)


@given(hexes, directions)
def test_neighbours_at_distance_one(h: Hex, d: int) -> None:
    n = h.neighbor(d)
    assert h.distance(n) == 1
    assert direction_to(h, n) == d
    assert n.neighbor(d + 3) == h
    assert len(set(h.neighbors())) == 6


@given(hexes, st.integers(0, 12))
def test_ring_and_range_sizes(center: Hex, r: int) -> None:
    rg = ring(center, r)
    assert len(rg) == max(1, 6 * r) and len(set(rg)) == len(rg)
    assert all(center.distance(h) == r for h in rg)
    for x, y in zip(rg, rg[1:] + rg[:1]):  # the ring walk is a closed loop of neighbours
        assert r == 0 or x.distance(y) == 1
    area = hex_range(center, r)
    assert len(area) == len(set(area)) == 3 * r * (r + 1) + 1
    assert all(center.distance(h) <= r for h in area)
    assert set(spiral(center, r)) == set(area)


# ------------------------------------------------------------------ lines


@given(hexes, hexes)
def test_line_has_distance_plus_one_adjacent_hexes(a: Hex, b: Hex) -> None:
    ln = line(a, b)
    assert len(ln) == a.distance(b) + 1
    assert ln[0] == a and ln[-1] == b
    assert all(x.distance(y) == 1 for x, y in zip(ln, ln[1:]))


@given(hexes, hexes)
def test_line_candidates(a: Hex, b: Hex) -> None:
    cand = line_candidates(a, b)
    assert len(cand) == a.distance(b) + 1
    assert cand[0] == (a,) and cand[-1] == (b,)
    for i, step in enumerate(cand):
        assert 1 <= len(step) <= 2
        if len(step) == 2:  # both hexes share the hexside the line runs along
            x, y = step
            assert x.distance(y) == 1
            assert a.distance(x) + x.distance(b) == a.distance(b)
            assert a.distance(y) + y.distance(b) == a.distance(b)
    # each consistent choice is itself a line of adjacent hexes
    for k in (0, -1):
        ln = [step[k] for step in cand]
        assert all(x.distance(y) == 1 for x, y in zip(ln, ln[1:]))


@pytest.mark.rule("ccr:base.ranged")
def test_line_along_a_hexside_gives_both_hexes() -> None:
    # Two hexes apart "between" directions 1 and 2: the line runs along the
    # hexside shared by the two middle hexes.
    a = Hex(0, 0)
    b = a.neighbor(1).neighbor(2)
    mid = line_candidates(a, b)[1]
    assert set(mid) == {a.neighbor(1), a.neighbor(2)}
    # straight along a direction there is no ambiguity
    assert all(len(s) == 1 for s in line_candidates(a, Hex(0, 5)))


# ------------------------------------------------------------------ hexsides


@given(hexes, directions)
def test_hexside_is_undirected(h: Hex, d: int) -> None:
    side = Hexside.of(h, d)
    n = h.neighbor(d)
    assert side == Hexside.between(n, h) == Hexside.of(n, d + 3)
    assert side.a < side.b
    assert side.other(h) == n and side.other(n) == h
    assert side.direction_from(h) == d


def test_hexside_needs_adjacent_hexes() -> None:
    with pytest.raises(ValueError, match="not adjacent"):
        Hexside.between(Hex(0, 0), Hex(2, 0))
    with pytest.raises(ValueError, match="not on either side"):
        Hexside.between(Hex(0, 0), Hex(1, 0)).other(Hex(5, 5))


# ------------------------------------------------------------------ facing


@pytest.mark.rule("cen:full.facing")
@given(hexes, directions)
def test_front_and_flank_split_the_neighbours(h: Hex, f: int) -> None:
    front, flank = set(front_hexes(h, f)), set(flank_hexes(h, f))
    assert len(front) == len(flank) == 3
    assert front | flank == set(h.neighbors())
    assert h.neighbor(f) in front and h.neighbor(f + 3) in flank
    for n in h.neighbors():
        assert is_frontal(h, f, n) == (n in front)
        assert arc_side(h, f, n) == (1 if n in front else -1)
        assert in_front_arc(h, f, n) == (n in front)


@pytest.mark.rule("cen:full.facing")
def test_is_frontal_known_and_not_adjacent() -> None:
    n = Numbering("flat", "even", 10, 10)
    d = n.from_id("0505")
    north = n.direction_from_name("N")
    assert is_frontal(d, north, n.from_id("0504"))  # attacked from the north: front
    assert not is_frontal(d, north, n.from_id("0506"))  # from the south: rear
    with pytest.raises(ValueError, match="not adjacent"):
        is_frontal(d, north, n.from_id("0503"))


@pytest.mark.rule("cen:full.facing")
@given(directions, directions)
def test_turn_distance(f1: int, f2: int) -> None:
    t = turn_distance(f1, f2)
    assert 0 <= t <= 3
    assert t == turn_distance(f2, f1)
    assert (t == 0) == (f1 == f2)
    assert turn(f1, (f2 - f1) % 6) == f2
    assert turn_distance(f1, turn(f1, 1)) == 1 and turn_distance(f1, turn(f1, 3)) == 3


@pytest.mark.rule("cen:full.combat")
@given(hexes, directions, st.integers(1, 6))
def test_front_arc_has_2n_plus_1_hexes_per_ring(h: Hex, f: int, r: int) -> None:
    inside = [x for x in ring(h, r) if in_front_arc(h, f, x)]
    assert len(inside) == 2 * r + 1
    assert h.shifted(*DIRECTIONS[f]) in front_hexes(h, f)
    straight = h
    for _ in range(r):
        straight = straight.neighbor(f)
    assert straight in inside and all(arc_side(h, f, x) == 1 for x in inside)
    assert not in_front_arc(h, f, h)
