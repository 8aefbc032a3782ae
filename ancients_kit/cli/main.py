"""The ``ancients`` command: a click group; each command lives in its own module.

Every problem a user can fix ends in one line on standard error and exit code
2; an unexpected failure ends in a short report (never a raw traceback unless
``ANCIENTS_DEBUG=1``) and exit code 1.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

import click

from ancients_kit.cli import listing, odds, play, simulate, teach, ui
from ancients_kit.data import DataError, DataStore
from ancients_kit.errors import GameError
from ancients_kit.plugin import GameNotFound, find_game, load_games
from ancients_kit.text import markup

__all__ = ["cli", "main"]


class AncientsGroup(click.Group):
    """Turns our own errors into one-line messages instead of tracebacks."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.MissingParameter as exc:
            hint = _scenario_hint(exc)
            if hint is None:
                raise
            raise ui.UsageProblem(hint) from None
        except (DataError, GameError, GameNotFound) as exc:
            # One line, whatever the message holds (a file name with a newline ...).
            raise ui.UsageProblem(" ".join(str(exc).split())) from None
        except (click.ClickException, click.exceptions.Exit, click.Abort, KeyboardInterrupt, SystemExit):
            raise
        except Exception as exc:  # a bug: report it briefly, keep the user's files safe
            if os.environ.get("ANCIENTS_DEBUG"):
                raise
            # The message may quote data (a title, a markup error about it): never markup.
            ui.err.print(
                f"[bold red]internal error:[/] {markup(type(exc).__name__)}: {markup(exc)}\n"
                "Your saved games are untouched. Set ANCIENTS_DEBUG=1 to see the traceback, "
                "and please report it."
            )
            ctx.exit(1)

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The help names how many games are installed (counted when asked, not at start-up)."""
        n = len(load_games())
        words = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
        saved = self.help
        self.help = (saved or "").replace("{games}", f"{words.get(n, str(n))} installed ancient-warfare board "
                                                    f"wargame{'s' if n != 1 else ''}")
        try:
            super().format_help_text(ctx, formatter)
        finally:
            self.help = saved


def _scenario_hint(exc: click.MissingParameter) -> str | None:
    """For a command given a GAME but no SCENARIO (``ancients new centurion``): the
    message naming the game's scenarios; None when that is not the problem, or the
    game cannot be found (then the game's own message comes when it is named right)."""
    sub = exc.ctx
    if exc.param is None or exc.param.name != "scenario" or sub is None or not sub.params.get("game"):
        return None
    game = sub.params["game"]
    try:
        g = find_game(game)
        ids = [s.id for s in g.scenarios(DataStore(g.package))]
    except Exception:  # an unknown game: click's own "missing argument" message is the clearer one
        return None
    return (f"missing argument SCENARIO: name one of {g.id}'s scenarios: {', '.join(ids)} "
            f"(`ancients scenarios {g.id}` describes them), e.g. `ancients {sub.info_name} {game} {ids[0]}`")


@click.group(cls=AncientsGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ancients-kit", prog_name="ancients")
def cli() -> None:
    """Play, design and teach {games}.

    \b
    Start here:
      ancients games                      the installed games
      ancients scenarios centurion        a game's scenarios
      ancients new centurion servile-war  play against the computer
      ancients demo                       watch two bots play
    """


def _register() -> None:
    for mod in (listing, odds, play, simulate, teach):
        for command in mod.COMMANDS:
            cli.add_command(command)


_register()


def main(argv: Sequence[str] | None = None) -> None:
    """Console-script entry point."""
    try:
        cli.main(args=list(argv) if argv is not None else None, prog_name="ancients")
    except KeyboardInterrupt:  # pragma: no cover - interactive only
        ui.err.print("\ninterrupted")
        sys.exit(130)
