"""The table's widgets: the map, the option list, the answer box, the hand-over
and keys screens, and the filter that keeps data's control characters off the
terminal.

The widgets hand what the player does to the app (``self.app``: a hex chosen, a
key typed on the map or the list); they never import it
(:class:`~ancients_kit.tui.app.TableApp` composes them).
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.color import Color
from textual.containers import VerticalScroll
from textual.events import Click
from textual.filter import LineFilter
from textual.geometry import Region, Size
from textual.screen import ModalScreen
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Input, OptionList, Static

from ancients_kit.text import CONTROL
from ancients_kit.tui.keys import KEYS, MAP_CURSOR_KEYS
from ancients_kit.tui.view import MapGrid

__all__ = ["AnswerBox", "AnswerList", "HandOver", "KeysHelp", "MapView", "NoControlCharacters"]


class MapView(ScrollView, can_focus=True):
    """The map drawn from ``Game.picture`` with a cursor; clicks and arrows move it.

    Only the lines in view are drawn (Textual's line API), so a map of thousands of
    hexes costs no more to show than the pane it fills."""

    BINDINGS: ClassVar = [
        Binding("left", "move(-1, 0)", "left", show=False),
        Binding("right", "move(1, 0)", "right", show=False),
        Binding("up", "move(0, -1)", "up", show=False),
        Binding("down", "move(0, 1)", "down", show=False),
        Binding("shift+left", "move(-1, 0)", show=False),
        Binding("shift+right", "move(1, 0)", show=False),
        Binding("shift+up", "move(0, -1)", show=False),
        Binding("shift+down", "move(0, 1)", show=False),
        Binding("enter", "choose", "answer with hex", show=False),
    ]

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.grid: MapGrid | None = None
        self.cursor: str | None = None
        self.highlight: tuple[str, ...] = ()
        self.zoom = 1
        """1: two lines a hex with its number (the default: answers are hex numbers); 0: one line a hex."""
        self.classic: Any = None
        """The game's own rendering, shown instead of the grid when set (F3)."""
        self.north_up: bool | None = None
        """The grid's layout of a sheet printed with north elsewhere (Xenophon's): None the
        player's standing choice (``ANCIENTS_MAP_LAYOUT``, north up by default), else north up
        (True) or as printed (False), chosen with F3."""
        self.lines: list[Strip] = []
        """What the map shows, a strip a line (drawn in view by :meth:`render_line`)."""
        self.strips: dict[int, tuple[Any, Strip]] = {}
        """The strips of the grid's lines drawn last, by the identity of their runs (kept with them)."""

    def plain(self) -> str:
        """The whole map as plain text, a line a row (what scrolling over it would show)."""
        return "\n".join(line.text for line in self.lines)

    def redraw(self) -> None:
        if self.classic is not None or self.grid is None:
            shown = self.classic if self.classic is not None else Text("(this game draws no map picture)")
            console = self.app.console
            rendered = console.render_lines(shown, console.options.update(width=400, height=None), pad=False)
            self.lines = [Strip(line).simplify() for line in rendered]
            while self.lines and not self.lines[-1].text.strip():
                self.lines.pop()
        else:
            # a line the grid did not draw again is the same runs as before: its strip is kept
            kept = self.strips
            self.strips = {}
            self.lines = []
            for runs in self.grid.runs(self.cursor, self.highlight):
                strip = kept.get(id(runs))
                if strip is None or strip[0] is not runs:
                    strip = (runs, Strip([Segment(text, style) for text, style in runs]).simplify())
                self.strips[id(runs)] = strip
                self.lines.append(strip[1])
        width = max((line.cell_length for line in self.lines), default=0)
        self.virtual_size = Size(width, len(self.lines))
        self.refresh()
        if self.classic is None and self.grid is not None and self.cursor in self.grid.cells:
            col, line = self.grid.cells[self.cursor]
            region = Region(col, line, self.grid.cell_w, self.grid.cell_h)
            # after the layout, so that the first drawing scrolls too (the pane has its size then)
            self.call_after_refresh(self.show_cursor, region)

    def show_cursor(self, region: Region) -> None:
        """Scroll the cursor's cell to the middle of the pane, unless it is in view already: the
        map stays still under a click or a step of the cursor, so a second click finds its hex."""
        x0, y0 = self.scroll_offset
        area = self.scrollable_content_region
        if self.size.area and Region(x0, y0, area.width, area.height).contains_region(region):
            return
        self.scroll_to_region(region, animate=False, center=True, force=True)

    def render_line(self, y: int) -> Strip:
        x0, y0 = self.scroll_offset
        row = y0 + y
        width = self.scrollable_content_region.width
        if row >= len(self.lines):
            return Strip.blank(width, self.rich_style)
        return self.lines[row].crop_extend(x0, x0 + width, self.rich_style)

    def hex_under(self, event: events.MouseEvent) -> str | None:
        """The hex of the map under the mouse, wherever the map is scrolled."""
        offset = event.get_content_offset(self)
        if offset is None or self.grid is None or self.classic is not None:
            return None
        return self.grid.hex_at(offset.x + self.scroll_offset.x, offset.y + self.scroll_offset.y)

    def action_move(self, dx: int, dy: int) -> None:
        if self.grid is None or self.cursor is None:
            return
        self.cursor = self.grid.step(self.cursor, dx, dy)
        self.redraw()
        self.app.player_moved_cursor()  # type: ignore[attr-defined]

    def action_choose(self) -> None:
        if self.cursor is not None:
            self.app.choose_hex(self.cursor)  # type: ignore[attr-defined]

    def on_key(self, event: events.Key) -> None:
        self.app.type_into_box(event)  # type: ignore[attr-defined]

    def on_click(self, event: Click) -> None:
        hid = self.hex_under(event)
        if hid is None:
            return
        again = hid == self.cursor
        self.cursor = hid
        self.redraw()
        self.app.player_moved_cursor()  # type: ignore[attr-defined]
        if again or event.chain > 1:
            self.app.answer_hex(hid)  # type: ignore[attr-defined]



class AnswerList(OptionList):
    """The question's rows (:func:`~ancients_kit.places.listing`); the highlight is the player's only
    when he moved it."""

    BINDINGS: ClassVar = MAP_CURSOR_KEYS

    def _moved(self) -> None:
        self.app.highlight_moved = True  # type: ignore[attr-defined]

    def action_cursor_up(self) -> None:
        self._moved()
        super().action_cursor_up()

    def action_cursor_down(self) -> None:
        self._moved()
        super().action_cursor_down()

    def action_first(self) -> None:
        self._moved()
        super().action_first()

    def action_last(self) -> None:
        self._moved()
        super().action_last()

    def action_page_up(self) -> None:
        self._moved()
        super().action_page_up()

    def action_page_down(self) -> None:
        self._moved()
        super().action_page_down()

    def on_mouse_down(self, event: events.MouseDown) -> None:
        self._moved()  # a click on an option chooses it (the click follows)

    def action_select(self) -> None:
        if not self.app.highlight_moved:  # type: ignore[attr-defined]
            self.app.nothing_chosen()  # type: ignore[attr-defined]
            return
        super().action_select()

    def on_key(self, event: events.Key) -> None:
        self.app.type_into_box(event)  # type: ignore[attr-defined]


class AnswerBox(Input):
    """The answer box. It remembers when the text now in it began to be typed, so
    that an answer typed before the question it would answer was shown is told apart."""

    BINDINGS: ClassVar = [
        Binding("up", "app.move_highlight(-1)", "highlight up", show=False),
        Binding("down", "app.move_highlight(1)", "highlight down", show=False),
        Binding("pageup", "app.move_highlight(-10)", show=False),
        Binding("pagedown", "app.move_highlight(10)", show=False),
        Binding("escape", "clear", "clear", show=False),
        *MAP_CURSOR_KEYS,
    ]

    def __init__(self, **kw: Any) -> None:
        super().__init__(select_on_focus=False, **kw)  # a key typed on the way in must not be replaced
        self.started: float | None = None
        """When the first key of the text now in the box was pressed (the key event's time)."""

    def on_key(self, event: events.Key) -> None:
        if event.is_printable and self.value and self.value == self.app.box_from_map:  # type: ignore[attr-defined]
            self.value = ""  # typing replaces the answer the map cursor put in the box
        if event.is_printable and not self.value:
            self.started = event.time

    def on_paste(self, event: events.Paste) -> None:
        if not self.value:
            self.started = event.time

    def action_clear(self) -> None:
        """Escape: empty the box; on an empty box, a narrowed list of places shows every area again."""
        if self.value:
            self.value = ""
        else:
            self.app.widen()  # type: ignore[attr-defined]

    def watch_value(self, value: str) -> None:
        if not value:
            self.started = None


class HandOver(ModalScreen[None]):
    """Hotseat with hidden information: a blank screen until the next player presses Enter."""

    BINDINGS: ClassVar = [Binding("enter", "dismiss", "continue")]
    DEFAULT_CSS = """
    HandOver { align: center middle; background: black; }
    HandOver > Static { width: auto; padding: 1 4; border: heavy yellow; }
    """

    def __init__(self, side: str, leaving: str | None = None, results: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.side = side
        self.leaving = leaving
        self.results = results
        """What the leaving player's last answers brought about, as they may read it."""

    def compose(self) -> ComposeResult:
        yield Static(self.first_text(), id="handover")

    def first_text(self) -> str:
        if self.leaving is None:
            return f"Hand over to {self.side} and press Enter"
        shown = "\n".join(self.results[-12:]) or "(nothing new)"
        return f"{self.leaving}: your answers are saved. What they did:\n{shown}\n\nPress Enter to hide the table"

    def action_dismiss(self) -> None:  # type: ignore[override]
        if self.leaving is not None:  # first the leaving player's results, then a blank call for the next
            self.leaving = None
            self.query_one("#handover", Static).update(self.first_text())
            return
        self.dismiss(None)


class KeysHelp(ModalScreen[None]):
    """F1: every key of the table."""

    BINDINGS: ClassVar = [Binding("escape,enter,f1,q", "dismiss", "close")]
    DEFAULT_CSS = """
    KeysHelp { align: center middle; }
    KeysHelp > VerticalScroll { width: auto; max-width: 100%; height: auto; max-height: 100%;
                                padding: 0 2; border: heavy $primary; background: $panel; }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text(KEYS + "\n\nEnter or Escape closes this."), id="keys")

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)


class NoControlCharacters(LineFilter):
    """Drops the control characters (:data:`ancients_kit.text.CONTROL`) that data text
    may hold from every line the table draws, so no ESC, BEL or C1 byte of a
    scenario title, unit or log text reaches the terminal (issue 27 item 1). They
    take no cell, so the layout is the same; the table's own escape sequences are
    not segment text and pass untouched."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        if not CONTROL.search("".join(seg.text for seg in segments)):
            return segments
        return [seg if seg.control else Segment(CONTROL.sub("", seg.text), seg.style) for seg in segments]
