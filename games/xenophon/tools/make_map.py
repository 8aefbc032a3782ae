"""Generate games/xenophon/data/map.toml: the reconstructed Xenophon map.

Run from the repository root: ``.venv/bin/python games/xenophon/tools/make_map.py``;
``--check`` compares instead of writing (exit 1 if the file differs).
No network: every coordinate is data in this file, with its source.

How it works (see docs/games/xenophon-map.md):

* Numbering (xen:errata fixes Taxila at 2443 and land hexes 2808, 2243): flat
  hexes, 40 columns x 50 rows, IDs CCRR, odd columns half a hex lower. Column
  numbers run south to north and row numbers west to east (the sheet is read
  with north to the right). A hex centre is an equirectangular projection of
  latitude/longitude: column 24 = 33.75 N (Taxila), 0.905 degree a column; row
  43 = 72.8 E (Taxila), 1.29 degree a row. That is about 115-120 km a hex, not
  the printed 80 km: at 80 km Greece and Taxila cannot both fit a row or column
  number below 44 (the arithmetic is in the map page).
* Sea: hand-drawn coastline polygons (lon, lat) of the seas; islands the rules
  name (xen:components) are forced to land.
* Terrain: rough within a radius of mountain-range polylines, passes at the
  historical passes, desert inside desert polygons, river valleys cleared.
* Rivers, lakes, straits, roads: hexsides nearest to polylines sampled densely.
* Satrapies: each land hex joins the satrapy of its nearest seed (cities and
  extra seeds of that satrapy); island hexes go to the satrapy the text names;
  fragments cut off by water are handed to the neighbour with the longest
  common border.
* Forage Value (xen:supply): by terrain and city kind (desert 0).
"""

from __future__ import annotations

import math
import sys
from collections import defaultdict
from pathlib import Path

from ancients_kit.geometry import point_in_polygon

COLUMNS, ROWS = 40, 50
C0, LAT0, DLAT = 24, 33.75, 0.905   # Taxila 2443 (xen:errata)
R0, LON0, DLON = 43, 72.8, 1.29
SQ3 = math.sqrt(3) / 2

OUT = Path(__file__).resolve().parents[1] / "data" / "map.toml"

# ---------------------------------------------------------------------------
# Geography (lon, lat). Sources: coastlines, rivers and ranges drawn from
# memory of standard atlases (Times Atlas of World History; Barrington Atlas
# of the Greek and Roman World, maps 1-6 and 89-99 for Achaemenid sites);
# city positions are the modern coordinates of the ancient sites (Pleiades
# gazetteer values, rounded to 0.1 degree or better).

SEAS: dict[str, list[tuple[float, float]]] = {
    "Mediterranean": [
        (16.0, 30.0), (19.0, 30.3), (20.0, 31.0), (20.1, 32.1), (21.5, 32.9), (23.0, 32.6), (24.5, 31.9),
        (25.2, 31.6), (27.2, 31.3), (29.9, 31.2), (31.0, 31.6), (32.3, 31.2), (34.2, 31.3), (34.8, 32.1),
        (35.0, 33.0), (35.5, 33.9), (35.8, 34.9), (35.8, 35.8), (36.0, 36.6), (35.8, 36.8), (34.6, 36.8),
        (33.7, 36.2), (32.5, 36.1), (31.0, 36.8), (30.5, 36.3), (29.3, 36.3), (28.1, 36.7), (27.4, 36.9),
        (27.1, 37.5), (26.8, 38.3), (26.6, 39.0), (26.1, 39.5), (26.1, 40.0), (26.0, 40.5), (25.0, 40.9),
        (24.0, 40.8), (23.6, 40.4), (22.9, 40.5), (22.6, 40.0), (22.9, 39.3), (23.4, 38.9), (24.1, 38.3),
        (23.9, 37.7), (23.3, 37.9), (23.0, 37.4), (23.1, 36.5), (22.5, 36.4), (22.4, 36.8), (21.7, 36.8),
        (21.3, 37.6), (21.1, 38.3), (20.7, 38.9), (20.2, 39.6), (19.5, 40.4), (19.4, 41.3), (19.0, 42.0),
        (16.0, 42.5),
    ],
    "Black Sea": [
        (29.1, 41.2), (28.0, 41.6), (27.9, 42.6), (28.0, 43.2), (28.6, 43.8), (28.8, 44.6), (29.6, 45.2),
        (30.7, 46.5), (31.9, 46.6), (32.5, 46.0), (33.0, 45.9), (32.5, 45.4), (33.5, 44.6), (34.5, 44.4),
        (35.4, 44.9), (36.5, 45.0), (37.5, 44.6), (38.0, 44.4), (39.0, 44.0), (40.0, 43.4), (41.0, 42.7),
        (41.7, 42.0), (41.6, 41.6), (40.5, 41.0), (39.7, 41.0), (38.4, 40.9), (37.0, 41.2), (36.3, 41.6),
        (35.2, 42.0), (34.0, 42.0), (32.3, 41.7), (31.4, 41.3), (30.2, 41.2),
    ],
    "Maeotis": [
        (35.4, 45.3), (35.0, 45.9), (35.5, 46.5), (36.8, 46.7), (38.3, 47.1), (39.2, 47.2), (38.5, 46.6),
        (38.0, 46.1), (37.6, 45.7), (36.8, 45.4),
    ],
    "Caspian": [
        (47.5, 45.6), (48.2, 46.5), (49.5, 46.6), (51.0, 47.0), (53.0, 46.8), (53.0, 45.5), (51.4, 45.2),
        (51.0, 44.5), (51.5, 43.6), (52.7, 42.6), (52.8, 41.4), (53.0, 40.4), (53.5, 39.9), (53.2, 39.4),
        (53.9, 38.9), (54.0, 37.6), (53.9, 36.9), (52.6, 36.7), (51.5, 36.8), (50.3, 37.2), (49.5, 37.5),
        (48.9, 38.3), (49.0, 39.0), (49.4, 39.7), (49.5, 40.2), (49.0, 41.0), (48.4, 41.8), (47.6, 42.8),
        (47.3, 43.6), (47.5, 44.5),
    ],
    "Aral": [(59.0, 46.0), (61.0, 46.5), (61.7, 45.5), (60.0, 43.6), (58.5, 43.8), (58.2, 45.0)],
    "Red Sea": [
        (32.5, 30.0), (33.0, 28.6), (34.0, 26.7), (35.5, 24.0), (37.3, 21.0), (38.5, 18.0), (39.8, 15.0),
        (42.0, 12.0), (43.3, 12.0), (42.8, 15.5), (41.0, 19.0), (39.2, 21.5), (38.0, 24.0), (36.5, 26.0),
        (35.0, 27.8), (34.2, 27.7), (33.5, 28.5),
    ],
    "Erythraean Sea": [
        (48.0, 30.0), (48.8, 30.2), (50.1, 30.0), (50.7, 29.2), (51.5, 27.9), (52.6, 27.3), (54.5, 26.6),
        (56.2, 27.1), (57.3, 25.8), (59.0, 25.4), (61.5, 25.2), (63.5, 25.3), (65.5, 25.4), (66.6, 25.0),
        (67.3, 24.6), (67.5, 23.8), (68.5, 23.0), (69.5, 22.5), (70.2, 21.0), (72.6, 21.2), (72.8, 20.0),
        (73.0, 18.0), (73.5, 16.0), (74.0, 14.5), (74.5, 12.0), (74.5, 8.0), (43.5, 8.0), (43.5, 12.5),
        (45.0, 12.8), (48.0, 14.0), (52.0, 15.6), (55.0, 17.0), (57.0, 18.9), (58.5, 20.5), (59.8, 22.5),
        (58.6, 23.6), (57.0, 24.0), (56.4, 24.9), (56.3, 26.3), (55.5, 25.5), (54.0, 24.2), (52.0, 24.0),
        (51.6, 25.0), (51.2, 26.1), (50.1, 26.5), (49.5, 27.2), (48.5, 28.4), (48.0, 29.3),
    ],
}

