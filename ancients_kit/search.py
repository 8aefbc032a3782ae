"""Monte Carlo tree search over the decision protocol, for every game.

:class:`MCTSBot` answers a decision by playing many short futures on cheap
copies of the session and keeping the option that did best. It reads nothing
its side may not see and does not foresee the dice:

- every iteration searches a *search copy*, ``session.fork(reseed=...,
  viewer=side)``: what the side cannot see (the other sides' hands, the order
  of the draw pile) is dealt again from what it has not seen
  (:meth:`Game.determinize <ancients_kit.plugin.Game.determinize>`), and the
  copy rolls its own dice from the fork on, not the real game's;
- the tree is shared by all these samples (single-observer information-set
  MCTS): a node is an option key reached by the answers since the root, its
  statistics are over every sample in which it was legal, and UCB1 uses how
  often a child was *available* instead of its parent's visits;
- below the root the tree widens progressively: a node reached ``n`` times
  considers only the heuristic's best ``1 + widen * sqrt(n)`` options
  (:meth:`Game.score_option <ancients_kit.plugin.Game.score_option>`; options
  it scores alike keep one order drawn at the node), so with a small budget
  the rest of this turn and the other side's reply are played the way the
  heuristic would play them (a rollout algorithm: each root option is judged
  by how the heuristic's play goes on from it) instead of trying every
  follow-up once, which judged a move by the average of mostly poor ones;
- at the root the options considered are the heuristic's best two thirds of
  ``width`` and, when there are more, a few spread over the lower-ranked
  ones (so holding back can be weighed against the heuristic's favourite
  advances); they are tried in rounds, each round with the same sample and
  dice for all of them (common random numbers: with dice deciding most of a
  battle, unpaired samples would compare luck, not moves; with
  ``pairing=keyed`` each roll is keyed by its reason, so the same attack gets
  the same die under every option even when the options change which
  attacks come first, and each rollout tie is broken by the tied options
  themselves, not by how many draws came before); after three rounds
  an option behind the leader on the same samples by more than ``prune``
  standard errors of the paired differences is dropped and the budget goes
  to the rest, and a decision whose options give exactly the same rewards
  (two equivalent retreat hexes) stops after four rounds;
- the answer is the heuristic's first option unless another beat it on the
  same samples by more than ``z`` standard errors of the paired differences
  (default 1), so a small budget overrides the heuristic only on evidence;
- below the tree a rollout answers with the same heuristic (ties at random;
  ``epsilon``, default 0, of the answers uniformly at random), or uniformly at
  random (``rollout=random``), until ``plies``
  new player-turns have begun (2: the rest of this side's turn and the other
  side's reply; counted in turns, not answers, so an option that ends a turn
  early does not buy a longer look) or ``depth`` answers have been given
  since the root. A player-turn is what :meth:`Game.turn_key
  <ancients_kit.plugin.Game.turn_key>` says (so the other side's retreat in
  the middle of a turn does not end the look-ahead); a game without that
  hook counts changes of the side asked. A game that has not ended by then
  is scored by
  :meth:`Game.evaluate <ancients_kit.plugin.Game.evaluate>` relative to the
  root, squashed into (0, 1) on the scale of the changes seen so far. A won
  game is worth 1, a draw 1/2, a loss 0.

The budget is per decision: ``iterations`` (deterministic: the same session,
options and settings give the same answer on any machine, so a game between
bots is the same game for a given seed and iteration budget) or ``seconds``
(wall clock: how many iterations fit depends on the machine and its load,
so a game played on a time budget is not reproducible). A decision with one
option is answered at once; ``samples`` ends a decision with few options
before its budget, once each root option has had that many paired samples.

A game may suggest settings (:meth:`Game.search_defaults
<ancients_kit.plugin.Game.search_defaults>`): the bot uses them for every
setting it was not given: a budget, and how far a sample looks (each game's
``search_defaults`` says what it costs; ``benchmarks/bench_search.py`` measures
how the suggestions play).

At a decision that its own answers brought back unchanged, with nothing
logged since it last answered it, the bot does not give an answer it already
gave there: an option that leads back to the same decision (a unit toggled
into an attack and out again, an attack chosen and cancelled) is judged by
the better choices the search makes after it, so the search alone could walk
round such a loop for ever. Each return rules out one more answer (once all
are ruled out, the heuristic answers), so the loop ends.

As a bot (``--side Rome=mcts``, ``simulate --bot mcts``) its settings come
from the environment variable ``ANCIENTS_MCTS``, comma-separated
``name=value`` pairs: ``iterations`` (default: the game's suggestion, else 50), ``seconds`` (a time budget
instead), ``plies`` (default 2), ``depth`` (at most this many answers, default
100), ``rollout`` (``greedy`` or ``random``),
``width`` (how many options of a decision the search considers, best by the
heuristic first; default 12, 0 for all; with an iteration budget at most its
square root at the root, so that each option gets a few samples), ``c`` (exploration constant, default
0.7), ``z`` (evidence needed to override the heuristic, default 1), ``samples`` (at most
this many paired samples of each root option, default 0: no limit), ``widen``
(progressive widening below the root, default 0.5; 0: the heuristic's best
alone), ``prune`` (standard errors behind the leader that drop a root option,
default 2; 0: never), ``epsilon`` (share of random rollout answers, default 0),
``pairing`` (``stream``, the default, or ``keyed``: how a round's samples are
paired, see above). Example: ``ANCIENTS_MCTS=iterations=800,depth=60 ancients simulate ...``.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import attrs

from ancients_kit.chance import Rng
from ancients_kit.errors import AnswerError, GameError
from ancients_kit.session import Decision, Session

__all__ = ["DEFAULT_ITERATIONS", "ENV_VAR", "MCTSBot", "SearchResult", "SearchSettingsError", "Settings", "search"]

DEFAULT_ITERATIONS = 50
"""Iterations per decision of the ``mcts`` bot when no budget is set."""

ENV_VAR = "ANCIENTS_MCTS"
"""Environment variable holding the ``mcts`` bot's settings (see the module docstring)."""


