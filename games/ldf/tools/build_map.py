"""Rebuild ``data/map.toml``: the reconstructed strategic map of Lest Darkness Fall.

Run from the repository root (no network, no third-party packages)::

    python3 games/ldf/tools/build_map.py           # writes games/ldf/data/map.toml
    python3 games/ldf/tools/build_map.py --report  # prints the fit residuals and the hand-check list

The mapsheet is not in our text (ldf:2.1). What the text prints (H) is a set of hex
numbers: the named anchors (Rome/Ostia 3318, Trier 3114, Londinium 2813, Dacia 3816,
Germania Decumates 3215, Palmyra 4720, Petra 4623, Ctesiphon 5020), 4521 and 4119 with
their garrison strengths (13.10), the eight narrows (1.5), the six double-legion hexes
(3.2), the point where 3315, 3415 and 3416 meet (9.5), 3217 and 3316 as mainland Italy's
northern edge (14.3 "From the Jaws of Death") and 4018 (12.5). How the map is rebuilt:

1. **Fit.** Each anchor given a geographic position (the named places; the others
   identified, M: the straits, Damascus, the Bosporus, the legion pairs) is fitted by least
   squares: column and straight row (row + 1/2 in odd columns, which sit half a hex lower:
   rules 9.5 and 14.3 fix this parity) against (longitude x cos latitude, latitude), an
   affine map of three coefficients each.
2. **Rubber sheet.** The fit's residual at every anchor is spread over the map by inverse
   squared distance (with a constant weight so that it fades beyond three hexes), so every
   anchor lands exactly on its printed hex and the rest of the geography moves with it.
3. **Land mask.** 13 sample points per hex are tested against the outlines of the seas and
   islands in ``geo.py``; a hex is land when at least 40 % of its points are, or when it holds
   a place or a printed anchor.
4. **Hexsides.** A river lies on every hexside whose centre-to-centre segment crosses its
   line; a hexside between two land hexes whose middle is water is all-sea (``sea``),
   except on a narrows hex, which is bridged (12.5).
5. **Regions** by the land centroid of each hex against the frontier lines; **places** and
   **legions** into their projected hexes, the printed ones forced (see ``FORCED``).

Only standard-library Python; the output is deterministic (sorted, fixed float formats),
and a test checks that it reproduces the committed file byte for byte.
"""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

from ancients_kit.geometry import point_in_polygon

# geo.py is loaded by its path under a name of its own, leaving sys.path alone: the games'
# tools folders hold modules of the same names (build_map), and tests import several of them.
_GEO = importlib.util.spec_from_file_location("ldf_geo", Path(__file__).resolve().parent / "geo.py")
assert _GEO is not None and _GEO.loader is not None
geo = importlib.util.module_from_spec(_GEO)
_GEO.loader.exec_module(geo)

FIRST_COLUMN, LAST_COLUMN = 22, 56
FIRST_ROW, LAST_ROW = 10, 26
OUT = Path(__file__).resolve().parent.parent / "data" / "map.toml"

