"""Playing in the terminal: ``new``, ``play``, ``undo``, ``replay`` and ``demo``.

The loop asks one decision at a time. Each answer is saved at once (atomically)
to the game's save file, so Ctrl-C or a closed terminal loses at most the
answer being typed. Typing a bad answer prints why (with the rule) and asks
again.

One game has one writer: ``new``, ``play``, ``undo`` and ``demo`` hold the save
file's advisory lock (:class:`~ancients_kit.savefile.SaveSlot`) while they run,
so a second ``play`` of the same save is refused, naming the process that holds
it (``replay --follow`` watches instead); and no command overwrites a save that
changed on disk since it read it.
"""

from __future__ import annotations

import inspect
import os
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

import click
from rich.rule import Rule

from ancients_kit import savefile
from ancients_kit.bots import Bot, EndlessGame, ProgressWatch, check_bot, make_bot
from ancients_kit.cli import teach, ui
from ancients_kit.cli.common import load_variants, option_pairs, variant_option
from ancients_kit.cli.teach import explain_event, rule_titles
from ancients_kit.data import DataStore
from ancients_kit.errors import AnswerError, InvalidAnswer
from ancients_kit.log import Event
from ancients_kit.outputs import check_output, write_output
from ancients_kit.places import WIDEN, listing, matching_areas, places_of
from ancients_kit.plugin import find_game, load_games
from ancients_kit.savefile import SaveError, SaveSlot
from ancients_kit.session import Decision, Session
from ancients_kit.text import markup
from ancients_kit.tui.view import PhaseWatch, odds_notes, viewport

__all__ = ["COMMANDS", "PlayLoop", "default_save_path"]

HUMAN = "human"
CONTROLLERS = ("human", "random", "greedy", "mcts", "mcts:N")
"""What ``--side SIDE=KIND`` takes (``mcts:N``: the search bot with N iterations a decision)."""
LIST_LIMIT = 24
MAX_BOT_ANSWERS = 200_000
"""Most answers bots may give in a row (no human answering) before the game is called endless."""
HELP = """Type an option's key (in any case), or its number from the list.
A long list of places shows the nearest and the areas: type an area's name (Syria, core, Roma) to list
its places, places to see every area again, or a hex number at any time.
Commands: ?  all options | map  show the map | log  recent events | undo  take back your last answer
          explain [N]  the last N events (10) with their rules' titles and the dice behind them
          save [FILE]  save a copy | help  this text | quit  stop (the game is already saved)"""


def saves_dir() -> Path:
    base = os.environ.get("ANCIENTS_KIT_SAVES")
    if base:
        return Path(base)
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "ancients-kit" / "saves"


def default_save_path(game: str, scenario: str, seed: int) -> Path:
    return saves_dir() / f"{game}-{scenario}-{seed}.json"


def parse_sides(
    session: Session, specs: tuple[str, ...], *, default_first: str, default_rest: str
) -> dict[str, str]:
    """Map each side to ``human`` or a bot spec (``random``, ``greedy``, ``mcts``,
    ``mcts:200``: :func:`~ancients_kit.bots.check_bot`) from ``SIDE=KIND`` flags."""
    sides = session.game.sides(session.state)
    who = {s: (default_first if i == 0 else default_rest) for i, s in enumerate(sides)}
    for spec in specs:
        if "=" not in spec:
            raise ui.UsageProblem(f"--side takes SIDE=KIND with KIND one of {', '.join(CONTROLLERS)}, got {spec!r}")
        name, kind = (x.strip() for x in spec.split("=", 1))
        hits = [s for s in sides if s.lower() == name.lower()] or [s for s in sides if s.lower().startswith(name.lower())]
        if len(hits) != 1:
            raise ui.UsageProblem(f"no single side matches {name!r} (sides: {', '.join(sides)})")
        if kind.lower() == HUMAN:
            who[hits[0]] = HUMAN
            continue
        try:
            who[hits[0]] = check_bot(kind)
        except ValueError as exc:
            raise ui.UsageProblem(f"side {hits[0]!r}: {exc} (kinds: {', '.join(CONTROLLERS)})") from None
    return who


