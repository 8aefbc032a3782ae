"""Which pieces are in which hex: a per-hex index kept by a game's state.

A strategic game moves pieces between hexes and off the map thousands of times
a game, and asks "who is in this hex?" far more often. :class:`HexIndex` keeps
the answer: hex ID -> piece IDs in the order they arrived. The state that owns
the pieces calls :meth:`HexIndex.add` and :meth:`HexIndex.discard` from its own
place/remove methods, so the index never disagrees with the pieces.
"""

from __future__ import annotations

from collections.abc import Iterator

__all__ = ["HexIndex"]


class HexIndex:
    """Hex ID -> the IDs of the pieces in it, in arrival order (no empty entries)."""

    __slots__ = ("_at",)

    def __init__(self) -> None:
        self._at: dict[str, list[str]] = {}

    def add(self, hex_id: str, piece: str) -> None:
        """``piece`` arrives in ``hex_id`` (last in its order)."""
        self._at.setdefault(hex_id, []).append(piece)

    def discard(self, hex_id: str, piece: str) -> None:
        """``piece`` leaves ``hex_id``; nothing happens if it was not there."""
        ids = self._at.get(hex_id)
        if ids is not None and piece in ids:
            ids.remove(piece)
            if not ids:
                del self._at[hex_id]

    def ids(self, hex_id: str) -> tuple[str, ...] | list[str]:
        """The pieces in ``hex_id`` (do not mutate the list returned)."""
        return self._at.get(hex_id, ())

    def occupied(self) -> Iterator[str]:
        """Every hex holding one or more pieces."""
        return iter(self._at)

    def copy(self) -> HexIndex:
        other = HexIndex()
        other._at = {k: list(v) for k, v in self._at.items()}
        return other

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HexIndex) and other._at == self._at

    def __repr__(self) -> str:
        return f"HexIndex({len(self._at)} hexes)"