class SearchSettingsError(GameError, ValueError):
    """Bad settings for the search bot (``ANCIENTS_MCTS`` or :class:`MCTSBot`'s arguments)."""


@attrs.define
class _Horizon:
    """How far one sample has looked ahead: in player-turns (``Game.turn_key``) or, for a
    game without them, in changes of the side asked; ``asked`` is the current mark."""

    turn_key: Any
    by_turn: bool
    asked: Any
    turns: int = 0

    def passed(self, copy: Session, d: Decision, plies: int) -> bool:
        """Note the turn ``d`` is asked in; ``True`` when that starts the turn past the horizon."""
        mark = self.turn_key(copy.state) if self.by_turn else d.side
        if mark == self.asked:
            return False
        self.asked, self.turns = mark, self.turns + 1
        return self.turns >= plies


class _Node:
    """Statistics of one option in the tree (the side that chose it is ``side``)."""

    __slots__ = ("avail", "children", "side", "ties", "value", "visits")

    def __init__(self, side: str) -> None:
        self.side = side
        self.visits = 0
        self.value = 0.0
        """Sum of the rewards of ``side`` over the visits."""
        self.avail = 0
        """Iterations in which this option was legal when its parent was reached."""
        self.children: dict[str, _Node] = {}
        self.ties: dict[str, float] = {}
        """Option key -> its place among options the heuristic scores alike, drawn when
        the option is first seen here, so that the same options come first every time."""


