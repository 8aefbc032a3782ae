"""The words of Xenophon's sequence of play and questions: sides, phases, every kind of decision.

``Decision.kind`` names what a question asks, so that the bot's scores
(:mod:`.bot`), the table's hints and the tests can tell a choice of city from
a choice of chit without reading its prompt; :attr:`XenState.phase
<ancients_games.xenophon.state.XenState.phase>` names the phase being played.
Each value is the string a side, a phase or a kind has always been (a
:class:`~enum.StrEnum` compares, hashes and formats as that string), so logs
and saves read as before.

This module imports nothing of the game: it is the bottom of the game's
layers (docs/architecture.md, "Each game in one shape").
"""

from __future__ import annotations

import enum

__all__ = ["COMBAT_KINDS", "DIPLOMACY_KINDS", "OPERATIONS_KINDS", "PLAYER_TURN", "WINDOW_KINDS", "Kind", "Phase",
           "Side"]


class Phase(enum.StrEnum):
    """The phase being played (xen:sequence), in the order of a game."""

    SETUP = "setup"
    """Before play: the scenario's set-up lists placed (xen:scenario.cyrus-revolt)."""
    EVENTS = "events"
    """a. The Random Events phase (xen:random-events)."""
    STRATAGEM = "stratagem"
    """b. The Stratagem phase (xen:stratagem)."""
    DIPLOMACY = "diplomacy"
    """c. The Diplomacy phase (xen:diplomacy)."""
    TREASURY = "treasury"
    """d. The Treasury phase (xen:treasury)."""
    RECRUIT = "recruit"
    """e. The Recruit phase (xen:recruit)."""
    LEVY = "levy"
    """f. The Levy phase (xen:levy)."""
    OPERATIONS = "operations"
    """g. The Operations phase (xen:operations)."""
    SUPPLY = "supply"
    """h. The Supply phase (xen:supply)."""
    OVER = "over"
    """The game has ended (xen:victory)."""


