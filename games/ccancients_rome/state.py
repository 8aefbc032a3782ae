"""Game state: units, leaders, wagons, hands, banners, the deck and the turn.

Owns the mutable records the rules act on: :class:`Unit`, :class:`Leader`,
:class:`Wagon`, :class:`Army` (hand, banners, command) and
:class:`BattleState` (one battle) inside :class:`GameState` (a battle or a
Para Bellum series). Serves ``ccr:units`` (blocks), ``ccr:setup`` (placing the
armies, dealing Command cards), ``ccr:victory`` (banner counts),
``ccr:special-units`` (the special unit block travels with its unit).
"""

from __future__ import annotations

import copy as _copy
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

    def copy(self) -> Unit:
        """An independent copy (every slot holds a plain value). The slots are named one by one: a
        checkpoint copies every unit, and this is about four times faster than a loop over
        ``__slots__`` (tests/test_throughput checks that a copy carries every slot)."""
        o = Unit.__new__(Unit)
        (o.uid, o.side, o.code, o.hex, o.blocks, o.max_blocks, o.guard, o.special, o.ordered, o.moved, o.stopped,
         o.no_battle, o.battles, o.fired, o.bonus_done, o.can_move, o.start) = (
            self.uid, self.side, self.code, self.hex, self.blocks, self.max_blocks, self.guard, self.special,
            self.ordered, self.moved, self.stopped, self.no_battle, self.battles, self.fired, self.bonus_done,
            self.can_move, self.start)
        return o


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

    def copy(self) -> Leader:
        o = Leader.__new__(Leader)
        o.lid, o.side, o.name, o.hex, o.ordered, o.moved = self.lid, self.side, self.name, self.hex, self.ordered, self.moved
        return o


class Wagon:
    """A Baggage Wagon or Wagon Laager block (not a unit; ccr:baggage-wagon, ccr:wagon-laager)."""

    __slots__ = ("side", "kind", "hex", "ordered", "moved")

    def __init__(self, side: str, kind: str, hex: str) -> None:
        self.side = side
        self.kind = kind
        self.hex = hex
        self.ordered = False
        self.moved = False

    def copy(self) -> Wagon:
        o = Wagon.__new__(Wagon)
        o.side, o.kind, o.hex, o.ordered, o.moved = self.side, self.kind, self.hex, self.ordered, self.moved
        return o


class Army:
    """One side: its War Council figures, hand and banners (ccr:setup, ccr:victory)."""

    __slots__ = ("key", "name", "army", "command", "hand", "banners", "target", "lost", "last_card", "reserve",
                 "reserve_leaders", "last_sections")

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
        self.last_sections: tuple[str, ...] = ()
        """Sections (its own view) of the leader or unit its last Leadership Any Section ordered: a Counter
        Attack of that card must order in the same section (ccr:base.cards)."""
        self.reserve: list[tuple[str, tuple[str, ...]]] = []
        self.reserve_leaders = 0

    def copy(self) -> Army:
        """An independent copy: every slot, with the hand and the lists copied (named one by one,
        as :meth:`Unit.copy`; tests/test_throughput checks that a copy carries every slot)."""
        o = Army.__new__(Army)
        (o.key, o.name, o.army, o.command, o.banners, o.target, o.last_card, o.reserve_leaders, o.last_sections) = (
            self.key, self.name, self.army, self.command, self.banners, self.target, self.last_card,
            self.reserve_leaders, self.last_sections)
        o.hand, o.lost, o.reserve = self.hand.copy(), list(self.lost), list(self.reserve)
        return o


_BATTLE_SWITCHES = frozenset({"caltrops", "panic", "drown", "camp_banner", "camp_hexes", "crossing", "exits",
                              "guard_sides", "legions"})
"""The scenario switches: filled by setup (expansion.apply_special_rules), only read in play."""
_BATTLE_SHARED = frozenset({"battle", "types", "cards", "_stops", "_stops_key", "turn", "active", "first", "phase",
                            "card", "over", "winner", "laager_impassable", "next_uid", "first_strike",
                            "plan"}) | _BATTLE_SWITCHES
"""BattleState attributes a copy shares: parsed data, order plans and scenario switches (never changed
in play) and plain values."""
_BATTLE_CONTAINERS = frozenset({"escapes", "checked", "move_done", "fresh", "draw_first"})
"""BattleState attributes copied one level deep (they hold hex IDs, ids and frozen data)."""
_BATTLE_KNOWN = _BATTLE_SHARED | _BATTLE_CONTAINERS | {
    "units", "at", "leaders", "wagons", "armies", "by_key", "deck", "board", "current", "attack", "bot_cache",
    "turn_orders"}