class SearchResult:
    """What one search found: the answer and each root option's statistics."""

    __slots__ = ("answer", "iterations", "paired", "seconds", "stats", "tree")

    def __init__(self, answer: str, iterations: int, seconds: float, stats: dict[str, tuple[int, float]],
                 tree: _Node | None = None, paired: dict[str, dict[int, float]] | None = None) -> None:
        self.tree = tree
        """The search tree's root (its ``children``: option key -> node), for tools and tests."""
        self.paired = paired if paired is not None else {}
        """Root option key -> round -> reward of the side asked: the paired samples the
        answer was chosen on (``benchmarks/bench_pairing.py`` measures their noise)."""
        self.answer = answer
        self.iterations = iterations
        self.seconds = seconds
        self.stats = stats
        """Option key -> (visits, mean reward of the side asked)."""

    def __repr__(self) -> str:
        return f"<SearchResult {self.answer!r} after {self.iterations} iterations in {self.seconds:.2f}s>"


def _ranked(session: Session, decision: Decision, rng: Rng, ties: dict[str, float] | None = None) -> list[str]:
    """The options best first by the game's cheap heuristic (unscored ones after
    the scored, in random order among equals: the order in ``ties``, where an
    option not yet there is given its place)."""
    game = session.game
    keyed = []
    for o, s in zip(decision.options, game.score_options(session.state, decision)):
        if ties is None:
            t = rng.random()
        else:
            t = ties.get(o.key, -1.0)
            if t < 0:
                t = ties[o.key] = rng.random()
        keyed.append((-(s if s is not None else -math.inf), t, o.key))
    keyed.sort()
    return [k for _, _, k in keyed]


def _rollout_answer(session: Session, decision: Decision, rng: Rng, greedy: bool, epsilon: float,
                    keyed: bool = False) -> str:
    """The rollout's answer: the heuristic's best, ties at random (``keyed``: the same
    pick among the same tied options of the same decision in every copy of the
    sample ``rng`` belongs to, however many draws came before), or at random."""
    opts = decision.options
    if len(opts) == 1:
        return opts[0].key
    if not greedy or rng.random() < epsilon:
        return opts[rng.below(len(opts))].key
    game = session.game
    best: list[str] = []
    top = -math.inf
    for o, s in zip(opts, game.score_options(session.state, decision)):
        if s is None:
            continue
        if s > top:
            top, best = s, [o.key]
        elif s == top:
            best.append(o.key)
    if not best:
        return opts[rng.below(len(opts))].key
    if len(best) == 1:
        return best[0]
    if keyed:
        return best[rng.spawn("\x1f".join(("tie", decision.side, decision.prompt, *best))).below(len(best))]
    return best[rng.below(len(best))]