class PlayLoop:
    """Runs a session in the terminal until it ends or the human quits."""

    def __init__(self, session: Session, who: Mapping[str, str], save_path: Path, *, delay: float = 0.0,
                 show_map: bool = True, stop_after: int | None = None, slot: SaveSlot | None = None,
                 max_bot_answers: int = MAX_BOT_ANSWERS) -> None:
        self.s = session
        if slot is None:
            slot = SaveSlot(save_path)
            slot.claim()
        self.slot = slot
        """The save file this loop writes after every answer (locked by the command)."""
        self.watch = ProgressWatch()
        """Stops bots playing a game that makes no progress (see :mod:`ancients_kit.bots`)."""
        self.max_bot_answers = max_bot_answers
        self.stop_after = stop_after
        self.who = dict(who)
        self.bots: dict[str, Bot] = {side: make_bot(kind) for side, kind in who.items() if kind != HUMAN}
        self.save_path = save_path
        self.delay = delay
        self.show_map = show_map
        self.shown = len(session.log)
        self.last_human: str | None = None
        self.humans = [s for s, k in who.items() if k == HUMAN]

        self.phases = PhaseWatch()
        """Says when a phase ended on its own after a player's answer (typing ahead)."""
        self.narrowed: str | None = None
        """The area the list of the question asked now is narrowed to, as the player typed it."""

    # -- output ------------------------------------------------------------
    def viewer(self) -> str | None:
        if not self.humans:
            return None  # bots only: an omniscient view
        d = self.s.decision
        if d is not None and d.side in self.humans:
            return d.side
        return self.last_human or self.humans[0]

    def flush_events(self) -> None:
        v = self.viewer()
        for e in self.s.log.since(self.shown):
            self.print_event(e, v)
        self.shown = len(self.s.log)

    def print_event(self, e: Event, viewer: str | None) -> None:
        rules = f" [dim]\\[{markup(', '.join(e.rules))}][/]" if e.rules else ""
        style = {"turn": "bold", "phase": "bold cyan", "end": "bold green", "roll": "dim"}.get(e.kind, "")
        text = markup(e.text_for(viewer))
        ui.out.print(f"[{style}]{text}[/]{rules}" if style else f"{text}{rules}")
        if e.kind == "turn" and not self.humans and self.show_map:
            self.print_map()

    def print_map(self) -> None:
        g = self.s.game
        d = self.s.decision
        marks = tuple(str(h) for h in d.context.get("highlight", ())) if d is not None and self.humans else ()
        if marks and "highlight" in inspect.signature(g.render).parameters:
            drawing = g.render(self.s.state, self.viewer(), highlight=marks)
        else:
            drawing = g.render(self.s.state, self.viewer())
        wide = ui.out.options.update(max_width=100_000)
        if ui.out.is_terminal and ui.out.measure(drawing, options=wide).maximum > ui.out.width:
            pic = g.picture(self.s.state, self.viewer())  # too wide: a grid that fits, centred on the action
            if pic is not None:
                drawing = viewport(pic, ui.out.width, marks)
        ui.out.print(drawing, soft_wrap=True)
        status = g.status(self.s.state, self.viewer())
        if status:
            ui.out.print(f"[bold]{markup(status)}[/]")

    def print_decision(self, d: Decision, everything: bool = False) -> None:
        """The question and its options: the first :data:`LIST_LIMIT` (``everything``: all); a
        question offering places lists them nearest first, narrowed by area when long
        (:func:`~ancients_kit.places.listing`)."""
        rule = f"  [dim]\\[{markup(d.rule)}][/]" if d.rule else ""
        ui.out.print(f"[bold]{markup(d.side)}[/]: {markup(d.prompt)}{rule}")
        ps = places_of(d)
        if ps is not None:
            rows = listing(d, None if everything else self.narrowed, places=ps,
                           **({"limit": len(d.options)} if everything else {}))
            for r in rows:
                if r.kind == "option":
                    n, _, rest = r.text.partition(". ")
                    ui.out.print(f"  {n.strip():>2}. [bold]{markup(r.key)}[/]{markup(rest[len(r.key):])}")
                else:
                    ui.out.print(markup(r.text), style="dim" if r.kind != "area" else None)
            if any(r.kind == "area" for r in rows):
                ui.out.print("  [dim]type an area's name to list its places, or a hex number; ? lists all[/]")
            keys = [r.key for r in rows if r.kind == "option"]
        else:
            opts = d.options if everything else d.options[:LIST_LIMIT]
            for i, o in enumerate(opts, 1):
                label = f"  {markup(o.label)}" if o.label and o.label != o.key else ""
                ui.out.print(f"  {i:>2}. [bold]{markup(o.key)}[/]{label}")
            if len(d.options) > len(opts):
                ui.out.print(f"  ... {len(d.options) - len(opts)} more: type '?' to list all, or type a key")
            keys = [o.key for o in opts]

        for line in odds_notes(self.s, d, keys):
            ui.out.print(line, markup=False, highlight=False)

    def narrow(self, d: Decision, text: str) -> bool:
        """``text`` names areas of ``d``'s places (and is no answer): the list is narrowed to
        them (``places``: every area again) and shown again. False if it names none."""
        ps = places_of(d)
        if ps is None or not text or text.isdigit() or any(k.lower() == text.lower() for k in d.keys):
            return False
        if text.lower() == WIDEN:
            self.narrowed = None
        elif matching_areas(ps, text):
            self.narrowed = text
        else:
            return False
        self.print_decision(d)
        return True

    def save(self, path: Path | None = None) -> Path:
        """Write the game to its save file, or a copy of it to ``path``.

        Raises :class:`~ancients_kit.savefile.SaveError` (one line) if it cannot.
        """
        self.s.meta["sides"] = self.who
        if path is None or _same_file(path, self.save_path):
            return self.slot.save(self.s)
        copy = SaveSlot(path)
        with copy.locked():
            copy.claim_for_new(self.s)  # never over another game in progress
            return copy.save(self.s)

    # -- input -------------------------------------------------------------
    def resolve_number(self, d: Decision, text: str) -> str:
        """An option's number -> its key; a number past the list is refused with the
        range (four digits or a leading zero, a hex ID such as ``0312``, is left to the game);
        a hex ID that is no key but the place of exactly one option (``move:2907``) -> that key,
        before any reading as a number (a list of 1,226 destinations has an option 1044 too)."""
        if text not in d.keys:  # a hex number typed for the one answer that names it as a place (move:2907)
            ps = places_of(d)
            at = ps.at(text) if ps is not None else []
            if len(at) == 1:
                return at[0].key
        if text.isascii() and text.isdigit() and text not in d.keys:
            n = int(text)
            if 1 <= n <= len(d.options):
                return d.options[n - 1].key
            if len(text) <= 3 and not text.startswith("0"):
                raise InvalidAnswer(f"{text} is not an option's number: choose 1-{len(d.options)}",
                                    answer=text, rule=d.rule)
        return text

    def handover(self, side: str) -> bool:
        """Hotseat with hidden information: hide the screen between players, and
        before the first player's first turn. The player leaving first reads the
        results of their own answers (as they may see them); then the screen and
        its scrollback are cleared so the next player cannot read that hand."""
        if self.s.game.hidden_information and len(self.humans) > 1 and self.last_human != side:
            if self.last_human is not None:
                for e in self.s.log.since(self.shown):
                    self.print_event(e, self.last_human)
                self.shown = len(self.s.log)
                if not _enter(f"{self.last_human}: press Enter to hide the screen"):
                    return False
            ui.out.clear()
            if ui.out.is_terminal:
                ui.out.file.write("\033[3J")  # the scrollback too
            if not _enter(f"Hand over to {side} and press Enter"):
                return False
        self.last_human = side
        return True

    def human_turn(self, d: Decision) -> bool:
        """Ask until a legal answer is given; False if the player quits."""
        if not self.handover(d.side):
            ui.out.print(f"\nGame saved in {markup(self.save_path)}; continue with: ancients play {markup(self.save_path)}")
            return False
        self.flush_events()
        if self.show_map:
            self.print_map()
        note = self.phases.note(self.s, d)
        if note:
            ui.out.print(Rule(style="yellow"))
            ui.prose(note, style="bold yellow")
            if _discard_typed_ahead():
                ui.out.print("(what you typed ahead was discarded)", style="yellow")
        self.narrowed = None
        self.print_decision(d)
        while True:
            try:
                raw = click.prompt(">", prompt_suffix=" ", default="", show_default=False)
            except (click.Abort, EOFError):
                ui.out.print(f"\nGame saved in {markup(self.save_path)}; continue with: ancients play {markup(self.save_path)}")
                return False
            text = raw.strip()
            word, _, rest = text.partition(" ")
            cmd = word.lower().lstrip(":")
            if text in d.keys:
                cmd = ""
            if cmd in {"quit", "exit", "q"}:
                ui.out.print(f"Game saved in {markup(self.save_path)}; continue with: ancients play {markup(self.save_path)}")
                return False
            if cmd in {"help", "h"}:
                ui.out.print(HELP)
                continue
            if cmd == "?":
                self.print_decision(d, everything=True)
                continue
            if cmd == "map":
                self.print_map()
                continue
            if cmd == "log":
                for line in self.s.log.lines(d.side)[-30:]:
                    ui.out.print(markup(line))
                continue
            if cmd == "explain":
                n = int(rest) if rest.strip().isdigit() else 10
                titles = rule_titles(self.s)
                for e in list(self.s.log)[-max(1, n):]:
                    for line in explain_event(e, titles, d.side):
                        ui.prose(line)
                continue
            if cmd == "save":
                # A copy that cannot be written is reported; the game goes on.
                try:
                    p = self.save(Path(rest.strip()).expanduser() if rest.strip() else None)
                except SaveError as exc:
                    ui.err.print(f"[red]not saved:[/] {_one_line(exc)}", soft_wrap=True)
                    continue
                ui.out.print(f"saved to {markup(p)}", soft_wrap=True)
                continue
            if self.narrow(d, text):
                continue
            if cmd == "undo":
                if not self.undo_to_human():
                    ui.out.print("nothing to undo")
                    continue
                self.save()
                return True
            try:
                key = self.resolve_number(d, text)
                before = len(self.s.log)
                self.s.answer(key)
            except AnswerError as exc:
                kind = type(exc).__name__.replace("Answer", "").lower()
                ui.err.print(f"[red]{kind}:[/] {markup(exc)}")
                continue
            self.phases.answered(self.s, d, key, before)
            self.save()
            return True

    def undo_count(self) -> int:
        """How many answers ``undo`` takes back: the asking side's own last answer and
        every answer after it (the other side's, a bot's); 0 if it has none. Without a
        question pending (or no answer of that side), the last human answer."""
        asked = self.s.asked
        me = self.s.decision.side if self.s.decision is not None else None
        mine = [i for i, side in enumerate(asked) if side == me] or [
            i for i, side in enumerate(asked) if side in self.humans]
        return len(asked) - mine[-1] if mine else 0

    def undo_to_human(self) -> bool:
        """Take back your own last answer and the answers made after it (skipping bots' answers)."""
        n = self.undo_count()
        if not n:
            return False
        self.s.undo(n)
        self.shown = len(self.s.log)
        self.phases.last = None
        ui.out.print("[yellow]undone[/]")
        return True

    def run(self) -> None:
        try:
            self._run()
        except EndlessGame as exc:
            self.flush_events()
            raise ui.UsageProblem(f"{exc}; the game so far is saved in {self.save_path}") from None

    def _run(self) -> None:
        given = 0
        bot_run = 0
        self.watch.reset(self.s)
        while self.s.decision is not None:
            if self.stop_after is not None and given >= self.stop_after:
                self.flush_events()
                ui.out.print(f"Stopped after {given} answers; saved in {markup(self.save_path)}; "
                             f"continue with: ancients play {markup(self.save_path)}")
                return
            given += 1
            d = self.s.decision
            if self.who.get(d.side, HUMAN) == HUMAN:
                if not self.human_turn(d):
                    return
                self.watch.reset(self.s)
                bot_run = 0
                continue
            key = self.bots[d.side].choose(self.s, d)
            events = self.s.answer(key)
            self.save()
            self.watch.observe(self.s, d, key, events)
            bot_run += 1
            if bot_run >= self.max_bot_answers and self.s.decision is not None:
                raise EndlessGame(f"bots gave {bot_run} answers in a row and the game has not ended",
                                  answer=len(self.s.answers), game=self.s.game.id, scenario=self.s.scenario,
                                  seed=self.s.seed)
            if self.delay:
                self.flush_events()
                time.sleep(self.delay)
        self.flush_events()
        if self.show_map:
            self.print_map()
        out = self.s.outcome
        ui.out.print(Rule("game over"))
        if out is not None:
            ui.out.print(f"[bold green]{markup(out.text)}[/]")
        ui.out.print(f"Saved in {markup(self.save_path)}; replay with: ancients replay {markup(self.save_path)}")


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.realpath(a) == os.path.realpath(b)
    except (OSError, ValueError):
        return False