"""Every BattleState attribute :meth:`BattleState.copy` knows; any other is deep-copied."""


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
        # scenario switches (filled by setup, only read in play: state copies share them)
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
        self.draw_first: list[str] = []
        """Sides that played First Strike this turn: they draw their new card first, at the end of the turn
        (ccr:base.cards)."""
        """Option: 'ask', 'auto' or 'never' (how a held First Strike reacts)."""
        self.escapes: list[int] = []
        """Leaders (by id) waiting to choose where they escape (ccr:base.leaders)."""
        self.checked: set[int] = set()
        """Leaders already checked in the current combat sequence (ccr:base.leaders)."""
        self.fresh: set[int] = set()
        """Units (by id) at full strength when the current combat began: warriors keep their fourth die
        and ignored flag until the combat after their first loss (ccr:base.close-combat, ccr:base.retreat)."""
        self.current: Any = None
        """The unit a pending decision is about (for cheap bot scores)."""
        self.attack: tuple[Unit, Unit] | None = None
        """(attacker, defender) of the close combat under way (for cheap bot scores)."""
        self.plan: Any = None
        """The order plan of the card in play while its units battle (for the odds shown before an attack)."""
        self.bot_cache: dict[str, Any] = {}
        """Scratch space for the greedy bot's per-turn scores; no rule reads it."""
        self.turn_orders: tuple[Any, list[Any]] | None = None
        """(order plan, ordered units, leaders and wagons) of the turn under way (orders.turn_after_orders)."""
        self.move_done: set[int] = set()
        """Indices into the ordered items that have moved in the current movement step."""

    def copy(self) -> BattleState:
        """An independent copy for session checkpoints: units, leaders, wagons,
        armies (hands), deck, board terrain and the combat's bookkeeping are new
        objects; parsed data and the scenario switches set up once are shared. An attribute this does not know is
        deep-copied, so a new one is safe before it is listed here."""
        other = BattleState.__new__(BattleState)
        d = other.__dict__
        d.update(self.__dict__)  # plain values and parsed data are shared; the rest is replaced below
        units = {uid: u.copy() for uid, u in self.units.items()}
        new: dict[int, Any] = {id(u): c for u, c in zip(self.units.values(), units.values())}
        for ld in self.leaders:
            new[id(ld)] = ld.copy()
        for w in self.wagons:
            new[id(w)] = w.copy()
        for a in self.armies.values():
            new[id(a)] = a.copy()

        def cp(obj: Any) -> Any:
            got = new.get(id(obj))
            if got is None:
                got = new[id(obj)] = obj.copy()
            return got

        d["units"] = units
        got = new.get
        d["at"] = {h: got(id(u)) or cp(u) for h, u in self.at.items()}  # cp: a unit the units dict lost
        d["leaders"] = [new[id(x)] for x in self.leaders]
        d["wagons"] = [new[id(x)] for x in self.wagons]
        d["armies"] = {k: new[id(a)] for k, a in self.armies.items()}
        d["by_key"] = {k: cp(a) for k, a in self.by_key.items()}
        d["deck"] = self.deck.copy() if self.deck is not None else None
        d["board"] = self.board.copy()
        for name in _BATTLE_CONTAINERS:
            d[name] = type(d[name])(d[name])
        cur = self.current
        d["current"] = cp(cur) if isinstance(cur, (Unit, Leader, Wagon)) else cur
        d["attack"] = tuple(cp(u) for u in self.attack) if self.attack is not None else None  # type: ignore[assignment]
        d["bot_cache"] = {}  # scratch the bot rebuilds from the state
        if self.turn_orders is not None:
            plan, items = self.turn_orders
            d["turn_orders"] = (plan, [cp(x) for x in items])  # the plan is frozen data
        for name in self.__dict__.keys() - _BATTLE_KNOWN:
            d[name] = _copy.deepcopy(self.__dict__[name], {id(self.battle): self.battle})
        return other

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

    def move_unit(self, u: Unit, dest: str, ordered: bool = False) -> None:
        """Put ``u`` on ``dest``, with its attached leader (ccr:base.leaders).

        In an ordered move (``ordered``) a leader ordered on his own does not go with the unit:
        before his own move he detaches and moves alone; after it (he moved onto this unit) he
        has used his order and stays. A retreat, an evasion or a momentum advance takes the
        attached leader along whatever his orders."""
        leader = self.leader_with(u)
        if ordered and leader is not None and leader.ordered:
            leader = None
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

    def copy(self) -> GameState:
        """An independent copy (session checkpoints); the series data is shared."""
        other = GameState.__new__(GameState)
        for name, value in self.__dict__.items():
            if name == "battle":
                value = value.copy() if value is not None else None
            elif name == "totals":
                value = dict(value)
            elif name == "results":
                value = [(label, dict(banners), winner) for label, banners, winner in value]
            elif name == "unrallied":
                value = {k: list(v) for k, v in value.items()}
            elif name not in ("scenario", "sides", "series", "index", "label"):
                value = _copy.deepcopy(value)
            other.__dict__[name] = value
        return other
