"""The battle die of Commands & Colors: Ancients (``ccr:base.dice``): the one die every roll of
this game uses, a :class:`~ancients_kit.chance.SymbolDie` of the core's dice."""

from __future__ import annotations

from ancients_kit.chance import SymbolDie

__all__ = ["BATTLE_DIE"]

BATTLE_DIE = SymbolDie(
    "battle",
    ("light", "medium", "heavy", "leader", "flag", "swords"),
)
"""The Commands & Colors: Ancients battle die (``ccr:base.dice``).

Six faces, one symbol each: light (green circle), medium (blue triangle),
heavy (red square), leader (helmet), flag, crossed swords.

Checked as follows (the brief asked whether light has two faces). Our own
book (../shared/rules/ccancients_rome.txt) names all six symbols as die
results: green circles (Caltrops), a symbol per unit class (the Nisibis
rally succeeds on the block's own unit-type symbol or a leader; the classes
are the green, blue and red ones of Unit Symbols and Colours), leader
symbols (Praetorian Guard), swords (cataphracts, Wagon Laager) and flags
(Wagon Laager). The battle die is an ordinary six-sided die with a label on
each face, so six distinct symbols leave no face to double, and the
one-face-each reading of ../shared/design/MISSING_DATA.md (marked H) follows. Public pages searched for a direct statement (ultraboardgames C&C
Ancients rules page, the 3rd-edition rule book transcriptions on docplayer
and pdfslide, the ccancients.net dice-results summary) gave only excerpts
without the dice description. A doubled infantry face belongs to other
Commands & Colors games (Memoir '44, Battle Cry). Every helper takes the die
as input, so a designer can still roll a different die.
"""