@attrs.frozen
class Settings:
    """How a search is run (see the module docstring); checked once, here."""

    iterations: int | None = DEFAULT_ITERATIONS
    seconds: float | None = None
    depth: int = 100
    plies: int = 2
    rollout: str = "greedy"
    width: int = 12
    c: float = 0.7
    epsilon: float = 0.0
    """Share of rollout answers picked at random instead of by the heuristic."""
    z: float = 1.0
    """Standard errors by which a root option must beat the heuristic's first on paired samples."""
    widen: float = 0.5
    """Progressive widening below the root: a node reached n times considers the
    heuristic's best 1 + widen * sqrt(n) options (0: only its best)."""
    prune: float = 2.0
    """Standard errors of the paired differences by which a root option behind the
    leader is dropped after three rounds (0: never), leaving the budget to the rest."""
    samples: int = 0
    """At most this many paired samples of each root option (0: no limit): a decision
    with few options then stops before the budget, which it would spend on
    comparing the same few options again."""
    pairing: str = "stream"
    """How the root options' samples are paired: ``stream`` (each sample's dice drawn
    in turn from one stream) or ``keyed`` (each roll keyed by its reason and each
    rollout tie broken by the tied options, so the same attack gets the same die
    and the same choice the same pick under every option of a round)."""

    def __attrs_post_init__(self) -> None:
        if self.rollout not in ("greedy", "random"):
            raise SearchSettingsError(f"{ENV_VAR}: rollout must be 'greedy' or 'random', not {self.rollout!r}")
        if self.pairing not in ("stream", "keyed"):
            raise SearchSettingsError(f"{ENV_VAR}: pairing must be 'stream' or 'keyed', not {self.pairing!r}")
        if self.iterations is None and self.seconds is None:
            raise SearchSettingsError(f"{ENV_VAR}: a search needs a budget: iterations or seconds")
        for name, low in (("iterations", 1), ("plies", 1), ("depth", 0), ("width", 0), ("samples", 0),
                          ("widen", 0), ("prune", 0), ("epsilon", 0)):
            value = getattr(self, name)
            if value is not None and value < low:
                raise SearchSettingsError(f"{ENV_VAR}: {name} must be at least {low}, not {value}")
        if self.seconds is not None and self.seconds <= 0:
            raise SearchSettingsError(f"{ENV_VAR}: seconds must be more than 0, not {self.seconds}")

    @classmethod
    def of(cls, **kw: Any) -> Settings:
        """Settings from keywords; a time budget alone means no iteration budget."""
        if kw.get("seconds") is not None and "iterations" not in kw:
            kw["iterations"] = None
        return cls(**kw)

    @classmethod
    def for_game(cls, game: Any, **kw: Any) -> Settings:
        """Settings from keywords, and for the settings they do not name the game's
        :meth:`Game.search_defaults <ancients_kit.plugin.Game.search_defaults>`
        (a budget named by either side replaces the other's)."""
        suggested = dict(getattr(game, "search_defaults", dict)() or {})
        unknown = set(suggested) - set(attrs.fields_dict(cls))
        if unknown:
            raise SearchSettingsError(f"{getattr(game, 'id', game)}: search_defaults names unknown settings "
                                      f"{', '.join(sorted(unknown))}")
        if "iterations" in kw or "seconds" in kw:
            suggested.pop("iterations", None)
            suggested.pop("seconds", None)
        return cls.of(**{**suggested, **kw})


