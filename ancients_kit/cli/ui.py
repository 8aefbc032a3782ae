"""All terminal output goes through here: the rich consoles and JSON printing.

The consoles resolve ``sys.stdout``/``sys.stderr`` when they write, so click's
test runner captures them too.
"""

from __future__ import annotations

import json
from typing import Any

import click
from rich.console import Console

__all__ = ["UsageProblem", "err", "out", "print_json", "prose"]

out = Console(highlight=False)
"""Standard output (rendered maps, tables, logs)."""
err = Console(stderr=True, highlight=False)
"""Standard error (problems, warnings)."""


def prose(text: str, **kw: Any) -> None:
    """Print a line of plain text (no markup): wrapped between words at a terminal, never
    broken inside a word, and left whole in a pipe or file (one line a line, for scripts)."""
    out.print(text, markup=False, highlight=False, soft_wrap=not out.is_terminal, **kw)


def print_json(data: Any) -> None:
    """Write ``data`` as JSON to standard output (for ``--json`` listings)."""
    click.echo(json.dumps(data, indent=1, sort_keys=False, default=str))


class UsageProblem(click.ClickException):
    """A problem the user can fix: printed as one line, exit code 2."""

    exit_code = 2
