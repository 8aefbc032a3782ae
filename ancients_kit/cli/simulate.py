"""``ancients simulate`` and ``ancients sweep``: balance studies with intervals and tests.

Both commands play bot games through :mod:`ancients_kit.study` (records,
resume, worker processes or a Dask cluster) and report with
:mod:`ancients_kit.stats` (Wilson intervals, Newcombe differences, z and Fisher
tests). Nothing here names a game.

``--bot`` and ``--side SIDE=BOT`` take bot specs (``greedy``, ``mcts``,
``mcts:200``), checked before the first game, as ``--plot`` is. Progress goes
to standard error: a bar at a terminal (games, rate, the answers of the games
in play), plain lines elsewhere for a search bot's study.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ancients_kit.bots import BOTS, SEARCH_BOTS, bot_spec, check_bot
from ancients_kit.cli import ui
from ancients_kit.cli.common import option_pairs, variant_option, variant_store
from ancients_kit.data import Variant
from ancients_kit.outputs import check_output
from ancients_kit.plots import check_plot, plot_study, plot_sweep
from ancients_kit.plugin import Game, find_game
from ancients_kit.session import Session
from ancients_kit.study import Record, StudySpec, Summary, compare, run_study, summarize
from ancients_kit.sweep import parse_values, sweep_variants
from ancients_kit.text import markup

__all__ = ["COMMANDS"]

BOT_CHOICES = ", ".join(sorted(BOTS)) + " or mcts:SETTINGS (mcts:200: 200 iterations a decision)"
"""The bots a study may use, as its help and its messages name them."""


def _bot(spec: str, option: str) -> str:
    """A bot spec from the command line, checked and normalised (``mcts:200``)."""
    try:
        return check_bot(spec)
    except ValueError as exc:
        raise ui.UsageProblem(f"{option}: {exc}") from None


def _bots_for(g: Game, scenario: str, seed: int, options: Mapping[str, str], bot: str,
              sides: tuple[str, ...], variants: Sequence[Variant] = ()) -> dict[str, str]:
    try:  # a bad scenario or option value is the user's to fix, as for `new`
        probe = Session(g, scenario, seed=seed, options=options, variants=variants)
    except ValueError as exc:
        raise ui.UsageProblem(str(exc)) from None
    names = g.sides(probe.state)
    default = _bot(bot, "--bot")
    bots = {s: default for s in names}
    for spec in sides:
        name, eq, kind = spec.partition("=")
        match = [s for s in names if s.lower() == name.strip().lower()] or [
            s for s in names if s.lower().startswith(name.strip().lower())
        ]
        if len(match) != 1 or not eq:
            raise ui.UsageProblem(
                f"--side {spec!r}: use SIDE=BOT with a side of {', '.join(names)} and a bot of {BOT_CHOICES}"
            )
        bots[match[0]] = _bot(kind, f"--side {spec!r}")
    return bots


def _arm_path(records: str | None, tag: str) -> Path | None:
    """The records file of one arm: the given file for the original, a sibling for the others."""
    if records is None:
        return None
    p = Path(records)
    return p if tag == "original" else p.with_name(f"{p.stem}.{tag}{p.suffix or '.jsonl'}")


def _check_records(records: str | None, tags: Sequence[str], reads: Sequence[str]) -> None:
    """Before any game: no arm's records file is a variant, a save or a link
    (ancients_kit/outputs.py), so a long study cannot end by overwriting one."""
    for tag in tags:
        path = _arm_path(records, tag)
        if path is not None:
            check_output(path, reads=reads, what="--records")


PROGRESS_LINE_EVERY = 30.0
"""Seconds between two progress lines of a game still in play (when standard error is no terminal)."""


def _clock(seconds: float) -> str:
    m, s = divmod(int(seconds), 60)
    return f"{m}m{s:02d}s" if m else f"{s}s"


class _Lines:
    """Progress as plain lines on standard error (for logs and pipes): one at the start and
    one when the last game ends, and in between at most one every :data:`PROGRESS_LINE_EVERY`
    seconds: the games done and, while games are in play, the answers they have had."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.start = time.monotonic()
        self.last = self.start
        self.done = -1
        self.total = 0

    def games(self, done: int, total: int) -> None:
        if done == self.done:
            return
        first, self.done, self.total = self.done < 0, done, total
        now = time.monotonic()
        if first or done == total or now - self.last >= PROGRESS_LINE_EVERY:
            self.last = now
            ui.err.print(f"{self.label}: {done}/{total} games done ({_clock(now - self.start)})",
                         markup=False, highlight=False)

    def answers(self, playing: Mapping[int, int]) -> None:
        now = time.monotonic()
        if now - self.last < PROGRESS_LINE_EVERY:
            return
        self.last = now
        ui.err.print(f"{self.label}: {self.done}/{self.total} games done, {_in_play(playing)} "
                     f"({_clock(now - self.start)})", markup=False, highlight=False)


