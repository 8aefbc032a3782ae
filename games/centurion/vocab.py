"""The words of Centurion's sequence of play and questions: its phases and every kind of decision its rules ask.

``Decision.kind`` names what a question asks, so that the bots' scores, the
odds pane and the table's hints can tell a choice of target from a choice of
hex without reading its prompt; :attr:`CenturionState.phase
<ancients_games.centurion.state.CenturionState.phase>` names the phase being
played. Each value is the string a phase or a kind has always been (a
:class:`~enum.StrEnum` compares, hashes and formats as that string), so logs
and saves read as before.

The sides are not here: each scenario names its own two armies (``romans``,
``numidians``, ``pompeians`` ...) in its data file (cen:scenarios), so they stay
strings from the data.
"""

from __future__ import annotations

import enum

__all__ = ["DEPLOYMENT_KINDS", "START_KINDS", "Kind", "PHASES_BASIC", "Phase"]


class Phase(enum.StrEnum):
    """The phase being played (cen:basic.sequence, cen:full.sequence), in the order of a game."""

    SETUP = "setup"
    """Before play: the scenario's counters placed (cen:basic.deployment)."""
    DEPLOYMENT = "deployment"
    """The optional placement of the armies before the first turn (cen:full.deployment)."""
    START = "start"
    """The start of a Full Simulation Player-Turn: panic, treachery, rally, formations and works (cen:full.sequence)."""
    MOVEMENT = "movement"
    """The Movement Phase (cen:basic.movement, cen:full.movement; phase 1 of cen:full.sequence)."""
    COMBAT = "combat"
    """The Basic Game's Combat Phase (cen:basic.combat)."""
    ALLOCATION = "allocation"
    """The Attack Allocation Phase (phase 2 of cen:full.sequence)."""
    DEFENSIVE_FIRE = "defensive-fire"
    """The Defensive Fire Phase (phase 3 of cen:full.sequence; cen:full.defensive-fire)."""
    OFFENSIVE_FIRE = "offensive-fire"
    """The Offensive Fire Phase (phase 4 of cen:full.sequence; cen:full.combat H)."""
    MELEE = "melee"
    """The Melee Attack Phase (phase 5 of cen:full.sequence; cen:full.combat)."""


PHASES_BASIC: tuple[Phase, Phase] = (Phase.MOVEMENT, Phase.COMBAT)
"""The two phases of a Basic Game Player-Turn (cen:basic.sequence)."""


class Kind(enum.StrEnum):
    """What a Centurion decision asks, in the order of a game."""

    DEPLOY_UNIT = "deploy.unit"
    """Which unit is placed again, or done (cen:full.deployment)."""
    DEPLOY_HEX = "deploy.hex"
    """Where it is placed (cen:full.deployment)."""
    DEPLOY_FACING = "deploy.facing"
    """Which way it faces (cen:full.facing)."""
    TREACHERY = "treachery"
    """Whether the enemy invokes treachery now (cen:full.treachery)."""
    START_ACTION = "start.action"
    """Which formation or work of the start of a Player-Turn, or done (cen:full.sequence)."""
    START_SQUARE = "start.square"
    """Which hex forms square (cen:full.square)."""
    START_DISBAND = "start.disband"
    """Which square disbands (cen:full.square)."""
    START_RELIEF = "start.relief"
    """Which fresh Swordsmen relieve which dispersed ones (cen:full.relief)."""
    START_WORKS = "start.works"
    """Which hex starts building earthworks or laying caltrops (cen:opt.earthworks, cen:opt.caltrops)."""
    START_LEAVE = "start.leave"
    """Which unit leaves its square (cen:full.square)."""
    START_DISMOUNT = "start.dismount"
    """Which rider dismounts (cen:opt.mount-dismount)."""
    START_DISMOUNT_AS = "start.dismount-as"
    """What foot type it dismounts as (cen:opt.mount-dismount)."""
    START_MOUNT = "start.mount"
    """Which dismounted rider mounts again (cen:opt.mount-dismount)."""
    START_DESTROY_MOUNTS = "start.destroy-mounts"
    """Which riderless mounts their own side destroys (cen:opt.mount-dismount H)."""
    MOVE_UNIT = "move.unit"
    """Which unit (or stack) moves next, or done (cen:basic.movement, cen:full.movement; asked by ``movement``)."""
    MOVE_HEX = "move.hex"
    """Where it moves (cen:basic.movement, cen:full.movement; asked by ``movement``)."""
    MOVE_FACING = "move.facing"
    """Which way it faces at the end of its move (cen:full.facing; asked by ``movement``)."""
    WORKS_RAZE = "works.raze"
    """Which occupied earthworks are destroyed at the end of the Movement Phase (cen:opt.earthworks)."""
    COMBAT_HEX = "combat.hex"
    """Which enemy hex the Basic Game attacks next, or done (cen:basic.combat)."""
    COMBAT_ATTACKERS = "combat.attackers"
    """Which adjacent units join that attack (cen:basic.combat)."""
    ATTACK_TARGET = "attack.target"
    """Which enemy hex an attack is allocated against, or done (Attack Allocation, cen:full.sequence)."""
    ATTACK_MODE = "attack.mode"
    """Whether it is a melee or a missile attack (cen:full.combat)."""
    ATTACK_UNIT = "attack.unit"
    """Which unit joins it, all, or done (cen:full.combat)."""
    RETREAT = "retreat"
    """Whether attacked Light Cavalry retreats before combat (cen:full.cavalry)."""
    FIRE_DEFENSIVE = "fire.defensive"
    """Which attacking hex the defender's missile units fire at, or done (cen:full.defensive-fire)."""
    MELEE_ALLOT = "melee.allot"
    """How the defenders are allotted to the melee attacks on their hex (cen:full.combat)."""
    VICTORY_CONCEDE = "victory.concede"
    """Whether the side behind fights on, withdraws or concedes (cen:full.victory, cen:full.concession)."""
    VICTORY_ACCEPT = "victory.accept"
    """Whether the side ahead accepts a concession (cen:full.victory)."""
    VICTORY_DECLARE = "victory.declare"
    """Whether the side ahead declares its victory now (cen:full.victory)."""


DEPLOYMENT_KINDS: frozenset[Kind] = frozenset({Kind.DEPLOY_UNIT, Kind.DEPLOY_HEX, Kind.DEPLOY_FACING})
"""The questions of placement by centre of mass (cen:full.deployment)."""
START_KINDS: frozenset[Kind] = frozenset({
    Kind.START_ACTION, Kind.START_SQUARE, Kind.START_DISBAND, Kind.START_RELIEF, Kind.START_WORKS, Kind.START_LEAVE,
    Kind.START_DISMOUNT, Kind.START_DISMOUNT_AS, Kind.START_MOUNT, Kind.START_DESTROY_MOUNTS,
})
"""The questions of the start of a Player-Turn: formations, works, mounts (cen:full.sequence)."""
