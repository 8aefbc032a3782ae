"""Where each question is on the map: the hexes the players' table marks and scrolls to.

The full-screen table (``ancients_kit.tui``) scrolls its map to the hexes of a
decision's ``context["highlight"]`` and puts its cursor on the first. The
rules set a highlight where they ask for a hex; :func:`focused` wraps the
whole sequence of play and completes every question's highlight from what
the question names, so the map follows the question from the Rhine to the
Euphrates:

1. the hexes the prompt names (``Moving I28, I29 in 4718``, ``roman attacks
   4719 from 4620``: the force, the battle or the roll's place) and the
   places the rules put in the context (``origin``, ``target``);
2. the highlight the rules set;
3. the hexes the options stand for: a hex ID, a key made of hex IDs
   (``3113-3114``: from 3113 against 3114), a unit on the map (``G1``,
   ``drop:I28``);
4. failing all of these, the deciding side's main force (the Roman emperor,
   else the co-emperor, else the side's largest stack).

The first of these hexes holding a unit of the deciding side goes first (the
deciding force's hex). Only the display changes: the context is neither
saved nor logged, so saves, replays and digests are the same.

:func:`focus` also offers the question's places (:mod:`ancients_kit.places`):
an option naming a hex (``2520``, ``move:2518``, ``3113-3114``: the last hex)
is a place, named by the first centre of its hex, counted in hexes from the
origin (the first hex the question names holding a unit of the deciding
side, else the first it names, else the side's main force), in an area to
narrow by: the map's region (Italy, the Mediterranean islands, Colchis,
Iberia, Armenia, Dacia, Germania Decumates, Palmyra, Parthia, Barbaria, the
wastes, core, sea: the most particular first), a region of more than 20
hexes split by its nearest centre of 2 TP or more (``core around Roma``), or
for a region without two such centres by the nearest named centre anywhere
(``Barbaria near Augusta Treverorum``). The areas are a reading aid, no rule.
"""

from __future__ import annotations

import re
from collections.abc import Generator

import attrs

from ancients_kit import places
from ancients_kit.highlight import HEX_NUMBER, completed, each_question, largest_stack
from ancients_kit.plugin import Outcome
from ancients_kit.protocol import Decision

from .state import ROMAN, LDFState

__all__ = ["REGION_ORDER", "focus", "focused", "option_hexes", "place_hex", "places_offered"]

_SPLIT = re.compile(r"[:\-]")
_PLACE_KEYS = ("origin", "target", "battle", "hex")
"""Context keys the rules use for the place a question is about."""


def _is_hex(state: LDFState, text: str) -> bool:
    return text in state.data.ids


def _unit_hex(state: LDFState, uid: str) -> str | None:
    u = state.units.get(uid)
    return u.hex if u is not None and u.where == "map" and u.hex else None


def option_hexes(state: LDFState, key: str) -> tuple[str, ...]:
    """The hexes an option key stands for (none for ``pass``, ``done`` ...)."""
    if _is_hex(state, key):
        return (key,)
    at = _unit_hex(state, key)
    if at is not None:
        return (at,)
    if ":" in key or "-" in key:
        parts = _SPLIT.split(key)
        hexes = tuple(p for p in parts if _is_hex(state, p))
        if hexes:
            return hexes
        at = _unit_hex(state, parts[-1])
        if at is not None:
            return (at,)
    return ()


REGION_ORDER = (
    ("italy", "Italy"), ("mediterranean-islands", "Mediterranean islands"), ("colchis", "Colchis"),
    ("iberia", "Iberia"), ("armenia", "Armenia"), ("dacia", "Dacia"), ("germania-decumates", "Germania Decumates"),
    ("palmyra", "Palmyra"), ("parthia", "Parthia"), ("barbaria", "Barbaria"), ("wastes", "wastes"), ("core", "core"),
)
"""The map's regions a place is listed under, the most particular first, with the names shown."""