def _in_play(playing: Mapping[int, int]) -> str:
    n = len(playing)
    return f"{n} in play: {sum(playing.values()):,} answers so far" if n else ""


@contextmanager
def _progress(show: str | None, label: str) -> Iterator[tuple[Any, Any]]:
    """(games, answers) callbacks for :func:`run_study`: a progress bar on standard error
    (``show="bar"``: games done, rate, the answers of the games in play, time left),
    progress lines (``"lines"``), or nothing (``None``)."""
    if show is None:
        yield None, None
        return
    if show == "lines":
        lines = _Lines(label)
        yield lines.games, lines.answers
        return
    cols = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games  {task.fields[rate]}  {task.fields[playing]}"),
        TimeRemainingColumn(),
    )
    with Progress(*cols, console=ui.err, transient=True) as bar:
        task = bar.add_task(markup(label), total=None, rate="", playing="")

        def tick(done: int, total: int) -> None:
            t = bar.tasks[task]
            speed = t.speed
            bar.update(task, completed=done, total=total, rate=f"{speed * 60:,.0f}/min" if speed else "")

        def beat(playing: Mapping[int, int]) -> None:
            bar.update(task, playing=_in_play(playing))

        yield tick, beat


def _run_arm(spec: StudySpec, games: int, seed: int, jobs: int, dask: str | None, records: Path | None,
             show: str | None, label: str) -> list[Record]:
    with _progress(show, label) as (tick, beat):
        try:
            return run_study(spec, games, seed=seed, jobs=jobs, dask=dask, records=records, progress=tick,
                             heartbeat=beat)
        except KeyboardInterrupt:
            where = f"; the games finished so far are in {records}: run the same command to continue" if records else ""
            ui.err.print(f"interrupted{where}")
            raise SystemExit(130) from None


def _summary_table(title: str, summaries: Sequence[Summary]) -> Table:
    t = Table("", *(markup(s.label) for s in summaries), title=title)
    for side in summaries[0].sides:
        t.add_row(f"wins: {markup(side)}", *(f"{s.wins[side]}  {s.win_rates[side].percent()}" for s in summaries))
    t.add_row("draws", *(f"{s.draws}  {s.draw_rate.percent()}" for s in summaries))
    levels = sorted({lv for s in summaries for lv in s.levels})
    for lv in levels:
        t.add_row(f"  {markup(lv)}", *(str(s.levels.get(lv, 0)) for s in summaries))
    t.add_row("unfinished", *(str(s.unfinished) for s in summaries))

    def spread(iv: Any, q: Mapping[str, float]) -> str:
        return (f"{iv.estimate:.4g} [{iv.low:.4g}, {iv.high:.4g}]  "
                f"median {q['q50']:.4g} (5-95%: {q['q05']:.4g} to {q['q95']:.4g})")

    t.add_row("game-turns", *(spread(s.turns, s.turn_quantiles) for s in summaries))
    t.add_row("decisions", *(spread(s.decisions, s.decision_quantiles) for s in summaries))
    if any(s.scores for s in summaries):
        names = summaries[0].sides
        t.add_row(markup(f"margin ({names[0]} - {names[1]})") if len(names) > 1 else "margin",
                  *(spread(s.margin, s.margin_quantiles) for s in summaries))
        for k in sorted({k for s in summaries for k in s.scores}):
            t.add_row(f"  score: {markup(k)}", *(
                f"{s.scores[k].estimate:.4g} [{s.scores[k].low:.4g}, {s.scores[k].high:.4g}]" if k in s.scores else "-"
                for s in summaries
            ))
    return t


