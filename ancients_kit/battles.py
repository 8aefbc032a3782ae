"""A battle as a record: who attacks whom, from which hex into which, with which units.

A strategic game resolves a battle of one hex against one hex in several steps
(chits played, shifts, the table read, losses, retreats) that read and change
one record of it. :class:`BattleRecord` is what every such record holds; a game
subclasses it with what its own rules add (column shifts, multipliers, the
table chosen ...). Nothing here names a game: sides and hexes are the game's IDs.
"""

from __future__ import annotations

import attrs

__all__ = ["BattleRecord"]


@attrs.define
class BattleRecord:
    """One battle of one hex against one hex, while it is being resolved."""

    attacker: str
    """The attacking player (the side of the attacking units)."""
    defender: str
    """The defending player."""
    origin: str
    """The attacking hex (where the attacking units are)."""
    target: str
    """The hex attacked."""
    attackers: list[str]
    """The IDs of the attacking units."""
    defenders: list[str]
    """The IDs of the units attacked: every unit of the hex attacked."""

    def describe(self) -> str:
        """The battle in a few words: ``rebel attacks 2907 from 2806``."""
        return f"{self.attacker} attacks {self.target} from {self.origin}"
