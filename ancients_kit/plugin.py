"""The plugin contract: what a game package supplies, and how games are found.

A game is an object (usually a :class:`Game` subclass instance) registered in the
entry-point group ``ancients_kit.games``. The built-in games register exactly as
a third-party package would, in its ``pyproject.toml``::

    [project.entry-points."ancients_kit.games"]
    mygame = "my_package:GAME"

The core never imports a game; :func:`load_games` discovers them.

A game supplies four parts, each a protocol generic in the game's state type
(:class:`Game` is all four with their defaults):

- :class:`Rules`: its scenarios and options, ``setup(ctx, scenario)`` (the
  initial state) and ``play(ctx, state)``, a generator that follows the
  sequence of play, yields one :class:`~ancients_kit.protocol.Decision` at a
  time, receives the chosen option key and returns an :class:`Outcome`; and,
  for checkpoints, ``copy_state`` and ``resume``;
- :class:`Views`: what a side may see (a renderer, a status line, a picture,
  its hand, the units of a hex);
- :class:`Advice`: what its bots need (scores, the turn it is in, the search's
  settings, a sample of what a side cannot see);
- :class:`Teaching`: its tables, exact odds, its translation of a common
  engagement and its rule index.

Why generators: the rules read like the rulebook's sequence of play (phases,
chit draws, operations with reactions are ordinary loops and calls), and a
session is fully described by its seed and answers, so save, load, undo,
replay and look-ahead copies are all "replay the answers". See
docs/architecture.md.
"""

from __future__ import annotations

import tomllib
from collections.abc import Collection, Generator, Mapping, Sequence
from fractions import Fraction
from importlib import metadata, resources
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

import attrs

from ancients_kit.data import DataStore, Meta
from ancients_kit.errors import ParameterError

if TYPE_CHECKING:
    from ancients_kit.chance import Rng
    from ancients_kit.protocol import Context, Decision

__all__ = [
    "ENTRY_POINT_GROUP",
    "Advice",
    "Game",
    "GameNotFound",
    "OddsReport",
    "OptionSpec",
    "Outcome",
    "RuleInfo",
    "Rules",
    "ScenarioInfo",
    "TableInfo",
    "Teaching",
    "Views",
    "find_game",
    "load_games",
    "supports_checkpoints",
]

ENTRY_POINT_GROUP = "ancients_kit.games"

S = TypeVar("S")
"""A game's state type (each game has its own: the contract is generic in it)."""


