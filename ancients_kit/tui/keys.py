"""The table's keys: what F1 shows, the bindings of the app and of the map cursor,
the clock key events are stamped with, and the words typed as commands.

Every printable key goes to the answer box (see :mod:`ancients_kit.tui.app`); the
table's own commands sit on function keys and Ctrl (:data:`TABLE_KEYS`), or are
typed as words (:func:`typed_command`: ``undo``, ``save [FILE]``, ``quit``).
"""

from __future__ import annotations

from collections.abc import Collection

from textual import _time
from textual.binding import Binding

__all__ = ["KEYS", "MAP_CURSOR_KEYS", "TABLE_KEYS", "event_clock", "typed_command"]

KEYS = """Typing always goes to the answer box, wherever the focus is.
  an option's number, its key (any case), a hex ID   answer (Enter gives it)
  undo / save [FILE] / quit                          typed as words, as in line mode
  Up / Down (in the box or the list)                 move the highlight; Enter on an empty box gives it
  Tab / Shift+Tab                                    the next pane (map, options, answer, panes)
  Shift+arrows; arrows on the map; a click           move the map cursor; on an answer's hex it fills the box
  Enter on the map, a second click on a hex          answer with the cursor's hex
  an area's name (Syria, core, Roma), an area's row  list that area's places (long lists of places)
  Escape                                             empty the answer box; on an empty box, every area again
  F1 these keys | F2 zoom the map | F3 the game's map, layout | F4 the next pane (odds, hex, hand, log)
  F5 / F6 the log's turn back / on | F7 every turn | F8 the log's side | F9 undo | Ctrl+Q quit (saved)"""
"""Every key of the table, as F1 shows it and the players' guide lists it."""


def event_clock() -> float:
    """Now, on the clock Textual stamps its key events with (``events.Key.time``)."""
    return _time.get_time()


MAP_CURSOR_KEYS: list[Binding] = [
    Binding("shift+left", "app.map_move(-1, 0)", "map cursor left", show=False),
    Binding("shift+right", "app.map_move(1, 0)", "map cursor right", show=False),
    Binding("shift+up", "app.map_move(0, -1)", "map cursor up", show=False),
    Binding("shift+down", "app.map_move(0, 1)", "map cursor down", show=False),
]
"""Shift+arrows move the map cursor wherever the focus is (in the answer box they would only
select text, and an answer is one word)."""


TABLE_KEYS: list[Binding] = [
    Binding("ctrl+q", "quit_saved", "quit (saved)", priority=True),
    Binding("ctrl+c", "quit_saved", "quit", show=False, priority=True),
    Binding("f1", "keys", "keys"),
    Binding("f2", "zoom", "zoom"),
    Binding("f3", "classic", "game's map"),
    Binding("f4", "next_pane", "pane"),
    Binding("f5", "turn(-1)", "log turn-", show=False),
    Binding("f6", "turn(1)", "log turn+", show=False),
    Binding("f7", "all_turns", "log all", show=False),
    Binding("f8", "side_filter", "log side", show=False),
    Binding("f9", "undo", "undo"),
]
"""The table's own commands: Ctrl+Q (and Ctrl+C) quit saved, F1 to F9 (see :data:`KEYS`)."""


def typed_command(text: str, keys: Collection[str]) -> tuple[str, str]:
    """The command a line typed in the answer box names, and the rest of the line:
    ``("save", "my.json")`` for ``save my.json``. The first word is read in any case,
    with or without a leading ``:``; a line that is one of the question's ``keys``
    is that answer, not a command (``""``)."""
    word, _, rest = text.partition(" ")
    cmd = word.lower().lstrip(":")
    if text in keys:
        cmd = ""
    return cmd, rest
