"""Game state: units, leaders, wagons, hands, banners, the deck and the turn.

Owns the mutable records the rules act on: :class:`Unit`, :class:`Leader`,
:class:`Wagon`, :class:`Army` (hand, banners, command) and
:class:`BattleState` (one battle) inside :class:`GameState` (a battle or a
Para Bellum series). Serves ``ccr:units`` (blocks), ``ccr:setup`` (placing the
armies, dealing Command cards), ``ccr:victory`` (banner counts),
``ccr:special-units`` (the special unit block travels with its unit).
"""

from __future__ import annotations

import re
from typing import Any

from ancients_kit.chance import Deck, Hand

from .scenario import Battle, Series
from .terrain import Board

__all__ = ["Army", "BattleState", "GameState", "Leader", "Unit", "Wagon", "side_name"]


def side_name(army: str) -> str:
    """A short side name from the War Council's army name: 'Severus' Army' -> 'severus'."""
    words = re.sub(r"[^A-Za-z ]", " ", army.replace("'s", "").replace("'", "")).split()
    words = [w.lower() for w in words if w.lower() not in ("army", "of", "the")]
    return "-".join(words) or army.lower()


class Unit:
    """A unit of blocks on the battlefield (ccr:units)."""

    __slots__ = (
        "uid", "side", "code", "hex", "blocks", "max_blocks", "guard", "special",
        "ordered", "moved", "stopped", "no_battle", "battles", "fired", "bonus_done", "can_move", "start",
    )

    def __init__(self, uid: int, side: str, code: str, hex: str, blocks: int, guard: bool = False,
                 special: bool = False) -> None:
        self.uid = uid
        self.side = side
        self.code = code
        self.hex = hex
        self.blocks = blocks
        self.max_blocks = blocks
        self.guard = guard
        """Praetorian Guard (ccr:praetorian-guard)."""
        self.special = special
        """Carries a special unit block (ccr:special-units); it is never lost as a block."""
        self.reset()

    def reset(self) -> None:
        self.ordered = False
        self.moved = 0
        self.stopped = False
        self.no_battle = False
        self.battles = 0
        self.fired = False
        self.bonus_done = False
        self.can_move = True
        self.start = self.hex

    def __repr__(self) -> str:
        return f"<{self.side} {self.code}{self.blocks} @{self.hex}>"


class Leader:
    """A leader block: attached when in a hex with a friendly unit (ccr:base.leaders)."""

    __slots__ = ("lid", "side", "name", "hex", "ordered", "moved")

    def __init__(self, lid: int, side: str, name: str, hex: str) -> None:
        self.lid = lid
        self.side = side
        self.name = name
        self.hex = hex
        self.ordered = False
        self.moved = False


class Wagon:
    """A Baggage Wagon or Wagon Laager block (not a unit; ccr:baggage-wagon, ccr:wagon-laager)."""

    __slots__ = ("side", "kind", "hex", "ordered", "moved")

    def __init__(self, side: str, kind: str, hex: str) -> None:
        self.side = side
        self.kind = kind
        self.hex = hex
        self.ordered = False
        self.moved = False


class Army:
    """One side: its War Council figures, hand and banners (ccr:setup, ccr:victory)."""

    __slots__ = ("key", "name", "army", "command", "hand", "banners", "target", "lost", "last_card", "reserve",
                 "reserve_leaders")

    def __init__(self, key: str, name: str, army: str, command: int, target: int) -> None:
        self.key = key
        """'top' or 'bottom': which baseline is its own."""
        self.name = name
        self.army = army
        self.command = command
        self.hand = Hand(name)
        self.banners = 0
        self.target = target
        self.lost: list[str] = []
        """Unit codes of its eliminated units (the last blocks kept apart, ccr:para-bellum)."""
        self.last_card = ""
        self.reserve: list[tuple[str, tuple[str, ...]]] = []
        self.reserve_leaders = 0


