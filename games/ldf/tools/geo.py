"""Geography of the Lest Darkness Fall map, as data: coasts, rivers, frontiers, places.

Every coordinate is (longitude east, latitude north) in degrees, rounded to about
0.05 degree: well-known positions of capes, straits, river towns and ancient
sites as given by modern atlases and the Pleiades gazetteer of ancient places
(https://pleiades.stoa.org) and the Barrington Atlas of the Greek and Roman
World (Talbert ed., Princeton 2000). At the map's scale (one hex is about
230 km) an error of 20 km does not move anything across a hex. The outlines
are simplified by hand: a vertex every 50-200 km along each coast.

Legion fortresses of AD 235 (the Severan army of 33 legions): after
J. B. Campbell, *The Roman Army 31 BC - AD 337* (Routledge 1994), the legion
list of Cassius Dio 55.23-24 and the fortress sites in the Barrington Atlas.
"""

from __future__ import annotations

# ---------------------------------------------------------------- water bodies (polygons)

OCEAN = [  # Atlantic, Channel, North Sea and Baltic, one polygon (its west edge lies off the map)
    (-40.0, 20.0), (-16.0, 24.0), (-12.9, 27.9), (-9.6, 30.4), (-9.8, 31.5), (-7.6, 33.6), (-6.8, 34.0),
    (-5.8, 35.8), (-5.6, 36.0), (-6.3, 36.5), (-6.9, 37.2), (-9.0, 37.0), (-9.5, 38.7), (-8.7, 41.2),
    (-9.3, 42.9), (-8.4, 43.4), (-5.7, 43.6), (-3.8, 43.5), (-1.6, 43.5), (-1.2, 44.6), (-1.1, 45.6),
    (-1.2, 46.2), (-2.2, 47.3), (-4.5, 48.4), (-2.0, 48.65), (-1.6, 49.65), (0.1, 49.5), (1.1, 49.9),
    (1.6, 50.7), (1.85, 50.95), (2.4, 51.05), (3.6, 51.45), (4.3, 52.1), (4.75, 52.95), (5.4, 53.2),
    (7.2, 53.4), (8.1, 53.5), (8.7, 53.9), (8.4, 55.5), (10.6, 57.7), (10.2, 56.15), (10.15, 54.3),
    (10.9, 53.95), (12.1, 54.1), (13.4, 54.6), (14.3, 53.9), (15.6, 54.2), (18.65, 54.35), (20.0, 54.95),
    (21.1, 55.7), (21.0, 56.5), (21.55, 57.4), (22.6, 57.75), (24.1, 57.0), (24.5, 58.4), (24.75, 59.45),
    (30.3, 59.95), (30.3, 62.0), (18.5, 62.0), (18.5, 60.2), (18.1, 59.3), (16.9, 58.6), (16.4, 56.7),
    (15.6, 56.15), (13.8, 55.4), (13.0, 55.6), (12.7, 56.05), (11.9, 57.7), (11.2, 58.9), (10.7, 59.9),
    (10.0, 59.05), (8.0, 58.1), (7.05, 58.0), (5.7, 58.95), (5.3, 60.4), (5.0, 62.0), (-40.0, 62.0),
]