# (hex, what, lon, lat, confidence, rules): every printed hex number with a position.
ANCHORS = [
    ("3318", "Rome/Ostia", 12.45, 41.85, "H", "ldf:3.2, ldf:4.2, ldf:6.5"),
    ("3114", "Trier (Augusta Treverorum)", 6.64, 49.76, "H", "ldf:9.5"),
    ("2813", "Londinium", -0.10, 51.51, "H", "ldf:9.5"),
    ("3816", "Dacia (Apulum, Potaissa, Sarmizegetusa)", 23.3, 45.9, "H", "ldf:3.2, ldf:6.1, ldf:9.7"),
    ("3215", "Germania Decumates (Sumelocenna)", 8.95, 48.45, "H", "ldf:6.1, ldf:9.7"),
    ("4720", "Palmyra", 38.27, 34.55, "H", "ldf:3.2, ldf:6.5, ldf:9.1"),
    ("4623", "Petra", 35.44, 30.33, "H", "ldf:12.6"),
    ("5020", "Ctesiphon", 44.58, 33.09, "H", "ldf:2.6, ldf:7.3, ldf:13.10"),
    ("4521", "Damascus (garrison 2)", 36.29, 33.51, "M", "ldf:13.10"),
    ("4119", "the Bosporus: Byzantium and Nicomedia (garrison 5)", 29.3, 41.0, "M", "ldf:1.5, ldf:13.10"),
    ("2421", "the Strait of Gibraltar (narrows)", -5.6, 36.0, "M", "ldf:1.5"),
    ("2913", "the Strait of Dover (narrows)", 1.4, 51.0, "M", "ldf:1.5"),
    ("3218", "Corsica (narrows from Italy)", 9.1, 42.15, "M", "ldf:1.5"),
    ("3219", "Sardinia (narrows of Bonifacio)", 9.0, 40.05, "M", "ldf:1.5"),
    ("3520", "the Strait of Messina (narrows)", 15.6, 38.2, "M", "ldf:1.5"),
    ("3619", "the Strait of Otranto (narrows)", 19.0, 40.3, "M", "ldf:1.5"),
    ("4019", "the Hellespont (narrows)", 26.4, 40.2, "M", "ldf:1.5"),
    ("2812", "Eboracum and Deva (two legions)", -2.0, 53.6, "M", "ldf:3.2"),
    ("3515", "Vindobona and Carnuntum (two legions)", 16.6, 48.15, "M", "ldf:3.2"),
    ("3615", "Brigetio and Aquincum (two legions)", 18.6, 47.65, "M", "ldf:3.2"),
    ("4619", "Melitene and Satala (two legions)", 39.0, 39.2, "M", "ldf:3.2"),
    ("4719", "Resaina and Singara (two legions)", 41.0, 36.6, "M", "ldf:3.2"),
    ("3217", "Mediolanum (north-west edge of mainland Italy)", 9.19, 45.46, "M", "ldf:14.3"),
    ("3316", "Aquileia (north-east edge of mainland Italy)", 13.37, 45.77, "M", "ldf:14.3"),
]
TRIPOINT = ("Boiodurum (Passau), where the Inn meets the Danube", 13.45, 48.57)
"""Pinned to the corner shared by 3315, 3415 and 3416 (ldf:9.5), not to a hex centre."""
DACIA_BANK = ("Drobeta, Trajan's bridge over the Danube", 22.66, 44.63)
"""Pinned to the middle of the hexside 3816/3817: Dacia is a trans-river province (ldf:9.7),
so the Danube must run between it and the Moesian core hex below it."""

FIT_ANCHORS = 16
"""The first 16 anchors are the set of MISSING_DATA.md's fit; residuals are reported for all."""

NARROWS = ["2421", "2913", "3218", "3219", "3520", "3619", "4019", "4119"]
"""ldf:1.5, exactly as printed."""
DOUBLE_LEGIONS = {  # ldf:3.2: hex -> the two fortresses (M identifications)
    "2812": ("Eboracum", "Deva"), "3515": ("Vindobona", "Carnuntum"), "3615": ("Brigetio", "Aquincum"),
    "3816": ("Apulum", "Potaissa"), "4619": ("Melitene", "Satala"), "4719": ("Resaina", "Singara"),
}
FORCED = {  # place -> printed hex (the named anchors and the fixed-TP hexes)
    "Roma": "3318", "Ostia": "3318", "Augusta Treverorum": "3114", "Londinium": "2813",
    "Ulpia Traiana Sarmizegetusa": "3816", "Sumelocenna": "3215", "Palmyra": "4720", "Petra": "4623",
    "Ctesiphon": "5020", "Damascus": "4521", "Byzantium": "4119", "Nicomedia": "4119",
}
FIXED_TP = {"3318": 4, "4521": 2, "4119": 5, "4720": 2, "3816": 1, "3215": 1}
"""Hexes whose TP the text fixes (6.5, 9.1, 9.7, 13.10); no other place may fall in them."""
CAUCASUS = {  # hex -> (state, town): the six hexes of 9.6, chosen from the projection by hand
    "4716": ("colchis", "Dioscurias"), "4717": ("colchis", "Phasis"),
    "4817": ("iberia", "Mtskheta"), "4917": ("iberia", "Nekresi"),
    "4718": ("armenia", "Tigranocerta"), "4818": ("armenia", "Artaxata"),
}

FORCED_COASTAL = {"4623": ["mare rubrum"]}
"""Petra is coastal (on the Gulf of Aqaba): 12.6 needs its exception only if it is."""

S_COL, S_ROW = 2.0 / 3.0, 1.0 / math.sqrt(3.0)
"""Hex corner distance in column and row units (flat-top: columns 1.5 sides apart, rows sqrt 3)."""


# ---------------------------------------------------------------- grid


def hex_id(c: int, r: int) -> str:
    return f"{c:02d}{r:02d}"


