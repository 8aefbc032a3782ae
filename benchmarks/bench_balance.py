"""Balance that agrees with people (issue 24, item 4): bot win rates against human records.

For every Imperial Rome battle that ``data/human_records.toml`` records (the
win percentages commandsandcolors.net prints on its scenario pages, see that
file's ``[meta]``), each bot plays the battle against itself, the same bot in
both seats, through :func:`ancients_kit.study.run_study` (what ``ancients
simulate`` runs): game ``i`` has the seed ``BENCH_BALANCE_SEED + i``, so a run
is the same on any machine and with any number of workers. Printed per battle:
the human rate of the recorded side (the page's top army) with its number of
games, and the bot's rate of the same side with its 95% Wilson interval. Per
bot, across the recorded battles:

- the Spearman rank correlation between the bot and the human rates (do the
  bots find the same battles hard for the same side?), with a 95% bootstrap
  interval (resampling the battles with replacement, seeded, so the interval
  is the same every run; resamples whose ranks are all tied are dropped);
- the mean absolute gap in percentage points, with its bootstrap interval;
- ``noise_gap_pp``: the mean gap two *equal* rates would show from the games'
  sampling alone (both rates drawn as binomials around their pooled rate, the
  games counts as they are), the floor a perfect agreement would sit on.

The bootstrap resamples battles only; it does not add the binomial noise of
each rate, so with a few games a battle the intervals are too narrow rather
than too wide. The human rates are of the printed battlefields, which our
battle files reconstruct, so a gap measures the bots and the reconstruction
together.

Environment: ``BENCH_BALANCE_BOTS`` (bot specs, comma-separated, default
``greedy``; the search bot only when asked, e.g. ``greedy,mcts:50``),
``BENCH_BALANCE_GAMES`` (games a battle and bot, default 40),
``BENCH_BALANCE_JOBS`` (worker processes, default 1; the games do not depend
on it), ``BENCH_BALANCE_SEED`` (default 1), ``BENCH_BALANCE_BOOTSTRAP``
(resamples, default 2000), ``BENCH_BALANCE_RECORDS`` (a folder: each study's
records are kept there as JSON lines, and a run started again plays only the
games missing). Which battles are played is the data file's business: no
setting names one.

    .venv/bin/python -m benchmarks balance
    BENCH_BALANCE_GAMES=20 .venv/bin/python benchmarks/bench_balance.py

Measured on 3 December 2026 (commit 322a816, greedy, 100 games a battle, one
process; ``benchmarks/results/balance.md``): Spearman **-0.08 [-0.67, 0.47]**,
mean gap **22.4 points [16.3, 28.9]** where sampling alone leaves about 8: greedy
self-play does not yet rank the battles as people's results do.

Measured on 4 December 2026 (``BENCH_BALANCE_BOTS=mcts BENCH_BALANCE_GAMES=20
BENCH_BALANCE_JOBS=2``, C&C's suggested search budget, 220 games in 38 minutes
on 2 cores): the search bot on both sides, Spearman **-0.06 [-0.69, 0.52]**,
mean gap **21.8 points [13.5, 30.8]** (sampling alone: about 11): no nearer
to people than greedy.
"""

from __future__ import annotations

import math
import os
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

GAME = "ccancients_rome"


