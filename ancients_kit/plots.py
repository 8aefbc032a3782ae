"""Charts of balance studies (matplotlib, an optional extra: ``pip install -e '.[plots]'``).

Every chart is written to a file whose suffix chooses the format (``.svg`` or
``.png``). SVG output is reproducible: no date stamp and a fixed id salt, so
the same study draws the same file.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ancients_kit.errors import GameError
from ancients_kit.outputs import check_output, write_figure
from ancients_kit.study import Record, Summary

__all__ = ["FORMATS", "PlotError", "check_plot", "plot_study", "plot_sweep", "pyplot_for", "save_figure"]

FORMATS = (".svg", ".png")


class PlotError(GameError):
    """A chart cannot be drawn (matplotlib missing, unknown format)."""


def check_plot(path: Path, reads: Sequence[str | Path] = ()) -> None:
    """Refuse a chart that could not be drawn or written (a suffix not ``.svg``/``.png``,
    matplotlib not installed, a path that is one of ``reads``, a save or a link) with one
    line: called before a study plays its first game, so that a long study does not end
    without its chart."""
    if path.suffix.lower() not in FORMATS:
        raise PlotError(f"--plot {path}: name a .svg or .png file")
    check_output(path, reads=reads, what="--plot")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise PlotError("--plot needs matplotlib, which is not installed: pip install -e '.[plots]' "
                        "(no game was played)") from None


def pyplot_for(path: Path) -> Any:
    """matplotlib's pyplot, set up to draw ``path`` reproducibly (refused if matplotlib is missing)."""
    check_plot(path)
    import matplotlib  # optional (the plots extra): loaded only to draw
    matplotlib.use("Agg", force=True)
    matplotlib.rcParams["svg.hashsalt"] = "ancients-kit"
    import matplotlib.pyplot as plt  # after use("Agg"): no display needed

    return plt


def save_figure(fig: Any, path: Path, reads: Sequence[str | Path] = ()) -> Path:
    """Write ``fig`` as an output (ancients_kit/outputs.py: never an input, a save or a link)."""
    meta = {"Date": None} if path.suffix.lower() == ".svg" else {}
    return write_figure(fig, path, reads=reads, what="--plot", metadata=meta, bbox_inches="tight", dpi=120)


def plot_study(summaries: Sequence[Summary], records: Sequence[Sequence[Record]], path: Path, title: str,
               reads: Sequence[str | Path] = ()) -> Path:
    """Win rates with their intervals, side by side per run, and game-length histograms."""
    plt = pyplot_for(path)
    fig, (ax, hx) = plt.subplots(1, 2, figsize=(11, 4.2))
    sides = list(summaries[0].sides) + ["draw"]
    width = 0.8 / max(1, len(summaries))
    for k, s in enumerate(summaries):
        rates = [s.win_rates[x] if x in s.win_rates else s.draw_rate for x in sides]
        xs = [i + (k - (len(summaries) - 1) / 2) * width for i in range(len(sides))]
        est = [100 * r.estimate for r in rates]
        err = [[100 * (r.estimate - r.low) for r in rates], [100 * (r.high - r.estimate) for r in rates]]
        ax.bar(xs, est, width=width, yerr=err, capsize=4, label=f"{s.label} ({s.games} games)")
    ax.set_xticks(range(len(sides)), sides)
    ax.set_ylabel("games won, % (95% Wilson interval)")
    ax.set_ylim(0, 100)
    ax.legend(fontsize="small")
    ax.set_title("win rates")
    for s, recs in zip(summaries, records):
        hx.hist([r.decisions for r in recs], bins=20, alpha=0.55, label=s.label)
    hx.set_xlabel("decisions per game")
    hx.set_ylabel("games")
    hx.legend(fontsize="small")
    hx.set_title("game length")
    fig.suptitle(title)
    out = save_figure(fig, path, reads)
    plt.close(fig)
    return out


def plot_sweep(target: str, values: Sequence[str], summaries: Sequence[Summary], path: Path, title: str,
               reads: Sequence[str | Path] = ()) -> Path:
    """Win rate of each side against the swept value, with interval bands."""
    plt = pyplot_for(path)
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    try:
        xs: list[float] = [float(v) for v in values]
        ticks: list[str] | None = None
    except ValueError:
        xs, ticks = [float(i) for i in range(len(values))], list(values)
    for side in summaries[0].sides:
        r = [s.win_rates[side] for s in summaries]
        ax.plot(xs, [100 * x.estimate for x in r], marker="o", label=side)
        ax.fill_between(xs, [100 * x.low for x in r], [100 * x.high for x in r], alpha=0.2)
    if ticks is not None:
        ax.set_xticks(xs, ticks)
    ax.set_xlabel(target)
    ax.set_ylabel("games won, % (95% Wilson interval)")
    ax.set_ylim(0, 100)
    ax.legend(fontsize="small")
    ax.set_title(title)
    out = save_figure(fig, path, reads)
    plt.close(fig)
    return out
