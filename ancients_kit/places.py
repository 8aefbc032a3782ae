"""Choosing places: the hexes a question offers, nearest first, narrowed by area.

A strategic game asks for a hex among dozens or hundreds (where to levy, where a
reclaimed legion goes, where a force moves). Listing them by number helps no one.
This module is the view's side of such a question; it never changes the question:
the keys and the order of a decision's options stay as the rules give them (saves
hold keys), and an option's number is its place in that order, as everywhere.

A game says what its options mean as places through the decision's context
(display only, neither saved nor logged): ``context["places"]`` is a callable
without arguments returning :class:`Places` (or ``None``), built by the game's
question hook (its ``hints.py``) with :func:`read_places` and attached with
:func:`offering`. The call is made only when a table or the line-mode prompt shows
the question, so a bot's game pays nothing. Each place has its hex, its name (a
city's), its area (a region or satrapy, split where large: see :func:`areas`) and
its distance in hexes from the origin (the force being moved, else the deciding
side's main force).

:func:`listing` turns a decision into the rows the players see:

- options that are no places (``done``, ``pass``) first, in the rules' order;
- the places nearest first, then by name, then by hex number;
- more than :data:`LIMIT` places: the :data:`NEAREST` nearest, then one row an
  area (nearest area first), which narrows the list to that area when chosen or
  typed (:func:`matching_areas`: ``Syria``, ``barbaria``, ``Roma``); an area that
  still holds more than :data:`LIMIT` shows its nearest :data:`LIMIT` and says how
  many more there are and how to reach them (type the hex number, or choose it on
  the map).

The core never names a game; the games' hooks name their regions and cities.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal

import attrs

__all__ = ["CONTEXT_KEY", "LIMIT", "NEAREST", "WIDEN", "Place", "Places", "Row", "areas", "distance_text",
           "listing", "matching_areas", "offering", "places_of", "read_places"]

CONTEXT_KEY = "places"
"""The decision context's key for the game's places callable."""
LIMIT = 20
"""Most places a list shows before it offers narrowing by area."""
NEAREST = 8
"""Places shown before the areas when there are more than :data:`LIMIT`."""
WIDEN = "places"
"""The word that takes a narrowed list back to every area (the table's Escape on an empty box too)."""


@attrs.frozen
class Place:
    """One option of a question read as a place."""

    key: str
    """The option's key (``2520``, ``move:2907``, ``city:1539``)."""
    number: int
    """The option's number: its place in the rules' order, from 1."""
    hex: str
    """The hex the option names (for a key naming two, the last: the target)."""
    name: str
    """The place's name (a city's), or empty."""
    area: str
    """The area the list narrows by (``Syria``, ``core around Roma``)."""
    region: str
    """The region or satrapy of the area (the area itself when not split)."""
    distance: int | None
    """Hexes from the origin; ``None`` when the question has none."""

    def sort_key(self) -> tuple[int, int, int, str, str]:
        """Nearest first, then named places by name, then by hex number."""
        far = self.distance if self.distance is not None else 0
        return (self.distance is None, far, 0 if self.name else 1, self.name.lower(), self.hex)


@attrs.frozen
class Places:
    """The places among a question's options."""

    origin: str | None
    """The hex distances are counted from, if any."""
    places: tuple[Place, ...]
    """Every option that is a place, in the rules' order."""

    def ordered(self, within: Iterable[str] | None = None) -> list[Place]:
        """The places (only those of the areas ``within``, if given) nearest first."""
        keep = None if within is None else set(within)
        return sorted((p for p in self.places if keep is None or p.area in keep), key=Place.sort_key)

    def at(self, hid: str) -> list[Place]:
        """The places on hex ``hid``, in the rules' order."""
        return [p for p in self.places if p.hex == hid]

    def keys(self) -> frozenset[str]:
        return frozenset(p.key for p in self.places)


@attrs.frozen
class Row:
    """One line of a question's list as the players see it."""

    kind: Literal["option", "area", "back", "more"]
    """An option; an area to narrow to; the way back to every area; a note of places not listed."""
    text: str
    """The line as shown."""
    key: str = ""
    """The option's key, or the area's (region's) name that narrows to it."""
    number: int = 0
    """The option's number (option rows)."""


def places_of(decision: Any) -> Places | None:
    """The game's reading of ``decision``'s options as places, or ``None`` (no hook, or
    fewer than two places)."""
    context = getattr(decision, "context", None) or {}
    fn = context.get(CONTEXT_KEY)
    if fn is None:
        return None
    got = fn()
    return got if got is not None and len(got.places) >= 2 else None


def offering(decision: Any, read: Callable[[], Places | None]) -> Any:
    """``decision`` with ``read`` as its places hook; ``read`` runs at most once."""
    done: list[Places | None] = []

    def once() -> Places | None:
        if not done:
            done.append(read())
        return done[0]

    more = {CONTEXT_KEY: once}
    updated = getattr(decision.context, "updated", None)  # a DeferredContext stays unread
    return attrs.evolve(decision, context=updated(more) if updated is not None else {**decision.context, **more})


def read_places(decision: Any, place_hex: Callable[[str], str | None], name_of: Callable[[str], str],
                area_of: Callable[[str], tuple[str, str]], distance: Callable[[str, str], int],
                origin: str | None) -> Places:
    """The places among ``decision``'s options: ``place_hex`` of a key is the hex it names
    (``None``: no place), ``name_of`` a hex's name, ``area_of`` its (area, region),
    ``distance`` hexes between two hexes, counted from ``origin``."""
    out: list[Place] = []
    for n, o in enumerate(decision.options, 1):
        hid = place_hex(o.key)
        if hid is None:
            continue
        area, region = area_of(hid)
        out.append(Place(o.key, n, hid, name_of(hid), area, region,
                         distance(origin, hid) if origin is not None else None))
    return Places(origin, tuple(out))


def areas(hexes: Iterable[str], region_of: Callable[[str], str], anchors: Mapping[str, str],
          distance: Callable[[str, str], int], *, most: int = LIMIT,
          outside: Mapping[str, str] | None = None) -> dict[str, tuple[str, str]]:
    """Hex -> (area, region) for ``hexes``: a region of at most ``most`` hexes is one area; a
    larger one is split by the nearest anchor (a named place: hex -> name), the nearest of
    those inside the region if it holds two or more, else the nearest of ``outside`` (default:
    the anchors): ``core around Roma``, ``Barbaria near Lugdunum``."""
    hexes = list(hexes)
    region = {h: region_of(h) for h in hexes}
    size: dict[str, int] = {}
    for r in region.values():
        size[r] = size.get(r, 0) + 1
    inside: dict[str, list[str]] = {}
    for a in sorted(anchors):
        if a in region:
            inside.setdefault(region[a], []).append(a)
    every = sorted(outside if outside is not None else anchors)
    names = {**(outside or {}), **anchors}
    out: dict[str, tuple[str, str]] = {}
    for h in hexes:
        r = region[h]
        if size[r] <= most or not every:
            out[h] = (r, r)
            continue
        own = inside.get(r, [])
        pool = own if len(own) >= 2 else every
        best = min(pool, key=lambda a: (distance(h, a), names[a], a))
        word = "around" if region.get(best) == r else "near"
        out[h] = (f"{r} {word} {names[best]}", r)
    return out


def distance_text(d: int | None) -> str:
    if d is None:
        return ""
    return "here" if d == 0 else ("1 hex" if d == 1 else f"{d} hexes")


def matching_areas(places: Places, text: str) -> frozenset[str]:
    """The areas ``text`` names (any case): an area or region by name, the place an area is
    named around (``Roma``), or the start of an area's name (three letters or more)."""
    want = " ".join(text.lower().split())
    if not want:
        return frozenset()
    out: set[str] = set()
    for p in places.places:
        area, region = p.area.lower(), p.region.lower()
        anchor = area.split(" around ", 1)[-1] if " around " in area else area.split(" near ", 1)[-1]
        if want in (area, region, anchor) or (len(want) >= 3 and area.startswith(want)):
            out.add(p.area)
    return frozenset(out)


def _option_text(n: int, key: str, label: str, place: Place | None) -> str:
    text = f"{n:>3}. {key}" + (f"  {label}" if label and label != key else "")
    if place is not None:
        name = place.name if place.name and place.name not in label else ""
        extra = [x for x in (name, distance_text(place.distance), place.area if place.area != name else "") if x]
        text += "  · " + " · ".join(extra)
    return text


def _span(ps: Sequence[Place]) -> str:
    ds = [p.distance for p in ps if p.distance is not None]
    if not ds:
        return ""
    lo, hi = min(ds), max(ds)
    return f", {distance_text(lo)}" if lo == hi else f", {lo}-{hi} hexes"


def listing(decision: Any, narrowed: str | None = None, *, limit: int = LIMIT, nearest: int = NEAREST,
            places: Places | None = None) -> list[Row]:
    """The rows that show ``decision``: every option in the rules' order when it offers at
    most one place; else the options that are no places, then the places nearest first,
    narrowed to the areas ``narrowed`` names, and areas to narrow by when there are more
    than ``limit`` (see the module docstring)."""
    ps = places if places is not None else places_of(decision)
    opts = decision.options
    if ps is None:
        return [Row("option", _option_text(n, o.key, o.label, None), o.key, n) for n, o in enumerate(opts, 1)]
    keys = ps.keys()
    rows = [Row("option", _option_text(n, o.key, o.label, None), o.key, n)
            for n, o in enumerate(opts, 1) if o.key not in keys]
    within = matching_areas(ps, narrowed) if narrowed else frozenset()
    pool = ps.ordered(within if within else None)
    if within:
        rows.append(Row("back", f"  ◂ every area (type {WIDEN})", WIDEN))
    labels = {o.key: o.label for o in opts}
    show = lambda p: Row("option", _option_text(p.number, p.key, labels.get(p.key, ""), p), p.key, p.number)  # noqa: E731
    if len(pool) <= limit:
        return rows + [show(p) for p in pool]
    groups: dict[str, list[Place]] = {}
    for p in pool:
        groups.setdefault(p.area, []).append(p)
    if len(groups) == 1:  # one area, still long: the nearest, and how to reach the rest
        rest = len(pool) - limit
        rows += [show(p) for p in pool[:limit]]
        rows.append(Row("more", f"  ... {rest} more in {pool[0].area}, farther: type a hex number, "
                                f"or choose it on the map"))
        return rows
    rows += [show(p) for p in pool[:nearest]]
    regions: dict[str, list[str]] = {}
    for area, members in groups.items():
        regions.setdefault(members[0].region, []).append(area)
    if len(groups) > limit and len(regions) > 1:  # too many areas: their regions first
        by: dict[str, list[Place]] = {}
        for p in pool:
            by.setdefault(p.region, []).append(p)
        entries = [(name, members) for name, members in by.items()]
    else:
        entries = list(groups.items())
    entries.sort(key=lambda e: (e[1][0].sort_key()[:2], e[0].lower()))
    for name, members in entries:
        rows.append(Row("area", f"  ▸ {name}: {len(members)} place{'s' if len(members) != 1 else ''}"
                                f"{_span(members)}", name))
    return rows
