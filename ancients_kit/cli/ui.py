"""All terminal output goes through here: the rich consoles and JSON printing.

The consoles resolve ``sys.stdout``/``sys.stderr`` when they write, so click's
test runner captures them too.

Data reaches them by one rule (:mod:`ancients_kit.text`): into markup only
through :func:`~ancients_kit.text.markup`, otherwise as a ``Text`` or with
``markup=False``. Whatever a print site does, each console replaces the control
characters of every piece of text it writes (:class:`CleanText`), so no data
string can send an escape sequence to the terminal; rich's own styles and cursor
moves are control segments and pass untouched.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import click
from rich.console import Console, ConsoleOptions, ConsoleRenderable, RenderHook
from rich.segment import Segment

from ancients_kit.text import CONTROL, clean

__all__ = ["CleanText", "UsageProblem", "err", "out", "print_json", "prose"]


class _Cleaned:
    """A renderable drawn as the one it wraps, with the control characters of its text replaced."""

    def __init__(self, inner: ConsoleRenderable) -> None:
        self.inner = inner

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Segment]:
        for seg in console.render(self.inner, options):
            if seg.control or not CONTROL.search(seg.text):
                yield seg
            else:
                yield Segment(clean(seg.text), seg.style)


class CleanText(RenderHook):
    """The consoles' last line of defence: every renderable printed is drawn through
    :class:`_Cleaned` (a text cell a control character held may then be one cell wider)."""

    def process_renderables(self, renderables: list[ConsoleRenderable]) -> list[ConsoleRenderable]:
        return [_Cleaned(r) for r in renderables]


def _console(**kw: Any) -> Console:
    c = Console(highlight=False, **kw)
    c.push_render_hook(CleanText())
    return c


out = _console()
"""Standard output (rendered maps, tables, logs)."""
err = _console(stderr=True)
"""Standard error (problems, warnings)."""


def prose(text: str, **kw: Any) -> None:
    """Print a line of plain text (no markup, control characters replaced: rich would drop
    some silently): wrapped between words at a terminal, never broken inside a word, and
    left whole in a pipe or file (one line a line, for scripts)."""
    out.print(clean(text), markup=False, highlight=False, soft_wrap=not out.is_terminal, **kw)


def print_json(data: Any) -> None:
    """Write ``data`` as JSON to standard output (for ``--json`` listings)."""
    click.echo(json.dumps(data, indent=1, sort_keys=False, default=str))


class UsageProblem(click.ClickException):
    """A problem the user can fix: printed as one line, exit code 2 (click writes it
    unstyled; the data it quotes has its control characters replaced)."""

    exit_code = 2

    def __init__(self, message: str) -> None:
        super().__init__(clean(message))