MARE_INTERNUM = [  # the Mediterranean with the Adriatic, the Aegean and the Propontis (Marmara)
    (-5.35, 36.1), (-4.4, 36.7), (-2.5, 36.8), (-2.2, 36.7), (-1.0, 37.6), (-0.5, 38.35), (0.2, 38.75),
    (-0.35, 39.45), (0.0, 40.0), (0.85, 40.7), (1.25, 41.1), (2.2, 41.4), (3.3, 42.3), (3.1, 43.15),
    (3.9, 43.5), (4.8, 43.4), (5.35, 43.3), (5.9, 43.1), (7.25, 43.7), (8.95, 44.4), (9.8, 44.1),
    (10.3, 43.55), (10.5, 42.95), (11.8, 42.1), (12.3, 41.75), (12.6, 41.45), (13.55, 41.2), (14.25, 40.85),
    (14.75, 40.65), (15.3, 40.0), (15.9, 38.7), (15.65, 38.1), (16.05, 37.9), (17.15, 39.1), (17.2, 40.45),
    (18.35, 39.8), (18.5, 40.15), (17.95, 40.65), (16.85, 41.15), (16.2, 41.9), (14.2, 42.45), (13.5, 43.6),
    (12.55, 44.05), (12.45, 44.95), (12.35, 45.45), (13.75, 45.65), (13.85, 44.85), (14.45, 45.35),
    (15.2, 44.1), (16.45, 43.5), (18.1, 42.65), (19.1, 42.1), (19.45, 41.3), (19.5, 40.45), (20.0, 39.7),
    (20.75, 38.95), (21.7, 38.25), (21.15, 37.9), (21.7, 36.9), (22.5, 36.4), (23.2, 36.45), (22.8, 37.55),
    (23.4, 37.5), (23.6, 37.95), (24.0, 37.65), (24.0, 38.3), (22.95, 39.35), (22.95, 40.6), (23.9, 39.95),
    (24.4, 40.9), (25.9, 40.85), (26.2, 40.05), (26.65, 40.4), (27.5, 40.95), (28.95, 41.0), (29.05, 40.98),
    (29.9, 40.75), (29.1, 40.4), (27.95, 40.35), (26.4, 40.15), (26.1, 39.95), (26.35, 39.5), (26.7, 39.3),
    (27.15, 38.45), (26.3, 38.3), (27.25, 37.85), (27.4, 37.0), (28.25, 36.85), (29.1, 36.6), (29.65, 36.2),
    (30.7, 36.9), (32.0, 36.55), (32.8, 36.05), (33.9, 36.35), (34.6, 36.8), (36.15, 36.6), (35.95, 36.1),
    (35.8, 35.5), (35.85, 34.45), (35.5, 33.9), (35.2, 33.27), (35.0, 32.8), (34.75, 32.1), (34.45, 31.5),
    (33.8, 31.1), (32.3, 31.25), (31.8, 31.5), (30.4, 31.45), (29.9, 31.2), (28.95, 30.85), (27.25, 31.35),
    (25.15, 31.55), (23.95, 32.1), (22.6, 32.75), (21.95, 32.9), (20.05, 32.1), (20.2, 30.8), (19.0, 30.3),
    (16.6, 31.2), (15.2, 32.35), (14.3, 32.6), (13.2, 32.9), (12.1, 32.9), (10.9, 33.8), (10.1, 33.9),
    (10.75, 34.75), (11.05, 35.5), (10.65, 35.8), (11.05, 37.05), (10.3, 36.85), (9.85, 37.3), (8.75, 36.95),
    (7.75, 36.9), (6.9, 36.9), (5.1, 36.75), (3.05, 36.75), (2.2, 36.6), (1.3, 36.5), (-0.65, 35.7),
    (-2.9, 35.2), (-3.9, 35.25), (-5.3, 35.9),
]

PONTUS = [  # the Black Sea and the Maeotis (Sea of Azov)
    (29.05, 41.2), (29.6, 41.2), (31.4, 41.3), (35.15, 42.0), (36.35, 41.3), (37.9, 41.0), (39.7, 41.0),
    (40.5, 41.05), (41.65, 41.65), (41.65, 42.15), (41.0, 43.0), (39.7, 43.6), (39.1, 44.1), (37.8, 44.7),
    (37.3, 44.9), (36.6, 45.3), (37.3, 45.3), (38.25, 46.7), (39.2, 47.2), (36.8, 46.75), (34.8, 46.2),
    (36.5, 45.35), (35.4, 45.05), (34.15, 44.5), (33.5, 44.6), (33.35, 45.2), (32.5, 45.35), (33.6, 46.1),
    (32.5, 46.55), (30.75, 46.5), (29.7, 45.2), (28.65, 44.2), (27.95, 43.2), (27.5, 42.5), (28.0, 41.9),
]

CASPIAN = [
    (47.9, 46.0), (47.5, 43.0), (48.3, 42.05), (50.3, 40.4), (48.85, 38.75), (48.9, 38.4), (49.6, 37.45),
    (52.7, 36.7), (54.0, 36.85), (53.0, 39.5), (53.0, 40.0), (53.5, 41.5), (51.3, 44.5), (51.9, 47.0),
    (49.5, 46.5),
]