@attrs.frozen
class Outcome:
    """How a game ended."""

    winner: str | None
    """Winning side, or ``None`` for a draw."""
    text: str
    """One line: who won and why, in the rulebook's terms."""
    level: str = ""
    """Victory level where the game has them (``decisive``, ``marginal`` ...)."""
    scores: Mapping[str, float] = attrs.field(factory=dict)
    """Per-side figures (victory points, banners, loss percentages)."""
    rules: tuple[str, ...] = ()
    """Rule IDs of the victory conditions applied."""
    turn: int = 0
    """Game-turn in which the game ended (0 if the game has no turns)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "turn": self.turn,
            "text": self.text,
            "level": self.level,
            "scores": {k: float(v) for k, v in self.scores.items()},
            "rules": list(self.rules),
        }


YES = frozenset({"1", "true", "yes", "on", "y"})
NO = frozenset({"0", "false", "no", "off", "n"})


def parse_flag(text: str, name: str) -> bool:
    """Read a yes/no value typed by a user (``yes``, ``no``, ``on``, ``1`` ...) for ``name``
    (an option, an odds or compare parameter); anything else is a :class:`~ancients_kit.errors.ParameterError` naming it."""
    low = text.strip().lower()
    if low in YES:
        return True
    if low in NO:
        return False
    raise ParameterError(f"{name} takes yes or no, not {text!r}", name=name)


def parse_int(params: Mapping[str, str], key: str, default: int | None = None, lo: int | None = 0) -> int:
    """Read the whole number ``key=N`` of typed parameters (``ancients odds``): ``default``
    when absent (missing and no default: an error), at least ``lo`` (None: any);
    anything else is a :class:`~ancients_kit.errors.ParameterError` naming the parameter."""
    if key not in params:
        if default is None:
            raise ParameterError(f"missing {key}=N", name=key)
        return default
    try:
        v = int(params[key])
    except ValueError:
        raise ParameterError(f"{key}={params[key]!r} is not a whole number", name=key) from None
    if lo is not None and v < lo:
        raise ParameterError(f"{key} must be at least {lo}, not {v}", name=key)
    return v


@attrs.frozen
class OptionSpec:
    """A scenario option (optional rule) a player or designer can switch."""

    name: str
    default: Any
    help: str
    rules: tuple[str, ...] = ()
    choices: tuple[Any, ...] = ()
    """Allowed values; empty means booleans (for bool defaults) or whole numbers within :attr:`bounds`."""
    bounds: tuple[int, int] = (-(2**31), 2**31 - 1)
    """Least and greatest value of a whole-number option (a game narrows them: ``(0, 10_000)``)."""

    def _in_bounds(self, n: int) -> int:
        low, high = self.bounds
        if not low <= n <= high:
            raise ParameterError(f"option {self.name!r} takes a whole number from {low} to {high}, not {n}",
                                 name=self.name)
        return n

    def parse(self, text: str) -> Any:
        """Parse a command-line value (``yes``/``no``, numbers, choices)."""
        if isinstance(self.default, bool):
            return parse_flag(text, f"option {self.name!r}")
        if self.choices:
            for c in self.choices:
                if str(c).lower() == text.strip().lower():
                    return c
            raise ParameterError(f"option {self.name!r} takes one of {', '.join(map(str, self.choices))}, not {text!r}",
                                 name=self.name)
        if isinstance(self.default, int):
            digits = text.strip()
            try:
                n = int(digits) if len(digits) <= 20 else None
            except ValueError:
                n = None
            if n is None:
                raise ParameterError(f"option {self.name!r} takes a whole number, not {text[:40]!r}", name=self.name)
            return self._in_bounds(n)
        return text

    def check(self, value: Any) -> Any:
        """A value written in a data file (a variant's ``[options]``): a string is
        parsed as on the command line; any other value must already have the
        option's type (``fortune = 3`` for a yes/no or choice option is refused)."""
        if isinstance(value, str):
            return self.parse(value)
        if isinstance(self.default, bool):
            if isinstance(value, bool):
                return value
            raise ParameterError(f"option {self.name!r} takes true or false, not {value!r}", name=self.name)
        if self.choices:
            for c in self.choices:
                if type(c) is type(value) and c == value:
                    return c
            raise ParameterError(f"option {self.name!r} takes one of {', '.join(map(str, self.choices))}, not {value!r}",
                                 name=self.name)
        if isinstance(self.default, int):
            if isinstance(value, int) and not isinstance(value, bool):
                return self._in_bounds(value)
            raise ParameterError(f"option {self.name!r} takes a whole number, not {value!r}", name=self.name)
        raise ParameterError(f"option {self.name!r} takes a string, not {value!r}", name=self.name)


@attrs.frozen
class ScenarioInfo:
    """A scenario as listed by ``ancients scenarios``."""

    id: str
    title: str
    sides: tuple[str, ...]
    meta: Meta
    summary: str = ""
    first: str = ""
    """The side that moves first."""
    turns: int | None = None


@attrs.frozen
class TableInfo:
    """A table (CRT, terrain chart, deck ...) as listed by ``ancients tables``."""

    id: str
    title: str
    meta: Meta
    header: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    legend: Mapping[str, str] = attrs.field(factory=dict)


@attrs.frozen
class RuleInfo:
    """One entry of a game's rule index."""

    id: str
    title: str
    line: int


@attrs.frozen
class OddsReport:
    """Exact outcome distribution of a described combat, for ``ancients odds``."""

    title: str
    distribution: Mapping[str, Fraction]
    """Outcome label -> exact probability (sums to 1)."""
    explain: tuple[str, ...] = ()
    """How the inputs became a column/dice count, step by step."""
    rules: tuple[str, ...] = ()
    legend: Mapping[str, str] = attrs.field(factory=dict)


class Rules(Protocol[S]):
    """The rules: what every game supplies to be played (``S``: the game's state type).

    :meth:`setup` and :meth:`play` are required; a game whose state can be copied
    adds :meth:`copy_state` and :meth:`resume`, and the session then keeps
    checkpoints (:func:`supports_checkpoints`). The session and the command line
    stand on this part."""

    id: ClassVar[str] = ""
    """Short name used on the command line (``centurion``)."""
    title: ClassVar[str] = ""
    package: ClassVar[str] = ""
    """Import package whose ``data/`` folder holds the game's TOML files."""
    hidden_information: ClassVar[bool] = False
    """True if sides hold secrets (hands of cards): hotseat play then hands over the screen."""
    rule_prefix: ClassVar[str] = ""
    """Rule-ID prefix (``cen``)."""
    asks_forced: ClassVar[bool] = True
    """False: a decision with a single option is a forced answer, not a question; the
    session answers it by itself (it is neither asked nor recorded among the answers,
    and a replay answers it the same way again). The rules should log what a forced
    choice decided where it matters."""

    def scenarios(self, store: DataStore) -> list[ScenarioInfo]:
        raise NotImplementedError

    def setup(self, ctx: Context, scenario: str) -> S:
        """Build the state for ``scenario``; raise ``KeyError`` naming it if unknown."""
        raise NotImplementedError

    def play(self, ctx: Context, state: S) -> Generator[Decision, str, Outcome]:
        """Follow the sequence of play, yielding one decision at a time."""
        raise NotImplementedError

    def option_specs(self, store: DataStore, scenario: str) -> list[OptionSpec]:
        return []

    def sides(self, state: S) -> tuple[str, ...]:
        return tuple(getattr(state, "sides", ()))

    # -- checkpoints (optional) ----------------------------------------------
    def copy_state(self, state: S) -> S:
        """An independent copy of ``state``: changing one never changes the other.

        Only needed with :meth:`resume`. Data shared by every copy (parsed
        documents, the map's geometry) may be shared; everything the rules
        change must be copied.
        """
        raise NotImplementedError

    def resume(self, ctx: Context, state: S, where: Any) -> Generator[Decision, str, Outcome]:
        """The rules generator continued from a checkpoint (optional hook).

        The rules mark safe points with ``ctx.checkpoint(where)``: places in
        :meth:`play` (the start of a player-turn ...) where everything the rest
        of the game depends on is in ``state`` and ``where`` (a small
        comparable value such as ``("turn", 3, "Rome")``), not in the
        generator's local variables. The session then keeps a copy of the
        state (:meth:`copy_state`) and of the dice there, and rebuilds a game
        for undo, fork, or a refused answer from the latest checkpoint plus
        the answers since, instead of replaying every answer from the start.

        ``resume(ctx, state, where)`` must return a generator that, from
        ``state`` as it was at that checkpoint, first calls
        ``ctx.checkpoint(where)`` again (the session checks that it does,
        and does not record it twice) and then plays exactly as :meth:`play`
        would have from there: same events, same dice, same decisions. A
        game that does not implement it keeps full replay; tests compare a
        rebuilt game with a full replay event for event.
        """
        raise NotImplementedError



class Views(Protocol[S]):
    """What a side may see of a position: the prompt, the full-screen table and the
    pictures (``ancients show``, the HTML replay) stand on this part. Each hook has
    a default that shows nothing more than the state's ``repr``."""

    def render(self, state: S, viewer: str | None, highlight: Collection[str] = ()) -> Any:
        """A rich renderable of what ``viewer`` may see (``None``: everything).

        ``highlight`` holds printed hex IDs to mark: the CLI passes the current
        decision's ``context["highlight"]`` (the hexes a unit may reach ...).
        """
        return repr(state)

    def status(self, state: S, viewer: str | None) -> str:
        """One line: turn, phase, scores."""
        return ""

    def picture(self, state: S, viewer: str | None) -> Any:
        """What ``viewer`` may see of the position as an :class:`ancients_kit.picture.Picture`
        (for ``ancients show`` and the HTML replay), or ``None`` if the game draws none."""
        return None

    def hand(self, state: S, viewer: str | None) -> tuple[tuple[str, str], ...]:
        """The cards or chits ``viewer`` holds and may see, as ``(id, description)``
        pairs (empty if the game has no hands or ``viewer`` is ``None``)."""
        return ()

    def inspect(self, state: S, viewer: str | None, hex_id: str) -> tuple[str, ...]:
        """Lines on the units of hex ``hex_id`` beyond the picture's counter (every
        unit's factors, facing, state), only what ``viewer`` may see; empty by default."""
        return ()



class Advice(Protocol[S]):
    """What a game tells its bots: scores, the turn it is in, the search's settings, a
    sample of what a side cannot see. The greedy and search bots stand on this part;
    every hook is optional (without them the bots play at random, look ahead by
    copying the session, count turns by the side asked)."""

    def evaluate(self, state: S, side: str) -> float:
        """Heuristic value of ``state`` for ``side`` (higher is better), for bots."""
        return 0.0

    def evaluate_sides(self, state: S, sides: Sequence[str]) -> dict[str, float]:
        """:meth:`evaluate` for each of ``sides`` (what the search reads at the end of
        every sample); a game whose values share their work gives them all at once."""
        return {s: self.evaluate(state, s) for s in sides}

    def turn_key(self, state: S) -> Any:
        """Which player-turn the game is in, as a small comparable value that
        changes whenever a new player-turn begins (``(3, "Rome")``), or ``None``
        if the game has no player-turns (optional hook, for search bots).

        A search bot counts how far it has looked ahead in player-turns: the
        rest of this turn and the other side's reply. Without this hook it
        counts changes of the side asked, which a decision the other side
        makes in the middle of a turn (a retreat, an evasion) miscounts. Read
        only what every side sees. The default is ``None``.
        """
        return None

    def search_defaults(self) -> Mapping[str, Any]:
        """Settings this game suggests for the ``mcts`` search bot (names as in
        :class:`ancients_kit.search.Settings`: ``c``, ``plies``, ``depth`` ...),
        used where the bot's own settings do not name them (optional hook).
        The default is none: the search's own defaults."""
        return {}

    def score_option(self, state: S, decision: Decision, key: str) -> float | None:
        """Cheap heuristic score of answering ``key`` (higher is better), or None
        to let the greedy bot look ahead by copying the session."""
        return None

    def score_options(self, state: S, decision: Decision) -> list[float | None]:
        """:meth:`score_option` of every option of ``decision``, in its order
        (optional hook). The bots and the search's rollouts score a whole
        decision at once through this; a game whose options share costly work
        (a distance map, a reachable set) may override it to do that work once.
        It must give exactly what :meth:`score_option` gives, option by option.
        The default calls :meth:`score_option` for each."""
        return [self.score_option(state, decision, o.key) for o in decision.options]

    def determinize(self, state: S, viewer: str, rng: Rng) -> None:
        """Replace, in ``state`` itself, what ``viewer`` may not see by a sample of
        what it could be, drawn with ``rng`` (optional hook, for search bots).

        The other sides' hands are dealt again from the cards ``viewer`` has not
        seen (their hands and the draw pile together), the draw pile and a cup of
        chits get a new order, and so on; everything ``viewer`` sees stays as it
        is. The sample must depend only on what ``viewer`` sees (sort the unseen
        cards before shuffling them), so that a search bot's answers cannot
        depend on the real hidden cards. It works in place because the rules
        generator holds the state's objects (a hand, the deck): change their
        contents, do not replace them. :meth:`Session.fork
        <ancients_kit.session.Session.fork>` calls it with ``viewer=``.

        The default does nothing: the game hides nothing (dice to come are not
        hidden information; a search copy rolls its own).
        """
        return None



class Teaching(Protocol[S]):
    """What a game shows a teacher: its tables, exact odds (of a typed engagement, and of
    an answer about to be given), its translation of a common engagement
    (``ancients compare``) and its rule index. ``ancients tables``, ``odds``,
    ``compare`` and ``explain`` stand on this part."""

    def tables(self, store: DataStore) -> list[TableInfo]:
        return []

    def odds(self, store: DataStore, params: Mapping[str, str]) -> OddsReport:
        raise ParameterError(f"{self.id} has no odds calculator")

    odds_help: ClassVar[str] = ""
    """Help text for ``ancients odds GAME key=value ...``."""

    def decision_odds(self, state: S, decision: Decision, key: str, store: DataStore | None = None) -> OddsReport | None:
        """Exact outcome distribution of answering ``decision`` with ``key`` when
        that answer rolls an attack (the same report ``ancients odds`` gives for
        it), or ``None`` if it rolls none. ``store`` is the session's data (its
        variants included). Shown before the player commits."""
        return None

    def compare(self, store: DataStore, engagement: Any) -> Any:
        """This game's :class:`ancients_kit.compare.Translation` of an
        :class:`~ancients_kit.compare.Engagement` (``ancients compare``), or ``None``
        if the game offers none; raise ``ValueError`` with the reason when the
        engagement has no meaning in this game (a unit kind it lacks)."""
        return None

    def rules_index(self) -> list[RuleInfo]:
        """The game's rule index, shipped as ``data/rules.index.toml``."""
        try:
            text = resources.files(self.package).joinpath("data", "rules.index.toml").read_text("utf-8")
        except (FileNotFoundError, OSError):
            return []
        return [RuleInfo(r["id"], r["title"], int(r.get("line", 0))) for r in tomllib.loads(text).get("rule", [])]



class Game(Rules[S], Views[S], Advice[S], Teaching[S]):
    """Base class for a game plugin: the four parts of the contract with their defaults.

    A game subclasses ``Game[ItsState]``, sets the class attributes and implements
    :meth:`~Rules.setup` and :meth:`~Rules.play`; the rest is optional. A tool that
    needs one part names it (``Advice`` for a bot), so that what a game must
    supply for it stays visible."""

    def __repr__(self) -> str:
        return f"<game {self.id}>"


def supports_checkpoints(game: Any) -> bool:
    """True if ``game`` implements both :meth:`Game.resume` and :meth:`Game.copy_state`."""
    cls = type(game)
    return all(
        callable(getattr(game, name, None)) and getattr(cls, name, None) is not getattr(Game, name)
        for name in ("resume", "copy_state")
    )


class GameNotFound(LookupError):
    """No game of that name is installed."""


LOAD_ERRORS: dict[str, str] = {}
"""Entry points that failed to load at the last :func:`load_games`: name -> error."""


def load_games() -> dict[str, Game]:
    """Every installed game, by ID, discovered through entry points.

    A plugin that fails to import is left out (and noted in
    :data:`LOAD_ERRORS`) so one broken package cannot stop the others.
    """
    games: dict[str, Game] = {}
    LOAD_ERRORS.clear()
    for ep in sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        try:
            obj = ep.load()
        except Exception as exc:  # a third-party package may be broken
            LOAD_ERRORS[ep.name] = f"{type(exc).__name__}: {exc}"
            continue
        game = obj() if isinstance(obj, type) else obj
        games[ep.name] = game
    return games


def find_game(name: str, games: Mapping[str, Game] | None = None) -> Game:
    """The game called ``name`` (exact, or a unique prefix)."""
    games = load_games() if games is None else games
    if name in games:
        return games[name]
    hits = [g for k, g in games.items() if k.startswith(name)]
    if len(hits) == 1:
        return hits[0]
    known = ", ".join(sorted(games)) or "none installed"
    if name in LOAD_ERRORS:
        raise GameNotFound(f"game {name!r} is installed but failed to load: {LOAD_ERRORS[name]}")
    if hits:
        raise GameNotFound(f"{name!r} is ambiguous: {', '.join(g.id for g in hits)}")
    raise GameNotFound(f"no game called {name!r} (installed: {known})")


def parse_params(items: Sequence[str]) -> dict[str, str]:
    """``["attack=26", "defense=9"]`` -> dict; malformed items raise :class:`~ancients_kit.errors.ParameterError`."""
    out: dict[str, str] = {}
    for item in items:
        if "=" not in item:
            raise ParameterError(f"expected key=value, got {item!r}")
        k, v = item.split("=", 1)
        out[k.strip().lower()] = v.strip()
    return out