def _one_line(exc: BaseException) -> str:
    return markup(" ".join(str(exc).split()))


def _warn_if_replay_differs(s: Session) -> None:
    if not s.replay_matches:
        ui.err.print("[yellow]warning:[/] the rules or data changed since this game was saved; "
                     "the replayed log differs.", soft_wrap=True)


def _discard_typed_ahead() -> bool:
    """At a terminal, drop input typed before the question changed (a script's piped
    answers are kept: they were written for the game as it goes). True if dropped."""
    try:
        if not sys.stdin.isatty():
            return False
        import termios  # POSIX only: elsewhere nothing is dropped

        termios.tcflush(sys.stdin, termios.TCIFLUSH)
    except (OSError, ValueError, ImportError, AttributeError):
        return False
    return True


def _enter(prompt: str) -> bool:
    """Wait for Enter; False at end of input or Ctrl-C (the game is saved)."""
    try:
        click.prompt(prompt, default="", show_default=False)
    except (click.Abort, EOFError):
        return False
    return True


def _start(session: Session, who: Mapping[str, str], save: str | None, delay: float, show_map: bool,
           stop_after: int | None = None, plain: bool = True, kept: bool = True) -> None:
    path = Path(save) if save else free_save_path(default_save_path(session.game.id, session.scenario, session.seed))
    slot = SaveSlot(path)
    with slot.locked():
        slot.claim_for_new()  # never over a game in progress or a file that is no save
        loop = PlayLoop(session, who, path, delay=delay, show_map=show_map, stop_after=stop_after, slot=slot)
        loop.save()
        where = f"; saving to {markup(path)}" if kept else ""
        ui.out.print(f"[dim]{markup(session.game.title)}: {markup(session.scenario)} (seed {session.seed}){where}[/]")
        _play(loop, plain)