MARE_RUBRUM = [  # the Red Sea with the gulfs of Suez and Aqaba
    (32.55, 29.95), (33.8, 27.25), (33.95, 26.75), (34.3, 26.1), (35.5, 23.9), (36.5, 22.0), (38.5, 18.0),
    (40.0, 15.0), (42.0, 15.0), (39.15, 21.5), (38.05, 24.1), (36.45, 26.25), (35.65, 27.35), (35.0, 28.0),
    (34.85, 28.5), (35.0, 29.55), (34.95, 29.55), (34.5, 28.5), (34.3, 27.9), (34.25, 27.75), (33.6, 28.25),
    (33.1, 29.05), (32.6, 29.9),
]

SINUS_PERSICUS = [  # the Persian Gulf
    (48.5, 30.0), (47.95, 29.35), (49.6, 27.0), (51.5, 25.3), (51.6, 24.5), (54.5, 24.3), (55.3, 25.25),
    (56.0, 25.8), (56.3, 26.5), (56.3, 27.2), (50.8, 28.95), (50.5, 29.6), (49.7, 30.2),
]

WATERS = {
    "oceanus": OCEAN,
    "mare internum": MARE_INTERNUM,
    "pontus": PONTUS,
    "caspian": CASPIAN,
    "mare rubrum": MARE_RUBRUM,
    "sinus persicus": SINUS_PERSICUS,
}
"""Water body -> outline. Sea movement (ldf:12.6) names no water body; the map records
which waters each coastal centre touches so that the rules can decide."""

# ---------------------------------------------------------------- islands (land inside the waters)

ISLANDS = {
    "Britannia": [
        (-5.7, 50.05), (-5.2, 49.96), (-4.1, 50.35), (-2.45, 50.5), (-1.3, 50.75), (-0.1, 50.8), (1.35, 51.1),
        (1.45, 51.38), (0.9, 51.5), (1.3, 51.95), (1.75, 52.48), (1.3, 52.93), (0.3, 52.9), (0.1, 53.6),
        (-0.1, 54.1), (-0.6, 54.5), (-1.4, 55.0), (-2.0, 55.77), (-2.5, 56.0), (-3.2, 55.95), (-2.6, 56.28),
        (-2.1, 57.15), (-2.0, 57.7), (-4.2, 57.5), (-3.1, 58.45), (-3.0, 58.64), (-5.0, 58.6), (-5.2, 57.9),
        (-5.8, 57.2), (-5.8, 55.3), (-4.9, 55.6), (-4.9, 54.65), (-3.4, 54.9), (-3.6, 54.5), (-2.9, 54.1),
        (-3.0, 53.4), (-4.6, 53.3), (-4.75, 52.8), (-4.1, 52.4), (-5.3, 51.9), (-3.95, 51.6), (-3.2, 51.45),
        (-2.7, 51.5), (-3.5, 51.2), (-4.5, 51.0), (-5.1, 50.4),
    ],
    "Hibernia": [
        (-7.4, 55.4), (-6.15, 55.2), (-5.9, 54.6), (-6.2, 53.35), (-6.0, 53.0), (-6.35, 52.17), (-7.1, 52.1),
        (-8.3, 51.8), (-9.8, 51.45), (-10.4, 52.1), (-9.9, 52.6), (-9.1, 53.25), (-10.2, 53.4), (-10.0, 54.3),
        (-8.6, 54.3), (-8.5, 54.6), (-8.3, 55.15),
    ],
    "Baliares": [(2.35, 39.55), (3.1, 39.95), (3.45, 39.7), (3.1, 39.3), (2.6, 39.45)],
    "Corsica": [(9.4, 43.0), (9.55, 42.6), (9.45, 41.85), (9.2, 41.38), (8.75, 41.6), (8.6, 42.05), (8.7, 42.6),
                (9.3, 42.7)],
    "Sardinia": [(9.2, 41.25), (9.75, 40.9), (9.7, 40.0), (9.6, 39.2), (9.0, 39.0), (8.4, 39.0), (8.4, 39.8),
                 (8.2, 40.6), (8.25, 40.95), (8.8, 40.95)],
    "Sicilia": [(12.4, 37.8), (13.35, 38.2), (14.5, 38.05), (15.55, 38.25), (15.1, 37.5), (15.3, 37.05),
                (15.1, 36.65), (14.35, 36.8), (13.1, 37.45), (12.6, 37.6)],
    "Creta": [(23.55, 35.55), (24.1, 35.55), (25.1, 35.35), (26.3, 35.25), (26.2, 35.0), (24.8, 34.93),
              (23.5, 35.25)],
    "Cyprus": [(32.3, 35.05), (33.0, 35.4), (34.6, 35.7), (34.0, 35.0), (33.6, 34.8), (32.6, 34.65), (32.3, 34.8)],
}
MEDITERRANEAN_ISLANDS = ("Baliares", "Corsica", "Sardinia", "Sicilia", "Creta", "Cyprus")
"""The Mare Internum islands: outside the Gallic Empire (ldf:9.5) and mainland Italy (14.3)."""

