"""Centurion's Game Equipment, loaded from ``data/`` (the rulebook's "Game Equipment"): the unit types,
the capability and Terrain Effects Charts, the Combat Results Tables, the maps and the
scenarios, each checked against the rules as it loads and shared (immutable) per store.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ancients_kit.data import DataError, DataStore, document_file
from ancients_kit.hexmap import HexMap
from ancients_kit.tables import OddsTable, load_table, load_table_with_codes

from ancients_games.centurion import model

__all__ = ["CRT_FIRE", "CRT_MELEE", "CRT_RESULTS", "CRT_ROLLS", "PACKAGE", "check_map_terrain", "load_all",
           "load_crt", "load_fire_crt", "load_map", "load_scenario", "scenario_ids"]

PACKAGE = "ancients_games.centurion"
"""The package whose ``data/`` holds the equipment (``DataStore(PACKAGE)``)."""

CRT_MELEE = "crt_melee.toml"


CRT_FIRE = "crt_fire.toml"


CRT_ROLLS = (1, 6)
"""The rows a Centurion CRT prints: one die, 1 to 6 (cen:basic.combat I: "a die is
rolled"); modified rolls are clamped to them (crt_melee.toml note), so rows 0 or 7
would never be read."""


def load_crt(store: DataStore, rel: str) -> OddsTable:
    """A Centurion CRT (``crt_melee.toml``, ``crt_fire.toml``) checked against the game's rules.

    Beyond the core's table checks: an odds table read by one d6 whose rows
    are exactly the rolls 1..6 (cen:basic.combat). A variant's table breaking
    that is a DataError naming the variant file and the key.
    """
    table = load_table(store, rel)
    file = document_file(store, rel, table.id)
    if not isinstance(table, OddsTable):
        raise DataError(file, "a Centurion CRT is an odds table (kind = \"odds\") [cen:basic.combat]", "table.kind")
    if table.die != "d6":
        raise DataError(file, f"a Centurion CRT is read by one d6, not {table.die} [cen:basic.combat]", "table.die")
    low, high = CRT_ROLLS
    for row in table.rows:
        if row.band.low is None or row.band.high is None or row.band.low < low or row.band.high > high:
            raise DataError(file, f"row {row.band.label!r} lies outside the die's rolls {low}..{high}; modified "
                            f"rolls are clamped to {low}..{high} [cen:basic.combat]", f"table.results.{row.band.label}")
    if rel in CRT_RESULTS:
        load_table_with_codes(store, rel, CRT_RESULTS[rel], "cen:basic.combat")
    return table


CRT_RESULTS = {CRT_MELEE: ("AE", "AD", "C", "DD", "DE"), CRT_FIRE: ("NE", "DD", "DE")}
"""The results each CRT's combat carries out (``combat.apply_result``, the Full Game's melee and
fire): a code outside them was played as a contact or as no effect without a word, so it is
refused when the table loads."""


_CACHE: dict[tuple[Any, ...], Any] = {}


def _cached(store: DataStore, what: str, make: Any) -> Any:
    key = (store.package, tuple(v.digest for v in store.variants), what)
    got = _CACHE.get(key)
    if got is None:
        got = make()
        if len(_CACHE) > 512:
            _CACHE.clear()
        _CACHE[key] = got
    return got


def load_all(store: DataStore) -> dict[str, Any]:
    """Unit types, capability chart, terrain chart and CRTs (shared, immutable)."""
    def load() -> dict[str, Any]:
        types, chart = model.load_units(store), model.load_capability(store)
        model.check_capability(store, types, chart)
        return {"types": types, "capability": chart, "terrain": model.load_terrain(store),
                "melee": load_crt(store, CRT_MELEE)}

    return _cached(store, "core", load)


def check_map_terrain(store: DataStore, rel: str, hexmap: HexMap, chart: Mapping[str, model.TerrainEffect]) -> None:
    """Every terrain the map paints has a line of the Terrain Effects Chart (cen:basic.movement).

    Checked at set-up, so a variant's chart or map that lacks one is refused
    naming both files, instead of failing in the middle of a movement phase.
    """
    missing = sorted(t for t in hexmap.terrain_names() if t not in chart or chart[t].placement != "hex")
    if missing:
        terrain_meta, _ = store.load("terrain.toml", model._TerrainDoc)
        raise DataError(document_file(store, "terrain.toml", terrain_meta.id),
                        f"no hex terrain line for {', '.join(map(repr, missing))}, which the map "
                        f"{document_file(store, rel, hexmap.id)} uses [cen:basic.movement]", "terrain")


def load_map(store: DataStore, rel: str) -> HexMap:
    """The map ``rel`` (shared per store)."""
    return _cached(store, f"map:{rel}", lambda: HexMap.load(store, rel))


def load_scenario(store: DataStore, scenario_id: str) -> model.Scenario:
    """The scenario ``scenario_id``, checked (cen:scenarios; shared per store)."""
    return _cached(store, f"scenario:{scenario_id}", lambda: model.load_scenario(store, scenario_id))


def scenario_ids(store: DataStore) -> list[str]:
    """The IDs of every scenario in ``data/scenarios`` (shared per store)."""
    return _cached(store, "scenario-ids", lambda: model.list_scenarios(store))


def load_fire_crt(store: DataStore) -> OddsTable:
    """The missile fire CRT (``crt_fire.toml``, cen:full.combat H), checked as :func:`load_crt`
    checks it and shared per store."""
    return _cached(store, "crt_fire", lambda: load_crt(store, CRT_FIRE))