def free_save_path(path: Path) -> Path:
    """``path``, or ``NAME-2.json``, ``NAME-3.json`` ... if a game is already saved there:
    a new game never overwrites one in progress (its default name repeats with the seed)."""
    n = 1
    candidate = path
    while candidate.exists():
        n += 1
        candidate = path.with_name(f"{path.stem}-{n}{path.suffix}")
    return candidate


def full_screen_allowed(loop: PlayLoop, plain: bool) -> bool:
    """The full-screen table is used for a human at a real terminal, unless ``--plain``
    or ``--stop-after`` (scripts) asks for line mode, or ``ANCIENTS_KIT_PLAIN`` is set."""
    if plain or loop.stop_after is not None or not loop.humans or os.environ.get("ANCIENTS_KIT_PLAIN"):
        return False
    if os.environ.get("TERM", "") in ("", "dumb"):
        return False
    return sys.stdin.isatty() and sys.stdout.isatty()


def _play(loop: PlayLoop, plain: bool) -> None:
    if full_screen_allowed(loop, plain):
        from ancients_kit.tui.app import run_table  # start-up time: Textual loads only for the table

        ui.out.print(run_table(loop))
        return
    loop.run()


@click.command("new")
@click.argument("game")
@click.argument("scenario")
@click.option("--seed", type=int, default=None, help="Dice seed (default: from the clock; printed).")
@click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE", help="Scenario option (repeatable).")
@click.option("--side", "sides", multiple=True, metavar="SIDE=KIND",
              help="human, random, greedy, mcts or mcts:N (N iterations a decision) for a side.")
