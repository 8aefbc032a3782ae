"""C&C code as it was before the second round of issue 11 item 5 (main at ccc26fb), for the
before/after ratios of ``bench_ccancients_rome.py`` only.

The rules keep only the fast versions; these are the old ones, verbatim, patched in by
:func:`patched` while the reference game plays. State copies: a loop over the slots of a unit
and of an army; the order plan, the fresh units and the First Strike draws deep-copied as
attributes the copy did not know; the scenario switches copied; the deck's card set counted again
and the hand rebuilt through its constructor, the board's terrain map and impassable hexes copied. Terrain: a default terrain
built on every look-up. RandomBot: its stream built
for each decision (``Rng(seed).spawn(label)``), then one draw.

Stage checkpoints: the old code took them at the top of each step of the movement and battle
steps, before the units that can act were known (about one state copy in four was made and
dropped at once, when none could); now before every second choice of a unit. :func:`_old_stage_checkpoints` rebuilds those two functions
from the current source with the checkpoint call moved back there, the only difference, rather
than keeping a second copy of their rules.
"""

from __future__ import annotations

import inspect
import textwrap
import types
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ancients_games.ccancients_rome import orders as _orders
from ancients_games.ccancients_rome import state as _state
from ancients_games.ccancients_rome.state import Unit
from ancients_games.ccancients_rome.terrain import Board, TerrainSpec
from ancients_kit.bots import RandomBot, _stream
from ancients_kit.chance import Deck, Hand

_BATTLE_SHARED = frozenset({"battle", "types", "cards", "_stops", "_stops_key", "turn", "active", "first", "phase",
                            "card", "over", "winner", "laager_impassable", "next_uid", "first_strike"})
_BATTLE_CONTAINERS = frozenset({"caltrops", "panic", "drown", "camp_banner", "camp_hexes", "crossing", "exits",
                                "guard_sides", "escapes", "checked", "legions", "move_done"})
_BATTLE_KNOWN = _BATTLE_SHARED | _BATTLE_CONTAINERS | {
    "units", "at", "leaders", "wagons", "armies", "by_key", "deck", "board", "current", "attack", "bot_cache",
    "turn_orders"}


def unit_copy(self: Any) -> Any:
    o = Unit.__new__(Unit)
    for name in Unit.__slots__:
        setattr(o, name, getattr(self, name))
    return o


def army_copy(self: Any) -> Any:
    o = _state.Army.__new__(_state.Army)
    for name in _state.Army.__slots__:
        setattr(o, name, getattr(self, name))
    o.hand, o.lost, o.reserve = self.hand.copy(), list(self.lost), list(self.reserve)
    return o


def deck_copy(self: Any) -> Any:
    other = Deck((), self.name)
    other.draw_pile = list(self.draw_pile)
    other.discard_pile = list(self.discard_pile)
    other._all = Counter(self._all)
    return other


def hand_copy(self: Any) -> Any:
    other = Hand(self.owner, self.limit, (), self.limit_rule)
    other._cards = list(self._cards)
    return other


def board_copy(self: Any) -> Any:
    other = Board.__new__(Board)
    other.__dict__.update(self.__dict__)
    other.terrain = dict(self.terrain)
    other.impassable = set(self.impassable)
    return other


def board_spec(self: Any, h: str) -> Any:
    return self.specs.get(self.terrain[h], TerrainSpec())


def random_choose(self: Any, session: Any, decision: Any) -> str:
    opts = decision.options
    if len(opts) == 1:
        return opts[0].key
    return opts[_stream(session, decision.side, self.name).randint(0, len(opts) - 1)].key


def _old_stage_checkpoints(fn: Any) -> Any:
    """``fn`` (orders._move_phase or _battle_phase) with its stage checkpoint at the top of its loop,
    every time, where the old code took it; it reads the module's globals, as the original does."""
    lines = textwrap.dedent(inspect.getsource(fn)).splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.strip().startswith("# stage checkpoint:"))
    end = next(i for i in range(start, len(lines)) if "ctx.checkpoint((" in lines[i])
    check = "        " + lines[end].strip()
    kept = lines[:start] + lines[end + 1:]
    kept.insert(kept.index("    while not bs.over:") + 1, check)
    first = "\n" * (fn.__code__.co_firstlineno - 1)  # tracebacks name the lines of orders.py
    module = compile(first + "\n".join(kept), inspect.getsourcefile(fn) or "<orders>", "exec")
    code = next(c for c in module.co_consts if isinstance(c, types.CodeType) and c.co_name == fn.__name__)
    return types.FunctionType(code, vars(_orders), fn.__name__, fn.__defaults__)


_PATCHES: tuple[tuple[Any, str, Any], ...] = (
    (Unit, "copy", unit_copy), (_state.Army, "copy", army_copy), (Deck, "copy", deck_copy),
    (Hand, "copy", hand_copy), (Board, "copy", board_copy), (Board, "spec", board_spec),
    (RandomBot, "choose", random_choose),
    (_orders, "_move_phase", _old_stage_checkpoints(_orders._move_phase)),
    (_orders, "_battle_phase", _old_stage_checkpoints(_orders._battle_phase)),
)
_SETS = {"_BATTLE_SHARED": _BATTLE_SHARED, "_BATTLE_CONTAINERS": _BATTLE_CONTAINERS, "_BATTLE_KNOWN": _BATTLE_KNOWN}
"""BattleState.copy as it was: what it shared, copied one level deep and knew (the rest it deep-copied)."""


@contextmanager
def patched() -> Iterator[None]:
    """The old code in place of the new while the block runs."""
    saved = [(obj, name, obj.__dict__[name]) for obj, name, _ in _PATCHES]
    saved += [(_state, name, getattr(_state, name)) for name in _SETS]
    for obj, name, old in _PATCHES:
        setattr(obj, name, old)
    for name, old in _SETS.items():
        setattr(_state, name, old)
    try:
        yield
    finally:
        for obj, name, new in saved:
            setattr(obj, name, new)
