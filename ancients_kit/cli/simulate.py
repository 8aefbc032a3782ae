"""``ancients simulate``: many bot games, with a variant side by side with the original."""

from __future__ import annotations

import click
from rich.table import Table

from ancients_kit.bots import BOTS, SimulationStats, simulate
from ancients_kit.cli import ui
from ancients_kit.cli.common import option_pairs, variant_option, variant_store
from ancients_kit.plugin import find_game

__all__ = ["COMMANDS"]


@click.command("simulate")
@click.argument("game")
@click.argument("scenario")
@click.option("-n", "--games", type=click.IntRange(1, 100_000), default=50, show_default=True)
@click.option("--bot", type=click.Choice(sorted(BOTS)), default="random", show_default=True,
              help="Bot for every side (use --side to mix).")
@click.option("--side", "sides", multiple=True, metavar="SIDE=BOT", help="Bot for one side.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the first game (then +1 each).")
@click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@variant_option
def simulate_cmd(game: str, scenario: str, games: int, bot: str, sides: tuple[str, ...], seed: int,
                 options: tuple[str, ...], as_json: bool, variant: tuple[str, ...]) -> None:
    """Play many bot games; with --variant, compare against the original side by side."""
    g = find_game(game)
    variants = variant_store(g.package, variant).variants  # a bad variant is refused before any game
    if variants:
        from ancients_kit.session import Session

        # set the variant's game up once, so a bad document is refused before the original runs
        Session(g, scenario, seed=seed, options=option_pairs(options), variants=variants)
    bots: dict[str, str] | str = bot
    if sides:
        from ancients_kit.session import Session

        probe = Session(g, scenario, seed=seed, options=option_pairs(options))
        names = g.sides(probe.state)
        bots = {s: bot for s in names}
        for spec in sides:
            name, _, kind = spec.partition("=")
            match = [s for s in names if s.lower().startswith(name.strip().lower())]
            if len(match) != 1 or kind not in BOTS:
                raise ui.UsageProblem(f"--side {spec!r}: use SIDE=BOT with a side of {', '.join(names)}")
            bots[match[0]] = kind
    runs: dict[str, SimulationStats] = {
        "original": simulate(g, scenario, games, bots=bots, seed=seed, options=option_pairs(options))
    }
    if variant:
        runs["variant"] = simulate(
            g, scenario, games, bots=bots, seed=seed, options=option_pairs(options), variants=variants
        )
    if as_json:
        ui.print_json({k: v.to_json() for k, v in runs.items()})
        return
    t = Table("", *runs.keys(), title=f"{g.title}: {scenario}, {games} games, bots {bots}")
    outcomes = sorted({w for r in runs.values() for w in r.wins})
    for w in outcomes:
        t.add_row(f"wins: {w}", *(f"{r.wins.get(w, 0)} ({r.wins.get(w, 0) / r.games:.0%})" for r in runs.values()))
    levels = sorted({lv for r in runs.values() for lv in r.levels})
    for lv in levels:
        t.add_row(f"  {lv}", *(str(r.levels.get(lv, 0)) for r in runs.values()))
    t.add_row("mean game-turns", *(f"{r.mean_turns:.1f}" for r in runs.values()))
    t.add_row("mean decisions", *(f"{r.mean_decisions:.0f}" for r in runs.values()))
    t.add_row("unfinished", *(str(r.unfinished) for r in runs.values()))
    ui.out.print(t)


COMMANDS = [simulate_cmd]