@click.option("--hotseat", is_flag=True, help="Every side is human.")
@click.option("--bots", "all_bots", is_flag=True, help="Every side is a greedy bot (watch).")
@click.option("--save", type=click.Path(dir_okay=False), help="Save file (default: in the saves folder).")
@click.option("--no-map", is_flag=True, help="Do not draw the map before each decision.")
@click.option("--stop-after", type=click.IntRange(0), default=None, metavar="N",
              help="Stop (saved) after N more answers; continue later with `ancients play`.")
@click.option("--plain", is_flag=True, help="Line mode even at a terminal (no full-screen table).")
@variant_option
def new_cmd(game: str, scenario: str, seed: int | None, options: tuple[str, ...], sides: tuple[str, ...],
            hotseat: bool, all_bots: bool, save: str | None, no_map: bool, stop_after: int | None,
            plain: bool, variant: tuple[str, ...]) -> None:
    """Start a new game of SCENARIO (against the computer unless told otherwise)."""
    g = find_game(game)
    if seed is None:
        seed = int(time.time()) % 1_000_000
    try:
        s = Session(g, scenario, seed=seed, options=option_pairs(options), variants=load_variants(variant))
    except ValueError as exc:
        raise ui.UsageProblem(str(exc)) from None
    first, rest = ("human", "greedy")
    if hotseat:
        first, rest = "human", "human"
    if all_bots:
        first, rest = "greedy", "greedy"
    who = parse_sides(s, sides, default_first=first, default_rest=rest)
    _start(s, who, save, 0.0, not no_map, stop_after, plain)