class Kind(enum.StrEnum):
    """What a Xenophon decision asks, grouped by the phase or rule that asks it."""

    # -- set-up (setup.py)
    SETUP_SUPREME = "setup.supreme"
    """Which capital the Empire's Supreme Leader starts in (xen:scenario.cyrus-revolt)."""
    SETUP_LEADER = "setup.leader"
    """Which other Empire city a leader of the set-up lists starts in (xen:scenario.cyrus-revolt)."""
    SETUP_GUARD = "setup.guard"
    """Which satrapy a Guard unit is placed in (xen:guards)."""
    SETUP_GUARD_HEX = "setup.guard-hex"
    """Which hex of it the Guard unit is placed in (xen:guards)."""
    SETUP_PLACE = "setup.place"
    """Where a unit of the set-up lists is placed, with placement 'choose' (xen:scenario.cyrus-revolt)."""
    # -- the chits (chits.py, stratagems.py)
    CHIT_RETURN = "chit.return"
    """Which chit goes back to the pool when a hand is over its limit (xen:stratagem)."""
    STRATAGEM_PLAY = "stratagem.play"
    """Which chit the phasing player plays in his Stratagem phase, or none (xen:stratagem)."""
    STRATAGEM_RETURN = "stratagem.return"
    """Which chit is returned to the pool (xen:stratagem)."""
    STRATAGEM_REVEAL = "stratagem.reveal"
    """What a player shows the opponent (xen:intelligence)."""
    LEADER_ARISE = "leader.arise"
    """Which leader arises (xen:leaders)."""
    TEN_THOUSAND_CITY = "ten-thousand.city"
    """Which city the Ten Thousand chit recruits in (xen:recruit)."""
    TEN_THOUSAND_COUNT = "ten-thousand.count"
    """How many Phalanx the Ten Thousand chit recruits (xen:recruit)."""
    MOBILIZE_SATRAPY = "mobilize.satrapy"
    """Which satrapy the Empire Mobilizes chit levies in next, or done (xen:levy)."""
    MOBILIZE_TYPE = "mobilize.type"
    """Which unit type it levies there (xen:levy)."""
    MOBILIZE_HEX = "mobilize.hex"
    """Which hex the levied unit is placed in (xen:levy)."""
    SCORCHED_EARTH_HEX = "scorched-earth.hex"
    """Which of one's own hexes the Scorched Earth chit burns (xen:chits)."""
    # -- the windows (chits.WINDOWS and negotiations', asked by ancients_kit.windows as ``window.<name>``)
    WINDOW_AFTER_ROLL = "window.after-roll"
    """Whether a player plays Consult Oracles after a die roll (xen:chits)."""
    WINDOW_DIPLOMACY = "window.diplomacy"
    """Whether a chit is played at a Diplomacy attempt (xen:diplomacy)."""
    WINDOW_TREASURY = "window.treasury"
    """Whether a chit is played at the start of the Treasury phase (xen:treasury)."""
    WINDOW_RECRUIT = "window.recruit"
    """Whether a chit is played at the start of the Recruit phase (xen:recruit)."""
    WINDOW_LEVY = "window.levy"
    """Whether a chit is played at the start of the Levy phase (xen:levy)."""
    WINDOW_OPERATIONS = "window.operations"
    """Whether a chit is played at the designation of a force (xen:operations)."""
    WINDOW_REACTION = "window.reaction"
    """Whether the non-phasing player reacts with Forced March (xen:opt.reaction)."""
    WINDOW_BATTLE = "window.battle"
    """Whether the attacker plays a chit at the declaration of an attack (xen:combat)."""
    WINDOW_BEFORE_ODDS = "window.before-odds"
    """Whether a chit is played in a battle before its odds are set (xen:combat)."""
    WINDOW_SUPREME_LEADER_LOST = "window.supreme-leader-lost"
    """Whether the owner plays Successor at his Supreme Leader's elimination (xen:supreme-leaders)."""
    WINDOW_NEGOTIATIONS = "window.negotiations"
    """Whether a player opens negotiations at the start of the Diplomacy phase (xen:negotiations)."""
    # -- a. Random Events (events.py, leaders.py)
    EVENT_PLACE = "event.place"
    """Where a leader who arises is placed (xen:leaders)."""
    EVENT_LEADER = "event.leader"
    """Which leader the Leader Arises event brings in (xen:random-events)."""
    EVENT_UNIT = "event.unit"
    """Which unit an event rallies (xen:random-events)."""
    EVENT_ATTRITION = "event.attrition"
    """Which unit attrition takes (xen:random-events)."""
    EVENT_RESISTS = "event.resists"
    """Which satrapy Satrapy Resists names (xen:random-events)."""
    EVENT_UNPAID = "event.unpaid"
    """Which unpaid unit is lost (xen:random-events)."""
    EVENT_FAMINE = "event.famine"
    """Which satrapy famine strikes (xen:random-events)."""
    EVENT_OMENS = "event.omens"
    """Which chit Favourable Omens draws (xen:random-events)."""
    EVENT_CONSPIRACY = "event.conspiracy"
    """Which enemy leader a Conspiracy tries to assassinate, or none (xen:random-events)."""
    # -- c. Diplomacy (diplomacy.py, negotiations.py)
    DIPLOMACY_SATRAPY = "diplomacy.satrapy"
    """Which satrapy a Diplomacy attempt is made in, or none (xen:diplomacy)."""
    DIPLOMACY_OPEN = "diplomacy.open"
    """Which Agent chit a Diplomacy attempt plays first (xen:diplomacy)."""
    DIPLOMACY_RESULT = "diplomacy.result"
    """What a player chooses on a Diplomacy result (xen:diplomacy)."""
    NEGOTIATIONS_TERM = "negotiations.term"
    """Which term an agreement offers next, or done (xen:negotiations)."""
    NEGOTIATIONS_ANSWER = "negotiations.answer"
    """Whether the other player accepts the agreement (xen:negotiations)."""
    NEGOTIATIONS_CHIT = "negotiations.chit"
    """Which chit an agreement hands over (xen:negotiations)."""
    # -- d. Treasury (treasury.py)
    TREASURY_SPEND = "treasury.spend"
    """What the phasing player buys next, or done (xen:treasury)."""
    TREASURY_UPKEEP = "treasury.upkeep"
    """Whether the units' upkeep is paid, or which unit disbands (xen:treasury)."""
    # -- e. Recruit and f. Levy (recruit.py)
    RECRUIT_CITY = "recruit.city"
    """Which city recruits next, or done (xen:recruit)."""
    RECRUIT_UNIT = "recruit.unit"
    """What it recruits (xen:recruit)."""
    LEVY_TYPE = "levy.type"
    """Which unit type a satrapy levies, or done (xen:levy)."""
    LEVY_HEX = "levy.hex"
    """Which hex the levied unit is placed in (xen:levy)."""
    # -- g. Operations (operations.py, pillage.py)
    OPS_FORCE = "ops.force"
    """Which force operates next, or done (xen:operations)."""
    OPS_FORCE_UNITS = "ops.force-units"
    """Which units make up the force (xen:operations)."""
    OPS_ACTION = "ops.action"
    """What the force does next: move, attack, pillage, ... or end (xen:operations)."""
    OPS_FORCED_MARCH_FORCE = "ops.forced-march-force"
    """Which force a Forced March moves (xen:forced-march)."""
    OPS_FORCED_MARCH_LOSS = "ops.forced-march-loss"
    """Which unit a Forced March loses (xen:forced-march)."""
    OPS_REACTION_FORCE = "ops.reaction-force"
    """Which force reacts (xen:opt.reaction)."""
    OPS_COLONIST = "ops.colonist"
    """Which unit settles a Colony (xen:colonisation)."""
    # -- battles (combat.py, leaders.py)
    COMBAT_CRT = "combat.crt"
    """Which column of the Combat Results Table a battle uses (xen:combat, xen:crt)."""
    COMBAT_WITHDRAW = "combat.withdraw"
    """Whether the defender withdraws before the battle (xen:combat)."""
    COMBAT_WITHDRAWAL = "combat.withdrawal"
    """Which hex a withdrawal goes to next, or stop (xen:combat)."""
    COMBAT_RETREAT = "combat.retreat"
    """Which hex a retreat goes to next, or stop (xen:retreats)."""
    COMBAT_LOSS = "combat.loss"
    """Which unit a battle's losses take (xen:crt)."""
    COMBAT_HOLD = "combat.hold"
    """Whether a force in a City or Colony holds or retreats (xen:retreats)."""
    COMBAT_PERSONAL = "combat.personal"
    """Whether a leader challenges to personal combat (xen:opt.personal-combat)."""
    COMBAT_PERSONAL_ANSWER = "combat.personal-answer"
    """Whether the challenge is accepted (xen:opt.personal-combat)."""
    COMBAT_PERSONAL_LEADER = "combat.personal-leader"
    """Which leader fights it (xen:opt.personal-combat)."""
    # -- h. Supply (supply.py)
    SUPPLY_TRAIN = "supply.train"
    """Whether a Supply Train is expended (xen:supply)."""
    SUPPLY_LOSE = "supply.lose"
    """Which unit out of supply is lost (xen:supply)."""


