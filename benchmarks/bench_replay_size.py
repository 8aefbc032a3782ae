"""The HTML replay's size for whole strategic games played greedy against greedy (issue 22: under 2 MB).

Figures, per game (``ldf campaign`` with ``concession`` off so that all five
turns are played, Xenophon ``cyrus-revolt`` and ``kings-war``):

- ``decisions``: the answers in the game;
- ``page_bytes``: the whole page (``ancients replay SAVE --html``) in UTF-8,
  ``page_mb`` the same in millions of bytes, against the 2 MB goal;
- ``json_bytes``: the packed tables' JSON before squeezing
  (:func:`ancients_kit.packing.squeeze`), and ``squeeze_ratio`` the page's data
  over it;
- ``exact``: the page's data unsqueezed and unpacked gives back every map line,
  counter layer, step and event (the Python twin of the page's script);
- ``play_s``, ``replay_s`` (building the replay's plain data), ``pack_s``
  (tables, JSON and squeezing).

King's War takes a minute or two (25,000 decisions, each position drawn).
Run with ``python -m benchmarks replay_size`` or ``python -m benchmarks.bench_replay_size [game ...]``
(games: ``ldf``, ``cyrus``, ``kings``).

Measured (seeds below, 2-core shared machine), page bytes before squeezing -> after:
LDF campaign (3,320 decisions) 584,733 -> 276,852; Cyrus' Revolt (10,527) 1,860,271 -> 841,441;
King's War (24,844) 3,629,238 -> 1,555,322.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from ancients_kit.bots import GreedyBot, play_out
from ancients_kit.cli import teach
from ancients_kit.packing import as_read, unpack, unsqueeze
from ancients_kit.plugin import load_games
from ancients_kit.session import Session

GOAL_BYTES = 2_000_000

GAMES = {
    "ldf": ("ldf", "campaign", 2026, {"concession": False}),
    "cyrus": ("xenophon", "cyrus-revolt", 2031, None),
    "kings": ("xenophon", "kings-war", 1, None),
}


def measure(game: str, scenario: str, seed: int, options: dict[str, Any] | None) -> dict[str, Any]:
    t0 = time.perf_counter()
    s = Session(load_games()[game], scenario, seed=seed, **({"options": options} if options else {}))
    play_out(s, GreedyBot(), max_decisions=200_000)
    t1 = time.perf_counter()
    plain = teach._steps(s, None)
    t2 = time.perf_counter()
    packed = teach._pack_replay(s, *plain)
    page = teach._page(s, packed)
    t3 = time.perf_counter()
    marker = '<script id="data" type="text/plain">'
    start = page.index(marker) + len(marker)
    data = page[start:page.index("</script>", start)]
    text = unsqueeze(data)
    back = unpack(json.loads(text))
    base, _, _, frames, steps, events = plain
    exact = (back["map"] == base and back["frames"] == frames and back["steps"] == as_read(steps)
             and back["events"] == events)
    size = len(page.encode("utf-8"))
    return {
        "decisions": len(s.answers),
        "page_bytes": size,
        "page_mb": round(size / 1e6, 2),
        "under_goal": size < GOAL_BYTES,
        "json_bytes": len(text),
        "squeeze_ratio": round(len(data) / len(text), 3),
        "exact": exact,
        "play_s": round(t1 - t0, 1),
        "replay_s": round(t2 - t1, 1),
        "pack_s": round(t3 - t2, 1),
    }


def run(names: list[str] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in names or list(GAMES):
        game, scenario, seed, options = GAMES[name]
        for k, v in measure(game, scenario, seed, options).items():
            out[f"{game}.{scenario}.{k}"] = v
    return out


if __name__ == "__main__":
    for k, v in run(sys.argv[1:] or None).items():
        print(f"{k:40} {v}")
