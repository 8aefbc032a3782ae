"""How the table uses the terminal: its layout at each size and its stylesheet.

At 150 columns and 40 lines or more the map, the question and the panes (odds,
inspector, hand) stand side by side with the log below; below that the panes share
one place (:data:`PANES`, switched with F4); under 32 lines the log is one of those
panes too (:func:`layout_for`). :data:`TABLE_CSS` places the widgets of
:class:`~ancients_kit.tui.app.TableApp` by their ids.
"""

from __future__ import annotations

import attrs

__all__ = ["PANES", "TABLE_CSS", "Layout", "layout_for"]


PANES = ("odds", "hex", "hand", "log")
"""The panes that share one place in the narrower layouts, in F4's order."""


@attrs.frozen
class Layout:
    """How the table uses a terminal of a given size."""

    side_by_side: bool
    """The panes (odds, inspector, hand) in a column of their own, all shown at once."""
    log_lines: int
    """Lines of the log under the map and question (0: the log is one of the shared panes)."""
    pane_lines: int
    """Lines of the shared place of the panes (when not side by side)."""
    compact_answer: bool
    """The answer box drawn on one line, without its border."""


def layout_for(width: int, height: int) -> Layout:
    """The layout of the table at ``width`` x ``height`` characters: wide terminals
    show every pane at once, narrower ones let the panes share a place (F4) so that
    the question keeps room for its options, and short ones move the log there too."""
    if width >= 150 and height >= 40:
        return Layout(True, max(6, min(12, height // 5)), 0, False)
    if height >= 32:
        return Layout(False, max(5, min(10, height // 6)), max(8, height // 4), False)
    return Layout(False, 0, max(7, (height - 2) * 2 // 5), height < 28)


TABLE_CSS = """
    #status { height: auto; background: $boost; padding: 0 1; text-style: bold; }
    #main { height: 1fr; layout: grid; grid-size: 2 2; grid-columns: 1fr 40; grid-rows: 1fr 10; }
    #main.wide { grid-size: 3 1; grid-columns: 3fr 2fr 2fr; grid-rows: 1fr; }
    #left { row-span: 2; }
    #main.wide #left { row-span: 1; }
    #map { height: 1fr; border: round $primary; }
    #legend-box { height: auto; max-height: 4; }
    #legend { height: auto; color: $text-muted; padding: 0 1; }
    #question-box { height: auto; max-height: 6; }
    #question { height: auto; padding: 0 1; text-style: bold; }
    #options { height: 1fr; min-height: 3; }
    #answer.compact { height: 1; border: none; padding: 0 1; background: $boost; }
    #options.compact { border: none; }
    #message { height: auto; max-height: 5; padding: 0 1; }
    #panes { height: 1fr; }
    #pane-bar { height: 1; background: $boost; padding: 0 1; }
    #main.wide #pane-bar { display: none; }
    .pane { height: auto; padding: 0 1; border: round $secondary; }
    #odds-box { border: round $warning; }
    #main.wide .pane { max-height: 14; }
    #main.wide #log-pane { display: none; }
    #main.wide #odds-box.empty { display: none; }
    #main.shared .pane { display: none; height: 1fr; }
    #main.shared .pane.shown { display: block; }
    #log-title { height: 1; padding: 0 1; background: $boost; }
    #log-scroll { height: 10; border: round $primary; overflow-x: hidden; }
    """
"""The table's stylesheet: ``#main`` is ``wide`` (side by side) or ``shared`` (see :func:`layout_for`)."""