def search(session: Session, settings: Settings | None = None, *, rng: Rng | None = None,
           exclude: Collection[str] = (), **kw: Any) -> SearchResult:
    """Search the current decision of ``session`` for the side asked (see the
    module docstring), with ``settings`` or :class:`Settings` made of ``kw``,
    among its options but those in ``exclude`` (at least one must be left).
    ``session`` itself is never changed."""
    st = settings if settings is not None else Settings.for_game(session.game, **kw)
    iterations, seconds, depth, plies, width, c = st.iterations, st.seconds, st.depth, st.plies, st.width, st.c
    rollout, epsilon, z, samples = st.rollout, st.epsilon, st.z, st.samples
    widen, prune = st.widen, st.prune
    keyed = st.pairing == "keyed"
    decision = session.decision
    if decision is None:
        raise ValueError("the game is over: nothing to search")
    me = decision.side
    start = time.perf_counter()
    allowed = [o.key for o in decision.options if o.key not in exclude]
    if not allowed:
        raise ValueError(f"search: every option of {decision.prompt!r} is excluded")
    if len(allowed) == 1:
        return SearchResult(allowed[0], 0, 0.0, {allowed[0]: (0, 0.0)})
    rng = rng if rng is not None else Rng(session.seed).spawn(f"mcts:{me}:{len(session.answers)}")
    greedy = rollout == "greedy"
    game = session.game
    turn_key = game.turn_key
    by_turn = turn_key(session.state) is not None
    """Count the look-ahead in player-turns (Game.turn_key), else in changes of the side asked."""
    root = _Node(me)
    root_keys: list[str] = []
    sides: Sequence[str] = game.sides(session.state)
    base: dict[str, float] | None = None
    spread_sum = 0.0
    spread_n = 0
    done = 0
    paired: dict[str, dict[int, float]] = {}
    """Root option -> round -> reward of the side asked (the paired samples)."""
    active: list[str] = []
    """The root options still sampled (the others were pruned, behind on the same samples)."""
    queue: list[str] = []
    """The root options still to be tried in this round, on this round's sample."""
    rnd = -1
    while True:
        if not queue:
            if rnd >= 0:
                active = _pruned(active, paired, prune, rnd + 1)
                if len(active) == 1:  # everything else fell behind on the same samples
                    break
                if rnd + 1 >= 4 and _alike(active, paired):  # the options lead to the same futures
                    break
            rnd += 1
            if samples and rnd >= samples:
                break
        if iterations is not None and done >= iterations:
            break
        if seconds is not None and done > 0 and time.perf_counter() - start >= seconds:
            break
        # Paired samples at the root: each round gives every root option still in the
        # running the same sample of the hidden cards and the same dice, so their
        # comparison is not drowned by luck (common random numbers); below the root, UCT.
        it = rng.spawn(f"sample:{rnd}")
        done += 1
        copy = session.fork(reseed=it.next_u64(), viewer=me, checkpoints=False, keyed_dice=keyed)
        if base is None:  # read on the first sample, never on the real state
            base = game.evaluate_sides(copy.state, sides)
            assert copy.decision is not None
            ranked = [k for k in _ranked(copy, copy.decision, rng.spawn("root")) if k not in exclude]
            room = len(ranked) if width <= 0 else width
            if iterations is not None:  # a few samples each rather than one each of many options
                room = min(room, max(2, math.isqrt(iterations)))
            root_keys = _root_options(ranked, room)
            active = list(root_keys)
        if not queue:
            queue = list(active)
        slot_key = queue.pop(0)
        node = root
        path: list[_Node] = []
        steps = 0
        horizon = _Horizon(turn_key, by_turn, turn_key(copy.state) if by_turn else me)
        expanded = False
        # -- selection and expansion: down the tree while every option has been tried
        while copy.decision is not None and steps < depth and not expanded:
            d = copy.decision
            if horizon.passed(copy, d, plies):
                break
            if len(d.options) == 1:
                _answer(copy, d.options[0].key)
                steps += 1
                continue
            if node is root:  # round robin over the root options (paired samples)
                key = slot_key
                child = node.children.get(key) or node.children.setdefault(key, _Node(d.side))
                child.avail += 1
                expanded = not child.visits
                path.append(child)
                if not _answer(copy, key):
                    break
                node = child
                steps += 1
                continue
            # progressive widening: a node reached n times considers the heuristic's
            # best 1 + widen * sqrt(n) options, so a small budget follows the heuristic
            # below the root instead of trying every option once
            allowed = 1 + int(widen * math.sqrt(node.visits))
            if width > 0:
                allowed = min(allowed, width)
            keys = _ranked(copy, d, it, node.ties)[:allowed]
            legal = [k for k in keys if k in node.children]
            untried = [k for k in keys if k not in node.children]
            for k in legal:
                node.children[k].avail += 1
            if untried:
                key = untried[0]  # best by the heuristic first
                child = node.children[key] = _Node(d.side)
                child.avail += 1
                expanded = True
            else:
                log_terms = {k: math.log(node.children[k].avail) for k in legal}
                key = max(legal, key=lambda k: _ucb(node.children[k], log_terms[k], c))
                child = node.children[key]
            path.append(child)
            if not _answer(copy, key):
                break
            node = child
            steps += 1
        # -- rollout
        while copy.decision is not None and steps < depth and horizon.turns < plies:
            d = copy.decision
            if horizon.passed(copy, d, plies):
                break
            if not _answer(copy, _rollout_answer(copy, d, it, greedy, epsilon, keyed)):
                break
            steps += 1
        # -- value of the end reached, for every side
        if copy.decision is None and copy.outcome is not None:
            w = copy.outcome.winner
            reward = {s: (0.5 if w is None else 1.0 if s == w else 0.0) for s in sides}
        else:
            assert base is not None
            value = game.evaluate_sides(copy.state, sides)
            deltas = {s: value[s] - base[s] for s in sides}
            for v in deltas.values():
                spread_sum += abs(v)
                spread_n += 1
            scale = spread_sum / spread_n if spread_sum > 0 else 1.0
            reward = {s: 0.5 + 0.5 * math.tanh(v / scale) for s, v in deltas.items()}
        for n in path:
            n.visits += 1
            n.value += reward.get(n.side, 0.5)
        root.visits += 1
        if path and path[0] is root.children.get(slot_key):
            paired.setdefault(slot_key, {})[rnd] = reward.get(me, 0.5)
    stats = {k: (n.visits, n.value / n.visits if n.visits else 0.0) for k, n in root.children.items()}
    best = _paired_choice(root_keys, paired, z)
    return SearchResult(best, done, time.perf_counter() - start, stats, root, paired)


