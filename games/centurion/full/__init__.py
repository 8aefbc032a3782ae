"""Centurion Full Simulation: the five-phase player turn and every rule layered on it.

This package owns the Full Simulation rules (``cen:full.*``), the optional rules
(``cen:opt.*``) and the Barbarian and Roman special options (``cen:barb.*``,
``cen:rom.*``). The engine package (``ancients_games.centurion``) owns the state
model, movement and the Basic Game; it calls in here through:

* :func:`ancients_games.centurion.full.sequence.play_full` -- the generator that
  plays a Full Simulation game from a set-up state (``cen:full.sequence``);
* :data:`ancients_games.centurion.full.options.OPTION_SPECS` -- the switchable
  optional and special rules, each naming its rule ID;
* :func:`ancients_games.centurion.full.odds.full_decision_odds` and
  :func:`ancients_games.centurion.full.bots.score_option` -- odds and bot scores.

Modules, by rule, each importing only those above it:

==================  ==========================================================
``fire``            missile fire: FPF (cen:full.fire-protection), FEM (cen:full.fem),
                    range and arc, hilltop range 2 (cen:full.combat D)
``melee``           melee defence by facing (cen:full.facing, cen:full.combat J),
                    homogeneity (H), terrain, cross-river (cen:full.cross-river)
``cavalry``         charges (cen:full.cavalry)
``victory``         points, levels, concession (cen:full.victory, cen:full.concession)
``book``            the Full Simulation's bookkeeping on the state, and its log
``options``         optional and special rules as options; set-up readings
``square``          the Roman square (cen:full.square): factors, forming, joining, breaking up
``units``           what a unit may do now: factors, fire and melee targets (cen:full.units)
``movement_hooks``  the engine's movement with squares, rivers, commands, charges
                    (cen:full.movement, cen:full.stacking, cen:barb.warrior)
``morale``          demoralization, panic, rally, treachery
``works``           earthworks and caltrops (cen:opt.earthworks, cen:opt.caltrops)
``combat``          attacks, CRTs, odds factors, results (cen:full.combat)
``mounts``          mounting and dismounting (cen:opt.mount-dismount)
``light_cavalry``   retreat before combat, never surrounded (cen:full.cavalry)
``warriors``        barbarians advance and must attack (cen:barb.warrior)
``deployment``      set-up checks (cen:full.setup, cen:full.deployment)
``start_of_turn``   treachery invoked; square, relief, works, mounts (phase 0)
``allocation``      Attack Allocation (phase 2)
``fire_phase``      Defensive and Offensive Fire (phases 3, 4; cen:full.defensive-fire)
``melee_phase``     Melee (phase 5; cen:full.combat J, cen:full.square C)
``end_of_turn``     victory, concession, withdrawal at the end of a Game-Turn
``sequence``        the sequence of play (cen:full.sequence)
``odds``, ``bots``  odds before an attack is committed (read on the engine's
                    calculator, ``centurion/odds.py``); the greedy bot's scores
==================  ==========================================================

Rules code here never prints; it returns values or logs events through the
session context.
"""

from __future__ import annotations