# ---------------------------------------------------------------- rivers and frontier lines (polylines)

RHINE = [  # mouth to Lake Constance (Lacus Brigantinus)
    (4.1, 51.95), (5.85, 51.85), (6.45, 51.66), (6.96, 50.94), (7.1, 50.73), (7.6, 50.36), (8.27, 50.0),
    (8.36, 49.63), (8.43, 49.32), (7.75, 48.58), (7.58, 48.03), (7.59, 47.56), (8.63, 47.7), (9.4, 47.6),
]
DANUBE = [  # from the Raetian limes at Ulm (the line joins Lake Constance) to the Black Sea
    (9.4, 47.6), (10.0, 48.4), (12.1, 49.0), (13.45, 48.57), (14.3, 48.3), (16.37, 48.2), (16.86, 48.11),
    (18.1, 47.75), (18.9, 47.8), (19.05, 47.5), (18.7, 46.0), (19.0, 45.35), (20.45, 44.82), (21.2, 44.73),
    (22.5, 44.6), (22.9, 44.0), (24.5, 43.7), (25.35, 43.62), (25.95, 43.85), (27.25, 44.1), (28.0, 44.3),
    (27.95, 45.27), (28.05, 45.45), (28.8, 45.17), (29.65, 45.2),
]
EUPHRATES = [
    (39.6, 39.9), (38.9, 38.9), (38.3, 38.4), (38.5, 37.5), (38.0, 37.05), (38.3, 36.3), (39.0, 35.95),
    (40.45, 35.15), (40.73, 34.75), (41.95, 34.45), (42.8, 33.9), (43.8, 33.35), (44.3, 32.55),
    (45.4, 31.3), (46.4, 31.0), (47.4, 31.0), (48.5, 30.0),
]
TIGRIS = [
    (40.2, 38.3), (40.2, 37.9), (41.5, 37.35), (42.2, 37.3), (42.7, 36.7), (43.15, 36.35), (43.3, 35.8),
    (43.5, 34.95), (44.2, 33.95), (44.58, 33.09), (45.2, 32.5), (46.3, 31.8), (47.4, 31.0),
]
NILE = [
    (30.3, 31.3), (31.25, 29.85), (30.65, 28.55), (30.8, 27.8), (31.2, 27.18), (31.8, 26.48), (32.8, 26.0),
    (32.65, 25.7), (32.9, 24.09), (32.9, 22.0),
]
RIVERS = {"rhine": RHINE, "danube": DANUBE, "euphrates": EUPHRATES, "tigris": TIGRIS, "nile": NILE}
"""Hexside features by name. Only the Rhine and the Danube have rules effects (ldf:11.1, 12.7, 13.8)."""

HADRIANS_WALL = [(-3.2, 54.95), (-1.53, 54.99)]
"""Bowness-on-Solway to Wallsend: Britain south of it is Roman core territory (ldf:3.3)."""

GALLIC_LINE = [  # the Inn from its mouth at Passau (Boiodurum), then the main Alpine ridge to the Var
    (13.45, 48.57), (12.9, 47.9), (12.1, 47.6), (11.4, 47.27), (11.4, 46.9), (10.0, 46.4), (8.5, 46.4),
    (7.0, 45.9), (6.9, 45.2), (7.0, 44.3), (7.2, 43.7),
]
"""Raetia's border with Noricum and Italy, and Italy's with Gaul: with the Rhine it bounds the
Gallic Empire (ldf:9.5). It meets the Danube at Passau, the point of 3315, 3415 and 3416."""

ITALY_LINE = [  # the Alps from the Var to the Arsia (Raša), Italy's northern border
    (7.2, 43.7), (7.0, 44.3), (6.9, 45.2), (7.0, 45.9), (8.5, 46.4), (10.0, 46.4), (11.4, 46.9),
    (12.5, 46.6), (13.7, 46.5), (14.1, 45.1),
]