# Islands the text assigns (xen:components): land whatever the sea polygon says.
ISLANDS: dict[str, tuple[str, list[tuple[float, float]]]] = {
    "Cyprus": ("Cilicia", [(33.0, 35.0), (34.0, 35.2), (32.6, 34.9)]),
    "Rhodes": ("Ionia", [(28.0, 36.2)]),
    "Crete": ("Ionia", [(24.0, 35.3), (25.3, 35.2), (23.6, 35.4)]),
    "Aegean": ("Ionia", [(26.3, 39.2), (26.0, 38.4), (24.9, 37.85), (25.4, 36.4), (25.3, 39.9)]),  # Lesbos, Chios, Andros, Thera, Lemnos
}
CRIMEA = ("Colchis", (32.4, 44.3, 36.7, 46.0))  # Colchis includes the Crimea (xen:components): lon/lat box

MOUNTAINS: list[tuple[str, float, list[tuple[float, float]]]] = [  # name, radius km, ridge line
    ("Taurus", 70, [(29.5, 37.2), (31.5, 37.3), (33.0, 37.0), (34.8, 37.3), (36.5, 37.6), (38.5, 38.0), (40.5, 38.5)]),
    ("Pontic", 55, [(33.0, 41.0), (36.0, 40.8), (39.0, 40.5), (42.0, 40.8)]),
    ("Zagros", 90, [(44.5, 37.5), (45.5, 35.5), (47.0, 34.0), (49.0, 32.0), (51.0, 30.0), (53.0, 28.5), (55.5, 28.0)]),
    ("Caucasus", 70, [(37.5, 44.0), (40.0, 43.3), (42.5, 42.8), (44.5, 42.5), (46.5, 41.7), (48.5, 41.3)]),
    ("Armenian highland", 90, [(40.5, 39.5), (42.5, 39.5), (44.5, 39.0)]),
    ("Elburz and Kopet Dag", 60, [(47.5, 38.0), (49.5, 36.6), (51.5, 36.0), (53.5, 36.3), (56.0, 37.2), (58.0, 37.5), (60.0, 36.5)]),
    ("Hindu Kush", 90, [(62.0, 34.5), (65.0, 34.8), (68.0, 35.2), (70.5, 35.8), (72.0, 36.2)]),
    ("Pamir and Himalaya", 90, [(70.0, 38.5), (73.0, 38.5), (74.5, 37.0), (76.5, 34.5), (78.0, 32.0), (79.5, 30.5), (81.5, 29.5)]),
    ("Sulaiman", 60, [(70.0, 32.5), (69.5, 30.5), (68.0, 28.5)]),
    ("Pindus", 50, [(20.5, 40.5), (21.3, 39.5), (22.0, 38.6)]),
    ("Haemus", 50, [(22.5, 43.0), (25.0, 42.8), (27.0, 42.7)]),
    ("Rhodope", 40, [(24.0, 41.6), (25.5, 41.4)]),
    ("Lebanon", 30, [(35.9, 33.8), (36.3, 34.5)]),
    ("Makran", 60, [(58.0, 26.5), (62.0, 26.5), (65.0, 26.8)]),
    ("Hejaz", 60, [(38.5, 24.0), (40.0, 21.0), (42.5, 17.0)]),
    ("Tian Shan", 80, [(70.0, 41.5), (74.0, 42.0), (78.0, 42.5)]),
]

