"""Helpers for a game's translation of a common engagement (``ancients compare``).

What several games' ``compare`` modules write the same way: the words for what an
engagement's support and flank mean in a game whose battle is one hex against one
hex and whose units have no facing (:func:`one_hex_steps`), and the
:class:`~ancients_kit.compare.Translation` of an outcome distribution whose
results the game classes in the common :data:`~ancients_kit.compare.CLASSES`
(:func:`classified`). Each game supplies its own words and rule IDs; nothing here
names a game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction

from ancients_kit.compare import Engagement, Translation

__all__ = ["classified", "one_hex_steps"]


def one_hex_steps(e: Engagement, *, rule: str, units: str) -> list[str]:
    """The steps saying that ``e``'s support and flank do nothing in a game whose battle is one
    hex against one hex (``rule`` says so) and whose ``units`` (the game's words for its units,
    ``LDF units``) have no facing; empty if ``e`` names neither."""
    steps: list[str] = []
    if e.support:
        steps.append(f"support: no effect, a battle is one hex against one hex ({rule})")
    if e.flank:
        steps.append(f"flank: {units} have no facing")
    return steps


def classified(game: str, system: str, steps: Iterable[str], distribution: Mapping[str, Fraction],
               classes: Mapping[str, str], rules: Iterable[str]) -> Translation:
    """The :class:`~ancients_kit.compare.Translation` of ``distribution`` (the game's results with
    their exact probabilities), each result that occurs classed by ``classes`` (every result the
    game has -> one of the common classes)."""
    return Translation(
        game=game,
        system=system,
        steps=tuple(steps),
        distribution=distribution,
        classes={k: classes[k] for k in distribution},
        rules=tuple(rules),
    )