EASTERN_FRONTIER = [  # Trapezus to Aila: the limes of Cappadocia, Mesopotamia, Syria and Arabia in AD 235
    (39.72, 41.0), (40.3, 40.5), (40.6, 39.3), (41.3, 38.6), (42.4, 37.8), (42.3, 36.9), (42.0, 36.0),
    (41.3, 35.2), (40.9, 34.4), (39.5, 33.4), (37.8, 32.0), (36.8, 31.0), (36.1, 30.0), (35.0, 29.55),
]
"""East of it lie Parthia (north of the Syrian desert) and Arabia Deserta (south)."""

SAHARA_LINE = [  # the southern limit of Roman Africa: Sala to Cyrenaica (limes Mauretaniae, fossatum Africae)
    (-7.0, 33.5), (-5.5, 33.8), (-2.0, 34.5), (1.0, 35.0), (3.2, 34.5), (5.6, 34.6), (8.0, 34.3), (9.5, 33.4),
    (11.0, 32.3), (13.0, 31.6), (15.4, 30.9), (17.5, 30.9), (19.5, 30.1), (21.5, 31.8), (24.0, 31.5),
    (25.5, 30.9),
]

# ---------------------------------------------------------------- places: (name, lon, lat, centres)
# Sizes: town 1 TP, city 2 TP, metropolis 3 TP (ldf:6.5). Sizes other than those the
# rules fix are a proposal (L): metropolis for the four largest cities of the empire
# (Rome, Alexandria, Antioch, Carthage) and Nicomedia (the eastern residence), city for
# provincial capitals and great cities, town for the rest.

PLACES = [
    # Italy and the islands
    ("Roma", 12.50, 41.90, ["metropolis"]), ("Ostia", 12.29, 41.76, ["town"]),
    ("Mediolanum", 9.19, 45.46, ["city"]), ("Aquileia", 13.37, 45.77, ["city"]),
    ("Capua", 14.25, 41.08, ["town"]), 
    
    ("Syracusae", 15.29, 37.07, ["town"]), 
    ("Caralis", 9.11, 39.22, ["town"]), ("Aleria", 9.51, 42.10, ["town"]),
    # Gaul and the Rhine
    ("Lugdunum", 4.83, 45.76, ["city"]), ("Narbo", 3.00, 43.18, ["town"]),     ("Burdigala", -0.58, 44.84, ["town"]),     ("Durocortorum", 4.03, 49.26, ["town"]), ("Augusta Treverorum", 6.64, 49.76, ["city"]),
    ("Colonia Agrippina", 6.96, 50.94, ["town"]),     
    
    
        # Britain
    ("Londinium", -0.10, 51.51, ["city"]), ("Eboracum", -1.08, 53.96, ["town"]),
    
    # Hispania
    ("Tarraco", 1.25, 41.12, ["city"]), 
    ("Corduba", -4.78, 37.88, ["city"]),     ("Emerita Augusta", -6.34, 38.92, ["town"]), 
        
    # Illyricum, the Danube, Thrace, Greece
    ("Sirmium", 19.61, 44.97, ["city"]), 
    ("Salona", 16.48, 43.53, ["town"]), 
        ("Thessalonica", 22.94, 40.64, ["city"]), ("Athenae", 23.73, 37.98, ["city"]),
    ("Corinthus", 22.88, 37.91, ["town"]), 
    ("Dyrrachium", 19.45, 41.32, ["town"]),
    ("Gortyn", 24.95, 35.06, ["town"]),     ("Byzantium", 28.98, 41.01, ["city"]), ("Nicomedia", 29.92, 40.77, ["metropolis"]),
    # Asia Minor
    ("Ephesus", 27.34, 37.94, ["city"]), ("Smyrna", 27.14, 38.42, ["town"]), ("Pergamum", 27.18, 39.12, ["town"]),
    ("Ancyra", 32.86, 39.93, ["city"]), ("Caesarea Mazaca", 35.49, 38.72, ["city"]), 
    ("Tarsus", 34.89, 36.92, ["town"]),     
    ("Salamis", 33.90, 35.18, ["town"]),
    # Syria, Mesopotamia, Palestine, Arabia
    ("Antiochia", 36.16, 36.20, ["metropolis"]), ("Damascus", 36.29, 33.51, ["city"]), 
        ("Caesarea Maritima", 34.89, 32.50, ["city"]),
    ("Petra", 35.44, 30.33, ["town"]),
    ("Palmyra", 38.27, 34.55, ["city"]),
    # Egypt, Cyrenaica, Africa, Mauretania
    ("Alexandria", 29.92, 31.20, ["metropolis"]),         ("Cyrene", 21.86, 32.82, ["city"]), ("Carthago", 10.32, 36.85, ["metropolis"]), ("Leptis Magna", 14.29, 32.64, ["city"]),
    
    ("Cirta", 6.61, 36.37, ["city"]), ("Caesarea Mauretaniae", 2.19, 36.60, ["town"]), 
    
    # trans-river provinces
    ("Ulpia Traiana Sarmizegetusa", 22.79, 45.51, ["town"]), ("Sumelocenna", 8.93, 48.48, ["town"]),
    # Caucasus: one town a hex (each hex 1 TP, ldf:9.6)
    ("Phasis", 41.67, 42.15, ["town"]), ("Dioscurias", 41.0, 43.0, ["town"]),
    ("Nekresi", 45.65, 41.95, ["town"]), ("Artaxata", 44.55, 39.95, ["town"]),
    ("Tigranocerta", 41.0, 38.1, ["town"]), ("Mtskheta", 44.72, 41.85, ["town"]), 
    # Parthia (the Sassanid realm): seven population-centre hexes (the counter count, STRATEGIC_GAMES.md 2.1)
    ("Ctesiphon", 44.58, 33.09, ["metropolis"]), ("Arbela", 44.01, 36.19, ["city"]), ("Hatra", 42.72, 35.59, ["town"]),
    ("Susa", 48.26, 32.19, ["city"]), ("Charax Spasinou", 47.80, 30.50, ["town"]), ("Ecbatana", 48.52, 34.80, ["city"]),
    ("Ganzak", 47.0, 36.65, ["town"]),
]