@click.command("play")
@click.argument("save", type=click.Path(dir_okay=False))
@click.option("--side", "sides", multiple=True, metavar="SIDE=KIND", help="Change who plays a side.")
@click.option("--no-map", is_flag=True, help="Do not draw the map before each decision.")
@click.option("--stop-after", type=click.IntRange(0), default=None, metavar="N",
              help="Stop (saved) after N more answers; continue later with `ancients play`.")
@click.option("--plain", is_flag=True, help="Line mode even at a terminal (no full-screen table).")
def play_cmd(save: str, sides: tuple[str, ...], no_map: bool, stop_after: int | None, plain: bool) -> None:
    """Continue a saved game (the autosave after a quit or a crash included)."""
    slot = SaveSlot(save)
    with slot.locked():
        s = slot.load()
        _play_loaded(s, slot, save, sides, no_map, stop_after, plain)


def _play_loaded(s: Session, slot: SaveSlot, save: str, sides: tuple[str, ...], no_map: bool,
                 stop_after: int | None, plain: bool = True) -> None:
    saved = s.meta.get("sides") or {}
    who = parse_sides(s, sides, default_first="human", default_rest="greedy")
    for side, kind in saved.items():
        if side in who and not any(x.split("=")[0].strip().lower() == side.lower() for x in sides):
            who[side] = kind
    _warn_if_replay_differs(s)
    loop = PlayLoop(s, who, Path(save), show_map=not no_map, stop_after=stop_after, slot=slot)
    loop.shown = max(0, len(s.log) - 12)
    _play(loop, plain)


@click.command("undo")
@click.argument("save", type=click.Path(exists=True, dir_okay=False))
@click.option("-n", "count", type=click.IntRange(1), default=1, show_default=True, help="How many answers to take back (at least 1).")
def undo_cmd(save: str, count: int) -> None:
    """Take back the last answers of a saved game (the file is rewritten atomically;
    through a symlink, the file it points to)."""
    slot = SaveSlot(save)
    with slot.locked():
        s = slot.load()
        _warn_if_replay_differs(s)
        s.undo(count)
        slot.save(s)
    d = s.decision
    ui.out.print(f"{count} answer(s) taken back; {len(s.answers)} remain.")
    if d is not None:
        ui.out.print(f"Next: {markup(d.side)}: {markup(d.prompt)}")


@click.command("replay")
@click.argument("save", type=click.Path(exists=True, dir_okay=False))
@click.option("--viewer", help="Show the log as this side saw it (default: everything).")
@click.option("--json", "as_json", is_flag=True, help="Print the events as JSON.")
@click.option("--check", is_flag=True, help="Fail unless the replay reproduces the saved log exactly.")
@click.option("--map/--no-map", "show_map", default=True, help="Draw the final position.")
@click.option("--explain", is_flag=True, help="Each event with its rules' titles and the dice and table cells behind it.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write a self-contained page that steps through the game decision by decision.")
@click.option("--follow", is_flag=True,
              help="Watch a game being played: print new events as its answers are saved, until it ends.")