def _comparison_table(original: Summary, other: Summary) -> Table:
    t = Table("side", "difference (95%)", "z test p", "Fisher exact p", "games for a 5-point change",
              title=markup(f"{other.label} against {original.label}"))
    for c in compare(original, other):
        d = c.difference
        t.add_row(
            markup(c.side),
            f"{100 * d.estimate:+.1f} points [{100 * d.low:+.1f}, {100 * d.high:+.1f}]",
            f"{c.z_test.p_value:.3g}",
            f"{c.exact_test.p_value:.3g}",
            f"{c.games_for_five_points:,} per arm",
        )
    return t


def _study_options(f: Any) -> Any:
    for deco in reversed([
        click.option("-n", "--games", type=click.IntRange(1, 1_000_000), default=50, show_default=True),
        click.option("--bot", default="random", show_default=True, metavar="BOT",
                     help=f"Bot for every side (use --side to mix): {BOT_CHOICES}."),
        click.option("--side", "sides", multiple=True, metavar="SIDE=BOT",
                     help="Bot for one side, e.g. romans=greedy or gauls=mcts:200."),
        click.option("--seed", type=int, default=1, show_default=True, help="Seed of the first game (then +1 each)."),
        click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE"),
        click.option("--jobs", "-j", type=click.IntRange(1, 512), default=None,
                     help="Worker processes [default: every core]. Results do not depend on it."),
        click.option("--dask", metavar="ADDRESS",
                     help="Play on a Dask distributed scheduler (tcp://host:8786), or 'local' for a local cluster."),
        click.option("--records", type=click.Path(dir_okay=False), metavar="FILE",
                     help="Stream one JSON line per game here; run again to continue an interrupted study."),
        click.option("--plot", type=click.Path(dir_okay=False), metavar="FILE.svg|png",
                     help="Draw the results (needs the plots extra)."),
        click.option("--progress/--no-progress", default=None,
                     help="Progress on standard error: a bar at a terminal, else lines [default: none with "
                          "--json; the bar at a terminal; lines for a search bot's study anywhere else]."),
        click.option("--json", "as_json", is_flag=True, help="Print JSON."),
        click.option("--max-decisions", type=click.IntRange(1), default=200_000, show_default=True,
                     help="A game not over after this many answers is an error (naming its seed)."),
        variant_option,
    ]):
        f = deco(f)
    return f


def _show_progress(flag: bool | None, as_json: bool, bots: Mapping[str, str]) -> str | None:
    """How progress is shown: ``"bar"``, ``"lines"`` or ``None``. Asked for (``--progress``),
    a bar at a terminal and lines elsewhere. By default nothing with ``--json`` (its
    output is for programs), else a bar at a terminal and, where a search bot plays
    (minutes a game), lines anywhere else: such a study never runs silent for long."""
    if flag is False or (flag is None and as_json):
        return None
    terminal = ui.err.is_terminal
    if flag or terminal:
        return "bar" if terminal else "lines"
    slow = any(bot_spec(b)[0] in SEARCH_BOTS for b in bots.values())
    return "lines" if slow else None


