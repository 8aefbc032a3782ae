"""Lest Darkness Fall: Rome in Crisis, AD 235-285 (S&T 2006): data foundation.

Not yet a playable game and not registered as one (no ``ancients_kit.games``
entry point): this package holds the reconstructed map (``data/map.toml``,
rebuilt by ``tools/build_map.py``), the counter mix and set-up, the combat
results table, the Emperor Creation Table, the Action Summary, the Terrain
Key and the event chits, with their loaders in :mod:`ancients_games.ldf.model`.
Rulings and reconstruction notes: ``docs/games/ldf.md`` and
``docs/games/ldf-map.md``.
"""
