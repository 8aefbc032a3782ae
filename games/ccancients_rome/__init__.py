"""C&C: Ancients, Expansion #4 Imperial Rome for ancients-kit: the plugin object ``GAME``."""

from __future__ import annotations

from .game import CCAncientsRome

__all__ = ["GAME", "CCAncientsRome"]

GAME = CCAncientsRome()