def centre(h: str) -> tuple[float, float]:
    c, r = int(h[:2]), int(h[2:])
    return float(c), r + (0.5 if c % 2 else 0.0)


def all_hexes() -> list[str]:
    return [hex_id(c, r) for r in range(FIRST_ROW, LAST_ROW + 1) for c in range(FIRST_COLUMN, LAST_COLUMN + 1)]


def neighbours(h: str) -> list[str]:
    c, r = int(h[:2]), int(h[2:])
    lo = 0 if c % 2 else -1  # odd columns sit lower: their side neighbours are rows r and r + 1
    out = [(c, r - 1), (c, r + 1), (c - 1, r + lo), (c - 1, r + lo + 1), (c + 1, r + lo), (c + 1, r + lo + 1)]
    return [hex_id(a, b) for a, b in out if FIRST_COLUMN <= a <= LAST_COLUMN and FIRST_ROW <= b <= LAST_ROW]


# ---------------------------------------------------------------- fit and rubber sheet


def _solve3(m: list[list[float]], v: list[float]) -> list[float]:
    a = [row[:] + [x] for row, x in zip(m, v)]
    for i in range(3):
        p = max(range(i, 3), key=lambda k: abs(a[k][i]))
        a[i], a[p] = a[p], a[i]
        for k in range(3):
            if k != i:
                f = a[k][i] / a[i][i]
                a[k] = [x - f * y for x, y in zip(a[k], a[i])]
    return [a[i][3] / a[i][i] for i in range(3)]


def _features(lon: float, lat: float) -> list[float]:
    return [lon * math.cos(math.radians(lat)), lat, 1.0]


def fit() -> tuple[list[float], list[float]]:
    """Least-squares coefficients of column and straight row on (lon cos lat, lat, 1)."""
    rows = [(_features(lo, la), centre(h)) for h, _, lo, la, _, _ in ANCHORS[:FIT_ANCHORS]]
    out = []
    for k in range(2):
        m = [[sum(f[i] * f[j] for f, _ in rows) for j in range(3)] for i in range(3)]
        v = [sum(f[i] * t[k] for f, t in rows) for i in range(3)]
        out.append(_solve3(m, v))
    return out[0], out[1]


COL, ROW = fit()


def affine(lon: float, lat: float) -> tuple[float, float]:
    f = _features(lon, lat)
    return sum(a * b for a, b in zip(COL, f)), sum(a * b for a, b in zip(ROW, f))


def _controls() -> list[tuple[float, float, float, float]]:
    out = []
    for h, _, lo, la, _, _ in ANCHORS:
        x, y = affine(lo, la)
        cx, cy = centre(h)
        out.append((x, y, cx - x, cy - y))
    _, lo, la = TRIPOINT
    x, y = affine(lo, la)
    out.append((x, y, 33.0 + S_COL - x, 15.5 - y))
    _, lo, la = DACIA_BANK
    x, y = affine(lo, la)
    out.append((x, y, 38.0 - x, 16.5 - y))
    return out


CONTROLS = _controls()
LAND_SHARE = 0.3
"""A hex is land when this share of its sample points is (or when it holds a place or an anchor)."""
FADE = 1.0 / 9.0
"""Constant weight: residuals fade out beyond about three hexes from the anchors."""


def project(lon: float, lat: float) -> tuple[float, float]:
    """Map position (column, straight row) of a geographic point: fit plus rubber sheet."""
    x, y = affine(lon, lat)
    sw = FADE
    dx = dy = 0.0
    for ax, ay, rx, ry in CONTROLS:
        d2 = (x - ax) ** 2 + (y - ay) ** 2
        if d2 < 1e-12:
            return x + rx, y + ry
        w = 1.0 / d2
        sw += w
        dx += w * rx
        dy += w * ry
    return x + dx / sw, y + dy / sw


# ---------------------------------------------------------------- geometry


def _inside(p: tuple[float, float], poly: list[tuple[float, float]]) -> bool:
    return point_in_polygon(p[0], p[1], poly)