PASSES: dict[str, tuple[float, float]] = {  # xen:movement "Pass hex"
    "Thermopylai": (22.5, 38.8), "Cilician Gates": (34.8, 37.3), "Syrian Gates": (36.2, 36.5),
    "Zagros Gates": (46.0, 34.5), "Persian Gates": (51.9, 30.2), "Caspian Gates": (52.5, 35.5),
    "Khyber": (70.9, 34.1), "Darial": (44.6, 42.7),
}

DESERTS: dict[str, list[tuple[float, float]]] = {
    "Libyan": [(16.0, 30.0), (19.0, 30.3), (22.0, 31.3), (26.0, 31.0), (29.5, 30.6), (30.8, 29.2), (31.0, 27.5),
               (32.2, 24.0), (32.5, 12.0), (16.0, 12.0)],
    "Eastern Egyptian": [(32.6, 29.5), (32.8, 27.0), (33.5, 25.0), (35.5, 23.0), (37.3, 19.0), (34.0, 12.0),
                         (32.6, 12.0), (32.6, 24.0), (31.9, 28.0)],
    "Arabian and Syrian": [(34.3, 30.5), (35.3, 31.2), (36.5, 33.2), (38.0, 35.3), (40.5, 35.2), (42.5, 33.8),
                           (44.0, 32.3), (46.5, 30.2), (48.0, 29.0), (50.0, 26.0), (55.0, 22.0), (56.5, 20.0),
                           (52.0, 17.0), (45.0, 16.0), (43.0, 17.0), (40.5, 21.0), (38.8, 24.0), (36.8, 26.5),
                           (35.0, 28.5)],
    "Kavir and Lut": [(51.5, 35.0), (54.0, 35.6), (56.5, 35.3), (58.5, 34.0), (60.0, 31.5), (59.0, 29.0),
                      (57.5, 29.5), (56.0, 31.5), (54.0, 33.0), (52.0, 33.8)],
    "Gedrosian": [(58.5, 28.5), (61.5, 30.5), (64.5, 31.0), (66.5, 30.5), (66.0, 27.0), (64.5, 26.0), (59.5, 26.0)],
    "Karakum": [(54.0, 39.5), (55.5, 41.5), (58.5, 42.0), (61.0, 40.5), (62.5, 38.8), (61.0, 37.8), (58.0, 38.3),
                (55.5, 38.6)],
    "Kyzylkum": [(61.5, 41.5), (62.0, 44.0), (64.5, 44.5), (66.5, 43.0), (66.0, 41.0), (64.0, 40.3)],
    "Thar": [(69.8, 28.5), (72.5, 29.8), (74.5, 29.0), (74.0, 26.0), (71.5, 24.7), (69.5, 25.5)],
}

RIVERS: dict[str, list[tuple[float, float]]] = {
    "Nile": [(32.9, 24.1), (32.6, 25.7), (32.7, 26.2), (31.2, 27.2), (30.7, 28.1), (31.25, 29.85), (31.2, 30.2), (30.4, 31.4)],
    "Euphrates": [(41.3, 39.9), (39.5, 39.0), (38.5, 38.0), (38.0, 37.0), (38.2, 36.0), (40.1, 35.0), (41.0, 34.4),
                  (42.0, 34.0), (43.3, 33.4), (44.4, 32.5), (45.5, 31.6), (46.5, 31.0), (47.5, 30.8), (48.0, 30.0)],
    "Tigris": [(40.2, 37.9), (42.2, 37.3), (43.1, 36.3), (43.7, 34.6), (44.5, 33.3), (45.8, 32.5), (47.4, 31.0), (47.5, 30.8)],
    "Halys": [(37.0, 39.8), (35.5, 39.0), (34.0, 39.5), (34.8, 40.7), (35.9, 41.7)],
    "Oxus": [(71.5, 37.0), (69.0, 37.2), (67.3, 37.2), (65.2, 37.8), (63.5, 39.1), (61.0, 41.5), (59.5, 43.0), (59.5, 44.0)],
    "Jaxartes": [(71.0, 41.0), (69.3, 40.3), (68.8, 40.7), (67.8, 42.3), (66.0, 44.0), (65.5, 44.8), (61.5, 46.0)],
    "Indus": [(74.0, 35.5), (72.25, 33.9), (71.5, 32.5), (71.0, 31.0), (70.5, 29.0), (68.8, 27.7), (68.2, 26.0), (68.0, 25.0), (67.6, 24.2)],
    "Jumna": [(77.5, 30.5), (77.2, 28.6), (77.7, 27.5), (79.0, 26.8), (81.8, 25.4)],
    "Ganges": [(78.0, 29.9), (79.5, 27.5), (81.9, 25.4)],
    "Ister": [(19.0, 44.8), (22.4, 44.6), (24.0, 43.7), (26.0, 43.9), (28.0, 44.1), (28.2, 45.4), (29.6, 45.2)],
    "Etymandros": [(67.0, 33.8), (64.4, 31.6), (62.0, 31.0)],
}
LAKES: dict[str, list[tuple[float, float]]] = {  # a line across the lake: its hexsides cost the lake's +2
    "Lake Van": [(42.6, 38.6), (43.3, 38.6)], "Lake Matiane": [(45.2, 37.4), (45.8, 38.0)],
}
STRAITS: dict[str, tuple[tuple[float, float], tuple[float, float]]] = {  # (European side, Asian side) crossing arrows
    "Bosporus": ((28.6, 41.3), (29.8, 40.9)), "Hellespont": ((26.3, 40.6), (26.9, 40.0)),
    # The Kimmerian Bosporus (Kerch) is a sea hex at this scale: no crossing arrow.
}
ROADS: dict[str, list[tuple[float, float]]] = {  # Herodotus 5.52-54 (Royal Road) and the eastern trunk roads
    "Royal Road": [(28.04, 38.49), (30.17, 38.08), (32.0, 39.2), (34.8, 39.2), (36.2, 38.2), (38.3, 38.35),
                   (40.2, 37.9), (42.2, 37.3), (44.0, 36.2), (45.2, 34.4), (47.0, 33.0), (48.25, 32.19)],
    "Susa to Persepolis": [(48.25, 32.19), (49.8, 31.2), (51.5, 30.5), (52.89, 29.93)],
    "Babylon to Ekbatana": [(44.42, 32.54), (45.3, 33.8), (46.8, 34.4), (48.5, 34.8)],
    "Khorasan road": [(48.5, 34.8), (50.0, 35.2), (51.45, 35.6), (52.5, 35.5), (54.4, 36.1), (56.5, 36.5),
                      (58.2, 37.95), (60.0, 37.5), (61.83, 37.6), (64.5, 37.0), (66.9, 36.76)],
    "Bactra to Taxila": [(66.9, 36.76), (68.5, 35.8), (69.2, 34.5), (71.2, 34.1), (71.75, 34.15), (72.8, 33.75)],
    "Syrian road": [(34.9, 36.92), (36.2, 36.5), (37.1, 36.2), (38.2, 36.0), (40.1, 35.0), (42.0, 34.0), (44.42, 32.54)],
}

