"""Where each question is on the map: the hexes the players' table marks and scrolls to.

The full-screen table (``ancients_kit.tui``) scrolls its map to the hexes of a
decision's ``context["highlight"]`` and puts its cursor on the first. The
rules set a highlight where they ask for a hex; :func:`focused` wraps the
whole sequence of play and completes every question's highlight from what
the question names, so the map follows the question even when the deciding
force is at the other end of the Persian Empire:

1. the hexes the prompt names (``the force in 2908``, ``rebel attacks 3206
   from 3207``: the force, the battle or the roll's place), the battle's hex
   the rules put in the context, and the satrapies the prompt names (their
   first city: ``Diplomacy in Syria``);
2. the highlight the rules set;
3. the hexes the options stand for: a hex ID, a key ending in one
   (``move:2907``, ``force:1245``), a unit on the map (``athens-P1``), a
   satrapy (its first city), a city by name (``persepolis``);
4. failing all of these, the deciding side's main force (its Supreme Leader,
   else a leader, else its largest stack).

The first of these hexes holding a unit of the deciding side goes first (the
deciding force's hex). Only the display changes: the context is neither
saved nor logged, so saves, replays and digests are the same.

:func:`focus` also offers the question's places (:mod:`ancients_kit.places`):
an option naming a hex (``2907``, ``move:2907``, ``city:1539``,
``force:1245``) is a place, named by its city, counted in hexes from the
origin (the first hex the question names holding a unit of the deciding
side, else the first it names, else the side's main force), in its satrapy
to narrow by (``sea`` for a sea hex); a satrapy of more than 20 hexes is
split by the nearest city (``Arabia near Damaskos``, ``Egypt around
Memphis``). The areas are a reading aid, no rule.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Generator
from typing import Any

import attrs

from ancients_kit import places
from ancients_kit.highlight import HEX_NUMBER, completed, each_question, largest_stack
from ancients_kit.plugin import Outcome
from ancients_kit.protocol import Decision

from .state import XenState, slug

__all__ = ["focus", "focused", "option_hexes", "place_hex", "places_offered"]

_SPLIT = re.compile(r"[:\-]")

@attrs.frozen(slots=False)  # not slotted: functools.cached_property keeps ``areas`` in its __dict__
class _Places:
    """What a map's data says of its places, for reading questions (built once per data)."""

    hexes: frozenset[str]
    """Every hex ID."""
    named: dict[str, tuple[str, ...]]
    """Slug -> hexes, for satrapies (their cities first) and city names."""
    satrapies: re.Pattern[str] | None
    """Any satrapy's name in a sentence."""
    first: dict[str, str]
    """Satrapy name -> its first city (else hex)."""
    coords: dict[str, Any]
    """Hex ID -> its grid hex (for distances)."""
    data: Any = attrs.field(eq=False, repr=False)
    """The map data they were read from (for :attr:`areas`)."""

    @functools.cached_property
    def areas(self) -> dict[str, tuple[str, str]]:
        """Hex -> (area, satrapy) to narrow a list of places by (see the module docstring);
        worked out when first read: only a question shown to a player reads it."""
        data, coords = self.data, self.coords
        dist = lambda a, b: coords[a].distance(coords[b])  # noqa: E731
        return places.areas(coords, lambda h: data.satrapy_of.get(h, "sea"), dict(data.city_name), dist)


_PLACES: list[tuple[object, _Places]] = []
"""The last map data seen and its places (one entry: the data is shared per process, and a
variant's replaces it)."""


def _places(state: XenState) -> _Places:
    data = state.data
    if _PLACES and _PLACES[0][0] is data:
        return _PLACES[0][1]
    named: dict[str, tuple[str, ...]] = {}
    first: dict[str, str] = {}
    for sat, hexes in data.satrapy_hexes.items():
        cities = tuple(h for h in hexes if h in data.city_kind)
        named[slug(sat)] = cities + tuple(h for h in hexes if h not in cities)
        if named[slug(sat)]:
            first[sat] = named[slug(sat)][0]
    for h, name in data.city_name.items():
        named.setdefault(slug(name), (h,))
    names = sorted(first, key=len, reverse=True)  # the longest first: "Persian India" before "India"
    pattern = re.compile("|".join(re.escape(n) for n in names)) if names else None
    coords = {data.map.to_id(h): h for h in data.map.hexes()}
    out = _Places(frozenset(data.terrain), named, pattern, first, coords, data)
    _PLACES[:] = [(data, out)]
    return out