def replay_cmd(save: str, viewer: str | None, as_json: bool, check: bool, show_map: bool, explain: bool,
               html_path: str | None, follow: bool) -> None:
    """Replay a saved game from its seed and answers and print its log."""
    if follow and (as_json or check or explain or html_path):
        raise ui.UsageProblem("--follow prints the events as they come; it does not combine with --json, --check, "
                              "--explain or --html")
    s = savefile.load(save)
    viewer = teach.viewer_of(s, viewer)
    if check and not s.replay_matches:
        raise ui.UsageProblem(f"{save}: the replayed log differs from the saved one")
    if html_path:
        reads = [save, *(v.path for v in s.variants)]
        check_output(html_path, reads=reads, what="--html")  # before the page is built (write_output checks again)
        write_output(html_path, teach.html_replay(s, viewer), reads=reads, what="--html")
        ui.out.print(f"written {markup(html_path)}: {len(s.answers) + 1} steps; open it in any browser")
        return
    if explain:
        for line in teach.explain_lines(s, viewer):
            ui.prose(line)
        return
    if as_json:
        ui.print_json({"record": savefile.to_record(s), "events": [e.to_json(viewer) for e in s.log]})
        return
    for e in s.log:
        ui.out.print(markup(e.line(viewer)))
    if follow:
        s = _follow(save, s, viewer)
    if show_map:
        ui.out.print(s.game.render(s.state, viewer), soft_wrap=True)
    ui.out.print(f"[dim]{len(s.answers)} answers, log sha256 {s.log.digest()[:16]}; "
                 f"{'matches the save' if s.replay_matches else 'DIFFERS from the save'}[/]")


FOLLOW_POLL = 0.25
"""Seconds between two looks at a followed save file."""


def _stamp(path: str) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def _follow(save: str, s: Session, viewer: str | None) -> Session:
    """Watch ``save`` (played by another process, which holds its lock) and
    print each new event as the answers are saved, until the game ends.
    Answers taken back are announced; a file that goes away ends the watch."""
    stamp = _stamp(save)
    while not s.finished:
        time.sleep(FOLLOW_POLL)
        now = _stamp(save)
        if now == stamp:
            continue
        if now is None:
            raise ui.UsageProblem(f"{save}: the save file went away while it was followed")
        stamp = now
        t = savefile.load(save)  # saves are renamed into place whole: never half a file
        old, new = [e.to_json(None) for e in s.log], [e.to_json(None) for e in t.log]
        same = 0
        while same < min(len(old), len(new)) and old[same] == new[same]:
            same += 1
        if same < len(old):
            ui.out.print(f"[yellow]-- answers taken back: the game is at answer {len(t.answers)} again --[/]")
        for e in list(t.log)[same:]:
            ui.out.print(markup(e.line(viewer)))
        s = t
    return s


@click.command("demo")
@click.argument("game", required=False)
@click.argument("scenario", required=False)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--delay", type=click.FloatRange(0, 3600), default=0.0, help="Seconds to pause after each answer.")
@click.option("--save", type=click.Path(dir_okay=False), help="Keep the game in this file (default: none is kept).")
def demo_cmd(game: str | None, scenario: str | None, seed: int, delay: float, save: str | None) -> None:
    """Watch a greedy bot play a random bot to the end (keeping no save file unless --save).

    GAME defaults to the first installed game by name, SCENARIO to its first scenario."""
    if game is None:
        installed = load_games()
        if not installed:
            raise click.UsageError("no game is installed: nothing to demonstrate")
        game = min(installed)
    g = find_game(game)

    scen = scenario or g.scenarios(DataStore(g.package))[0].id
    s = Session(g, scen, seed=seed)
    sides = g.sides(s.state)
    who = {side: ("greedy" if i == 0 else "random") for i, side in enumerate(sides)}
    if save:
        _start(s, who, save, delay, True)
        return
    with tempfile.TemporaryDirectory(prefix="ancients-demo-") as scratch:  # a demo leaves nothing behind
        _start(s, who, str(Path(scratch) / "demo.json"), delay, True, kept=False)
    ui.out.print("[dim]No save file was kept; `ancients demo --save FILE` keeps one.[/]")


COMMANDS = [new_cmd, play_cmd, undo_cmd, replay_cmd, demo_cmd]
