"""Bots that play any game through the decision protocol.

A bot answers exactly as a human does: it is shown the current
:class:`~ancients_kit.session.Decision` and returns one option key. Its answers
are recorded in the session like anyone's, so a game with bots replays without
them. Each bot draws its own dice from a stream derived from the session seed,
its side and the number of answers so far, so a game between bots is fully
determined by the seed, and loading a save does not change what a bot will do.

- :class:`RandomBot` picks uniformly among the legal options.
- :class:`GreedyBot` picks the option the game's heuristic scores best: either
  the game's cheap ``score_option`` or, failing that, a one-step look-ahead on
  a copy of the session scored by ``evaluate``.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import attrs

from ancients_kit.chance import Rng
from ancients_kit.plugin import Game, Outcome
from ancients_kit.search import MCTSBot
from ancients_kit.session import Decision, Session

__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "SimulationStats", "make_bot", "play_out", "simulate"]


class Bot(Protocol):
    name: str

    def choose(self, session: Session, decision: Decision) -> str: ...


def _stream(session: Session, side: str, salt: str) -> Rng:
    return Rng(session.seed).spawn(f"{salt}:{side}:{len(session.answers)}")


class RandomBot:
    """Uniformly random legal play."""

    name = "random"

    def choose(self, session: Session, decision: Decision) -> str:
        opts = decision.options
        if len(opts) == 1:
            return opts[0].key
        return opts[_stream(session, decision.side, self.name).randint(0, len(opts) - 1)].key


class GreedyBot:
    """One-step greedy play on the game's heuristic; ties broken at random."""

    name = "greedy"

    def __init__(self, lookahead_limit: int = 8) -> None:
        self.lookahead_limit = lookahead_limit

    def choose(self, session: Session, decision: Decision) -> str:
        opts = decision.options
        if len(opts) == 1:
            return opts[0].key
        rng = _stream(session, decision.side, self.name)
        game = session.game
        scores = [game.score_option(session.state, decision, o.key) for o in opts]
        if all(s is None for s in scores):
            keys = [o.key for o in opts]
            if len(keys) > self.lookahead_limit:
                rng.shuffle(keys)
                keys = keys[: self.lookahead_limit]
            best: list[str] = []
            top = float("-inf")
            for k in keys:
                probe = session.fork()
                probe.answer(k)
                v = game.evaluate(probe.state, decision.side)
                if v > top:
                    top, best = v, [k]
                elif v == top:
                    best.append(k)
            return best[rng.randint(0, len(best) - 1)]
        top = max(s for s in scores if s is not None)
        best = [o.key for o, s in zip(opts, scores) if s == top]
        return best[rng.randint(0, len(best) - 1)]


BOTS: dict[str, Callable[[], Bot]] = {"random": RandomBot, "greedy": GreedyBot, "mcts": MCTSBot.from_env}
"""``mcts``: Monte Carlo tree search (ancients_kit.search), settings from ``ANCIENTS_MCTS``."""


def make_bot(name: str) -> Bot:
    try:
        return BOTS[name]()
    except KeyError:
        raise ValueError(f"no bot called {name!r} (bots: {', '.join(BOTS)})") from None


def play_out(
    session: Session,
    bots: Mapping[str, Bot] | Bot,
    *,
    max_decisions: int = 200_000,
    on_answer: Callable[[Session, Decision, str], Any] | None = None,
) -> Outcome | None:
    """Let bots answer until the game ends (or ``max_decisions`` is reached)."""
    n = 0
    while session.decision is not None and n < max_decisions:
        d = session.decision
        bot = bots if not isinstance(bots, Mapping) else bots[d.side]
        key = bot.choose(session, d)
        session.answer(key)
        if on_answer is not None:
            on_answer(session, d, key)
        n += 1
    return session.outcome


@attrs.frozen
class SimulationStats:
    """What many bot games of one scenario came to."""

    games: int
    wins: Mapping[str, int]
    """Side (or ``draw``) -> number of games."""
    levels: Mapping[str, int]
    """``side: level`` -> number of games."""
    mean_turns: float
    median_decisions: float
    mean_decisions: float
    unfinished: int

    def win_rate(self, side: str) -> float:
        return self.wins.get(side, 0) / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


def simulate(
    game: Game,
    scenario: str,
    games: int,
    *,
    bots: Mapping[str, str] | str = "random",
    seed: int = 1,
    options: Mapping[str, Any] | None = None,
    variants: Sequence[Any] = (),
    max_decisions: int = 200_000,
) -> SimulationStats:
    """Play ``games`` bot games with seeds ``seed, seed+1, ...`` and tally them."""
    wins: Counter[str] = Counter()
    levels: Counter[str] = Counter()
    turns: list[int] = []
    lengths: list[int] = []
    unfinished = 0
    for i in range(games):
        s = Session(game, scenario, seed=seed + i, options=options, variants=tuple(variants))
        if isinstance(bots, str):
            who: Mapping[str, Bot] | Bot = make_bot(bots)
        else:
            who = {side: make_bot(kind) for side, kind in bots.items()}
        out = play_out(s, who, max_decisions=max_decisions)
        lengths.append(len(s.answers))
        if out is None:
            unfinished += 1
            continue
        w = out.winner or "draw"
        wins[w] += 1
        if out.level:
            levels[f"{w}: {out.level}"] += 1
        turns.append(out.turn)
    return SimulationStats(
        games=games,
        wins=dict(sorted(wins.items())),
        levels=dict(sorted(levels.items())),
        mean_turns=statistics.fmean(turns) if turns else 0.0,
        median_decisions=statistics.median(lengths) if lengths else 0.0,
        mean_decisions=statistics.fmean(lengths) if lengths else 0.0,
        unfinished=unfinished,
    )
