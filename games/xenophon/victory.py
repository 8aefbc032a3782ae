"""Victory points and the four levels of victory (xen:victory).

At the end of the game each player totals his VP; the higher total wins.

- Empire: +3 a Capital, +2 a Treasury City, +1 any other City/Colony occupied
  by an Empire force; + the Levy Value of each satrapy it controls; +5 if the
  Rebel Supreme Leader is not on the map.
- Rebel: +2 a Capital, +3 a Treasury City, +1 any other City/Colony occupied
  by a Rebel force; + the Levy Value of each satrapy it controls; +10 if the
  Empire Supreme Leader is not on the map.
- A pillaged city still counts (xen:errata).
- With public works (xen:opt.public-works) each friendly-occupied Public
  Works marker is worth 1 VP (docs/games/xenophon.md, ruling 17).

The difference sets the level: 0 draw, 1-20 marginal, 21-40 regional, 41+
imperial (:func:`level`).
"""

from __future__ import annotations

from collections.abc import Mapping

from ancients_kit.plugin import Outcome
from ancients_kit.protocol import Context

from .state import EMPIRE, REBEL, XenState, other_side

__all__ = ["CITY_VP", "SUPREME_VP", "final", "level", "outcome", "score", "scores"]

CITY_VP: Mapping[str, Mapping[str, int]] = {
    EMPIRE: {"capital": 3, "treasury": 2, "city": 1, "colony": 1},
    REBEL: {"capital": 2, "treasury": 3, "city": 1, "colony": 1},
}
SUPREME_VP: Mapping[str, int] = {EMPIRE: 5, REBEL: 10}
"""VP for the other side's Supreme Leader not on the map at the end."""

LEVELS = ((0, "draw"), (20, "marginal"), (40, "regional"))


def score(state: XenState, side: str) -> dict[str, int]:
    """``side``'s VP by source (xen:victory): cities, satrapies, supreme leader, public works."""
    cities = 0
    for h in list(state.data.city_kind) + sorted(state.colonies):
        if state.occupier(h) == side:
            kind = state.city_kind(h)
            assert kind is not None
            cities += CITY_VP[side][kind]
    satrapies = sum(state.data.row(s).levy_value for s in state.controlled(side))
    foe = other_side(side)
    supreme = SUPREME_VP[side] if state.supreme_leader(foe) is None else 0
    works = 0
    if state.options.public_works:
        works = sum(1 for h in state.public_works if state.occupier(h) == side)
    return {"cities": cities, "satrapies": satrapies, "supreme": supreme, "public_works": works}


def scores(state: XenState) -> dict[str, int]:
    return {s: sum(score(state, s).values()) for s in (REBEL, EMPIRE)}


def level(difference: int) -> str:
    """The level for a VP difference (xen:victory): draw, marginal, regional or imperial."""
    d = abs(difference)
    for top, name in LEVELS:
        if d <= top:
            return name
    return "imperial"


def final(ctx: Context, state: XenState, why: str = "the last turn is over") -> None:
    """Total the VP and end the game (xen:victory)."""
    vp = scores(state)
    state.vp = vp
    diff = vp[REBEL] - vp[EMPIRE]
    lvl = level(diff)
    winner = None if diff == 0 else (REBEL if diff > 0 else EMPIRE)
    parts = "; ".join(f"{s} {vp[s]} ({', '.join(f'{k} {v}' for k, v in score(state, s).items())})"
                      for s in (REBEL, EMPIRE))
    text = ("Draw" if winner is None else f"{winner.capitalize()} {lvl} victory") + f" by {abs(diff)} VP: {parts}"
    rules = ("xen:victory",) + (("xen:opt.public-works",) if state.options.public_works else ())
    state.finish(winner, lvl, f"{text} ({why})", rules)
    ctx.event("victory", state.result, rules, vp=dict(vp), level=lvl, winner=winner)


def outcome(state: XenState) -> Outcome:
    return Outcome(state.winner, state.result, level=state.level, scores={k: float(v) for k, v in state.vp.items()},
                   rules=state.result_rules, turn=state.turn)
