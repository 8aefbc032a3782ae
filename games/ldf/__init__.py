"""Lest Darkness Fall: Rome in Crisis, AD 235-285 (S&T 2006).

The game plugin is :data:`GAME` (:class:`~ancients_games.ldf.game.LestDarknessFall`):
the five-turn campaign. The reconstructed map (``data/map.toml``, rebuilt by
``tools/build_map.py``), the counter mix and set-up, the combat results table,
the Emperor Creation Table, the Action Summary, the Terrain Key and the event
chits are loaded by :mod:`ancients_games.ldf.model`. Rulings and
reconstruction notes: ``docs/games/ldf.md`` and ``docs/games/ldf-map.md``.
"""

from .game import LestDarknessFall

GAME = LestDarknessFall()

__all__ = ["GAME", "LestDarknessFall"]