def _crosses(p1, p2, q1, q2) -> bool:
    def orient(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    return (orient(p1, p2, q1) > 0) != (orient(p1, p2, q2) > 0) and (orient(q1, q2, p1) > 0) != (orient(q1, q2, p2) > 0)


def _proj(points) -> list[tuple[float, float]]:
    return [project(lo, la) for lo, la in points]


WATER_P = {name: _proj(poly) for name, poly in geo.WATERS.items()}
ISLAND_P = {name: _proj(poly) for name, poly in geo.ISLANDS.items()}


def landmass(p: tuple[float, float]) -> str | None:
    """The island a point lies on, ``"mainland"``, or None for water."""
    for name, poly in ISLAND_P.items():
        if _inside(p, poly):
            return name
    if any(_inside(p, poly) for poly in WATER_P.values()):
        return None
    return "mainland"


def samples(h: str) -> list[tuple[float, float]]:
    cx, cy = centre(h)
    pts = [(cx, cy)]
    for k in range(6):
        a = math.radians(60 * k)
        for f in (0.45, 0.85):
            pts.append((cx + f * S_COL * math.cos(a), cy + f * S_ROW * math.sin(a)))
    return pts


def corners(h: str) -> list[tuple[float, float]]:
    cx, cy = centre(h)
    return [(cx + S_COL * math.cos(math.radians(60 * k)), cy + S_ROW * math.sin(math.radians(60 * k))) for k in range(6)]


def shared_edge(h: str, n: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two corners adjacent hexes ``h`` and ``n`` share."""
    near = [p for p in corners(h) if any(abs(p[0] - q[0]) + abs(p[1] - q[1]) < 1e-6 for q in corners(n))]
    return near[0], near[1]


def _dist2(h: str, x: float, y: float) -> float:
    """Squared distance from a hex centre to a map position, in hex radii."""
    cx, cy = centre(h)
    return ((cx - x) / S_COL) ** 2 + ((cy - y) / S_ROW) ** 2


def waters_at(p: tuple[float, float]) -> list[str]:
    return [n for n, poly in WATER_P.items() if _inside(p, poly)]


# ---------------------------------------------------------------- regions


def _poly(*parts) -> list[tuple[float, float]]:
    pts: list[tuple[float, float]] = []
    for part in parts:
        pts += list(part)
    return _proj(pts)


FRONTIER = geo.RHINE + geo.DANUBE[1:]
BARBARIA_P = _poly(FRONTIER, [(31.0, 44.0), (36.5, 44.0), (38.5, 44.3), (40.0, 43.7), (48.0, 43.0), (48.0, 64.0),
                              (4.1, 64.0)])
PARTHIA_P = _poly([(42.4, 37.8), (44.5, 37.6), (46.5, 38.6), (48.9, 38.4), (54.0, 36.85), (62.0, 37.0), (62.0, 22.0),
                   (51.6, 24.5), (49.6, 27.0), (48.5, 30.0), (47.0, 30.2), (45.4, 31.3), (44.3, 32.0), (43.0, 33.4),
                   (41.95, 34.1), (40.9, 34.4), (41.3, 35.2), (42.0, 36.0), (42.3, 36.9)])
EAST_P = _poly(geo.EASTERN_FRONTIER, [(35.0, 12.0), (120.0, 12.0), (120.0, 64.0), (48.0, 64.0), (48.0, 43.0),
                                      (40.0, 43.7), (41.6, 41.6)])
SAHARA_P = _poly(geo.SAHARA_LINE, [(29.0, 30.3), (30.2, 29.5), (30.4, 27.5), (31.3, 26.3), (32.3, 25.3), (32.5, 12.0),
                                   (-30.0, 12.0), (-30.0, 33.5)])
GALLIC_P = _poly(geo.RHINE, geo.DANUBE[1:4], geo.GALLIC_LINE[1:],
                 [(5.0, 41.5), (1.0, 38.0), (-2.0, 36.2), (-5.5, 35.95), (-30.0, 35.9), (-30.0, 64.0), (4.1, 64.0)])
ITALY_P = _poly(geo.ITALY_LINE, [(14.6, 44.0), (19.0, 41.0), (18.9, 39.5), (16.5, 37.5), (15.4, 38.4),
                                 (12.0, 38.5), (10.0, 41.0), (8.0, 43.3)])
def classify(p: tuple[float, float]) -> str:
    """Region of a mainland point: beyond the Rhine-Danube line, Parthia, the wastes, or the core."""
    if _inside(p, BARBARIA_P):
        return "barbaria"
    if _inside(p, PARTHIA_P):
        return "parthia"
    if _inside(p, EAST_P) or _inside(p, SAHARA_P):
        return "wastes"
    return "core"


WALL_Y = sum(project(lo, la)[1] for lo, la in geo.HADRIANS_WALL) / 2


# ---------------------------------------------------------------- the build


def build() -> dict:
    hexes = all_hexes()
    info: dict[str, dict] = {}
    for h in hexes:
        pts = samples(h)
        masses = [landmass(p) for p in pts]
        land_pts = [p for p, m in zip(pts, masses) if m]
        kinds = [m for m in masses if m]
        mass = max(sorted(set(kinds)), key=kinds.count) if kinds else None
        info[h] = {"frac": len(land_pts) / len(pts), "mass": mass, "land_pts": land_pts,
                   "waters": sorted({w for p, m in zip(pts, masses) if not m for w in waters_at(p)})}

    def hex_of(lon: float, lat: float) -> str:
        x, y = project(lon, lat)
        c = round(x)
        r = math.floor(y - (0.5 if c % 2 else 0.0) + 0.5)
        # pick the nearest centre among the candidate and its neighbours (hexes are not squares)
        cand = [hex_id(c, r)] + neighbours(hex_id(c, r)) if FIRST_COLUMN <= c <= LAST_COLUMN else []
        cand = [k for k in cand if k in info] or [hex_id(min(max(c, FIRST_COLUMN), LAST_COLUMN),
                                                         min(max(r, FIRST_ROW), LAST_ROW))]
        return min(cand, key=lambda k: _dist2(k, x, y))

    log: list[str] = []
    land = {h for h in hexes if info[h]["frac"] >= LAND_SHARE}
    forced_land = set(NARROWS) | {a[0] for a in ANCHORS} | set(CAUCASUS)

    # places into hexes
    place_hex: dict[str, str] = {}
    for name, lo, la, _ in geo.PLACES:
        if name in FORCED:
            place_hex[name] = FORCED[name]
            continue
        if name in {t for _, t in CAUCASUS.values()}:
            place_hex[name] = next(h for h, (_, t) in CAUCASUS.items() if t == name)
            continue
        h = hex_of(lo, la)
        if h in FIXED_TP or h in CAUCASUS:
            h2 = min((n for n in neighbours(h) if n not in FIXED_TP and n not in CAUCASUS and (n in land or info[n]["frac"] > 0)),
                     key=lambda n: (-info[n]["frac"], n))
            log.append(f"{name} projects into {h}, whose TP the text fixes; placed in {h2}")
            h = h2
        place_hex[name] = h
    for h in sorted(set(place_hex.values()) | forced_land):
        if h not in land:
            log.append(f"{h} is forced to land ({info[h]['frac']:.0%} land by the outlines)")
            land.add(h)

    # hexsides
    sides: dict[str, set[tuple[str, str]]] = {k: set() for k in list(geo.RIVERS) + ["sea"]}
    river_p = {k: _proj(v) for k, v in geo.RIVERS.items()}
    crossed: dict[tuple[str, str], set[str]] = {}
    for h in hexes:
        for n in neighbours(h):
            if n <= h or h not in land or n not in land:
                continue
            a, b = centre(h), centre(n)
            for k, line in river_p.items():
                if any(_crosses(a, b, p, q) for p, q in zip(line, line[1:])):
                    crossed.setdefault((h, n), set()).add(k)
            if h in NARROWS or n in NARROWS:
                continue
            v1, v2 = shared_edge(h, n)
            edge = [(v1[0] + t * (v2[0] - v1[0]), v1[1] + t * (v2[1] - v1[1])) for t in (0.1, 0.3, 0.5, 0.7, 0.9)]
            if sum(landmass(p) is None for p in edge) >= 3:
                sides["sea"].add((h, n))

    # regions
    def rep(h: str) -> tuple[float, float]:
        if landmass(centre(h)):
            return centre(h)
        pts = info[h]["land_pts"] or [centre(h)]
        return sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)

    regions: dict[str, set[str]] = {k: set() for k in (
        "core", "barbaria", "parthia", "caucasus", "colchis", "iberia", "armenia", "dacia", "germania-decumates",
        "trans-river", "palmyra", "gallic-empire", "italy", "mediterranean-islands", "wastes")}
    for h in sorted(land):
        p = rep(h)
        mass = info[h]["mass"] or "mainland"
        if h == "3816":
            regions["dacia"].add(h)
        elif h == "3215":
            regions["germania-decumates"].add(h)
        elif h == "4720":
            regions["palmyra"].add(h)
        elif h in CAUCASUS:
            regions["caucasus"].add(h)
            regions[CAUCASUS[h][0]].add(h)
        elif mass == "Hibernia":
            regions["wastes"].add(h)
        elif mass == "Britannia":
            regions["core" if p[1] > WALL_Y else "barbaria"].add(h)
        elif mass != "mainland":
            regions["core"].add(h)
            regions["mediterranean-islands"].add(h)
        else:
            regions[classify(p)].add(h)
    for h in regions["core"]:
        mass = info[h]["mass"] or "mainland"
        p = rep(h)
        if mass == "Britannia" or (mass == "mainland" and _inside(p, GALLIC_P)):
            regions["gallic-empire"].add(h)
        if mass == "mainland" and _inside(p, ITALY_P):
            regions["italy"].add(h)
    regions["trans-river"] = regions["dacia"] | regions["germania-decumates"]

    def relocate(what: str, h: str, lon: float, lat: float, taken: set[str]) -> str:
        """Keep a Roman place or fortress in the core: a projection that falls across the
        frontier (a river bend inside one hex) moves to the nearest core hex, logged."""
        if h in regions["core"] and h not in taken:
            return h
        x, y = project(lon, lat)
        near = {h} | set(neighbours(h))
        near |= {k for n in near for k in neighbours(n)}
        ring = sorted((n for n in near if n in regions["core"] and n not in taken),
                      key=lambda n: (_dist2(n, x, y), n))
        reason = "is not core territory" if h not in regions["core"] else "has a legion"
        log.append(f"{what} projects into {h}, which {reason}; placed in {ring[0]}")
        return ring[0]

    for name, lo, la, _ in geo.PLACES:
        h = place_hex[name]
        if name in FORCED or h in CAUCASUS or classify(project(lo, la)) == "parthia" or h in regions["core"]:
            continue
        place_hex[name] = relocate(name, h, lo, la, set(FIXED_TP))

    # legions
    legions: dict[str, int] = {h: 2 for h in DOUBLE_LEGIONS}
    paired = {f for pair in DOUBLE_LEGIONS.values() for f in pair}
    legion_hex: dict[str, str] = {}
    for h, pair in DOUBLE_LEGIONS.items():
        for f in pair:
            legion_hex[f] = h
    for name, f, lo, la in geo.LEGIONS:
        if f in paired:
            continue
        h = relocate(f"{name} ({f})", hex_of(lo, la), lo, la, set(legions))
        legions[h] = 1
        legion_hex[f] = h


    # Rhine and Danube: crossed hexsides between the core and the lands beyond it (the frontier,
    # ldf:11.1, 13.8); the other rivers: every crossed hexside (no rule effect).
    beyond = regions["barbaria"] | regions["trans-river"]
    for pair, rivers in crossed.items():
        for k in rivers:
            if k in ("rhine", "danube"):
                a, b = pair
                if not ((a in beyond and b in regions["core"]) or (b in beyond and a in regions["core"])):
                    continue
            sides[k].add(pair)

    # population centres, TP, coasts
    centres: dict[str, list[str]] = {}
    names: dict[str, list[str]] = {}
    order = {"town": 0, "city": 1, "metropolis": 2}
    for name, lo, la, cs in geo.PLACES:
        h = place_hex[name]
        centres.setdefault(h, []).extend(cs)
        names.setdefault(h, []).append(name)
    for h in centres:
        centres[h].sort(key=order.__getitem__)
    sea_hexes = set(hexes) - land
    coastal = {}
    for h in centres:
        touching = set(info[h]["waters"])
        for n in neighbours(h):
            if n in sea_hexes:
                touching |= set(info[n]["waters"])
        if any(n in sea_hexes for n in neighbours(h)) or any(h in s for s in sides["sea"]):
            if touching:
                coastal[h] = sorted(touching)

    for h, waters in FORCED_COASTAL.items():
        coastal[h] = sorted(set(coastal.get(h, [])) | set(waters))

    return {"land": land, "sides": sides, "regions": regions, "centres": centres, "names": names,
            "legions": legions, "coastal": coastal, "place_hex": place_hex, "legion_hex": legion_hex,
            "info": info, "log": log}


TP = {"town": 1, "city": 2, "metropolis": 3}


def residuals() -> list[tuple[str, str, float, float]]:
    out = []
    for h, what, lo, la, _, _ in ANCHORS:
        x, y = affine(lo, la)
        cx, cy = centre(h)
        out.append((h, what, x - cx, y - cy))
    return out


def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _list(items) -> str:
    return "[" + ", ".join(_q(i) if isinstance(i, str) else str(i) for i in items) + "]"


def render(m: dict) -> str:
    res = residuals()
    fit_res = res[:FIT_ANCHORS]
    rms_c = math.sqrt(sum(r[2] ** 2 for r in fit_res) / len(fit_res))
    rms_r = math.sqrt(sum(r[3] ** 2 for r in fit_res) / len(fit_res))
    worst = max(res, key=lambda r: abs(r[3]))
    printed = "; ".join(f"{h} {what} [{conf}: {rules}]" for h, what, _, _, conf, rules in ANCHORS)
    note = (
        "The mapsheet is not in our text (ldf:2.1); this map is rebuilt from geography by "
        "games/ldf/tools/build_map.py (docs/games/ldf-map.md). PRINTED (H): the hex numbers "
        "3318 Rome/Ostia (ldf:3.2, 6.5), 3114 Trier and 2813 Londinium (9.5), 3816 Dacia and 3215 "
        "Germania Decumates (6.1, 9.7), 4720 Palmyra (3.2, 9.1), 4623 Petra (12.6), 5020 Ctesiphon (2.6, "
        "7.3), 4521 and 4119 with garrisons 2 and 5 (13.10), the narrows 2421 2913 3218 3219 3520 3619 "
        "4019 4119 (1.5), the double-legion hexes 2812 3515 3615 3816 4619 4719 (3.2), the corner of "
        "3315, 3415 and 3416 (9.5), 3217 and 3316 as mainland Italy's northern edge (14.3), and the "
        "parity those fix (odd columns half a hex lower). The fixed TP: Rome/Ostia 4 (6.5), 4521 2, 4119 5 "
        "(13.10), Palmyra 2 (9.1), Dacia and Germania Decumates 1 each (9.7), each Caucasus hex 1 (9.6). "
        "IDENTIFIED (M): what the numbered hexes are (the straits, Damascus, the Bosporus, the legion "
        "pairs, Mediolanum and Aquileia): anchors " + printed + ". RECONSTRUCTED (L): everything else, "
        f"by a least-squares fit of {FIT_ANCHORS} anchors (rms {rms_c:.2f} columns, {rms_r:.2f} rows; "
        f"worst row error {worst[3]:+.2f} at {worst[0]}) spread as a rubber sheet so that every anchor "
        "lands on its printed hex; coasts, rivers, frontiers and places from games/ldf/tools/geo.py; "
        "population-centre sizes other than the fixed ones are proposals (town 1, city 2, metropolis 3 "
        "TP, ldf:6.5); the Caucasus hexes and their states were chosen by hand from the projection; "
        "the seven Parthian centre hexes follow from the counter count (176 pieces, 2N + P = 73 with "
        "N = 33 legions). Region 'wastes' is land the rules name no region for (Sahara, Arabia, Ireland, "
        "the far east): no rule gives it an effect."
    )
    out: list[str] = []
    w = out.append
    w("# Generated by games/ldf/tools/build_map.py -- edit the generator, not this file.")
    w("[meta]")
    w('id = "ldf.map"')
    w('source = "reconstructed"')
    w('title = "Map: the Mediterranean world, AD 235"')
    w('rules = ["ldf:1.4", "ldf:1.5", "ldf:2.1", "ldf:3.2", "ldf:3.3", "ldf:6.5", "ldf:9.5", "ldf:9.6", "ldf:9.7", '
      '"ldf:11.1", "ldf:12.5", "ldf:12.6", "ldf:12.7", "ldf:13.8", "ldf:13.10"]')
    w(f"note = {_q(note)}")
    w('sources = ["Barrington Atlas of the Greek and Roman World (Talbert ed., 2000)", '
      '"Pleiades gazetteer of ancient places, https://pleiades.stoa.org", '
      '"J. B. Campbell, The Roman Army 31 BC - AD 337 (1994): legion fortresses", '
      '"Cassius Dio 55.23-24: the legion list"]')
    w("")
    w("[grid]")
    w('orientation = "flat"')
    w('shifted = "odd"')
    w(f"columns = {LAST_COLUMN - FIRST_COLUMN + 1}")
    w(f"rows = {LAST_ROW - FIRST_ROW + 1}")
    w(f"first_column = {FIRST_COLUMN}")
    w(f"first_row = {FIRST_ROW}")
    w("")
    w("[terrain]")
    w('default = "land"')
    w('legend = { "." = "land", "~" = "sea" }')
    w("rows = [")
    for r in range(FIRST_ROW, LAST_ROW + 1):
        w("  " + _q("".join("." if hex_id(c, r) in m["land"] else "~" for c in range(FIRST_COLUMN, LAST_COLUMN + 1))) + ",")
    w("]")
    for k, pairs in m["sides"].items():
        if not pairs:
            continue
        w("")
        w("[[hexsides]]")
        w(f'feature = "{k}"')
        w("between = [")
        items = [f"[{_q(a)}, {_q(b)}]" for a, b in sorted(pairs)]
        for i in range(0, len(items), 8):
            w("  " + ", ".join(items[i:i + 8]) + ",")
        w("]")
    w("")
    w("[regions]")
    for k, hs in m["regions"].items():
        w(f'"{k}" = {_list(sorted(hs))}')
    w("")
    w("[places]")
    for name in sorted(m["place_hex"]):
        w(f"{_q(name)} = {_q(m['place_hex'][name])}")
    for h, what, *_ in ANCHORS:
        if h in NARROWS and h != "4119":
            w(f"{_q(what.split(' (')[0].replace('the ', '', 1).title())} = {_q(h)}")
    w("")
    w("[hexkeys.centres]")
    w('type = "list"')
    w('of = "text"')
    w('choices = ["town", "city", "metropolis"]')
    w('rules = ["ldf:1.4", "ldf:6.5"]')
    w('note = "Population centres in the hex, smallest first: town 1 TP, city 2, metropolis 3 (ldf:6.5); '
      'several may share a hex (ldf:1.4)."')
    w("")
    w("[hexkeys.names]")
    w('type = "list"')
    w('of = "text"')
    w('requires = ["centres"]')
    w('note = "The ancient names of the centres in the hex, in the generator\'s order (not the size order)."')
    w("")
    w("[hexkeys.legions]")
    w('type = "int"')
    w("min = 1")
    w("max = 2")
    w('rules = ["ldf:3.2"]')
    w('note = "Legion symbols printed in the hex: one legion base and one infantry vexillation each at set-up."')
    w("")
    w("[hexkeys.narrows]")
    w('type = "flag"')
    w('rules = ["ldf:1.5", "ldf:12.5"]')
    w('note = "Only Roman units may enter; the strait inside is bridged."')
    w(f"hexes = {_list(NARROWS)}")
    w("")
    w("[hexkeys.coastal]")
    w('type = "flag"')
    w('requires = ["centres"]')
    w('rules = ["ldf:12.6"]')
    w('note = "Coastal population centre: Roman sea movement starts and ends here (never at Petra 4623)."')
    w(f"hexes = {_list(sorted(m['coastal']))}")
    w("")
    w("[hexkeys.waters]")
    w('type = "list"')
    w('of = "text"')
    w(f"choices = {_list(list(geo.WATERS))}")
    w('requires = ["coastal"]')
    w('rules = ["ldf:12.6"]')
    w('note = "The waters a coastal centre touches; 12.6 names none, so the rules decide whether they matter."')
    for h in sorted(set(m["centres"]) | set(m["legions"])):
        w("")
        w(f'[hexdata."{h}"]')
        if h in m["centres"]:
            w(f"centres = {_list(m['centres'][h])}")
            w(f"names = {_list(m['names'][h])}")
        if h in m["legions"]:
            w(f"legions = {m['legions'][h]}")
        if h in m["coastal"]:
            w(f"waters = {_list(m['coastal'][h])}")
    return "\n".join(out) + "\n"


def report(m: dict) -> str:
    lines = ["anchor residuals of the fit (columns, rows; + = the fit lies right / below):"]
    for h, what, dc, dr in residuals():
        lines.append(f"  {h} {dc:+.2f} {dr:+.2f}  {what}")
    lines.append("hand-check log:")
    lines += ["  " + x for x in m["log"]]
    lines.append("regions: " + ", ".join(f"{k} {len(v)}" for k, v in m["regions"].items()))
    lines.append(f"land {len(m['land'])}, legions {sum(m['legions'].values())} in {len(m['legions'])} hexes, "
                 f"centre hexes {len(m['centres'])}")
    core_tp = sum(TP[c] for h in m["regions"]["core"] for c in m["centres"].get(h, []))
    lines.append(f"core TP {core_tp}; parthian centre hexes "
                 f"{sorted(h for h in m['centres'] if h in m['regions']['parthia'])}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    m = build()
    if "--report" in argv:
        print(report(m))
        return 0
    OUT.write_text(render(m), encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