_PLACE_KEYS = ("battle", "origin", "target", "hex")
"""Context keys the rules use for the place a question is about."""


def _satrapies_named(state: XenState, text: str) -> list[tuple[str, str]]:
    """(satrapy, its first city or hex) for every satrapy ``text`` names, in the order named."""
    places = _places(state)
    if places.satrapies is None:
        return []
    return [(m.group(0), places.first[m.group(0)]) for m in places.satrapies.finditer(text)]


def option_hexes(state: XenState, key: str) -> tuple[str, ...]:
    """The hexes an option key stands for (none for ``done``, ``pay`` ...)."""
    places = _places(state)
    if key in places.hexes:
        return (key,)
    u = state.units.get(key)
    if u is not None:
        return (u.hex,) if u.where == "map" and u.hex else ()
    if ":" in key:
        for part in _SPLIT.split(key):
            if part in places.hexes:
                return (part,)
        u = state.units.get(key.split(":", 1)[1])
        if u is not None and u.where == "map" and u.hex:
            return (u.hex,)
    named = places.named.get(key)
    return named[:1] if named else ()


def place_hex(state: XenState, key: str) -> str | None:
    """The hex an option key names as a place: a hex ID, or a key ending in one
    (``move:2907``, ``city:1539``, ``force:1245``); ``None`` for a unit, a satrapy, ``done`` ..."""
    hexes = _places(state).hexes
    if key in hexes:
        return key
    if ":" in key or "-" in key:
        return next((p for p in reversed(_SPLIT.split(key)) if p in hexes), None)
    return None


def _origin(state: XenState, decision: Decision, named: list[str]) -> str | None:
    """The hex distances count from: the first named hex holding the deciding side's unit,
    else the first named hex, else the side's main force."""
    side = decision.side
    known = [h for h in named if h in _places(state).hexes]
    own = next((h for h in known if any(u.side == side for u in state.units_at(h))), None)
    return own or (known[0] if known else _main_force(state, side))


def places_offered(state: XenState, decision: Decision, named: list[str]) -> places.Places | None:
    """``decision``'s options read as places (:mod:`ancients_kit.places`), for the table and
    the prompt; ``None`` when fewer than two options are places."""
    keyed = {o.key: place_hex(state, o.key) for o in decision.options}
    if sum(h is not None for h in keyed.values()) < 2:
        return None
    p = _places(state)
    names = state.data.city_name
    return places.read_places(decision, keyed.__getitem__, lambda h: names.get(h, ""),
                              lambda h: p.areas.get(h, ("sea", "sea")),
                              lambda a, b: p.coords[a].distance(p.coords[b]), _origin(state, decision, named))


def _main_force(state: XenState, side: str) -> str | None:
    """The hex of ``side``'s Supreme Leader, else of a leader, else of its largest stack."""
    sup = state.supreme_leader(side)
    if sup is not None and sup.hex:
        return sup.hex
    leaders = sorted(u.hex for u in state.leaders(side) if u.hex)
    if leaders:
        return leaders[0]
    return largest_stack(u.hex for u in state.side_units(side) if u.hex)


def focus(state: XenState, decision: Decision) -> Decision:
    """``decision`` with its highlight completed and ordered (see the module docstring)."""
    named = HEX_NUMBER.findall(decision.prompt)
    named += [str(decision.context[k]) for k in _PLACE_KEYS if decision.context.get(k)]
    named += [h for name, h in _satrapies_named(state, decision.prompt)]
    side = decision.side
    done = completed(decision, named, lambda key: option_hexes(state, key), _places(state).hexes.__contains__,
                     lambda h: any(u.side == side for u in state.units_at(h)),
                     lambda: _main_force(state, side))
    return places.offering(done, lambda: places_offered(state, decision, named))


def focused(state: XenState, play: Generator[Decision, str, Outcome]) -> Generator[Decision, str, Outcome]:
    """The sequence of play ``play`` with every question passed through :func:`focus`."""
    return each_question(play, lambda decision: focus(state, decision))