@attrs.frozen
class _Map:
    """What the places of a question need from the map (built once per map data)."""

    names: dict[str, str]
    """Hex -> the name of its first centre."""
    areas: dict[str, tuple[str, str]]
    """Hex -> (area, region) (see the module docstring)."""


_MAPS: list[tuple[object, _Map]] = []
"""The last map data seen and its reading (the data is shared per process)."""


def _distance(state: LDFState, a: str, b: str) -> int:
    ids = state.data.ids
    return ids[a].distance(ids[b])


def _map(state: LDFState) -> _Map:
    data = state.data
    if _MAPS and _MAPS[0][0] is data:
        return _MAPS[0][1]
    names = {}
    for hid, h in data.ids.items():
        got = data.map.value(h, "names")
        if got:
            names[hid] = str(got[0])

    def region_of(hid: str) -> str:
        mine = data.regions_of(hid)
        return next((title for r, title in REGION_ORDER if r in mine), "sea")

    anchors = {h: n for h, n in names.items() if data.hex_tp.get(h, 0) >= 2}
    out = _Map(names, places.areas(data.ids, region_of, anchors, lambda a, b: _distance(state, a, b), outside=names))
    _MAPS[:] = [(data, out)]
    return out


def place_hex(state: LDFState, key: str) -> str | None:
    """The hex an option key names as a place: a hex ID, or the last hex ID of a key made of
    parts (``move:2518``, ``3113-3114``); ``None`` for a unit, ``pass``, ``done`` ..."""
    if _is_hex(state, key):
        return key
    if ":" in key or "-" in key:
        return next((p for p in reversed(_SPLIT.split(key)) if _is_hex(state, p)), None)
    return None


def _origin(state: LDFState, decision: Decision, named: list[str]) -> str | None:
    """The hex distances count from: the first named hex holding the deciding side's unit,
    else the first named hex, else the side's main force."""
    side = decision.side
    known = [h for h in named if _is_hex(state, h)]
    own = next((h for h in known if any(state.side_of(u) == side for u in state.units_at(h))), None)
    return own or (known[0] if known else _main_force(state, side))


def places_offered(state: LDFState, decision: Decision, named: list[str]) -> places.Places | None:
    """``decision``'s options read as places (:mod:`ancients_kit.places`), for the table and
    the prompt; ``None`` when fewer than two options are places."""
    keyed = [(o.key, place_hex(state, o.key)) for o in decision.options]
    if sum(h is not None for _, h in keyed) < 2:
        return None
    hexes = dict(keyed)
    m = _map(state)
    return places.read_places(decision, hexes.__getitem__, lambda h: m.names.get(h, ""),
                              lambda h: m.areas.get(h, ("sea", "sea")), lambda a, b: _distance(state, a, b),
                              _origin(state, decision, named))


def _main_force(state: LDFState, side: str) -> str | None:
    """The hex of the Roman emperor (else co-emperor), else of ``side``'s largest stack."""
    if side == ROMAN:
        for kind in ("emperor", "co-emperor"):
            u = state.leader(kind)
            if u is not None and u.hex and state.side_of(u) == side:
                return u.hex
    return largest_stack(u.hex for u in state.on_map() if u.hex and state.side_of(u) == side)


def focus(state: LDFState, decision: Decision) -> Decision:
    """``decision`` with its highlight completed and ordered (see the module docstring)."""
    named = HEX_NUMBER.findall(decision.prompt)
    named += [str(decision.context[k]) for k in _PLACE_KEYS if decision.context.get(k)]
    side = decision.side
    done = completed(decision, named, lambda key: option_hexes(state, key), lambda h: _is_hex(state, h),
                     lambda h: any(state.side_of(u) == side for u in state.units_at(h)),
                     lambda: _main_force(state, side))
    return places.offering(done, lambda: places_offered(state, decision, named))


def focused(state: LDFState, play: Generator[Decision, str, Outcome]) -> Generator[Decision, str, Outcome]:
    """The sequence of play ``play`` with every question passed through :func:`focus`."""
    return each_question(play, lambda decision: focus(state, decision))
