"""``ancients odds GAME key=value ...``: exact outcome distribution of a combat."""

from __future__ import annotations

import click
from rich.table import Table

from ancients_kit.cli import ui
from ancients_kit.cli.common import variant_option, variant_store
from ancients_kit.data import DataError
from ancients_kit.plugin import find_game, parse_params
from ancients_kit.probability import probability_decimal
from ancients_kit.text import markup

__all__ = ["COMMANDS"]


@click.command("odds", context_settings={"ignore_unknown_options": True})
@click.argument("game")
@click.argument("params", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print JSON (probabilities as exact fractions and floats).")
@variant_option
def odds_cmd(game: str, params: tuple[str, ...], as_json: bool, variant: tuple[str, ...]) -> None:
    """Exact probabilities of every outcome of a described combat.

    PARAMS are key=value pairs; `ancients odds GAME help` lists them.
    """
    g = find_game(game)
    if params in ((), ("help",)):
        ui.out.print(g.odds_help or f"{g.id} has no odds calculator", markup=False)  # [optional] keys shown
        return
    store = variant_store(g.package, variant)
    try:
        report = g.odds(store, parse_params(params))
    except DataError:
        raise  # names its file already: one line
    except ValueError as exc:
        raise ui.UsageProblem(f"{exc}\n(see: ancients odds {g.id} help)") from None
    if as_json:
        ui.print_json(
            {
                "title": report.title,
                "explain": list(report.explain),
                "rules": list(report.rules),
                "distribution": {
                    k: {"fraction": str(v), "probability": float(v)} for k, v in report.distribution.items()
                },
                "legend": dict(report.legend),
            }
        )
        return
    t = Table("outcome", "exact", "probability", title=markup(report.title))
    for k, v in report.distribution.items():
        label = f"{k} ({report.legend[k]})" if k in report.legend else k
        t.add_row(markup(label), str(v), probability_decimal(v))
    ui.out.print(t)
    for line in report.explain:
        ui.out.print(f"  {line}", markup=False)
    if report.rules:
        ui.out.print(f"  rules: {', '.join(report.rules)}", markup=False)


COMMANDS = [odds_cmd]
