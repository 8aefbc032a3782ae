"""Rebuild ``data/map.toml``: the reconstructed generic Roman frontier map of Centurion.

Run from the repository root::

    python3 games/centurion/tools/build_map.py          # writes games/centurion/data/map.toml
    python3 games/centurion/tools/build_map.py --show   # prints the ASCII board only

The printed mapsheet is not in our text. What the text fixes (rule cen:full.units,
'The Mapboard'; the scenario notes of cen:scenarios): 23" x 29", about 2 x 3 km at
about 100 m a hex, hence 30 columns x 20 rows; hills in the north-central part,
in the central part (with ground 'between' them) and flanking the north-west
corner; hills and forest in the NW corner; a town; quadrants; a river (Cross
River Attack Rule) and roads (Movement G-H). Everything else is laid out here.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hexmath import distance, hex_id, line, neighbors, on_map, parse_id  # noqa: E402

COLUMNS = 30
ROWS = 20
OUT = Path(__file__).resolve().parent.parent / "data" / "map.toml"


def all_hexes() -> list[str]:
    return [hex_id(c, r) for r in range(1, ROWS + 1) for c in range(1, COLUMNS + 1)]


def blob(centre: str, radius: int) -> set[str]:
    return {h for h in all_hexes() if distance(h, centre) <= radius}


def build() -> dict[str, object]:
    terrain: dict[str, str] = {h: "clear" for h in all_hexes()}

    # NW corner forest (woods), thinning toward the south-east.
    forest = {h for h in all_hexes() if (lambda c, r: c + r <= 12 and c <= 9 and r <= 9)(*parse_id(h))}
    for h in forest:
        terrain[h] = "woods"
    # Hills on the north side of the NW corner, inside the forest (Teutoburgerwald: Germans).
    nw_hills = blob("0402", 1) | {"0602", "0603"}
    # The two hills flanking the NW corner, with the forest road entering between them.
    nw_flank_north = blob("1102", 1) | {"1001"}
    nw_flank_west = blob("0212", 1) | {"0111"}
    # North-central ridge (Gaul: the Nervii deploy along it, facing south).
    nc_ridge = {hex_id(c, r) for c in range(13, 20) for r in (3, 4)} | {"1502", "1602", "1702"}
    # Central hills with clear ground between them (Boudicca: Romans between, facing south).
    central_west = blob("1109", 1)
    central_east = blob("1909", 1)
    # A hill with clear ground before it to the east (Mons Graupius, Busta Gallorum).
    sw_hill = blob("0515", 1) | {"0516"}
    # A low rise north-east of the town.
    ne_rise = {"2402", "2403", "2502"}
    hills = nw_hills | nw_flank_north | nw_flank_west | nc_ridge | central_west | central_east | sw_hill | ne_rise
    for h in hills:
        terrain[h] = "hill"
    # Scattered woods in the south and east for variety.
    for h in blob("1317", 1) | {"2815", "2816", "2915"} | {"0819", "0919", "0820"}:
        terrain[h] = "woods"
    town = {"2206", "2306", "2207"}
    for h in town:
        terrain[h] = "town"

    # River: the boundary of the east-bank set. It enters at the north edge, runs south
    # east of the town, then turns east along rows 13/14 to the east edge.
    bank_col = {1: 26, 2: 26, 3: 27, 4: 27, 5: 26, 6: 26, 7: 26, 8: 27, 9: 28, 10: 28, 11: 27, 12: 27, 13: 27}
    east_bank = {hex_id(c, r) for r, c0 in bank_col.items() for c in range(c0, COLUMNS + 1)}
    river_sides: list[tuple[str, str]] = []
    for h in sorted(east_bank):
        for n in neighbors(h, COLUMNS, ROWS):
            if n not in east_bank and (n, h) not in river_sides:
                river_sides.append((min(h, n), max(h, n)))
    river_sides = sorted(set(river_sides))

    # Roads: west edge through the forest between the flanking hills, across the centre to
    # the town, over a bridge to the east edge; and from the town south to the south edge.
    road_a = line("0107", "0908") + line("0908", "1507")[1:] + line("1507", "2206")[1:]
    road_b = line("2206", "3006")[1:]
    road_c = line("2207", "2214")[0:] + line("2214", "1920")[1:]
    road_hexes = road_a + road_b
    road_sides: set[tuple[str, str]] = set()
    for path in (road_a + road_b, ["2206", "2207"], road_c):
        for a, b in zip(path, path[1:]):
            if distance(a, b) != 1:
                raise SystemExit(f"road not continuous between {a} and {b}")
            road_sides.add((min(a, b), max(a, b)))
    road_all = set(road_hexes) | set(road_c)
    bridges = sorted(s for s in road_sides if s in set(river_sides))
    fords_wanted = [("2612", "2712"), ("2813", "2814"), ("2502", "2602")]
    fords: list[tuple[str, str]] = []
    for a, b in fords_wanted:
        s = (min(a, b), max(a, b))
        if s not in river_sides:
            raise SystemExit(f"ford {s} is not a river hexside")
        fords.append(s)

    quadrant = {
        "NW": [h for h in all_hexes() if parse_id(h)[0] <= 15 and parse_id(h)[1] <= 10],
        "NE": [h for h in all_hexes() if parse_id(h)[0] >= 16 and parse_id(h)[1] <= 10],
        "SW": [h for h in all_hexes() if parse_id(h)[0] <= 15 and parse_id(h)[1] >= 11],
        "SE": [h for h in all_hexes() if parse_id(h)[0] >= 16 and parse_id(h)[1] >= 11],
    }
    central_gap = sorted({hex_id(c, r) for c in range(13, 18) for r in range(8, 11)})
    regions = {
        **quadrant,
        "nw-forest": sorted(h for h in all_hexes() if terrain[h] == "woods" and h in forest),
        "nw-hills": sorted(nw_hills),
        "nw-flank-hills": sorted(nw_flank_north | nw_flank_west),
        "nw-entry": [hex_id(1, r) for r in range(5, 10)],
        "north-central-hills": sorted(nc_ridge),
        "central-hills": sorted(central_west | central_east),
        "central-gap": central_gap,
        "sw-hill": sorted(sw_hill),
        "town": sorted(town),
        "east-bank": sorted(east_bank),
        "roads": sorted(road_all),
    }
    places = {
        "Town": "2206",
        "North-central ridge": "1603",
        "Central gap": "1509",
        "West central hill": "1109",
        "East central hill": "1909",
        "South-west hill": "0515",
        "NW forest road": "0107",
        "Bridge": bridges[0][0] if bridges else "",
        "North ford": fords[2][0],
        "Middle ford": fords[0][0],
        "South ford": fords[1][0],
        "Crossroads": "2207",
    }
    return {
        "terrain": terrain,
        "river": river_sides,
        "ford": fords,
        "bridge": bridges,
        "road": sorted(road_sides),
        "regions": regions,
        "places": places,
    }


LEGEND = {"clear": ".", "woods": "F", "hill": "H", "town": "T"}


def ascii_rows(terrain: dict[str, str]) -> list[str]:
    return ["".join(LEGEND[terrain[hex_id(c, r)]] for c in range(1, COLUMNS + 1)) for r in range(1, ROWS + 1)]


def _pairs(sides: list[tuple[str, str]]) -> str:
    items = [f'["{a}", "{b}"]' for a, b in sides]
    lines = []
    for i in range(0, len(items), 6):
        lines.append("  " + ", ".join(items[i : i + 6]) + ",")
    return "[\n" + "\n".join(lines) + "\n]"


def render(m: dict[str, object]) -> str:
    terrain = m["terrain"]  # type: ignore[assignment]
    assert isinstance(terrain, dict)
    out = [
        "# Generated by games/centurion/tools/build_map.py -- edit the script, then rerun it.",
        "[meta]",
        'id = "centurion.map.frontier"',
        'title = "Roman frontier (generic Centurion battlefield)"',
        'source = "reconstructed"',
        'rules = ["cen:basic.movement", "cen:full.movement", "cen:full.cross-river", "cen:full.deployment", "cen:scenarios"]',
        'note = """',
        "The printed 23 x 29 inch mapsheet is not in our text. Fixed (H): a 'typical piece of Roman",
        "frontier terrain, about 2 kilometers by 3 kilometers', hexes of about 100 m, so 30 columns x",
        "20 rows (flat-top hexes in columns, north at the top). The scenario notes name the features this",
        "map must have (M): hills in the north-central portion (Gaul), hills in the central portion with",
        "ground between them (Boudicca), hills and forest in the NW corner with hills flanking it and",
        "an entry between them (Teutoburgerwald), hills with clear terrain before them to the east",
        "(Mons Graupius, Busta Gallorum), a town (Philippi, Daras), the Southeast quadrant (Numidia,",
        "Vercellae, Servile War, Lycus, Carrhae, Ctesiphon, Hadrianopolis, Campus Mauriacus); the rules",
        "name rivers (Cross River Attack Rule) and roads (Movement G-H). The layout itself is",
        "invented (L). Rivers run on hexsides; 'ford' and 'bridge' hexsides are river hexsides that",
        "carry that feature too. Roads are hexsides joining two road hexes.",
        '"""',
        'sources = ["Centurion rulebook text: The Mapboard, scenario notes", "MISSING_DATA.md, Centurion section"]',
        "",
        "[grid]",
        'orientation = "flat"',
        'shifted = "even"',
        f"columns = {COLUMNS}",
        f"rows = {ROWS}",
        "first_column = 1",
        "first_row = 1",
        "digits = 2",
        "",
        "[terrain]",
        'default = "clear"',
        'legend = { "." = "clear", "F" = "woods", "H" = "hill", "T" = "town" }',
        "rows = [",
        "  #" + "".join(str(c % 10) for c in range(1, COLUMNS + 1)),
    ]
    out[-1] = "  # columns 1-30 (units digit): " + "".join(str(c % 10) for c in range(1, COLUMNS + 1))
    for r, row in enumerate(ascii_rows(terrain), start=1):
        out.append(f'  "{row}",  # row {r:02d}')
    out.append("]")
    out.append("")
    for feature in ("river", "ford", "bridge", "road"):
        sides = m[feature]
        assert isinstance(sides, list)
        if not sides:
            continue
        out.append("[[hexsides]]")
        out.append(f'feature = "{feature}"')
        out.append("between = " + _pairs(sides))
        out.append("")
    out.append("[regions]")
    regions = m["regions"]
    assert isinstance(regions, dict)
    for name, hexes in regions.items():
        key = f'"{name}"' if "-" in name else name
        items = [f'"{h}"' for h in hexes]
        chunks = [", ".join(items[i : i + 15]) for i in range(0, len(items), 15)]
        out.append(f"{key} = [\n  " + ",\n  ".join(chunks) + ",\n]")
    out.append("")
    out.append("[places]")
    places = m["places"]
    assert isinstance(places, dict)
    for name, h in places.items():
        out.append(f'"{name}" = "{h}"')
    out.append("")
    return "\n".join(out)


def main() -> None:
    m = build()
    terrain = m["terrain"]
    assert isinstance(terrain, dict)
    if "--show" in sys.argv:
        print("\n".join(ascii_rows(terrain)))
        return
    for h in terrain:
        assert on_map(h, COLUMNS, ROWS)
    OUT.write_text(render(m), encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
