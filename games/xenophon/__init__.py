"""Xenophon: 10,000 Against Persia (S&T 203).

The game plugin is :data:`GAME` (:class:`~ancients_games.xenophon.game.Xenophon`):
Cyrus' Revolt (7 turns) and The King's War (15 turns). The map
(``data/map.toml``, made by ``tools/make_map.py``), the satrapy roster, both
scenarios' set-ups, the unit factors, the chits and the tables are read by
:mod:`.model`; the words (sides, phases, decision kinds) are :mod:`.vocab`,
the state :mod:`.state`, the sequence of play :mod:`.sequence` and the plugin
:mod:`.game`. Rule IDs: ``xen:...``
(../shared/rules/xenophon.index.toml). Rulings: ``docs/games/xenophon.md``.
"""

PACKAGE = "ancients_games.xenophon"

from .game import Xenophon  # noqa: E402  (model imports PACKAGE from here)

GAME = Xenophon()

__all__ = ["GAME", "PACKAGE", "Xenophon"]
