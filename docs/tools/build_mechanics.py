"""Regenerate the figures in docs/mechanics.md from the games' own odds calculators.

    python docs/tools/build_mechanics.py          # rewrite the generated block
    python docs/tools/build_mechanics.py --check  # exit 1 if the page is stale

Every number on that page comes from here, computed exactly from the data the
games ship, so a change to a table shows up as a reviewable diff of the page.
"""

from __future__ import annotations

import re
import sys
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generated_block import update  # noqa: E402

from ancients_kit.data import DataStore
from ancients_kit.plugin import find_game

PAGE = Path(__file__).resolve().parent.parent / "mechanics.md"


def pct(x: Fraction) -> str:
    return f"{float(x) * 100:.1f}%"


def centurion_section() -> list[str]:
    g = find_game("centurion")
    store = DataStore(g.package)
    columns = [(1, 2), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1)]
    reports = [g.odds(store, {"attack": str(a), "defense": str(d)}) for a, d in columns]
    codes = []
    for r in reports:
        for k in r.distribution:
            if k not in codes:
                codes.append(k)
    legend = {}
    for r in reports:
        legend.update(r.legend)
    lines = ["### Centurion: an odds-ratio CRT (one d6)", ""]
    lines.append("| result | " + " | ".join(f"{a}-{d}" for a, d in columns) + " |")
    lines.append("|---|" + "---|" * len(columns))
    for c in codes:
        cells = [pct(r.distribution.get(c, Fraction(0))) for r in reports]
        lines.append(f"| {c} | " + " | ".join(cells) + " |")
    lines.append("")
    for c in codes:
        if c in legend:
            lines.append(f"- **{c}**: {legend[c]}")
    worked = g.odds(store, {"attack": "26", "defense": "9"})
    lines += ["", f"Worked example (cen:basic.combat cases I and J): {worked.title}."]
    lines += [f"  {e}" for e in worked.explain[:3]]
    return lines


def _cc_figures(g, store, dice: int, leader: bool) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """P(no hit), expected hits, P(a 4-block unit is eliminated), P(at least one flag)."""
    params = {"dice": str(dice), "target": "medium", "blocks": "4"}
    if leader:
        params["leader"] = "yes"
    rep = g.odds(store, params)
    hit_re = re.compile(r"^(\d+) hits?")
    flag_re = re.compile(r"(\d+) flags?")
    none = expected = elim = flag = Fraction(0)
    for label, p in rep.distribution.items():
        if label.startswith("eliminated"):
            elim += p
            expected += 4 * p
            continue
        m = hit_re.match(label)
        n = int(m.group(1)) if m else 0
        expected += n * p
        if n == 0:
            none += p
        f = flag_re.search(label)
        if f and int(f.group(1)) > 0:
            flag += p
    return none, expected, elim, flag


def cc_section() -> list[str]:
    g = find_game("ccancients_rome")
    store = DataStore(g.package)
    lines = [
        "### C&C: Ancients: symbol dice (close combat against a 4-block medium unit)",
        "",
        "Each die hits on the target's own symbol or on crossed swords; with a leader attached,",
        "helmets hit too. Expected hits count an elimination as 4.",
        "",
        "| dice | P(no hit) | expected hits | P(eliminated) | P(at least one flag, unit survives) | with leader: expected hits | with leader: P(eliminated) |",
        "|---|---|---|---|---|---|---|",
    ]
    for dice in (1, 2, 3, 4, 5, 6):
        none, exp, elim, flag = _cc_figures(g, store, dice, False)
        _, lexp, lelim, _ = _cc_figures(g, store, dice, True)
        lines.append(
            f"| {dice} | {pct(none)} | {float(exp):.2f} | {pct(elim)} | {pct(flag)} | {float(lexp):.2f} | {pct(lelim)} |"
        )
    return lines


def generated() -> str:
    body = [*centurion_section(), "", *cc_section()]
    return "\n".join(body)


def main(argv: list[str]) -> int:
    return update(PAGE, generated(), argv)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
