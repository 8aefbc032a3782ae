"""The full-screen game: map, question, odds, inspector, hand and log on one screen.

:class:`TableApp` plays a :class:`TableLoop`'s session (the line-mode prompt's
:class:`~ancients_kit.cli.play.PlayLoop` is one: the same session, bots and save
file, and the command line hands it over; the table never imports it) through the
plugin contract only: ``Game.picture`` for the map, the inspector and hex
selection, ``Game.render`` for the game's own drawing, ``Game.status`` for the
turn, phase and losses, ``Game.decision_odds`` for the odds of an attack
before it is rolled, and ``Game.hand`` for the cards or chits the side holds.
Every answer, a human's or a bot's, goes through ``Session.answer`` and is
saved with ``TableLoop.save`` (a human's at once, a bots' run when it ends,
before the next question shows), so quitting (Ctrl+Q, Ctrl+C) loses nothing.

The keyboard (see :data:`KEYS`): every printable key a player types, wherever
the focus is, goes into the answer box, so a typed answer is always exactly
the answer given; the table's own commands sit on function keys and Ctrl, or
are typed as words (``undo``, ``save``, ``quit``). ``Enter`` on an empty box
gives the highlighted option only when the player moved the highlight himself
(arrows, a click, the map cursor); a new question never inherits a choice.

Choosing places (:mod:`ancients_kit.places`): a question offering many hexes
lists them nearest first with the areas to narrow by (an area's row, or its name
typed, narrows the list; Escape on an empty box or ``places`` widens it again);
the map cursor (Shift+arrows anywhere, arrows on the map, a click) on a hex that
is an answer puts that answer in the box, so Enter gives it; a second click on
the same hex gives it at once.

The layout follows the terminal's size (:func:`layout_for`): at 150 columns
and 40 lines or more the map, the question and the panes (odds, inspector,
hand) stand side by side with the log below; below that the panes share one
place and are switched with F4 (the odds come forward by themselves when the
answer typed or highlighted rolls an attack); under 32 lines the log is one
of those panes too. Nothing is cut: a pane that is too short scrolls.

The table in modules, each importing only those before it: :mod:`~ancients_kit.tui.view`
(the picture on a character grid, odds and log rows; no Textual),
:mod:`~ancients_kit.tui.keys` (the keys, the bindings, the typed commands),
:mod:`~ancients_kit.tui.layout` (the layout at each size, the stylesheet),
:mod:`~ancients_kit.tui.widgets` (map, option list, answer box, hand-over and keys
screens) and this module, the app that puts them on one screen and plays the
session; it re-exports the widgets and the layout the command line and the tests use.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.containers import Container, Vertical, VerticalScroll
from textual.events import Click
from textual.filter import LineFilter
from textual.widgets import Footer, Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option as ListOption

from ancients_kit.errors import AnswerError
from ancients_kit.places import WIDEN, Places, Row, listing, matching_areas, places_of
from ancients_kit.tui.keys import KEYS, TABLE_KEYS, event_clock, typed_command
from ancients_kit.tui.layout import PANES, TABLE_CSS, Layout, layout_for
from ancients_kit.tui.view import LogRow, MapGrid, PhaseWatch, decision_odds, inspect_hex, kept, log_rows, odds_lines
from ancients_kit.tui.widgets import AnswerBox, AnswerList, HandOver, KeysHelp, MapView, NoControlCharacters

if TYPE_CHECKING:
    from ancients_kit.bots import Bot
    from ancients_kit.session import Decision, Session

__all__ = ["KEYS", "AnswerBox", "AnswerList", "HandOver", "KeysHelp", "Layout", "MapView", "TableApp", "TableLoop",
           "layout_for", "run_table"]


class TableLoop(Protocol):
    """What the table needs of the loop that runs a game in the terminal: its session,
    who plays each side, the save file it keeps, and the line-mode prompt's reading of a
    typed number and of ``undo`` (so both read an answer alike)."""

    s: Session
    who: Mapping[str, str]
    bots: Mapping[str, Bot]
    humans: list[str]
    last_human: str | None
    save_path: Path

    def save(self, path: Path | None = None) -> Path: ...

    def viewer(self) -> str | None: ...

    def resolve_number(self, d: Decision, text: str) -> str: ...

    def undo_count(self) -> int: ...


class TableApp(App[None]):
    """The players' table for one session."""

    TITLE = "ancients-kit"
    ENABLE_COMMAND_PALETTE = False
    CSS = TABLE_CSS
    BINDINGS: ClassVar = TABLE_KEYS

    def __init__(self, loop: TableLoop) -> None:
        super().__init__()
        self._no_controls = NoControlCharacters()
        self.loop = loop
        self.s = loop.s
        self.turn_filter: int | None = None
        self.side_filter: str | None = None
        self.message = ""
        self.asked_for: Decision | None = None
        self.exit_note = ""
        self.mark = len(self.s.log)
        """Log length before the last human answer: its results are shown at a hand-over."""
        self.phases = PhaseWatch()
        self.holding = False
        """The questions ended on their own after the last answer: an answer typed before the
        new question showed is kept in the box until the player confirms it (see :meth:`typed`)."""
        self.held: str | None = None
        """The answer kept in the box for confirmation."""
        self.note = ""
        """The last "questions ended on their own" note (PhaseWatch.note)."""
        self.shown_at = 0.0
        """When the question now asked was drawn (the event clock of Textual's key events)."""
        self.message_style = "bold red"
        self.refresh_pending = False
        self.highlight_moved = False
        """The player moved the highlight (or the map cursor) since this question was asked."""
        self.cursor_moved_by_player = False
        self.pane = "hex"
        """The shared place's pane (see :data:`PANES`)."""
        self.pane_chosen = False
        """The player chose the pane (F4, a click on the bar) for this question."""
        self.odds_key: str | None = None
        """The answer whose odds the pane shows (``None``: no attack)."""
        self.odds_drawn: tuple[Any, str | None] = ("nothing drawn yet", None)
        """The question and answer whose odds the pane shows."""
        self.log_shown: list[LogRow] = []
        """The log's rows the table shows now (under the filters)."""
        self.log_key: tuple[Any, ...] | None = None
        self.log_seen: tuple[int, int, Any] = (0, 0, None)
        """The log read so far: how many events, the turn after them, the last of them."""
        self.log_title = ""
        self.log_brief = ""
        self.places: Places | None = None
        """The question's options read as places (None: it offers fewer than two)."""
        self.narrowed: str | None = None
        """The areas the list of places is narrowed to, as typed or chosen (None: every area)."""
        self.rows: list[Row] = []
        """The rows of the option list, in the list's order."""
        self.box_from_map: str | None = None
        """The answer the map cursor put in the answer box (taken out when the cursor leaves its hex)."""
        self.table_layout = layout_for(120, 40)
        self.terminal_width = 120
        """The terminal's width the table is laid out for."""

    # -- layout ------------------------------------------------------------

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, then :class:`NoControlCharacters` on every line."""
        return [*super().get_line_filters(), self._no_controls]

    def compose(self) -> ComposeResult:
        yield Static("", id="status")
        with Container(id="main"):
            with Vertical(id="left"):
                yield MapView(id="map")
                with VerticalScroll(id="legend-box"):
                    yield Static("", id="legend")
            with Vertical(id="right"):
                with VerticalScroll(id="question-box"):
                    yield Static("", id="question")
                yield AnswerList(id="options", markup=False)
                yield AnswerBox(placeholder="answer: a number, a key, a hex; undo, save, quit", id="answer")
                yield Static("", id="message")
            with Vertical(id="panes"):
                yield Static("", id="pane-bar")
                with VerticalScroll(id="odds-box", classes="pane empty"):
                    yield Static("", id="odds")
                with VerticalScroll(id="inspector-box", classes="pane shown"):
                    yield Static("", id="inspector")
                with VerticalScroll(id="hand-box", classes="pane"):
                    yield Static("", id="hand")
                yield RichLog(id="log-pane", classes="pane", wrap=True, markup=False, highlight=False, min_width=1)
        yield Static("", id="log-title")
        yield RichLog(id="log-scroll", wrap=True, markup=False, highlight=False, min_width=1)
        yield Footer()

    def on_resize(self, event: events.Resize) -> None:
        self.apply_layout(event.size.width, event.size.height)

    def apply_layout(self, width: int, height: int) -> None:
        """Lay the table out for a terminal of ``width`` x ``height`` (see :func:`layout_for`)."""
        lay = self.table_layout = layout_for(width, height)
        self.terminal_width = width
        main = self.query_one("#main")
        main.set_class(lay.side_by_side, "wide")
        main.set_class(not lay.side_by_side, "shared")
        if not lay.side_by_side:
            right = max(40, min(60, width * 2 // 5))
            main.styles.grid_columns = f"1fr {right}"
            main.styles.grid_rows = f"1fr {lay.pane_lines}"
        else:  # the wide layout's columns are in the CSS (#main.wide)
            main.styles.clear_rule("grid_columns")
            main.styles.clear_rule("grid_rows")
        for sel in ("#log-title", "#log-scroll"):
            self.query_one(sel).display = lay.log_lines > 0
        self.query_one("#log-scroll").styles.height = lay.log_lines + 2
        self.query_one("#legend-box").display = height >= 32  # else the legend is in the hex pane
        self.query_one("#question-box").styles.max_height = 6 if height >= 32 else 4
        self.query_one("#answer", AnswerBox).set_class(lay.compact_answer, "compact")
        self.query_one("#options").set_class(lay.compact_answer, "compact")
        if self.is_mounted:
            self.draw_status()
            self.cursor_moved()
            self.log_key = None  # written again at the new width, after the layout
            self.call_after_refresh(self.draw_log)
        if lay.log_lines and self.pane == "log":  # the log is under the map again
            self.pane = "hex"
        self.show_pane()

    def show_pane(self) -> None:
        """Show the shared place's pane (the narrower layouts) and its bar."""
        ids = {"odds": "#odds-box", "hex": "#inspector-box", "hand": "#hand-box", "log": "#log-pane"}
        for name, sel in ids.items():
            self.query_one(sel).set_class(name == self.pane, "shown")
        names = [p for p in PANES if p != "log" or self.table_layout.log_lines == 0]
        bar = Text()
        for name in names:
            label = {"hex": "hex"}.get(name, name)
            if name == "odds" and self.odds_key is not None:
                label += "*"
            bar.append(f" {label} ", "reverse bold" if name == self.pane else "")
        if self.pane == "log":  # what the log shows, briefly (F5-F8 filter it)
            bar.append(f" {self.log_brief}", "dim")
        else:
            bar.append("  F4 next", "dim")
        self.query_one("#pane-bar", Static).update(bar)

    def on_mount(self) -> None:
        self.apply_layout(self.size.width, self.size.height)
        self.advance()
        self.refresh_all()
        self.query_one("#answer", AnswerBox).focus()
        self.maybe_hand_over()

    # -- the game ----------------------------------------------------------
    @property
    def viewer(self) -> str | None:
        return self.loop.viewer()

    def advance(self) -> None:
        """Let the bots answer until a human is asked or the game ends; their answers are
        saved together when they have all been given, before the next question is shown
        (the run is one step of the app: nothing can come between its answers)."""
        given = 0
        try:
            while self.s.decision is not None:
                d = self.s.decision
                if self.loop.who.get(d.side, "human") == "human":
                    return
                self.s.answer(self.loop.bots[d.side].choose(self.s, d))
                given += 1
        finally:
            if given:
                self.loop.save()

    def maybe_hand_over(self) -> None:
        """Blank the table between two human players when the game hides hands."""
        d = self.s.decision
        if d is None:
            return
        loop = self.loop
        hotseat = self.s.game.hidden_information and len(loop.humans) > 1
        if hotseat and loop.last_human != d.side:
            leaving = loop.last_human
            results = tuple(e.text_for(leaving) for e in self.s.log.since(self.mark)) if leaving else ()
            loop.last_human = d.side
            self.push_screen(HandOver(d.side, leaving, results), lambda _: self.refresh_all())
        else:
            loop.last_human = d.side

    def say(self, text: str, style: str = "bold red") -> None:
        self.message, self.message_style = text, style
        self.query_one("#message", Static).update(Text(text, style=style))

    def give(self, text: str) -> bool:
        """Answer the current question with ``text`` (a key or an option number); saved at once."""
        d = self.s.decision
        if d is None:
            return False
        mark = len(self.s.log)
        try:
            key = self.loop.resolve_number(d, text.strip())
            self.s.answer(key)
        except AnswerError as exc:
            kind = type(exc).__name__.replace("Answer", "").lower()
            self.say(f"{kind}: {exc}")
            return False
        key = self.s.answers[-1]
        self.loop.save()
        self.query_one("#answer", AnswerBox).value = ""
        self.box_from_map = None
        self.mark = mark
        self.message = ""
        self.phases.answered(self.s, d, key, mark)
        self.advance()
        self.holding, self.held = False, None
        note = self.phases.note(self.s, self.s.decision)
        if note:  # a series of questions ended on its own: said, and answers typed ahead are held
            self.message, self.message_style, self.holding, self.note = note, "bold yellow", True, note
        self.schedule_refresh()
        return True

    def schedule_refresh(self) -> None:
        """Redraw the table (and hand over if due) once the answers already queued are given:
        a callback on the app's message queue, so it runs before any key pressed after them."""
        if not self.refresh_pending:
            self.refresh_pending = True
            self.call_later(self.refresh_now)

    def refresh_now(self) -> None:
        self.refresh_pending = False
        self.refresh_all()
        self.maybe_hand_over()

    def typed(self, text: str, started: float | None = None) -> bool:
        """An answer typed in the answer box, whose first key was pressed at ``started``.

        Just after a series of questions ended on its own (the note says so), an answer
        whose typing began before the new question was shown was meant for the old one:
        it stays in the box, and the message says what happened and that Enter gives it
        to the new question. An answer typed after the question showed is given at once
        (so is an option picked from the list or a hex on the map)."""
        if self.holding and text != self.held and started is not None and started < self.shown_at:
            self.held = text
            self.query_one("#answer", AnswerBox).value = text
            self.say(f"You typed {text} before this new question showed: Enter gives {text} to this "
                     f"question; or change the answer", "bold yellow")
            return False
        self.holding, self.held = False, None
        return self.give(text)

    def keys_at(self, hid: str | None) -> list[str]:
        """The answers hex ``hid`` stands for: itself if it is an option's key, else the options
        naming it as a place (``move:2907``), in the rules' order."""
        d = self.s.decision
        if d is None or hid is None:
            return []
        if hid in d.keys:
            return [hid]
        return [p.key for p in self.places.at(hid)] if self.places is not None else []

    def hex_of(self, key: str) -> str | None:
        """The map hex an option stands for: the key itself, or the place it names."""
        view = self.query_one("#map", MapView)
        if view.grid is not None and key in view.grid.cells:
            return key
        if self.places is not None:
            return next((p.hex for p in self.places.places if p.key == key), None)
        return None

    def fill_box(self, key: str) -> None:
        """Put answer ``key`` in the answer box, as chosen on the map: Enter gives it."""
        box = self.query_one("#answer", AnswerBox)
        if box.value != key:
            box.value = key
            box.cursor_position = len(key)
        self.box_from_map = key

    def answer_hex(self, hid: str) -> None:
        """Answer with a hex from the map: the answer it stands for (a hex that is several answers
        fills the box with the first and says which); a hex that is no answer gets the game's
        refusal, naming its rule."""
        if self.s.decision is None:
            return
        keys = self.keys_at(hid)
        if len(keys) > 1:
            self.fill_box(keys[0])
            self.say(f"{hid} is {len(keys)} answers: {', '.join(keys)}; Enter gives {keys[0]}, or type another",
                     "bold yellow")
            return
        self.give(keys[0] if keys else hid)

    def choose_hex(self, hid: str) -> None:
        """Enter on the map: the cursor's hex, if the player put the cursor there himself."""
        if self.s.decision is None:
            return
        if not self.cursor_moved_by_player:
            self.say("move the cursor to a hex first (arrows or a click), then Enter answers with it",
                     "bold yellow")
            return
        self.answer_hex(hid)

    def nothing_chosen(self) -> None:
        """Enter with no answer typed and no option highlighted by the player."""
        if self.s.decision is None:
            return
        self.say("type an answer, or move the highlight (Up/Down) to an option: Enter gives it", "bold yellow")

    def type_into_box(self, event: events.Key) -> None:
        """A printable key pressed on the map or the option list goes into the answer box."""
        if not event.is_printable or event.character is None:
            return
        event.stop()
        event.prevent_default()
        box = self.query_one("#answer", AnswerBox)
        if box.value and box.value == self.box_from_map:
            box.value = ""  # typing replaces the answer the map cursor put in the box
        if not box.value:
            box.started = event.time
        box.focus()
        box.insert_text_at_cursor(event.character)

    # -- drawing -----------------------------------------------------------
    def refresh_all(self) -> None:
        new = self.s.decision is not self.asked_for
        if new:  # a new question: its places, and every area of them
            self.places = places_of(self.s.decision) if self.s.decision is not None else None
            self.narrowed, self.box_from_map = None, None
        self.draw_status()
        self.draw_map(new)
        self.draw_question()
        self.draw_log()
        self.draw_hand()
        self.cursor_moved()
        if new:
            self.shown_at = event_clock()

    def draw_status(self) -> None:
        g = self.s.game
        line = g.status(self.s.state, self.viewer) or ""
        who = f" | viewing as {self.viewer}" if self.viewer else ""
        title = f"{g.title}: " if self.terminal_width >= 120 else ""
        self.query_one("#status", Static).update(Text(f"{title}{self.s.scenario} | {line}{who}"))

    def question_hexes(self, d: Decision | None, grid: MapGrid) -> list[str]:
        """The hexes of question ``d`` on ``grid``: its highlight, else the options that are hexes."""
        if d is None:
            return []
        marks = [str(h) for h in d.context.get("highlight", ()) if str(h) in grid.cells]
        return marks or [k for k in d.keys if k in grid.cells]

    def draw_map(self, new: bool = True) -> None:
        view = self.query_one("#map", MapView)
        pic = self.s.game.picture(self.s.state, self.viewer)
        d = self.s.decision
        marks = tuple(str(h) for h in d.context.get("highlight", ())) if d is not None else ()
        within = self.narrowed_areas()
        if within and self.places is not None:  # a narrowed list: its places are the ones marked
            marks = tuple(dict.fromkeys(p.hex for p in self.places.ordered(within)))
        if pic is not None:
            view.grid = MapGrid(pic, zoom=view.zoom, north_up=view.north_up)
            here = self.question_hexes(d, view.grid)
            if new and here:  # the map follows the question: the cursor on its first hex, scrolled into view
                view.cursor = here[0]
            elif view.cursor not in view.grid.cells:
                view.cursor = here[0] if here else (pic.counters[0].hex if pic.counters else pic.hexes[0].id)
            self.query_one("#legend", Static).update(Text(view.grid.legend()))
        if view.classic is not None:
            view.classic = self.s.game.render(self.s.state, self.viewer)
        view.highlight = marks
        view.redraw()

    def draw_question(self) -> None:
        d = self.s.decision
        opts = self.query_one("#options", OptionList)
        q = self.query_one("#question", Static)
        box = self.query_one("#answer", AnswerBox)
        if d is not self.asked_for:
            self.highlight_moved = self.cursor_moved_by_player = self.pane_chosen = False
        opts.clear_options()
        self.asked_for = d
        if d is None:
            out = self.s.outcome
            q.update(Text(f"Game over: {out.text if out else 'ended'}\nSaved in {self.loop.save_path}; "
                          f"press Enter or Ctrl+Q to leave (or type undo)", style="bold green"))
            box.placeholder = "game over: Enter leaves; undo takes back your last answer"
            self.draw_odds(None)
            if self.table_layout.log_lines == 0 and not self.pane_chosen:
                self.pane = "log"  # how it ended
                self.show_pane()
            return
        box.placeholder = "answer: a number, a key, a hex; undo, save, quit"
        rule = f"  [{d.rule}]" if d.rule else ""
        q.update(Text(f"{d.side}: {d.prompt}{rule}"))
        # Stable numbers: option n is always the n-th option of the question, as in line mode;
        # a question offering places lists them nearest first, with areas to narrow by.
        self.rows = listing(d, self.narrowed, places=self.places)
        opts.add_options([ListOption(Text(r.text, style="bold" if r.kind == "area" else "dim" if r.kind != "option"
                                          else ""), id=f"row-{i}", disabled=r.kind == "more")
                          for i, r in enumerate(self.rows)])
        if self.rows:
            opts.highlighted = 0
        self.query_one("#message", Static).update(Text(self.message, style=self.message_style))
        self.draw_odds(self.current_key())

    def typed_key(self) -> str | None:
        """The option the text in the answer box names (its number, its key in any case, the hex of
        its place), if any."""
        d = self.s.decision
        text = self.query_one("#answer", AnswerBox).value.strip()
        if d is None or not text:
            return None
        try:
            text = self.loop.resolve_number(d, text)  # a number, or a hex naming one place
        except AnswerError:
            return None
        same = [o.key for o in d.options if o.key == text] or [o.key for o in d.options if o.key.lower() == text.lower()]
        return same[0] if len(same) == 1 else None

    def current_key(self) -> str | None:
        """The answer the panes describe: the one typed, else the highlighted option."""
        d = self.s.decision
        if d is None:
            return None
        if self.query_one("#answer", AnswerBox).value.strip():
            return self.typed_key()
        return self.row_key(self.query_one("#options", OptionList).highlighted)

    def row_key(self, n: int | None) -> str | None:
        """The option key of row ``n`` of the list (None for an area's row and the like)."""
        if n is None or not 0 <= n < len(self.rows) or self.rows[n].kind != "option":
            return None
        return self.rows[n].key

    def row_of(self, key: str) -> int | None:
        """The list's row showing option ``key``, if it is shown."""
        return next((i for i, r in enumerate(self.rows) if r.kind == "option" and r.key == key), None)

    def narrowed_areas(self) -> frozenset[str]:
        return matching_areas(self.places, self.narrowed) if self.places is not None and self.narrowed else frozenset()

    def narrow_to(self, text: str) -> bool:
        """Narrow the list of places to the areas ``text`` names (``places``: every area again);
        False (nothing done) if ``text`` is an answer, a number, or names no area."""
        d = self.s.decision
        if d is None or self.places is None or not text or text.isdigit():
            return False
        if any(k.lower() == text.lower() for k in d.keys):
            return False
        if text.lower() == WIDEN:
            self.widen()
            return True
        within = matching_areas(self.places, text)
        if not within:
            return False
        self.narrowed = text
        n = len(self.places.ordered(within))
        self.redraw_list()
        self.say(f"{n} place{'s' if n != 1 else ''} in {text}, nearest first; Escape on an empty box: every area",
                 "green")
        return True

    def widen(self) -> None:
        """Every area of the question's places again."""
        if self.narrowed is None:
            return
        self.narrowed = None
        self.redraw_list()
        self.say("every area", "green")

    def redraw_list(self) -> None:
        self.query_one("#answer", AnswerBox).value = ""
        self.highlight_moved = False
        self.draw_question()
        self.draw_map(new=False)
        self.cursor_moved()

    def draw_odds(self, key: str | None) -> None:
        """The odds pane: every outcome of answering with ``key`` (it scrolls when short)."""
        box = self.query_one("#odds", Static)
        pane = self.query_one("#odds-box")
        d = self.s.decision
        if (d, key) == self.odds_drawn:
            return
        self.odds_drawn = (d, key)
        report = decision_odds(self.s.game, self.s.state, d, key, self.s.store) if d is not None and key else None
        before = self.odds_key
        self.odds_key = key if report is not None else None
        if report is None:
            box.update(Text("no odds: this answer rolls no attack", style="dim"))
            pane.add_class("empty")
        else:
            pane.remove_class("empty")
            box.update(Text("\n".join(odds_lines(report))))
            if not self.table_layout.side_by_side and self.odds_key != before and not self.pane_chosen:
                self.pane = "odds"  # an attack to weigh: its odds come forward
        if report is None and self.pane == "odds" and not self.pane_chosen:
            self.pane = "hex"
        self.show_pane()

    @staticmethod
    def log_line(r: LogRow) -> Text:
        """One row of the log as the table shows it: number, turn, text and rules."""
        style = {"turn": "bold", "phase": "bold cyan", "end": "bold green", "roll": "dim"}.get(r.kind, "")
        text = Text(f"{r.index + 1:>4} t{r.turn:<3} ", "dim")
        text.append(r.text, style)
        if r.rules:
            text.append(f"  [{', '.join(r.rules)}]", "dim")
        return text

    def draw_log(self) -> None:
        """The log as the viewer may read it, filtered; only the new events are written
        when the log grew under the same filter (a long campaign's log costs nothing
        per answer), the whole log again after a new filter or an undo."""
        log = self.s.log
        key = (self.turn_filter, self.side_filter, self.viewer)
        seen, turn_then, last = self.log_seen
        again = key != self.log_key or seen > len(log) or (seen > 0 and log[seen - 1] is not last)
        if again:  # a new filter, or an undo took events back: the whole log again
            seen, turn_then, self.log_shown = 0, 0, []
        fresh = log_rows(log, self.viewer, start=seen, start_turn=turn_then)
        new = [r for r in fresh if kept(r, self.turn_filter, self.side_filter)]
        for sel in ("#log-scroll", "#log-pane"):
            pane = self.query_one(sel, RichLog)
            if again:
                pane.clear()
            for r in new:
                pane.write(self.log_line(r))
        self.log_shown += new
        self.log_key = key
        self.log_seen = (len(log), fresh[-1].turn if fresh else turn_then, log[len(log) - 1] if len(log) else None)
        rows = self.log_shown
        turn = "all turns" if self.turn_filter is None else f"turn {self.turn_filter}"
        side = "every side" if self.side_filter is None else self.side_filter
        self.log_title = f"log: {len(rows)} of {len(self.s.log)} events ({turn}, {side}; F5 F6 F7 F8 filter)"
        self.log_brief = f"{len(rows)}/{len(self.s.log)}" + (f" t{self.turn_filter}" if self.turn_filter is not None else "") + (
            f" {self.side_filter}" if self.side_filter is not None else "")
        if self.pane == "log":
            self.show_pane()
        self.query_one("#log-title", Static).update(Text(self.log_title))

    def draw_hand(self) -> None:
        fn = getattr(self.s.game, "hand", None)
        cards = fn(self.s.state, self.viewer) if fn is not None and self.viewer is not None else ()
        box = self.query_one("#hand", Static)
        box.update(Text("hand: " + "; ".join(f"{c} {desc}".strip() for c, desc in cards)) if cards else "hand: none")

    def cursor_moved(self) -> None:
        view = self.query_one("#map", MapView)
        box = self.query_one("#inspector", Static)
        pic = view.grid.picture if view.grid is not None else None
        if pic is None or view.cursor is None:
            box.update("")
            return
        lines = inspect_hex(pic, view.cursor)
        more = getattr(self.s.game, "inspect", None)
        lines += [f"    {x}" for x in (more(self.s.state, self.viewer, view.cursor) if more else ())]
        d = self.s.decision
        keys = self.keys_at(view.cursor)
        if d is not None and keys:
            n = d.keys.index(keys[0]) + 1
            more = f" (and {', '.join(keys[1:])})" if len(keys) > 1 else ""
            lines.append(f"  option {n}, {keys[0]}{more}, of this question (Enter or click again to choose it)")
            row = self.row_of(keys[0])
            if row is not None:
                self.query_one("#options", OptionList).highlighted = row
        if view.grid is not None and not self.query_one("#legend-box").display:
            lines += ["", view.grid.legend()]  # no room under the map: the legend is here
        box.update(Text("\n".join(lines)))

    def player_moved_cursor(self) -> None:
        """The player moved the map cursor: the inspector follows, and so does the highlight."""
        self.cursor_moved_by_player = True
        view = self.query_one("#map", MapView)
        keys = self.keys_at(view.cursor)
        box = self.query_one("#answer", AnswerBox)
        if keys:  # an answer's hex: that answer in the box, Enter gives it
            self.highlight_moved = True
            self.fill_box(keys[0])
        elif self.box_from_map is not None and box.value == self.box_from_map:
            box.value = ""  # the cursor left the hex whose answer it put in the box
            self.box_from_map = None
        self.cursor_moved()

    # -- events ------------------------------------------------------------
    def table_shown(self) -> bool:
        """The table's widgets are there (not yet while it is built, no more while the app closes)."""
        return bool(self.screen_stack) and bool(self.screen_stack[0].query("#answer"))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        d = self.s.decision
        if d is None or event.option_index >= len(self.rows):
            return
        self.pick_row(self.rows[event.option_index])

    def pick_row(self, row: Row) -> None:
        """A row picked from the list: an option is given at once, an area narrows the list."""
        if row.kind == "option":
            self.give(row.key)
        elif row.kind == "area":
            self.narrow_to(row.key)
        elif row.kind == "back":
            self.widen()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        d = self.s.decision
        if d is None or not self.table_shown():
            return
        if self.query_one("#answer", AnswerBox).value.strip():
            return  # the typed answer's odds stay on the panes
        key = self.row_key(event.option_index)
        if key is None:
            return
        self.draw_odds(key)
        if self.highlight_moved:  # the player's highlight; the table's own (a new list's first row) leaves the map
            self.cursor_to(key)

    def cursor_to(self, key: str) -> None:
        """The map cursor on the hex option ``key`` stands for (if it is on the map)."""
        view = self.query_one("#map", MapView)
        hid = self.hex_of(key)
        if view.grid is not None and hid in view.grid.cells and view.cursor != hid:
            view.cursor = hid
            view.redraw()
            self.cursor_moved()

    def on_input_changed(self, event: Input.Changed) -> None:
        """The panes describe the answer being typed as soon as it names an option."""
        if event.input.id != "answer" or self.s.decision is None or not self.table_shown():
            return
        key = self.typed_key()
        if key is not None:
            row = self.row_of(key)
            if row is not None:
                self.query_one("#options", OptionList).highlighted = row
            self.cursor_to(key)
        self.draw_odds(self.current_key())

    def on_input_submitted(self, event: Input.Submitted) -> None:
        box = self.query_one("#answer", AnswerBox)
        started = box.started
        text = event.value.strip()
        event.input.value = ""
        d = self.s.decision
        cmd, rest = typed_command(text, d.keys if d is not None else ())
        if cmd in ("quit", "exit"):
            self.action_quit_saved()
        elif cmd == "undo":
            self.action_undo()
        elif cmd == "save":
            p = self.loop.save(Path(rest.strip()) if rest.strip() else None)
            self.say(f"saved to {p}", "green")
        elif d is None:
            self.action_quit_saved()  # the game is over: Enter leaves
        elif text and self.narrow_to(text):
            pass  # an area's name: the list narrowed to it
        elif text:
            self.typed(text, started)
        elif self.highlight_moved and self.query_one("#options", OptionList).highlighted is not None:
            n = self.query_one("#options", OptionList).highlighted
            if n is not None and n < len(self.rows):
                self.pick_row(self.rows[n])
        else:
            self.nothing_chosen()

    def on_click(self, event: Click) -> None:
        if getattr(event.widget, "id", None) == "pane-bar":
            self.action_next_pane()

    # -- actions -----------------------------------------------------------
    def action_move_highlight(self, step: int) -> None:
        d = self.s.decision
        opts = self.query_one("#options", OptionList)
        if d is None or not self.rows:
            return
        box = self.query_one("#answer", AnswerBox)
        if box.value.strip():
            box.value = ""  # moving the highlight replaces the typed answer
        now = opts.highlighted if opts.highlighted is not None else 0
        opts.highlighted = min(max(now + step, 0), len(self.rows) - 1)
        self.highlight_moved = True

    def action_map_move(self, dx: int, dy: int) -> None:
        """Shift+arrows: the map cursor one hex that way, wherever the focus is."""
        self.query_one("#map", MapView).action_move(dx, dy)

    def action_quit_saved(self) -> None:
        self.loop.save()
        path = self.loop.save_path
        if self.s.decision is None:
            out = self.s.outcome
            self.exit_note = (f"Game over: {out.text if out else 'ended'}. Saved in {path}; "
                              f"replay with: ancients replay {path}")
        else:
            self.exit_note = f"Game saved in {path}; continue with: ancients play {path}"
        self.exit()

    def action_keys(self) -> None:
        self.push_screen(KeysHelp())

    def action_zoom(self) -> None:
        view = self.query_one("#map", MapView)
        view.zoom = 1 - view.zoom
        self.draw_map(new=False)

    def action_classic(self) -> None:
        """F3: the grid, then the game's own drawing of the map, then (for a sheet printed with
        north elsewhere, Xenophon's) the grid in the other layout, and back."""
        view = self.query_one("#map", MapView)
        grid = view.grid
        turnable = grid is not None and grid.sheet is not None and grid.sheet.north % 4 != 0
        if view.classic is None and view.north_up is None:
            view.classic = self.s.game.render(self.s.state, self.viewer)
        elif view.classic is not None and turnable:
            view.classic = None
            view.north_up = bool(grid.rotated)  # the layout the grid was not drawn in
        else:
            view.classic, view.north_up = None, None
        self.draw_map(new=False)

    def action_next_pane(self) -> None:
        names = [p for p in PANES if p != "log" or self.table_layout.log_lines == 0]
        self.pane = names[(names.index(self.pane) + 1) % len(names)] if self.pane in names else names[0]
        self.pane_chosen = True
        self.show_pane()

    def action_turn(self, step: int) -> None:
        last = self.log_seen[1]  # the turn the log has reached
        cur = last if self.turn_filter is None else self.turn_filter
        self.turn_filter = min(max(cur + step, 0), last)
        self.draw_log()

    def action_all_turns(self) -> None:
        self.turn_filter = None
        self.draw_log()

    def action_side_filter(self) -> None:
        sides = [None, *self.s.game.sides(self.s.state)]
        self.side_filter = sides[(sides.index(self.side_filter) + 1) % len(sides)]
        self.draw_log()

    def action_undo(self) -> None:
        """Take back your own last answer and the bots' answers after it (as line mode's ``undo``)."""
        n = self.loop.undo_count()
        if not n:
            self.message = "nothing to undo"
        else:
            self.s.undo(n)
            self.loop.save()
            self.phases.last, self.holding, self.held = None, False, None
            self.message = "undone"
        self.asked_for = None  # the question is asked anew
        self.refresh_all()
        self.maybe_hand_over()
        self.say(self.message, "yellow")


def run_table(loop: TableLoop) -> str:
    """Play ``loop``'s session full-screen until it ends or the player quits; the closing line."""
    app = TableApp(loop)
    app.run()
    if not app.exit_note:
        app.exit_note = f"Saved in {loop.save_path}; replay with: ancients replay {loop.save_path}"
    return app.exit_note
