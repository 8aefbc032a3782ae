"""Regenerate the figures of docs/mechanics.md with the tool itself.

    python docs/tools/build_figures.py          # rewrite docs/figures/*.svg
    python docs/tools/build_figures.py --check  # exit 1 if a figure is stale

Every figure is drawn by the same code as ``ancients show`` and ``ancients
compare --plot`` (the core's own SVG writer, the same bytes on any machine),
from positions reached by fixed seeds and answers, so a rules or data change
shows up as a reviewable change of the figures.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from ancients_kit.bots import RandomBot, play_out
from ancients_kit.cli.teach import session_picture
from ancients_kit.compare import CLASSES, chart_rows, parse_engagement, translate_all
from ancients_kit.drawing import class_bars_svg, svg_document
from ancients_kit.plugin import load_games
from ancients_kit.session import Session

FIGURES = Path(__file__).resolve().parent.parent / "figures"


def _position(game: str, scenario: str, seed: int, answers: int, kind: str) -> Session:
    """A session after ``answers`` random-bot answers, then on to the next ``kind`` question."""
    s = Session.new(game, scenario, seed=seed)
    play_out(s, RandomBot(), max_decisions=answers)
    bot = RandomBot()
    for _ in range(200):
        d = s.decision
        if d is None or d.kind == kind and d.context.get("highlight"):
            break
        keys = [k for k in d.keys if k != "done"]
        s.answer(keys[0] if keys and d.kind.startswith("move") else bot.choose(s, d))
    return s


def _picture(s: Session) -> str:
    return svg_document(session_picture(s, None))


def _compare(params: dict[str, str]) -> str:
    e = parse_engagement(params)
    results, _ = translate_all(load_games(), e)
    return class_bars_svg(e.describe(), CLASSES, chart_rows(results))


def figures() -> dict[str, Callable[[], str]]:
    return {
        "centurion-movement.svg": lambda: _picture(_position("centurion", "basic-gaul", 3, 30, "move.hex")),
        "centurion-facing.svg": lambda: _picture(Session.new("centurion", "numidia", seed=1)),
        "cca-sections.svg": lambda: _picture(_position("ccancients_rome", "carrhes", 3, 0, "move.hex")),
        "compare-clear.svg": lambda: _compare({"attacker": "heavy-infantry*2", "defender": "warband"}),
        "compare-hill.svg": lambda: _compare({"attacker": "heavy-infantry*2", "defender": "warband", "terrain": "hill"}),
        "compare-missile.svg": lambda: _compare({"attacker": "archers*2", "defender": "medium-infantry",
                                                 "mode": "missile"}),
    }


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    FIGURES.mkdir(exist_ok=True)
    for name, make in figures().items():
        text = make()
        path = FIGURES / name
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, encoding="utf-8")
    if stale:
        print(f"stale figures: {', '.join(stale)}: run python docs/tools/build_figures.py")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