# Satrapies (xen:control): name -> (initial control, cities [(name, kind, lon, lat, port)], extra seeds).
# Cities: 3 capitals and 7 Treasury Cities are printed (xen:components); the 44 ordinary ones are chosen
# from the major Achaemenid-era sites, at most one per hex and never more than the satrapy's set-up units.
# Halikarnassos and Miletos are nudged west one hex each: their true sites fall in 2808, whose printed city
# symbol the errata tells us to ignore.
E, R, N = "Empire", "Rebel", "Neutral"
SATRAPIES: dict[str, tuple[str, list[tuple[str, str, float, float, bool]], list[tuple[float, float]]]] = {
    "Sparta": (R, [("Sparta", "city", 22.43, 37.08, False)], [(21.9, 37.4)]),
    "Athens": (N, [("Athens", "treasury", 23.73, 37.98, True)], []),
    "Thessaly": (N, [("Larisa", "city", 22.42, 39.64, False)], []),
    "Macedon": (N, [("Pella", "city", 22.52, 40.76, True)], [(21.5, 40.8), (23.5, 41.3)]),
    "Illyria": (N, [("Epidamnos", "city", 19.45, 41.32, True)], [(20.0, 42.5), (19.9, 40.3), (21.0, 43.0), (19.5, 44.0)]),
    "Thrace": (N, [("Byzantion", "treasury", 28.98, 41.01, True), ("Abdera", "city", 24.98, 40.95, True)],
               [(27.6, 41.1), (27.0, 41.6), (26.5, 42.0), (24.0, 42.5), (26.5, 43.5), (22.8, 44.3)]),
    "Scythia": (N, [("Olbia", "city", 31.9, 46.7, True)],
                [(28.5, 47.0), (34.0, 47.5), (37.5, 48.0), (25.5, 45.5), (30.0, 48.2), (41.0, 47.5), (45.0, 46.0)]),
    "Colchis": (N, [("Phasis", "city", 41.67, 42.15, True)], [(43.0, 42.3), (39.5, 43.9)]),
    "Tibarene": (R, [("Trapezous", "city", 39.72, 41.0, True), ("Sinope", "city", 35.15, 42.02, True)], [(37.5, 40.6)]),
    "Phrygia": (R, [("Gordion", "city", 31.99, 39.65, False), ("Kelainai", "city", 30.17, 38.08, False), ("Daskyleion", "city", 28.0, 40.1, True)],
                [(28.8, 40.3), (29.9, 40.8), (33.0, 40.7), (33.5, 38.8)]),
    "Lydia": (R, [("Sardis", "treasury", 28.04, 38.49, False)], [(29.0, 38.9), (28.5, 39.6)]),
    "Ionia": (R, [("Halikarnassos", "treasury", 27.0, 36.6, True), ("Miletos", "city", 26.6, 37.4, True),
                  ("Ephesos", "city", 27.34, 38.3, True)], [(27.2, 39.3)]),
    "Cilicia": (R, [("Tarsos", "city", 34.9, 36.92, True), ("Salamis", "city", 33.9, 35.18, True)], [(33.3, 36.6)]),
    "Syria": (E, [("Tyre", "treasury", 35.2, 33.27, True), ("Damaskos", "city", 36.3, 33.51, False)],
              [(36.8, 35.5), (35.2, 31.6), (37.9, 36.3), (35.8, 30.5)]),
    "Arabia": (N, [("Dumat", "city", 39.87, 29.81, False)],
               [(41.0, 26.0), (44.0, 22.0), (47.0, 20.0), (50.0, 18.0), (53.0, 21.0), (38.5, 25.0), (44.0, 17.0), (42.5, 28.5)]),
    "Egypt": (R, [("Memphis", "treasury", 31.25, 29.85, False), ("Naukratis", "city", 30.4, 30.9, True),
                  ("Pelusion", "city", 32.55, 31.04, True), ("Thebai", "city", 32.65, 25.7, False)], [(32.6, 25.7), (32.9, 23.5), (33.8, 29.8), (30.8, 28.0), (32.5, 20.0)]),
    "Libya": (R, [("Kyrene", "city", 21.86, 32.82, True), ("Barka", "city", 20.7, 32.2, False)],
              [(24.0, 31.5), (22.0, 29.0), (25.5, 29.2), (20.0, 25.0), (27.0, 25.0)]),
    "Assyria-Babylonia": (E, [("Babylon", "city", 44.42, 32.54, False), ("Arbela", "city", 44.01, 36.19, False), ("Opis", "city", 44.5, 33.9, False)],
                          [(42.0, 36.8), (40.3, 35.6), (46.3, 31.0), (43.0, 34.0), (45.0, 33.8)]),
    "Armenia": (E, [("Tushpa", "city", 43.3, 38.5, False), ("Melitene", "city", 38.3, 38.35, False)], [(41.3, 39.5), (40.0, 39.5), (41.5, 38.4)]),
    "Alarodia": (E, [("Erebuni", "city", 44.5, 40.15, False)], [(46.5, 41.0), (45.5, 40.8), (47.5, 40.0), (43.3, 41.2)]),
    "Media": (E, [("Ekbatana", "capital", 48.5, 34.8, False), ("Rhagai", "city", 51.45, 35.6, False)],
              [(47.0, 36.5), (46.0, 38.0), (50.0, 36.3), (48.0, 38.6), (50.0, 33.5)]),
    "Elam": (E, [("Susa", "capital", 48.25, 32.19, False)], [(49.5, 31.0), (48.9, 30.4)]),
    "Persis": (E, [("Persepolis", "capital", 52.89, 29.93, False), ("Pasargadai", "city", 53.17, 30.8, False)],
               [(51.5, 29.0), (54.5, 28.5), (57.0, 29.5), (56.5, 27.5), (55.0, 31.5)]),
    "Hyrkania": (E, [("Zadrakarta", "city", 54.43, 36.84, True)], [(55.7, 37.9), (54.3, 38.5)]),
    "Parthia": (E, [("Merv", "treasury", 61.83, 37.6, False), ("Nisaia", "city", 58.2, 37.95, False)],
                [(57.0, 36.0), (59.5, 36.0), (56.0, 35.0), (60.5, 34.5)]),
    "Drangiana": (E, [("Phrada", "city", 62.1, 32.4, False)], [(61.5, 31.0), (63.5, 31.5), (65.7, 31.6), (63.0, 33.5)]),
    "Bactria": (E, [("Baktra", "city", 66.9, 36.76, False), ("Drapsaka", "city", 68.86, 36.73, False)],
                [(64.5, 36.0), (70.5, 37.0), (66.0, 35.2)]),
    "Sogdiana": (E, [("Marakanda", "city", 66.96, 39.65, False), ("Kyropolis", "city", 69.0, 39.9, False)],
                 [(65.0, 40.0), (68.0, 38.5), (71.0, 39.8)]),
    "Gandara": (E, [("Peukelaotis", "city", 71.75, 34.15, False), ("Taxila", "city", 72.8, 33.75, False)],
                [(70.0, 34.6), (73.5, 34.8)]),
    "Parikania": (E, [("Pura", "city", 60.46, 27.2, False)], [(63.0, 27.5), (65.5, 28.5), (67.0, 30.0), (61.5, 25.6)]),
    "Persian India": (E, [("Patala", "city", 68.4, 25.4, True)], [(69.0, 27.5), (70.5, 29.5), (71.5, 31.0), (71.0, 26.5)]),
    "Greater India": (N, [("Mathura", "city", 77.67, 27.49, False), ("Ujjayini", "city", 75.78, 23.18, False)],
                      [(76.0, 30.5), (74.5, 31.8), (79.5, 27.0), (80.0, 24.0), (73.5, 22.0), (78.0, 20.0), (75.0, 17.0), (80.0, 15.0)]),
    "Massagetai": (N, [], [(57.5, 42.5), (60.0, 40.5), (62.5, 43.0), (55.5, 44.5), (56.5, 40.3)]),
    "Sakans": (N, [], [(72.5, 41.0), (75.0, 40.0), (69.0, 43.5), (74.0, 43.5), (66.0, 45.5), (78.0, 38.0), (79.0, 35.0)]),
}
# The two printed city symbols the errata tells us to ignore (xen:errata): land hexes, no city.
IGNORED_CITY_SYMBOLS = ("2808", "2243")