@click.command("simulate")
@click.argument("game")
@click.argument("scenario")
@_study_options
def simulate_cmd(game: str, scenario: str, games: int, bot: str, sides: tuple[str, ...], seed: int,
                 options: tuple[str, ...], jobs: int | None, dask: str | None, records: str | None,
                 plot: str | None, progress: bool | None, as_json: bool, max_decisions: int,
                 variant: tuple[str, ...]) -> None:
    """Play many bot games; with --variant, compare against the original side by side.

    Win rates carry 95% Wilson intervals; a variant's difference carries a
    Newcombe interval, a two-proportion z test and Fisher's exact test. A game
    that makes no progress (a loop in the game's rules) or passes the decision
    cap stops the run with a message naming the scenario, the seed and the
    answer number.
    """
    g = find_game(game)
    if plot:
        check_plot(Path(plot), variant)  # before any game: a long study must not end without its chart
    opts = option_pairs(options)
    variants = variant_store(g.package, variant).variants  # a bad variant is refused before any game
    bots = _bots_for(g, scenario, seed, opts, bot, sides, variants)
    jobs = jobs or os.cpu_count() or 1
    show = _show_progress(progress, as_json, bots)
    arms: list[tuple[str, tuple[Variant, ...]]] = [("original", ())]
    if variant:
        arms.append(("variant", variants))
    specs = [(label, StudySpec(g.id, scenario, bots, opts, vs, max_decisions=max_decisions)) for label, vs in arms]
    tags = [label if label == "original" else f"variant-{spec.variant}" for label, spec in specs]
    _check_records(records, tags, variant)
    results: list[tuple[Summary, list[Record]]] = []
    for (label, spec), tag in zip(specs, tags):
        recs = _run_arm(spec, games, seed, jobs, dask, _arm_path(records, tag), show, label)
        results.append((summarize(recs, list(bots), label), recs))
    summaries = [s for s, _ in results]
    if plot:
        plot_study(summaries, [r for _, r in results], Path(plot), f"{g.title}: {scenario}", variant)
    if as_json:
        data: dict[str, Any] = {s.label: s.to_json() for s in summaries}
        data["bots"] = bots
        if len(summaries) > 1:
            data["comparison"] = [c.to_json() for c in compare(summaries[0], summaries[1])]
        ui.print_json(data)
        return
    bots_text = ", ".join(f"{s} {b}" for s, b in bots.items())
    ui.out.print(_summary_table(markup(f"{g.title}: {scenario}, {games} games, bots: {bots_text}"), summaries))
    if len(summaries) > 1:
        ui.out.print(_comparison_table(summaries[0], summaries[1]))
    if plot:
        ui.out.print(f"chart written to {markup(plot)}")


@click.command("sweep")
@click.argument("game")
@click.argument("scenario")
@click.option("--set", "target", required=True, metavar="DATA_ID:PATH",
              help="The value to vary, e.g. centurion.units:unit[code=BI].basic.attack")
@click.option("--values", "values_text", required=True, metavar="LIST|LOW..HIGH[:STEP]",
              help="Values to try: 3,4,5 or 2..8 or 0.5..1.5:0.25.")
@_study_options
def sweep_cmd(game: str, scenario: str, target: str, values_text: str, games: int, bot: str,
              sides: tuple[str, ...], seed: int, options: tuple[str, ...], jobs: int | None, dask: str | None,
              records: str | None, plot: str | None, progress: bool | None, as_json: bool, max_decisions: int,
              variant: tuple[str, ...]) -> None:
    """Vary one data value over a range: win rates with intervals for each value.

    Each value is played as an in-memory variant of the named data document
    (on top of any --variant files), with the same seeds for every value.
    """
    g = find_game(game)
    if plot:
        check_plot(Path(plot), variant)
    opts = option_pairs(options)
    base = variant_store(g.package, variant).variants
    values = parse_values(values_text)
    swept = sweep_variants(g, target, values)
    bots = _bots_for(g, scenario, seed, opts, bot, sides, base + (swept[0][1],))
    jobs = jobs or os.cpu_count() or 1
    show = _show_progress(progress, as_json, bots)
    _check_records(records, [f"sweep-{text}" for text, _ in swept], variant)
    summaries: list[Summary] = []
    for text, v in swept:
        spec = StudySpec(g.id, scenario, bots, opts, base + (v,), max_decisions=max_decisions)
        recs = _run_arm(spec, games, seed, jobs, dask, _arm_path(records, f"sweep-{text}"), show, f"{target}={text}")
        summaries.append(summarize(recs, list(bots), text))
    if plot:
        plot_sweep(target, values, summaries, Path(plot), f"{g.title}: {scenario}, {games} games a value",
                   variant)
    if as_json:
        ui.print_json({"target": target, "bots": bots, "values": [s.to_json() for s in summaries]})
        return
    t = Table("value", *(markup(f"wins: {s}") for s in bots), "draws", "mean decisions",
              title=markup(f"{g.title}: {scenario}, {target}, {games} games a value, "
                           f"bots: {', '.join(f'{s} {b}' for s, b in bots.items())}"))
    for s in summaries:
        t.add_row(markup(s.label), *(s.win_rates[side].percent() for side in bots), s.draw_rate.percent(),
                  f"{s.decisions.estimate:.0f}")
    ui.out.print(t)
    if plot:
        ui.out.print(f"chart written to {markup(plot)}")


COMMANDS = [simulate_cmd, sweep_cmd]