LEGIONS = [  # (legion, fortress, lon, lat) in AD 235
    ("II Augusta", "Isca", -2.95, 51.61), ("VI Victrix", "Eboracum", -1.08, 53.96), ("XX Valeria Victrix", "Deva", -2.89, 53.19),
    ("I Minervia", "Bonna", 7.10, 50.73), ("XXX Ulpia Victrix", "Vetera", 6.45, 51.66),
    ("VIII Augusta", "Argentoratum", 7.75, 48.58), ("XXII Primigenia", "Mogontiacum", 8.27, 50.00),
    ("III Italica", "Castra Regina", 12.10, 49.02), ("II Italica", "Lauriacum", 14.48, 48.22),
    ("X Gemina", "Vindobona", 16.37, 48.21), ("XIV Gemina", "Carnuntum", 16.86, 48.11),
    ("I Adiutrix", "Brigetio", 18.14, 47.75), ("II Adiutrix", "Aquincum", 19.05, 47.56),
    ("IV Flavia", "Singidunum", 20.46, 44.82), ("VII Claudia", "Viminacium", 21.21, 44.74),
    ("I Italica", "Novae", 25.35, 43.62), ("XI Claudia", "Durostorum", 27.26, 44.12),
    ("XIII Gemina", "Apulum", 23.57, 46.07), ("V Macedonica", "Potaissa", 23.76, 46.56),
    ("XII Fulminata", "Melitene", 38.31, 38.35), ("XV Apollinaris", "Satala", 39.65, 40.02),
    ("IV Scythica", "Zeugma", 37.87, 37.06), ("XVI Flavia Firma", "Samosata", 38.52, 37.53),
    ("III Gallica", "Raphanaea", 36.20, 34.93), ("X Fretensis", "Aelia Capitolina", 35.23, 31.78),
    ("VI Ferrata", "Caparcotna", 35.18, 32.57), ("III Cyrenaica", "Bostra", 36.48, 32.52),
    ("I Parthica", "Singara", 41.86, 36.33), ("III Parthica", "Resaina", 40.07, 36.85),
    ("II Traiana", "Nicopolis (Alexandria)", 29.95, 31.21), ("III Augusta", "Lambaesis", 6.26, 35.49),
    ("VII Gemina", "Legio", -5.57, 42.60), ("II Parthica", "Albanum", 12.66, 41.73),
]
"""33 legions: N = 33 is the solution of 2N + P = 73 with 7 Parthian hexes (ldf:2.2, 3.2)."""
