"""The board marks the hexes of the current question (reachable hexes, targets)."""

from __future__ import annotations

import pytest
from rich.console import Console

from ancients_kit.plugin import find_game
from ancients_kit.session import Session


def _reversed_cells(renderable) -> int:
    segments = Console(width=200, color_system="standard").render(renderable)
    return sum(1 for seg in segments if seg.style is not None and seg.style.reverse and seg.text.strip())


@pytest.mark.rule("ccr:base.movement")
def test_highlighted_hexes_are_reversed() -> None:
    s = Session(find_game("ccancients_rome"), "tigranocerte", seed=1)
    g = s.game
    plain = _reversed_cells(g.render(s.state, None))
    marked = _reversed_cells(g.render(s.state, None, highlight=("0505", "0606")))
    assert marked >= plain + 2