FORAGE = {"clear": 2, "rough": 1, "pass": 1, "desert": 0}  # xen:supply; cities below
CITY_FORAGE = {"city": 5, "treasury": 8, "capital": 8}
VALLEY_KM = 45  # clear, fertile land either side of a great river: FV 3
FERTILE_RIVERS = ("Nile", "Euphrates", "Tigris", "Indus", "Oxus", "Jaxartes", "Jumna", "Ganges")


# ---------------------------------------------------------------------------
# Geometry


def shifted(c: int) -> bool:
    return c % 2 == 1  # shifted = "odd"


def centre(c: int, r: int) -> tuple[float, float]:
    """Plane position of hex (column, row), in hex heights (flat-to-flat)."""
    return c * SQ3, r + (0.5 if shifted(c) else 0.0)


def plane(lon: float, lat: float) -> tuple[float, float]:
    return (C0 + (lat - LAT0) / DLAT) * SQ3, R0 + (lon - LON0) / DLON


def lonlat(c: int, r: int) -> tuple[float, float]:
    x, y = centre(c, r)
    return LON0 + (y - R0) * DLON, LAT0 + (x / SQ3 - C0) * DLAT


KM_PER_UNIT = DLON * 111.32 * math.cos(math.radians(LAT0))  # one hex height: 119 km at Taxila's latitude


def nearest_hex(lon: float, lat: float) -> tuple[int, int]:
    c, r = nearest_plane(*plane(lon, lat))
    if not (1 <= c <= COLUMNS and 1 <= r <= ROWS):
        raise SystemExit(f"point {lon}, {lat} lies off the map ({c}, {r})")
    return c, r


