"""Balance check of the reconstructed LDF event chits (the figures in ``games/ldf/data/chits.toml``).

Greedy bot against greedy bot, campaigns seeded 100 on, no concession: once with all 24 chits
in the pool, once with the nine invented ones (7, 8, 9, 11, 12, 13, 14, 15, 16) taken out.
``BENCH_LDF_CHIT_GAMES`` sets the campaigns per arm (default 16; about 10 s a campaign).
``python benchmarks/bench_ldf_chits.py`` prints the figures.
"""

from __future__ import annotations

import os
from collections import Counter

INVENTED = (7, 8, 9, 11, 12, 13, 14, 15, 16)


def _arm(without: bool, n: int) -> dict[str, object]:
    from ancients_kit.bots import make_bot, play_out
    from ancients_kit.session import Session
    from ancients_games.ldf import GAME

    wins: Counter[str] = Counter()
    turns = []
    for seed in range(100, 100 + n):
        s = Session(GAME, "campaign", seed=seed, options={"concession": False})
        if without:
            for c in INVENTED:
                s.state.pool.remove(c)  # a measurement only: this session is never saved or replayed
        out = play_out(s, make_bot("greedy"))
        assert out is not None
        wins[str(out.winner)] += 1
        turns.append(out.turn)
    return {"germano-parthian wins": wins["germano-parthian"], "roman wins": wins["roman"],
            "mean last turn": round(sum(turns) / len(turns), 2)}


def run() -> dict[str, object]:
    n = int(os.environ.get("BENCH_LDF_CHIT_GAMES", "16"))
    return {"campaigns per arm": n, "all 24 chits": _arm(False, n), "without the nine invented": _arm(True, n)}


if __name__ == "__main__":
    for k, v in run().items():
        print(f"{k:28} {v}")
