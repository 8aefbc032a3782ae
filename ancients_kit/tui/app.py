"""The full-screen game: map, question, odds, inspector, hand and log on one screen.

:class:`TableApp` plays a :class:`~ancients_kit.cli.play.PlayLoop`'s session
(the same session, bots and save file as the line-mode prompt) through the
plugin contract only: ``Game.picture`` for the map, the inspector and hex
selection, ``Game.render`` for the game's own drawing (key ``m``),
``Game.status`` for the turn, phase and losses, ``Game.decision_odds`` for the
odds of an attack before it is rolled, and ``Game.hand`` for the cards or
chits the side holds. Every answer, a human's or a bot's, goes through
``Session.answer`` and is saved with ``PlayLoop.save`` (a human's at once, a bots'
run when it ends, before the next question shows), so quitting (``q``, Ctrl-C)
loses nothing.

Keys: arrows move the map cursor (``Enter`` on a hex answers with it),
``Tab`` cycles the panes, number keys typed in the answer box pick options by
their number, ``z`` zooms the map, ``m`` shows the game's own map, ``[``/``]``
step the log's turn filter (``a`` shows all turns), ``v`` cycles the log's
side filter, ``u`` takes back the last answer, ``q`` quits (saved).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, ScrollableContainer, Vertical, VerticalScroll
from textual.events import Click
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option as ListOption

from ancients_kit.errors import AnswerError
from ancients_kit.tui.view import MapGrid, PhaseWatch, decision_odds, inspect_hex, log_rows, odds_lines

if TYPE_CHECKING:
    from ancients_kit.cli.play import PlayLoop
    from ancients_kit.session import Decision

__all__ = ["HandOver", "MapView", "TableApp", "run_table"]


class MapView(Static, can_focus=True):
    """The map drawn from ``Game.picture`` with a cursor; clicks and arrows move it."""

    BINDINGS: ClassVar = [
        Binding("left", "move(-1, 0)", "left", show=False),
        Binding("right", "move(1, 0)", "right", show=False),
        Binding("up", "move(0, -1)", "up", show=False),
        Binding("down", "move(0, 1)", "down", show=False),
        Binding("enter", "choose", "answer with hex", show=True),
    ]

    def __init__(self, **kw: Any) -> None:
        super().__init__("", **kw)
        self.grid: MapGrid | None = None
        self.cursor: str | None = None
        self.highlight: tuple[str, ...] = ()
        self.zoom = 0
        self.classic: Any = None
        """The game's own rendering, shown instead of the grid when set (key ``m``)."""

    def redraw(self) -> None:
        if self.classic is not None or self.grid is None:
            self.update(self.classic if self.classic is not None else "(this game draws no map picture)")
            return
        self.update(self.grid.render(self.cursor, self.highlight))
        if self.cursor in self.grid.cells:
            col, line = self.grid.cells[self.cursor]
            parent = self.parent
            if isinstance(parent, ScrollableContainer):
                from textual.geometry import Region

                region = Region(col, line, self.grid.cell_w, self.grid.cell_h)
                # after the layout, so that the first drawing scrolls too (the pane has its size then)
                self.call_after_refresh(parent.scroll_to_region, region, animate=False, center=True)

    def action_move(self, dx: int, dy: int) -> None:
        if self.grid is None or self.cursor is None:
            return
        self.cursor = self.grid.step(self.cursor, dx, dy)
        self.redraw()
        self.app.cursor_moved()  # type: ignore[attr-defined]

    def action_choose(self) -> None:
        if self.cursor is not None:
            self.app.answer_hex(self.cursor)  # type: ignore[attr-defined]

    def on_click(self, event: Click) -> None:
        if self.grid is None or self.classic is not None:
            return
        hid = self.grid.hex_at(event.x, event.y)
        if hid is None:
            return
        again = hid == self.cursor
        self.cursor = hid
        self.redraw()
        self.app.cursor_moved()  # type: ignore[attr-defined]
        if again or event.chain > 1:
            self.app.answer_hex(hid)  # type: ignore[attr-defined]


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