def hid(h: tuple[int, int]) -> str:
    return f"{h[0]:02d}{h[1]:02d}"


def neighbours(h: tuple[int, int]) -> list[tuple[int, int]]:
    c, r = h
    if shifted(c):
        cand = [(c, r - 1), (c, r + 1), (c - 1, r), (c - 1, r + 1), (c + 1, r), (c + 1, r + 1)]
    else:
        cand = [(c, r - 1), (c, r + 1), (c - 1, r - 1), (c - 1, r), (c + 1, r - 1), (c + 1, r)]
    return [(a, b) for a, b in cand if 1 <= a <= COLUMNS and 1 <= b <= ROWS]


def inside(lon: float, lat: float, poly: list[tuple[float, float]]) -> bool:
    return point_in_polygon(lon, lat, poly)


def seg_dist(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def line_km(h: tuple[int, int], line: list[tuple[float, float]]) -> float:
    p = centre(*h)
    pts = [plane(*q) for q in line]
    return min(seg_dist(p, pts[i], pts[i + 1]) for i in range(len(pts) - 1)) * KM_PER_UNIT


def samples(line: list[tuple[float, float]], step: float = 0.08) -> list[tuple[float, float]]:
    pts = [plane(*q) for q in line]
    out = []
    for (ax, ay), (bx, by) in zip(pts, pts[1:]):
        n = max(1, int(math.hypot(bx - ax, by - ay) / step))
        out += [(ax + (bx - ax) * k / n, ay + (by - ay) * k / n) for k in range(n)]
    out.append(pts[-1])
    return out


def nearest_plane(px: float, py: float) -> tuple[int, int]:
    best = None
    for c in range(round(px / SQ3) - 1, round(px / SQ3) + 2):
        for r in range(round(py) - 1, round(py) + 2):
            x, y = centre(c, r)
            d = (x - px) ** 2 + (y - py) ** 2
            if best is None or d < best[0] - 1e-12:
                best = (d, c, r)
    assert best is not None
    return best[1], best[2]


def side_key(a: tuple[int, int], b: tuple[int, int]) -> tuple[tuple[int, int], tuple[int, int]]:
    return (a, b) if a < b else (b, a)


def hexsides_along(line: list[tuple[float, float]]) -> set[tuple[tuple[int, int], tuple[int, int]]]:
    """Hexsides whose midpoints lie nearest the sampled line (rivers and lakes run along hexsides)."""
    out = set()
    for px, py in samples(line):
        h = nearest_plane(px, py)
        if not (1 <= h[0] <= COLUMNS and 1 <= h[1] <= ROWS):
            continue
        best = None
        for n in neighbours(h):
            (x1, y1), (x2, y2) = centre(*h), centre(*n)
            d = ((x1 + x2) / 2 - px) ** 2 + ((y1 + y2) / 2 - py) ** 2
            if best is None or d < best[0] - 1e-12:
                best = (d, n)
        if best is not None and best[0] < 0.2:
            out.add(side_key(h, best[1]))
    return out


def path_along(line: list[tuple[float, float]]) -> list[tuple[int, int]]:
    """Hexes a road passes through, consecutive ones adjacent."""
    path: list[tuple[int, int]] = []
    for px, py in samples(line, 0.05):
        h = nearest_plane(px, py)
        if path and h == path[-1]:
            continue
        if path and h not in neighbours(path[-1]):
            raise SystemExit(f"road sampling skipped from {hid(path[-1])} to {hid(h)}")
        path.append(h)
    return path


# ---------------------------------------------------------------------------
# Build


def build() -> str:
    hexes = [(c, r) for r in range(1, ROWS + 1) for c in range(1, COLUMNS + 1)]
    ll = {h: lonlat(*h) for h in hexes}
    sea = {h for h in hexes if any(inside(*ll[h], p) for p in SEAS.values())}
    island_of: dict[tuple[int, int], str] = {}
    for name, (_sat, pts) in ISLANDS.items():
        for q in pts:
            h = nearest_hex(*q)
            island_of.setdefault(h, name)
            sea.discard(h)
    cities: dict[tuple[int, int], tuple[str, str, str, bool]] = {}
    for sat, (_ctl, clist, _x) in SATRAPIES.items():
        for name, kind, lon, lat, port in clist:
            h = nearest_hex(lon, lat)
            if h in cities:
                raise SystemExit(f"{name} and {cities[h][0]} share hex {hid(h)}")
            if h in sea:
                sea.discard(h)  # a city hex is land (its coast is drawn coarsely)
            cities[h] = (name, kind, sat, port)
    for i in IGNORED_CITY_SYMBOLS:
        h = (int(i[:2]), int(i[2:]))
        if h in sea:
            raise SystemExit(f"{i} must be a land hex (xen:errata)")
    land = [h for h in hexes if h not in sea]

    # terrain
    terrain: dict[tuple[int, int], str] = {}
    rivers_near: dict[tuple[int, int], float] = {}
    for h in land:
        rivers_near[h] = min(line_km(h, RIVERS[n]) for n in FERTILE_RIVERS)
    pass_hexes = {nearest_hex(*q): n for n, q in PASSES.items()}
    for h in hexes:
        if h in sea:
            terrain[h] = "sea"
            continue
        t = "clear"
        lon, lat = ll[h]
        if any(inside(lon, lat, p) for p in DESERTS.values()):
            t = "desert"
        if any(line_km(h, pts) <= rad for _n, rad, pts in MOUNTAINS):
            t = "rough"
        if rivers_near[h] <= VALLEY_KM:
            t = "clear"
        if h in pass_hexes:
            t = "pass"
        if h in cities and t == "desert":
            t = "clear"  # an oasis city
        terrain[h] = t

    # satrapies: nearest seed
    seeds: list[tuple[tuple[float, float], str]] = []
    for sat, (_ctl, clist, extra) in SATRAPIES.items():
        seeds += [(plane(lon, lat), sat) for _n, _k, lon, lat, _p in clist]
        seeds += [(plane(*q), sat) for q in extra]
    owner: dict[tuple[int, int], str] = {}
    for h in land:
        x, y = centre(*h)
        owner[h] = min(seeds, key=lambda s: ((s[0][0] - x) ** 2 + (s[0][1] - y) ** 2, s[1]))[1]
    for h, (_n, _k, sat, _p) in cities.items():
        owner[h] = sat
    for h, name in island_of.items():
        owner[h] = ISLANDS[name][0]
    csat, (lo_lon, lo_lat, hi_lon, hi_lat) = CRIMEA
    crimea = {h for h in land if lo_lon <= ll[h][0] <= hi_lon and lo_lat <= ll[h][1] <= hi_lat
              and ll[h][1] < 45.9}
    for h in crimea:
        owner[h] = csat
        island_of[h] = "Crimea"
    # fragments: keep each satrapy's largest land-connected part (plus islands, Crimea and city parts)
    changed = True
    while changed:
        changed = False
        for sat in SATRAPIES:
            mine = {h for h in land if owner[h] == sat and h not in island_of}
            parts = []
            seen: set[tuple[int, int]] = set()
            for h in sorted(mine):
                if h in seen:
                    continue
                stack, part = [h], set()
                seen.add(h)
                while stack:
                    g = stack.pop()
                    part.add(g)
                    for n in neighbours(g):
                        if n in mine and n not in seen:
                            seen.add(n)
                            stack.append(n)
                parts.append(part)
            if len(parts) <= 1:
                continue
            parts.sort(key=lambda p: (-sum(1 for h in p if h in cities), -len(p), min(p)))
            for part in parts[1:]:
                if any(h in cities for h in part):
                    raise SystemExit(f"{sat}: cities in two land parts {sorted(hid(h) for h in part)}")
                border: dict[str, int] = defaultdict(int)
                for g in part:
                    for n in neighbours(g):
                        if n in owner and owner[n] != sat:
                            border[owner[n]] += 1
                if not border:
                    continue
                new = max(sorted(border), key=lambda s: border[s])
                for g in part:
                    owner[g] = new
                changed = True

    # hexside features
    features: dict[tuple[tuple[int, int], tuple[int, int]], set[str]] = defaultdict(set)
    landset = set(land)
    for name, line in RIVERS.items():
        for s in hexsides_along(line):
            if s[0] in landset and s[1] in landset:
                features[s].add("river")
    for name, line in LAKES.items():
        for s in hexsides_along(line):
            if s[0] in landset and s[1] in landset:
                features[s].add("lake")
    for name, (a, b) in STRAITS.items():
        ha, hb = nearest_hex(*a), nearest_hex(*b)
        if hb not in neighbours(ha) or ha in sea or hb in sea:
            raise SystemExit(f"strait {name}: {hid(ha)} and {hid(hb)} are not adjacent land hexes")
        features[side_key(ha, hb)].add("strait")
    for name, line in ROADS.items():
        p = path_along(line)
        for a, b in zip(p, p[1:]):
            if a in sea or b in sea:
                raise SystemExit(f"road {name} enters the sea at {hid(a)}-{hid(b)}")
            features[side_key(a, b)].add("road")

    # forage (xen:supply)
    forage: dict[tuple[int, int], int] = {}
    for h in land:
        if h in cities:
            forage[h] = CITY_FORAGE[cities[h][1]]
        elif terrain[h] == "clear" and rivers_near[h] <= VALLEY_KM:
            forage[h] = 3
        else:
            forage[h] = FORAGE[terrain[h]]
    coastal = {h for h in land if any(n in sea for n in neighbours(h))}

    return render(hexes, sea, terrain, owner, cities, forage, coastal, island_of, features, pass_hexes)


LEGEND = {"clear": ".", "rough": "R", "pass": "P", "desert": "D", "sea": "~"}


def render(hexes, sea, terrain, owner, cities, forage, coastal, island_of, features, pass_hexes) -> str:
    L: list[str] = []
    w = L.append
    w("# Generated by games/xenophon/tools/make_map.py: do not edit by hand; change the script and rerun it.")
    w("[meta]")
    w('id = "xenophon.map"')
    w('source = "reconstructed"')
    w('rules = ["xen:components", "xen:errata", "xen:control", "xen:movement", "xen:supply", "xen:treasury", '
      '"xen:naval", "xen:naval-transport", "xen:pillage"]')
    w('title = "Xenophon map (reconstructed)"')
    w('sources = ["xenophon.txt: Components and Summary, Errata (map), Scenarios, Unit and City Summary Rosters", '
      '"Herodotus 3.89-94 (the satrapy list) and 5.52-54 (the Royal Road)", '
      '"Barrington Atlas of the Greek and Roman World (site positions)", "Pleiades gazetteer (site coordinates)"]')
    w('note = """Rulebook (H): the 34 satrapies by name and their initial control (15 Empire, 8 Rebel, 11 Neutral), '
      "the 54 cities (44 ordinary; Treasury: Memphis, Tyre, Athens, Byzantion, Sardis, Halikarnassos, Merv; "
      "Capital: Ekbatana, Susa, Persepolis), Sardis in Lydia, Colchis with the Crimea, Cilicia with Cyprus, Ionia "
      "with Rhodes, Crete and 5 Aegean islands, Taxila in hex 2443, land hexes 2808 and 2243 whose city symbols "
      "are ignored (errata). Reconstructed (M): hex centres are a projection of latitude and longitude fixed by "
      "Taxila = 2443; coasts, rivers, ranges, deserts, roads and the Royal Road from standard historical atlases; "
      "satrapy borders by nearest seed point around the historical seats of each satrapy. Reconstructed (L): "
      "the 44 ordinary cities chosen (the text names none), the Forage Values (clear 2, fertile river valley 3, "
      "rough and pass 1, desert 0, ordinary city 5, Treasury or Capital 8: Sardis must feed the Rebel guard, "
      'Cyrus, Ariaos and a Lydian unit, 7 units), the ports. See docs/games/xenophon-map.md."""')
    w("")
    w("[grid]")
    w('orientation = "flat"')
    w('shifted = "odd"')
    w(f"columns = {COLUMNS}")
    w(f"rows = {ROWS}")
    w("")
    w("[terrain]")
    w('default = "clear"')
    w('legend = { "." = "clear", "R" = "rough", "P" = "pass", "D" = "desert", "~" = "sea" }')
    w("rows = [")
    for r in range(1, ROWS + 1):
        w('  "' + "".join(LEGEND[terrain[(c, r)]] for c in range(1, COLUMNS + 1)) + '",')
    w("]")
    w("")
    w("[hexkeys.forage]")
    w('type = "int"')
    w("min = 0")
    w("max = 9")
    w("default = 0")
    w('rules = ["xen:supply"]')
    w('note = "Forage Value: units the hex feeds (xen:supply). Sea hexes have FV 0 (xen:naval); desert FV 0 but feeds one unit of its own satrapy."')
    w("rows = [")
    for r in range(1, ROWS + 1):
        w('  "' + "".join(str(forage[(c, r)]) if (c, r) in forage else "." for c in range(1, COLUMNS + 1)) + '",')
    w("]")
    w("")
    w("[hexkeys.city]")
    w('type = "text"')
    w('choices = ["city", "treasury", "capital"]')
    w('rules = ["xen:components", "xen:treasury"]')
    w('note = "Kind of printed city: ordinary ($1), Treasury ($3), Capital ($2) (xen:treasury)."')
    w("")
    w("[hexkeys.city.values]")
    for h in sorted(cities, key=hid):
        w(f'"{hid(h)}" = "{cities[h][1]}"  # {cities[h][0]}')
    w("")
    w("[hexkeys.port]")
    w('type = "flag"')
    w('requires = ["city"]')
    w('rules = ["xen:naval", "xen:naval-transport"]')
    w('note = "Coastal city with an anchor symbol (reconstructed: the historical harbours)."')
    w("hexes = [" + ", ".join(f'"{hid(h)}"' for h in sorted(cities, key=hid) if cities[h][3] and h in coastal) + "]")
    w("")
    w("[hexkeys.coastal]")
    w('type = "flag"')
    w('rules = ["xen:naval", "xen:naval-transport"]')
    w('note = "Land hex next to a sea hex: fleets may enter it; colonies here are ports."')
    w("hexes = [")
    ids = [hid(h) for h in sorted(coastal, key=hid)]
    for i in range(0, len(ids), 12):
        w("  " + ", ".join(f'"{x}"' for x in ids[i:i + 12]) + ",")
    w("]")
    w("")
    w("[hexkeys.desert]")
    w('type = "flag"')
    w('rules = ["xen:supply", "xen:colonisation"]')
    w('note = "Desert hex: FV 0 but always feeds one unit of its own satrapy; no colony."')
    w("hexes = [")
    ids = [hid(h) for h in sorted(terrain, key=hid) if terrain[h] == "desert"]
    for i in range(0, len(ids), 12):
        w("  " + ", ".join(f'"{x}"' for x in ids[i:i + 12]) + ",")
    w("]")
    w("")
    w("[hexkeys.island]")
    w('type = "text"')
    w('choices = ["Crimea", "Cyprus", "Rhodes", "Crete", "Aegean"]')
    w('rules = ["xen:components"]')
    w('note = "Land the text gives to a satrapy across the water: Colchis the Crimea, Cilicia Cyprus, Ionia Rhodes, Crete and 5 Aegean islands."')
    w("values = { " + ", ".join(f'"{hid(h)}" = "{island_of[h]}"' for h in sorted(island_of, key=hid)) + " }")
    w("")
    for feat in ("river", "lake", "strait", "road"):
        sides = sorted(s for s, f in features.items() if feat in f)
        w("[[hexsides]]")
        w(f'feature = "{feat}"')
        w("between = [")
        for i in range(0, len(sides), 6):
            w("  " + ", ".join(f'["{hid(a)}", "{hid(b)}"]' for a, b in sides[i:i + 6]) + ",")
        w("]")
        w("")
    w("[regions]")
    for sat in sorted(SATRAPIES):
        ids = sorted(hid(h) for h, s in owner.items() if s == sat)
        w(f'"{sat}" = [')
        for i in range(0, len(ids), 14):
            w("  " + ", ".join(f'"{x}"' for x in ids[i:i + 14]) + ",")
        w("]")
    w("")
    w("[places]")
    for h in sorted(cities, key=lambda h: cities[h][0]):
        w(f'"{cities[h][0]}" = "{hid(h)}"')
    for h in sorted(pass_hexes, key=lambda h: pass_hexes[h]):
        w(f'"{pass_hexes[h]}" = "{hid(h)}"')
    w("")
    return "\n".join(L)


def main(argv: list[str]) -> int:
    text = build()
    if "--check" in argv:
        if OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT} differs from what the generator makes", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