def ranks(values: Sequence[float]) -> list[float]:
    """Ranks 1..n of ``values``, ties sharing their average rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Spearman's rank correlation (Pearson's on the tie-averaged ranks); None when
    either side's ranks are all equal (the correlation is undefined)."""
    rx, ry = ranks(xs), ranks(ys)
    n = len(rx)
    mx, my = sum(rx) / n, sum(ry) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    if sxx == 0 or syy == 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def mean_gap(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Mean absolute difference, in percentage points."""
    return 100 * sum(abs(a - b) for a, b in zip(xs, ys)) / len(xs)


def _percentile(sorted_values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile ``q`` (0..1) of already sorted values."""
    pos = q * (len(sorted_values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def bootstrap(bot: Sequence[float], human: Sequence[float], resamples: int, seed: int) -> dict[str, Any]:
    """Spearman and mean gap with 95% percentile intervals, resampling battles (seeded)."""
    rng = random.Random(seed)
    n = len(bot)
    rhos: list[float] = []
    gaps: list[float] = []
    for _ in range(resamples):
        idx = [rng.randrange(n) for _ in range(n)]
        xs, ys = [bot[i] for i in idx], [human[i] for i in idx]
        rho = spearman(xs, ys)
        if rho is not None:
            rhos.append(rho)
        gaps.append(mean_gap(xs, ys))
    rhos.sort()
    gaps.sort()
    return {
        "spearman": spearman(bot, human),
        "spearman_95": (_percentile(rhos, 0.025), _percentile(rhos, 0.975)) if rhos else None,
        "spearman_resamples": len(rhos),
        "gap_pp": mean_gap(bot, human),
        "gap_95": (_percentile(gaps, 0.025), _percentile(gaps, 0.975)),
    }


def noise_gap(bot_games: Sequence[int], human_games: Sequence[int], bot: Sequence[float],
              human: Sequence[float], resamples: int, seed: int) -> float:
    """Mean absolute gap (pp) two equal rates show from sampling alone: for each battle
    both rates are drawn as binomials of their games around the pooled rate."""
    rng = random.Random(seed)
    total = 0.0
    for _ in range(resamples):
        gap = 0.0
        for nb, nh, b, h in zip(bot_games, human_games, bot, human):
            p = (b * nb + h * nh) / (nb + nh)
            kb = sum(rng.random() < p for _ in range(nb))
            kh = sum(rng.random() < p for _ in range(nh))
            gap += abs(kb / nb - kh / nh)
        total += 100 * gap / len(bot)
    return total / resamples


def _fmt(x: float | None, digits: int = 2) -> str:
    return "n/a" if x is None else f"{x:.{digits}f}"


def _study(battle: str, bot: str, games: int, seed: int, jobs: int, folder: str) -> list[Any]:
    from ancients_kit.plugin import find_game
    from ancients_kit.session import Session
    from ancients_kit.study import StudySpec, run_study

    g = find_game(GAME)
    sides = g.sides(Session(g, battle, seed=seed).state)
    spec = StudySpec(g.id, battle, {s: bot for s in sides})
    records = None
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        records = Path(folder) / f"{battle}.{bot.replace(':', '-').replace(',', '_').replace('=', '')}.jsonl"
    return run_study(spec, games, seed=seed, jobs=jobs, records=records)


def run() -> dict[str, Any]:
    from ancients_games.ccancients_rome.human_records import load_human_records
    from ancients_kit.bots import check_bot
    from ancients_kit.data import DataStore
    from ancients_kit.stats import wilson

    bots = [check_bot(b.strip()) for b in os.environ.get("BENCH_BALANCE_BOTS", "greedy").split(",") if b.strip()]
    games = int(os.environ.get("BENCH_BALANCE_GAMES", "40"))
    jobs = int(os.environ.get("BENCH_BALANCE_JOBS", "1"))
    seed = int(os.environ.get("BENCH_BALANCE_SEED", "1"))
    resamples = int(os.environ.get("BENCH_BALANCE_BOOTSTRAP", "2000"))
    folder = os.environ.get("BENCH_BALANCE_RECORDS", "")
    records = load_human_records(DataStore("ancients_games.ccancients_rome"))
    out: dict[str, Any] = {
        "battles": len(records.battles),
        "games_per_battle": games,
        "jobs": jobs,
        "seed": seed,
        "bootstrap_resamples": resamples,
        "human_source": f"{records.collection.site}, read {records.collection.retrieved}",
    }
    for bot in bots:
        start = time.perf_counter()
        bot_rates: list[float] = []
        human_rates: list[float] = []
        bot_n: list[int] = []
        human_n: list[int] = []
        unfinished = 0
        for r in records.battles:
            recs = _study(r.battle, bot, games, seed, jobs, folder)
            n = len(recs)
            k = sum(1 for x in recs if x.winner == r.side)
            unfinished += sum(1 for x in recs if x.winner is None)
            iv = wilson(k, n)
            human = float(r.rate(r.side))
            bot_rates.append(iv.estimate)
            human_rates.append(human)
            bot_n.append(n)
            human_n.append(r.games)
            out[f"{bot} {r.battle} ({r.side})"] = (
                f"human {100 * human:.0f}% ({r.games} games), {bot} {iv.percent()} ({k}/{n})")
        stats = bootstrap(bot_rates, human_rates, resamples, seed)
        lo_hi = stats["spearman_95"]
        out[f"{bot} spearman"] = (f"{_fmt(stats['spearman'])} "
                                  f"[{_fmt(lo_hi[0]) if lo_hi else 'n/a'}, {_fmt(lo_hi[1]) if lo_hi else 'n/a'}]"
                                  f" ({stats['spearman_resamples']} resamples with ranks not all tied)")
        out[f"{bot} mean_gap_pp"] = (f"{stats['gap_pp']:.1f} [{stats['gap_95'][0]:.1f}, {stats['gap_95'][1]:.1f}]")
        out[f"{bot} noise_gap_pp"] = round(noise_gap(bot_n, human_n, bot_rates, human_rates,
                                                     max(1, resamples // 10), seed), 1)
        out[f"{bot} games_without_winner"] = unfinished
        out[f"{bot} wall_seconds"] = round(time.perf_counter() - start, 1)
    return out


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key:52} {value}")
    sys.stdout.flush()