class TableApp(App[None]):
    """The players' table for one session."""

    TITLE = "ancients-kit"
    CSS = """
    #status { height: auto; background: $boost; padding: 0 1; text-style: bold; }
    #main { height: 1fr; }
    #left { width: 3fr; }
    #right { width: 2fr; min-width: 40; }
    #map-scroll { height: 1fr; border: round $primary; }
    #map { width: auto; height: auto; }
    #legend { height: auto; max-height: 4; color: $text-muted; padding: 0 1; }
    #question { height: auto; padding: 0 1; text-style: bold; }
    #options { height: 1fr; min-height: 5; }
    #message { height: auto; padding: 0 1; }
    #odds { height: auto; max-height: 12; padding: 0 1; border: round $warning; }
    #odds.empty { display: none; }
    #inspector { height: auto; max-height: 12; padding: 0 1; border: round $secondary; }
    #hand { height: auto; max-height: 6; padding: 0 1; }
    #log-title { height: 1; padding: 0 1; background: $boost; }
    #log-scroll { height: 10; border: round $primary; }
    """
    BINDINGS: ClassVar = [
        Binding("q", "quit_saved", "quit (saved)"),
        Binding("ctrl+c", "quit_saved", "quit", show=False, priority=True),
        Binding("z", "zoom", "zoom"),
        Binding("m", "classic", "game's map"),
        Binding("left_square_bracket", "turn(-1)", "log turn -"),
        Binding("right_square_bracket", "turn(1)", "log turn +"),
        Binding("a", "all_turns", "log all"),
        Binding("v", "side_filter", "log side"),
        Binding("u", "undo", "undo"),
    ]

    def __init__(self, loop: PlayLoop) -> None:
        super().__init__()
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
        self.held: str | None = None
        """After a phase ended on its own: the answer typed, given only when typed again."""
        self.holding = False
        self.note = ""
        """The last "phase ended on its own" note (PhaseWatch.note)."""
        self.message_style = "bold red"
        self.refresh_pending = False

    # -- layout ------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static("", id="status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                with ScrollableContainer(id="map-scroll"):
                    yield MapView(id="map")
                yield Static("", id="legend")
            with Vertical(id="right"):
                yield Static("", id="question")
                yield OptionList(id="options", markup=False)
                yield Input(placeholder="answer: a number, a key, undo, save [FILE], quit", id="answer")
                yield Static("", id="message")
                yield Static("", id="odds", classes="empty")
                yield Static("", id="inspector")
                yield Static("", id="hand")
        yield Static("", id="log-title")
        with VerticalScroll(id="log-scroll"):
            yield Static("", id="log")
        yield Footer()

    def on_resize(self, event: Any) -> None:
        """Small terminals (80 x 24) give the map the room: a shorter log, fewer legend lines."""
        small = self.size.height < 36
        self.query_one("#log-scroll").styles.height = 4 if small else 10
        self.query_one("#legend").styles.max_height = 1 if small else 4
        self.query_one("#odds").styles.max_height = 8 if small else 12
        self.query_one("#inspector").styles.max_height = 5 if small else 12

    def on_mount(self) -> None:
        self.advance()
        self.refresh_all()
        self.query_one("#options", OptionList).focus()
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
            self.message, self.message_style = f"{kind}: {exc}", "bold red"
            self.query_one("#message", Static).update(Text(self.message, style=self.message_style))
            return False
        self.loop.save()
        self.mark = mark
        self.message = ""
        self.phases.answered(self.s, d, key, mark)
        self.advance()
        self.holding, self.held = False, None
        note = self.phases.note(self.s, self.s.decision)
        if note:  # a phase ended on its own: the next typed answer waits to be confirmed
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

    def typed(self, text: str) -> bool:
        """An answer typed in the answer box. Just after a phase ended on its own it is
        only given when typed again, so that keys typed ahead for the old phase never
        answer the new question (an option picked from the list, or a hex on the map,
        is given at once: the player chose it looking at the new question)."""
        if self.holding and text != self.held:
            self.held = text
            self.message = f"{self.note}: press Enter again to give {text} to it, or choose another answer"
            self.message_style = "bold yellow"
            self.query_one("#message", Static).update(Text(self.message, style=self.message_style))
            return False
        self.holding, self.held = False, None
        return self.give(text)

    def answer_hex(self, hid: str) -> None:
        """Answer with a hex from the map; a hex that is no answer gets the game's refusal, naming its rule."""
        if self.s.decision is not None:
            self.give(hid)

    # -- drawing -----------------------------------------------------------
    def refresh_all(self) -> None:
        self.draw_status()
        self.draw_map()
        self.draw_question()
        self.draw_log()
        self.draw_hand()
        self.cursor_moved()

    def draw_status(self) -> None:
        g = self.s.game
        line = g.status(self.s.state, self.viewer) or ""
        who = f" | viewing as {self.viewer}" if self.viewer else ""
        self.query_one("#status", Static).update(Text(f"{g.title}: {self.s.scenario} | {line}{who}"))

    def draw_map(self) -> None:
        view = self.query_one("#map", MapView)
        pic = self.s.game.picture(self.s.state, self.viewer)
        d = self.s.decision
        marks = tuple(str(h) for h in d.context.get("highlight", ())) if d is not None else ()
        if pic is not None:
            view.grid = MapGrid(pic, zoom=view.zoom)
            if view.cursor not in view.grid.cells:
                first = next((h for h in marks if h in view.grid.cells), None)
                view.cursor = first or (pic.counters[0].hex if pic.counters else pic.hexes[0].id)
            self.query_one("#legend", Static).update(Text(view.grid.legend()))
        if view.classic is not None:
            view.classic = self.s.game.render(self.s.state, self.viewer)
        view.highlight = marks
        view.redraw()

    def draw_question(self) -> None:
        d = self.s.decision
        opts = self.query_one("#options", OptionList)
        q = self.query_one("#question", Static)
        opts.clear_options()
        self.asked_for = d
        if d is None:
            out = self.s.outcome
            q.update(Text(f"Game over: {out.text if out else 'ended'}\nSaved in {self.loop.save_path}; "
                          f"press q to leave", style="bold green"))
            return
        rule = f"  [{d.rule}]" if d.rule else ""
        q.update(Text(f"{d.side}: {d.prompt}{rule}"))
        # Stable numbers: option n is always the n-th option of the question, as in line mode.
        opts.add_options([ListOption(Text(f"{i:>3}. {o.key}" + (f"  {o.label}" if o.label and o.label != o.key else "")),
                                     id=f"opt-{i}") for i, o in enumerate(d.options, 1)])
        if d.options:
            opts.highlighted = 0
        self.query_one("#message", Static).update(Text(self.message, style=self.message_style))
        self.draw_odds(d.options[0].key if d.options else None)

    def draw_odds(self, key: str | None) -> None:
        box = self.query_one("#odds", Static)
        d = self.s.decision
        report = decision_odds(self.s.game, self.s.state, d, key, self.s.store) if d is not None and key else None
        if report is None:
            box.update("")
            box.add_class("empty")
            return
        box.remove_class("empty")
        box.update(Text("\n".join(odds_lines(report))))

    def draw_log(self) -> None:
        rows = log_rows(self.s.log, self.viewer, turn=self.turn_filter, side=self.side_filter)
        text = Text(no_wrap=False)
        for r in rows:
            style = {"turn": "bold", "phase": "bold cyan", "end": "bold green", "roll": "dim"}.get(r.kind, "")
            text.append(f"{r.index + 1:>4} t{r.turn:<3} ", "dim")
            text.append(r.text, style)
            if r.rules:
                text.append(f"  [{', '.join(r.rules)}]", "dim")
            text.append("\n")
        self.query_one("#log", Static).update(text)
        turn = "all turns" if self.turn_filter is None else f"turn {self.turn_filter}"
        side = "every side" if self.side_filter is None else self.side_filter
        self.query_one("#log-title", Static).update(
            Text(f"log: {len(rows)} of {len(self.s.log)} events ({turn}, {side}; [ ] a v to filter)"))
        scroll = self.query_one("#log-scroll", VerticalScroll)
        scroll.scroll_end(animate=False)

    def draw_hand(self) -> None:
        fn = getattr(self.s.game, "hand", None)
        cards = fn(self.s.state, self.viewer) if fn is not None and self.viewer is not None else ()
        box = self.query_one("#hand", Static)
        box.update(Text("hand: " + "; ".join(f"{c} {desc}".strip() for c, desc in cards)) if cards else "")

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
        if d is not None and view.cursor in d.keys:
            n = d.keys.index(view.cursor) + 1
            lines.append(f"  option {n} of this question (Enter or click again to choose it)")
            self.query_one("#options", OptionList).highlighted = n - 1
        box.update(Text("\n".join(lines)))

    # -- events ------------------------------------------------------------
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        d = self.s.decision
        if d is None or event.option_index >= len(d.options):
            return
        self.give(d.options[event.option_index].key)  # picked from the list in view: given at once

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        d = self.s.decision
        if d is None or event.option_index >= len(d.options):
            return
        key = d.options[event.option_index].key
        self.draw_odds(key)
        view = self.query_one("#map", MapView)
        if view.grid is not None and key in view.grid.cells and view.cursor != key:
            view.cursor = key
            view.redraw()
            self.cursor_moved()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        word, _, rest = text.partition(" ")
        cmd = word.lower().lstrip(":")
        d = self.s.decision
        if d is not None and text in d.keys:
            cmd = ""
        if cmd in ("quit", "exit", "q"):
            self.action_quit_saved()
        elif cmd == "undo":
            self.action_undo()
        elif cmd == "save":
            from pathlib import Path

            p = self.loop.save(Path(rest.strip()) if rest.strip() else None)
            self.query_one("#message", Static).update(Text(f"saved to {p}", style="green"))
        elif text:
            self.typed(text)

    # -- actions -----------------------------------------------------------
    def action_quit_saved(self) -> None:
        self.loop.save()
        self.exit_note = f"Game saved in {self.loop.save_path}; continue with: ancients play {self.loop.save_path}"
        self.exit()

    def action_zoom(self) -> None:
        view = self.query_one("#map", MapView)
        view.zoom = 1 - view.zoom
        self.draw_map()

    def action_classic(self) -> None:
        view = self.query_one("#map", MapView)
        view.classic = None if view.classic is not None else self.s.game.render(self.s.state, self.viewer)
        self.draw_map()

    def action_turn(self, step: int) -> None:
        last = max((r.turn for r in log_rows(self.s.log, self.viewer)), default=0)
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
        self.refresh_all()
        self.maybe_hand_over()
        self.query_one("#message", Static).update(Text(self.message, style="yellow"))


def run_table(loop: PlayLoop) -> str:
    """Play ``loop``'s session full-screen until it ends or the player quits; the closing line."""
    app = TableApp(loop)
    app.run()
    if not app.exit_note:
        app.exit_note = f"Saved in {loop.save_path}; replay with: ancients replay {loop.save_path}"
    return app.exit_note