class BattleState:
    """Everything on and around the battlefield in one battle."""

    def __init__(self, battle: Battle, board: Board) -> None:
        self.battle = battle
        self.board = board
        self.units: dict[int, Unit] = {}
        self.at: dict[str, Unit] = {}
        """Hex -> unit (one unit per hex)."""
        self.leaders: list[Leader] = []
        self.wagons: list[Wagon] = []
        self.armies: dict[str, Army] = {}
        """Side name -> army."""
        self.by_key: dict[str, Army] = {}
        self.deck: Deck | None = None
        self.turn = 0
        self.active = ""
        self.first = ""
        self.phase = ""
        self.card = ""
        self.over = False
        self.winner: str | None = None
        # scenario switches (filled by setup)
        self.legions: dict[str, str] = {}
        self.caltrops: set[str] = set()
        self.panic: dict[str, frozenset[str]] = {}
        self.drown: dict[str, str] = {}
        self.camp_banner: set[str] = set()
        self.camp_hexes: set[str] = set()
        self.crossing: dict[str, tuple[str, ...]] = {}
        self.exits: list[Any] = []
        self.laager_impassable = False
        self.guard_sides: set[str] = set()
        self.next_uid = 1
        self.types: dict[str, Any] = {}
        """Unit code -> UnitSpec (data/units.toml)."""
        self.cards: dict[str, Any] = {}
        """Card id -> CardSpec (data/deck.toml)."""
        self._stops: frozenset[str] = frozenset()
        self._stops_key = -1
        self.first_strike = "ask"
        """Option: 'ask', 'auto' or 'never' (how a held First Strike reacts)."""
        self.escapes: list[int] = []
        """Leaders (by id) waiting to choose where they escape (ccr:base.leaders)."""
        self.checked: set[int] = set()
        """Leaders already checked in the current combat sequence (ccr:base.leaders)."""
        self.current: Any = None
        """The unit a pending decision is about (for cheap bot scores)."""
        self.attack: tuple[Unit, Unit] | None = None
        """(attacker, defender) of the close combat under way (for cheap bot scores)."""
        self.plan: Any = None
        """The order plan of the card in play while its units battle (for the odds shown before an attack)."""
        self.bot_cache: dict[str, Any] = {}
        """Scratch space for the greedy bot's per-turn scores; no rule reads it."""

    # -- lookups -------------------------------------------------------------
    def stop_hexes(self) -> frozenset[str]:
        """Hexes whose terrain stops a moving unit (ccr:base.terrain), cached per terrain version."""
        key = self.board.version
        if self._stops_key != key:
            self._stops = frozenset(h for h in self.board.hexes if self.board.spec(h).stop)
            self._stops_key = key
        return self._stops

    def other(self, side: str) -> str:
        for s in self.armies:
            if s != side:
                return s
        raise KeyError(side)

    def key_of(self, side: str) -> str:
        return self.armies[side].key

    def add_unit(self, side: str, code: str, hex: str, blocks: int, guard: bool = False, special: bool = False) -> Unit:
        u = Unit(self.next_uid, side, code, hex, blocks, guard, special)
        self.next_uid += 1
        self.units[u.uid] = u
        self.at[hex] = u
        return u

    def remove_unit(self, u: Unit) -> None:
        self.units.pop(u.uid, None)
        if self.at.get(u.hex) is u:
            del self.at[u.hex]

    def move_unit(self, u: Unit, dest: str) -> None:
        leader = self.leader_with(u)
        if leader is not None and leader.ordered and not leader.moved:
            leader = None  # an ordered leader detaches and moves on his own (ccr:base.leaders)
        if self.at.get(u.hex) is u:
            del self.at[u.hex]
        u.hex = dest
        self.at[dest] = u
        if leader is not None:
            leader.hex = dest

    def leaders_at(self, h: str) -> list[Leader]:
        return [ld for ld in self.leaders if ld.hex == h]

    def leader_with(self, u: Unit) -> Leader | None:
        """The leader attached to ``u`` (in its hex, same side; ccr:base.leaders)."""
        for ld in self.leaders:
            if ld.hex == u.hex and ld.side == u.side:
                return ld
        return None

    def lone_leader(self, h: str) -> Leader | None:
        u = self.at.get(h)
        for ld in self.leaders:
            if ld.hex == h and (u is None or u.side != ld.side):
                return ld
        return None

    def wagon_at(self, h: str, kind: str | None = None) -> Wagon | None:
        for w in self.wagons:
            if w.hex == h and (kind is None or w.kind == kind):
                return w
        return None

    def side_units(self, side: str) -> list[Unit]:
        return [u for u in self.units.values() if u.side == side]

    def adjacent_enemies(self, u: Unit) -> list[Unit]:
        at = self.at
        out = []
        for n in self.board.neighbors[u.hex]:
            v = at.get(n)
            if v is not None and v.side != u.side:
                out.append(v)
        return out

    def friends_adjacent(self, u: Unit) -> int:
        at = self.at
        return sum(1 for n in self.board.neighbors[u.hex] if (v := at.get(n)) is not None and v.side == u.side)


class GameState:
    """A session's state: the current battle, and the series around it if any (ccr:para-bellum)."""

    def __init__(self, scenario: str, sides: tuple[str, str]) -> None:
        self.scenario = scenario
        self.sides = sides
        self.battle: BattleState | None = None
        self.series: Series | None = None
        self.index = 0
        """Battle number in the series (0-based)."""
        self.totals: dict[str, int] = {s: 0 for s in sides}
        self.results: list[tuple[str, dict[str, int], str | None]] = []
        self.unrallied: dict[str, list[str]] = {s: [] for s in sides}
        """Side -> unit codes of blocks not rallied yet (ccr:para-bellum)."""
        self.label = ""

    @property
    def b(self) -> BattleState:
        assert self.battle is not None
        return self.battle