def _paired_choice(keys: Sequence[str], paired: Mapping[str, Mapping[int, float]], z: float) -> str:
    """The heuristic's first option, unless another beat it on the same samples by
    more than ``z`` standard errors of the paired differences (then the one that
    beat it by most): with a small budget the search only overrides the
    heuristic on evidence, with a large one it follows the samples."""
    top = keys[0]
    base = paired.get(top, {})
    best, best_gain = top, 0.0
    for k in keys[1:]:
        diffs = [v - base[r] for r, v in paired.get(k, {}).items() if r in base]
        n = len(diffs)
        if n < 2:
            continue
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        se = math.sqrt(var / n)
        if mean > z * se and mean > best_gain and mean > 0:
            best, best_gain = k, mean
    return best


def _root_options(ranked: Sequence[str], room: int) -> list[str]:
    """The root options searched, ``room`` of the options ``ranked`` best first by the
    heuristic: when not all fit, two thirds of them from the top and the rest spread
    evenly over the others (a middling move, a cautious one), so that the search can
    find a move the heuristic ranks low (holding back instead of closing with the
    enemy) rather than only choose among near-equivalents of its favourite."""
    if room >= len(ranked):
        return list(ranked)
    spread = room // 3
    top = list(ranked[: room - spread])
    rest = ranked[room - spread:]
    picks = sorted({len(rest) * (i + 1) // (spread + 1) for i in range(spread)})
    return top + [rest[i] for i in picks]


def _alike(active: Sequence[str], paired: Mapping[str, Mapping[int, float]]) -> bool:
    """Whether every option in ``active`` got exactly the reward of the first on every
    sample they share (a retreat to either of two equivalent hexes): more samples of
    the same futures cannot tell them apart."""
    first = paired.get(active[0], {})
    if not first:
        return False
    return all(paired.get(k, {}).get(r, v) == v for k in active[1:] for r, v in first.items())


def _pruned(active: Sequence[str], paired: Mapping[str, Mapping[int, float]], prune: float,
            rounds: int) -> list[str]:
    """``active`` without the options that, after at least three rounds, are behind
    the leader (the best mean on the samples) by more than ``prune`` standard
    errors of the paired differences; the heuristic's first (``active[0]``, the
    one every answer is compared with) and the leader stay (``prune`` 0: none goes)."""
    if prune <= 0 or rounds < 3 or len(active) <= 2:
        return list(active)
    means = {k: sum(paired.get(k, {}).values()) / max(1, len(paired.get(k, {}))) for k in active}
    leader = max(active, key=lambda k: means[k])
    lead = paired.get(leader, {})
    kept = []
    for k in active:
        if k in (active[0], leader):
            kept.append(k)
            continue
        diffs = [v - lead[r] for r, v in paired.get(k, {}).items() if r in lead]
        n = len(diffs)
        if n < 3:
            kept.append(k)
            continue
        mean = sum(diffs) / n
        se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
        if mean + prune * se >= 0:
            kept.append(k)
    return kept


def _ucb(n: _Node, log_avail: float, c: float) -> float:
    if n.visits == 0:
        return math.inf
    return n.value / n.visits + c * math.sqrt(log_avail / n.visits)


def _answer(copy: Session, key: str) -> bool:
    """Answer on a search copy; False if the rules refused it (the copy is then
    left before it, and this iteration ends there)."""
    try:
        copy.answer(key)
    except AnswerError:
        return False
    return True


class MCTSBot:
    """The ``mcts`` bot: :func:`search` with a fixed budget per decision."""

    name = "mcts"

    def __init__(self, settings: Settings | None = None, **kw: Any) -> None:
        self.settings = settings if settings is not None else Settings.of(**kw)
        """The settings asked for (the game's suggestions not yet added)."""
        self._explicit: dict[str, Any] | None = None if settings is not None else dict(kw)
        """The keywords given, to merge with each game's :meth:`Game.search_defaults`."""
        self._per_game: dict[str, Settings] = {}
        self.last: SearchResult | None = None
        """The latest search (for tools and benchmarks)."""
        self._quiet: tuple[int, int, list[tuple[Decision, set[str]]]] = (0, -1, [])
        """(id of the session, length of its log, each decision this bot answered since the
        log last grew with the answers it gave there): what its own answers brought back."""

    def settings_for(self, game: Any) -> Settings:
        """The settings this bot searches ``game`` with: the ones given, and for the
        rest the game's suggestions (none when built from a :class:`Settings`)."""
        if self._explicit is None:
            return self.settings
        key = getattr(game, "id", "") or repr(game)
        got = self._per_game.get(key)
        if got is None:
            got = self._per_game[key] = Settings.for_game(game, **self._explicit)
        return got

    @classmethod
    def from_settings(cls, text: str) -> MCTSBot:
        """A bot from ``name=value`` pairs (``iterations=400,depth=60``), as in ``ANCIENTS_MCTS``."""
        kw: dict[str, Any] = {}
        conv: Mapping[str, Any] = {"iterations": int, "seconds": float, "depth": int, "plies": int, "rollout": str,
                                   "width": int, "c": float, "z": float, "samples": int,
                                   "epsilon": float, "widen": float, "prune": float, "pairing": str}
        for item in (p.strip() for p in text.split(",")):
            if not item:
                continue
            name, sep, value = item.partition("=")
            name = name.strip().lower()
            if not sep or name not in conv:
                raise SearchSettingsError(f"{ENV_VAR}: expected name=value with name one of {', '.join(conv)}, not {item!r}")
            try:
                kw[name] = conv[name](value.strip())
            except ValueError:
                raise SearchSettingsError(f"{ENV_VAR}: {name} takes a number, not {value.strip()!r}") from None
        return cls(**kw)

    @classmethod
    def from_env(cls) -> MCTSBot:
        """The bot ``--side X=mcts`` plays: settings from ``ANCIENTS_MCTS``, or the defaults."""
        return cls.from_settings(os.environ.get(ENV_VAR, ""))

    def choose(self, session: Session, decision: Decision) -> str:
        """The search's answer; at a decision the bot's own answers brought back unchanged,
        with nothing logged since, the search's answer among the options it has not yet
        given there (the heuristic's answer once it has given them all).

        An option that leads back to the decision (a unit toggled into an attack and out
        again, an attack chosen and cancelled) is judged by the better choices the search
        makes after it, so the search alone could walk round such a loop for ever; each
        return rules out one more answer, so the loop ends."""
        if len(decision.options) == 1:
            return decision.options[0].key
        where, length, answered = self._quiet
        if where != id(session) or length != len(session.log):
            answered = []
            self._quiet = (id(session), len(session.log), answered)
        given = next((keys for d, keys in answered if d == decision), None)
        if given is None:
            given = set()
            answered.append((decision, given))
        if len(given) >= len(decision.options):
            self.last = None
            rng = Rng(session.seed).spawn(f"mcts:{decision.side}:{len(session.answers)}:again")
            return _rollout_answer(session, decision, rng, True, 0.0)
        self.last = search(session, self.settings_for(session.game), exclude=given)
        given.add(self.last.answer)
        return self.last.answer

