"""Centurion: Tactical Warfare, 100 B.C.-600 A.D. (SPI Tac 13, 1971) for ancients-kit.

The package exposes :data:`GAME`, registered in the ``ancients_kit.games``
entry-point group. Modules: ``vocab`` (the phases and the kinds of decision),
``model`` (data schema), ``state`` (state model),
``movement``, ``combat``, ``basic`` (the Basic Game, ``cen:basic.*``),
``full/`` (the Full Simulation, ``cen:full.*`` and the optional rules),
``render`` and ``game`` (the plugin).
"""

from __future__ import annotations

from ancients_games.centurion.game import CenturionGame

__all__ = ["GAME", "CenturionGame"]

GAME = CenturionGame()
"""The Centurion game plugin."""
