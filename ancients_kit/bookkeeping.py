"""A strategic game's state bookkeeping, kept the same way whatever the game.

A strategic game's state holds its pieces by ID, each somewhere: on the map in a
hex, or off it in a pile the game names (a dead pile, a counter mix, a pool ...).
:class:`PiecesOnMap` is the part of such a state that keeps the pieces and the
per-hex index (:class:`~ancients_kit.occupancy.HexIndex`) in step: the state
class mixes it in and declares the two fields it reads, ``units`` (ID ->
piece) and ``_at`` (the index). The state's own place/remove methods check
what the game's rules ask, then call :meth:`PiecesOnMap.put_on_map` and
:meth:`PiecesOnMap.take_off`.

:class:`ChitsInPlay` is the part that keeps a chit game's cup, hands and what came of
the chits played (chits out of the game, hands or money shown, short-lived effects).

:func:`built_once` keeps the documents a game builds from a data store, once
per process and store, as the games' ``load_data`` want them.

Nothing here names a game: a piece is anything with an ``id``, a ``where`` and a
``hex``; what the piles are called is the game's.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from typing import Any, Generic, Protocol, TypeVar

from ancients_kit.chance import ChitCup, Hand
from ancients_kit.data import DataStore
from ancients_kit.occupancy import HexIndex

__all__ = ["ChitsInPlay", "Piece", "PiecesOnMap", "built_once"]


class Piece(Protocol):
    """What the bookkeeping reads of a piece: its ID and where it is."""

    id: str
    where: Any
    """``"map"`` while on the map; any other value names a pile off it (the game's words)."""
    hex: str | None
    """The printed hex ID while on the map."""

    def copy(self) -> Any: ...


P = TypeVar("P", bound=Piece)
T = TypeVar("T")


class PiecesOnMap(Generic[P]):
    """The pieces of a state by ID, and which are in which hex (a mixin for a state class).

    The state class declares ``units: dict[str, P]`` and ``_at: HexIndex`` as its own
    fields; every method here keeps the two in step.
    """

    __slots__ = ()

    units: dict[str, P]
    _at: HexIndex

    def unit(self, uid: str) -> P:
        """The piece ``uid``; ``ValueError`` if the game has none of that ID."""
        try:
            return self.units[uid]
        except KeyError:
            raise ValueError(f"no unit {uid!r} in this game") from None

    def add_unit(self, unit: P) -> P:
        """Add a new piece (into the index too if it is on the map); ``ValueError`` if its ID is taken."""
        if unit.id in self.units:
            raise ValueError(f"unit {unit.id!r} already exists")
        self.units[unit.id] = unit
        if unit.where == "map":
            assert unit.hex is not None
            self._at.add(unit.hex, unit.id)
        return unit

    def units_at(self, hex_id: str) -> list[P]:
        """The pieces in a hex, in the order they arrived."""
        return [self.units[u] for u in self._at.ids(hex_id)]

    def occupied(self) -> Iterator[str]:
        """Every hex holding one or more pieces."""
        return self._at.occupied()

    def on_map(self) -> Iterator[P]:
        """Every piece on the map, in the order the pieces were added."""
        return (u for u in self.units.values() if u.where == "map")

    def put_on_map(self, uid: str, hex_id: str) -> P:
        """Put a piece into a hex from wherever it is (the caller has checked the hex and the rules)."""
        u = self.unit(uid)
        self.take_off(u)
        u.where, u.hex = "map", hex_id
        self._at.add(hex_id, uid)
        return u

    def take_off(self, u: P) -> None:
        """Take ``u`` out of the per-hex index if it is on the map (its ``where`` and ``hex`` are the
        caller's to set next)."""
        if u.where == "map" and u.hex is not None:
            self._at.discard(u.hex, u.id)

    def copy_pieces_to(self, other: PiecesOnMap[P]) -> None:
        """Give ``other`` (a copy of this state) its own copies of the pieces and of the index."""
        other.units = {k: u.copy() for k, u in self.units.items()}
        other._at = self._at.copy()


class ChitsInPlay:
    """A chit game's cup, each side's hand and what came of the chits played (a mixin for a
    state class).

    The state class declares as its own fields ``pool`` (the cup), ``hands`` (side -> hand),
    ``removed_chits`` (chits out of the game), ``revealed`` (what a side was shown, by the
    showing rule's key) and ``effects`` (short-lived effects of chits and events, by the
    owning module's key; a value with a ``copy`` method is copied with the state).
    """

    __slots__ = ()

    pool: ChitCup
    hands: dict[str, Hand]
    removed_chits: list[Any]
    revealed: dict[str, Any]
    effects: dict[str, Any]

    def hand(self, side: str) -> Hand:
        """The hand of chits ``side`` holds."""
        return self.hands[side]

    def copy_chits_to(self, other: ChitsInPlay) -> None:
        """Give ``other`` (a copy of this state) its own cup, hands, lists of removed and revealed
        chits and effects."""
        other.pool = self.pool.copy()
        other.hands = {s: h.copy() for s, h in self.hands.items()}
        other.removed_chits = list(self.removed_chits)
        other.revealed = dict(self.revealed)
        other.effects = {k: (v.copy() if hasattr(v, "copy") else v) for k, v in self.effects.items()}


_BUILT: dict[tuple[Hashable, ...], tuple[Any, dict[str, Any]]] = {}
"""What :func:`built_once` built, by builder and data store key, with the documents it loaded."""


def built_once(store: DataStore, build: Callable[[DataStore], T]) -> T:
    """``build(store)``, once per process for a store that can be shared (its
    :attr:`~ancients_kit.data.DataStore.shared_key`: the package and its variants): a
    second call returns the first result and marks the documents it loaded as loaded
    in ``store`` too, as a fresh build would have."""
    key = store.shared_key
    if key is None:
        return build(store)
    cached = _BUILT.get((build, *key))
    if cached is not None:
        data, loaded = cached
        store.loaded.update(loaded)
        return data  # type: ignore[no-any-return]
    data = build(store)
    _BUILT[(build, *key)] = (data, dict(store.loaded))
    return data
