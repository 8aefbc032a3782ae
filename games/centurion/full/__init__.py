"""Centurion Full Simulation: the five-phase player turn and every rule layered on it.

This package owns the Full Simulation rules (``cen:full.*``), the optional rules
(``cen:opt.*``) and the Barbarian and Roman special options (``cen:barb.*``,
``cen:rom.*``). The engine package (``ancients_games.centurion``) owns the state
model, movement and the Basic Game; it calls in here through:

* :func:`ancients_games.centurion.full.sequence.play_full` -- the generator that
  plays a Full Simulation game from a set-up state (``cen:full.sequence``);
* :data:`ancients_games.centurion.full.options.OPTION_SPECS` -- the switchable
  optional and special rules, each naming its rule ID.

Modules, by rule:

=================  ==========================================================
``fire``           missile fire: FPF (cen:full.fire-protection), FEM (cen:full.fem),
                   range and arc, hilltop range 2 (cen:full.combat D)
``melee``          melee defence by facing (cen:full.facing, cen:full.combat J),
                   homogeneity (H), terrain, cross-river (cen:full.cross-river),
                   results and contact (cen:full.contact)
``cavalry``        charges (cen:full.cavalry)
``square``         Roman square (cen:full.square)
``relief``         Roman relief (cen:full.relief)
``morale``         demoralization, panic, rally, treachery
``victory``        points, levels, concession (cen:full.victory, cen:full.concession)
``deployment``     set-up checks (cen:full.setup, cen:full.deployment)
``options``        optional and special rules as options
``sequence``       the player turn (cen:full.sequence, cen:full.defensive-fire)
=================  ==========================================================

Rules code here never prints; it returns values or logs events through the
session context.
"""

from __future__ import annotations
