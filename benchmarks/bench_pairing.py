"""How much noise the search's paired samples carry: ``pairing=stream`` against ``keyed``.

The search (``ancients_kit/search.py``) compares its root options in rounds,
every option of a round on the same sample of what is hidden and the same
dice, and keeps another move than the heuristic's only when it won by more
than the noise of the paired differences. How much noise is left decides
how many samples a real difference needs. With ``pairing=stream`` a sample's
dice come from one stream in turn, so a move that changes which attack is
rolled first hands every later attack another die; with ``pairing=keyed``
each roll is keyed by its reason and each rollout tie by the tied options.

For each game system the benchmark takes positions from a greedy game (every
seventh decision with more than three options, up to
``BENCH_PAIRING_POSITIONS``, default 12) and searches each with both
pairings on the same settings (seven root options, ``BENCH_PAIRING_ROUNDS``
rounds each, default 16, no pruning). It prints, for each pairing, the mean
standard deviation of the paired differences of reward between two root
options (every pair of options of every position), their ratio keyed /
stream, and the samples one keyed sample is worth (1 / ratio squared). The
ratio is measured in the same process on the same positions, so it does not
depend on the machine.

Measured on 1 December 2026 (defaults: 12 positions, 16 rounds):

- Centurion Basic (Civil War, seed 7; 231 pairs of options): 0.282 stream,
  0.248 keyed, ratio 0.881: one keyed sample is worth 1.29 stream samples.
  Centurion suggests ``pairing=keyed``.
- C&C (First Bedriacum, seed 7; 171 pairs): 0.244 stream, 0.239 keyed, ratio
  0.979 (1.04 samples), so C&C stays on the stream.
"""

from __future__ import annotations

import os
import statistics
from itertools import combinations
from typing import Any

from ancients_kit.bots import GreedyBot
from ancients_kit.plugin import find_game
from ancients_kit.search import Settings, search
from ancients_kit.session import Session

GAMES = (("centurion", "centurion_basic", "basic-civil-war"), ("ccancients_rome", "cc", "first-bedriacum"))


def _noise(game_id: str, scenario: str, positions: int, rounds: int) -> dict[str, Any]:
    game = find_game(game_id)
    s = Session(game, scenario, seed=7)
    bot = GreedyBot()
    sds: dict[str, list[float]] = {"stream": [], "keyed": []}
    seen = asked = 0
    while s.decision is not None and seen < positions:
        d = s.decision
        asked += 1
        if len(d.options) > 3 and asked % 7 == 0:
            seen += 1
            for pairing in sds:
                st = Settings.for_game(game, iterations=7 * rounds, width=7, prune=0.0, samples=0, pairing=pairing)
                paired = search(s, st).paired
                for a, b in combinations(paired, 2):
                    diffs = [v - paired[a][r] for r, v in paired[b].items() if r in paired[a]]
                    if len(diffs) >= 3:
                        sds[pairing].append(statistics.pstdev(diffs))
        s.answer(bot.choose(s, d))
    stream, keyed = (statistics.mean(sds[p]) if sds[p] else float("nan") for p in ("stream", "keyed"))
    ratio = keyed / stream if stream else float("nan")
    return {"positions": seen, "rounds": rounds, "pairs": len(sds["stream"]),
            "stream_sd": round(stream, 3), "keyed_sd": round(keyed, 3), "keyed_over_stream": round(ratio, 3),
            "samples_one_keyed_sample_is_worth": round(1 / ratio ** 2, 2) if ratio else None}


def run() -> dict[str, Any]:
    positions = int(os.environ.get("BENCH_PAIRING_POSITIONS", "12"))
    rounds = int(os.environ.get("BENCH_PAIRING_ROUNDS", "16"))
    out: dict[str, Any] = {}
    for game_id, key, scenario in GAMES:
        for k, v in _noise(game_id, scenario, positions, rounds).items():
            out[f"{key}_{k}"] = v
    return out


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key:42} {value}")