class Side(enum.StrEnum):
    """The two players, fixed by the book (xen:sequence): the Rebel player-turn comes first."""

    REBEL = "rebel"
    """Cyrus the Younger's side, and the Ten Thousand's (xen:sequence)."""
    EMPIRE = "empire"
    """The Great King Artaxerxes II's side (xen:sequence)."""


PLAYER_TURN: tuple[Phase, ...] = (
    Phase.EVENTS, Phase.STRATAGEM, Phase.DIPLOMACY, Phase.TREASURY, Phase.RECRUIT, Phase.LEVY, Phase.OPERATIONS,
    Phase.SUPPLY)
"""Phases a-h of a player-turn, in order (xen:sequence)."""


WINDOW_KINDS: tuple[Kind, ...] = (
    Kind.WINDOW_AFTER_ROLL, Kind.WINDOW_DIPLOMACY, Kind.WINDOW_TREASURY, Kind.WINDOW_RECRUIT, Kind.WINDOW_LEVY,
    Kind.WINDOW_OPERATIONS, Kind.WINDOW_REACTION, Kind.WINDOW_BATTLE, Kind.WINDOW_BEFORE_ODDS,
    Kind.WINDOW_SUPREME_LEADER_LOST, Kind.WINDOW_NEGOTIATIONS)
"""The chit windows' questions (xen:chits), every one a play or none."""

DIPLOMACY_KINDS: tuple[Kind, ...] = (
    Kind.DIPLOMACY_SATRAPY, Kind.DIPLOMACY_OPEN, Kind.DIPLOMACY_RESULT, Kind.NEGOTIATIONS_TERM,
    Kind.NEGOTIATIONS_ANSWER, Kind.NEGOTIATIONS_CHIT)
"""c. The Diplomacy phase's questions: attempts (xen:diplomacy) and agreements (xen:negotiations)."""

OPERATIONS_KINDS: tuple[Kind, ...] = (
    Kind.OPS_FORCE, Kind.OPS_FORCE_UNITS, Kind.OPS_ACTION, Kind.OPS_FORCED_MARCH_FORCE, Kind.OPS_FORCED_MARCH_LOSS,
    Kind.OPS_REACTION_FORCE, Kind.OPS_COLONIST)
"""g. The Operations phase's questions of a force (xen:operations), battles apart."""

COMBAT_KINDS: tuple[Kind, ...] = (
    Kind.COMBAT_CRT, Kind.COMBAT_WITHDRAW, Kind.COMBAT_WITHDRAWAL, Kind.COMBAT_RETREAT, Kind.COMBAT_LOSS,
    Kind.COMBAT_HOLD, Kind.COMBAT_PERSONAL, Kind.COMBAT_PERSONAL_ANSWER, Kind.COMBAT_PERSONAL_LEADER)
"""A battle's questions (xen:combat, xen:crt, xen:retreats, xen:opt.personal-combat)."""
