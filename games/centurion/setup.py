"""Centurion's set-up: a scenario's battle laid out, and hand-made positions.

:func:`setup` builds the initial state of a scenario (``cen:scenarios``; the
Basic Game from its deployment diagram, ``cen:basic.deployment``; the Full
Simulation's players then deploy in their zones, ``cen:full.deployment``), with
the rules version asked for, and refuses the optional rules the Basic Game does
not use (:func:`~ancients_games.centurion.options.basic_game_refusal`).
:func:`sandbox_state` builds a small position by hand with the real unit types
and charts, for tests, tools and teaching.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ancients_kit.data import DataStore, Meta
from ancients_kit.errors import IllegalAnswer
from ancients_kit.hexgrid import Hex, Hexside, Numbering
from ancients_kit.hexmap import HexMap
from ancients_kit.protocol import Context

from ancients_games.centurion import model
from ancients_games.centurion.equipment import (
    PACKAGE, check_map_terrain, load_all, load_map, load_scenario, scenario_ids,
)
from ancients_games.centurion.options import basic_game_refusal, option_specs
from ancients_games.centurion.state import CenturionState, Unit, build_state

__all__ = ["sandbox_state", "setup"]


def setup(ctx: Context, scenario: str) -> CenturionState:
    """The initial state of ``scenario`` with ``ctx.options`` in force: a ``KeyError``
    for an unknown scenario, an :class:`~ancients_kit.errors.IllegalAnswer` naming the
    rule for an optional rule the Basic Game does not use."""
    store = ctx.store
    if scenario not in scenario_ids(store):
        raise KeyError(scenario)
    sc = load_scenario(store, scenario)
    data = load_all(store)
    hexmap = load_map(store, sc.map)
    check_map_terrain(store, sc.map, hexmap, data["terrain"])
    state = build_state(sc, hexmap, data["types"], data["capability"], data["terrain"], ctx.options)
    version = ctx.options.get("version", "scenario")
    if version in ("basic", "full"):
        state.version = version
    if state.version == "basic":
        refused = basic_game_refusal(option_specs(), ctx.options)
        if refused is not None:
            raise IllegalAnswer(refused[0], rule=refused[1])
    return state


def sandbox_state(
    units: list[tuple[str, str, str] | tuple[str, str, str, str]],
    *,
    version: str = "basic",
    sides: tuple[str, str] = ("red", "blue"),
    columns: int = 12,
    rows: int = 12,
    terrain: Mapping[str, str] | None = None,
    features: Mapping[tuple[str, str], list[str]] | None = None,
    store: DataStore | None = None,
    options: Mapping[str, Any] | None = None,
) -> CenturionState:
    """A small hand-made position with the real unit types and charts.

    For tests, tools and teaching: ``units`` lists ``(side, type, hex ID[,
    facing name])``; ``terrain`` maps hex IDs to terrain names; ``features``
    maps hex-ID pairs to hexside features. The first side moves first.
    """
    store = store or DataStore(PACKAGE)
    data = load_all(store)
    num = Numbering("flat", "even", columns, rows)
    hexmap = HexMap.build(
        num,
        terrain={num.from_id(k): v for k, v in (terrain or {}).items()},
        features={Hexside.between(num.from_id(a), num.from_id(b)): f for (a, b), f in (features or {}).items()},
    )
    meta = Meta(id="centurion.sandbox", source="reconstructed", note="hand-made position")
    zone = model.DeploymentZone(centre=num.to_id(Hex(0, 0)))
    sc = model.Scenario(
        meta=meta, id="sandbox", title="Sandbox", year="", game=model.GameVersion(version),
        first_player=sides[0], deploys_first=sides[1], turns=10, min_turns=0, map="", options=(),
        civil_war=False, fight_to_death=False, deployment_note="", special_rules=(), notes="",
        sides=tuple(model.Side(id=s, name=s.capitalize(), order_of_battle={}, units=(), point_value=0,
                               panic_threshold=0, zone=zone) for s in sides),
    )
    state = build_state(sc, hexmap, data["types"], data["capability"], data["terrain"], options)
    counters: dict[tuple[str, str], int] = {}
    for entry in units:
        side, code, hex_id = entry[0], entry[1], entry[2]
        face = entry[3] if len(entry) > 3 else "N"
        n = counters.get((side, code), 0) + 1
        counters[(side, code)] = n
        u = Unit(id=f"{side[:3].upper()}-{code}{n:02d}", side=side, type=code, hex=None,
                 facing=num.direction_from_name(face))
        state.place(u, num.from_id(hex_id))
        state.start_units[side] = state.start_units.get(side, 0) + 1
        state.start_points[side] = state.start_points.get(side, 0) + data["types"][code].points
    state.active = sides[0]
    state.player_turn = 1
    return state
