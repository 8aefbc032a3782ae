"""Lest Darkness Fall event chits: their numbers, the hand and the windows of play (``ldf:8.17``-``8.19``, ``ldf:14.3``).

The chits' numbers, texts and return instructions are data
(``data/chits.toml``, :func:`ancients_games.ldf.model.load_chits`); this
module names each number and opens the windows at which chits are played
(every die roll of the game goes through :func:`roll_die`); drawing chits and
the events resolved on the draw or played as actions are
:mod:`.chit_events`'s. The moments of play:

- **resolved on the draw** (8.17): 10 Plague, 18 The Gods Are Bored, 19 Bread
  & Circuses, 20 Persecutions, 25 the cavalry units (:data:`ON_DRAW`);
- **shown and put back** when the side that cannot use it draws it, the draw
  action spent (14.3: 9, 11, 12, 14, 16, 22, 23, 24); 21 drawn by the
  Germano-Parthian is handed to the Roman (:func:`drawn_by_wrong_side`);
- **played at a window** outside one's own action (:data:`WINDOW_CHITS`):
  ``after-roll`` (2 Beseech the Gods, after any die roll by either player),
  ``battle-start`` (1 Flanking Move, 4 Inspired Subordinates' shift, 12 Savaran
  Cavalry), ``before-attack-roll`` (15 Overwhelming Assault by the attacker,
  then 6 They Shall Not Pass by the defender, not after 15), ``before-roll``
  (17 Agents in Enemy Camp before a diplomacy or treachery roll),
  ``move-start`` (4's extra hex and 8 Forced March, by the mover when he
  declares a move; movement.py opens it);
- **played as an action** (8.18): the others, among them 3 From the Jaws of
  Death, 13 (a hand shown) and 5 Into the Valley (the enemy force's move).

A hand holds at most six chits (8.17); its size is public and its contents
secret (10.9), so every window asks every side the rule allows, whatever it
holds (:mod:`ancients_kit.windows`).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from fractions import Fraction
from typing import Final

import attrs

from ancients_kit.protocol import Context, Decision, Option
from ancients_kit.windows import Play, Standing, Window, chain, offer

from .model import Chit
from .state import GP, LDFState, other_side

__all__ = [
    "BATTLE_SHIFT",
    "BattleChits",
    "HAND_LIMIT",
    "ON_DRAW",
    "WINDOW_CHITS",
    "battle_start",
    "before_attack_roll",
    "cavalry_reserve_formed",
    "chit_name",
    "choose_hex",
    "dole_cost",
    "drawn_by_wrong_side",
    "german_increase",
    "gods_bored_ends_turn",
    "hand_shown",
    "jaws_draws",
    "may_draw",
    "move_start",
    "move_start_plays",
    "play_move_start",
    "plague_target",
    "revenue_windfall_tp",
    "roll_die",
    "spend",
    "standing",
    "windfall_distribution",
]

HAND_LIMIT: Final = 6
"""No player holds more than six unplayed chits (``ldf:8.17``)."""

FLANKING: Final = 1
BESEECH: Final = 2
JAWS: Final = 3
INSPIRED: Final = 4
VALLEY: Final = 5
NOT_PASS: Final = 6
MAD_DASH: Final = 7
FORCED_MARCH: Final = 8
MUTINY: Final = 9
PLAGUE: Final = 10
DEBASEMENT: Final = 11
SAVARAN: Final = 12
SPIES: Final = 13
LIMES: Final = 14
ASSAULT: Final = 15
SEA_RAIDERS: Final = 16
AGENTS: Final = 17
GODS_BORED: Final = 18
BREAD: Final = 19
PERSECUTIONS: Final = 20
SIEGE: Final = 21
RESURGENCE: Final = 22
GERMAN_INCREASE: Final = 23
WINDFALL: Final = 24
CAVALRY: Final = 25

ON_DRAW: Final = frozenset({PLAGUE, GODS_BORED, BREAD, PERSECUTIONS, CAVALRY})
"""Resolved the instant they are drawn, by whoever draws them (``ldf:8.17``)."""

WINDOW_CHITS: Final[Mapping[str, tuple[int, ...]]] = {
    "after-roll": (BESEECH,),
    "move-start": (INSPIRED, FORCED_MARCH),
    "battle-start": (FLANKING, INSPIRED, SAVARAN),
    "before-attack-roll": (ASSAULT, NOT_PASS),
    "before-roll": (AGENTS,),
}
"""The interrupt windows (:mod:`ancients_kit.windows`) and the chits played at
each (``ldf:14.3``). ``after-roll`` follows every die roll of the game;
``battle-start`` opens at the start of each battle's resolution (both sides,
attacker first); ``before-attack-roll`` after an attack is declared and before
its roll (attacker, then defender); ``before-roll`` before each diplomacy or
treachery roll, after the Roman's salting (``ldf:8.8``)."""

BATTLE_SHIFT: Final[Mapping[int, str]] = {
    FLANKING: "one column in the player's favour",
    INSPIRED: "one column in the player's favour",
    SAVARAN: "one column in the Parthians' favour",
    NOT_PASS: "one column toward the defender; a DR becomes AS",
}
"""Chits that shift a battle's odds by one column (``ldf:14.3``)."""

ONE_SIDE_SHOWN: Final = frozenset({MUTINY, DEBASEMENT, SAVARAN, LIMES, SEA_RAIDERS, RESURGENCE, GERMAN_INCREASE,
                                   WINDFALL})
"""One-side chits that the other side, drawing them, shows and puts back, its
action spent (``ldf:14.3``; 23 by ruling, docs/games/ldf.md)."""


def hand_shown(state: LDFState, viewer: str | None) -> tuple[tuple[str, str], ...]:
    """The chits ``viewer`` holds, as ``(number, name)`` pairs (10.9: only their number is public)."""
    if viewer not in state.hands:
        return ()
    return tuple((str(n), state.data.chits.chit(int(n)).name) for n in state.hands[viewer].cards)


def may_draw(hand_size: int) -> bool:
    """Whether a player may draw without first putting a chit back: only while he
    holds five or fewer, so that no hand ever passes six (``ldf:8.17``; ruling)."""
    return hand_size < HAND_LIMIT


def drawn_by_wrong_side(chit: Chit, drawer: str) -> str | None:
    """What happens when ``drawer`` draws a chit only the other side may use
    (``ldf:14.3``): ``"shown"`` (shown and put back in the pool, the action
    spent), ``"handed"`` (21, given to the Roman) or ``None`` (he keeps it)."""
    if chit.player in ("both", drawer):
        return None
    if chit.number == SIEGE:
        return "handed"
    if chit.number in ONE_SIDE_SHOWN:
        return "shown"
    raise ValueError(f"chit {chit.number} ({chit.name}) is for {chit.player} only and has no rule for "
                     f"{drawer} drawing it (ldf:14.3)")


def plague_target(die: int) -> str:
    """Chit 10 (``ldf:14.3``, reconstructed): ``parthian`` on 1-2, ``caucasus`` on
    3-4, ``palmyra`` on 5, ``emperor`` on 6."""
    return {1: "parthian", 2: "parthian", 3: "caucasus", 4: "caucasus", 5: "palmyra", 6: "emperor"}[die]


def gods_bored_ends_turn(die: int, turn: int) -> bool:
    """Chit 18 (``ldf:14.3``, ``ldf:5.4``): in Turns 1-4 an even roll ends the turn;
    in Turn 5 there is no roll and no event."""
    return turn <= 4 and die % 2 == 0


def dole_cost(die: int) -> int:
    """Chits 19 and 20 (``ldf:14.3``): the Roman pays a die plus one, 2-7 TP."""
    return die + 1


def german_increase(die: int) -> int:
    """Chit 23 (``ldf:14.3``): up to a die plus three, 4-9, dead tribes return."""
    return die + 3


def revenue_windfall_tp(die: int) -> int:
    """Chit 24 taken all in TP (``ldf:14.3``): the die plus three, never more than five."""
    return min(die + 3, 5)


def windfall_distribution() -> dict[int, Fraction]:
    """Exact TP of chit 24 taken all in TP: 4 with 1/6, 5 with 5/6 (``ldf:14.3``)."""
    out: dict[int, Fraction] = {}
    for d in range(1, 7):
        tp = revenue_windfall_tp(d)
        out[tp] = out.get(tp, Fraction(0)) + Fraction(1, 6)
    return out


def cavalry_reserve_formed(die: int) -> bool:
    """Cavalry drawn (25): on a 6 the central cavalry reserve may be formed (``ldf:14.3``, ``ldf:10.8``)."""
    return die == 6


def jaws_draws(die: int, hand_size: int) -> int:
    """From the Jaws of Death (3): chits drawn after putting chits back, the die
    but never past the hand limit of six (``ldf:14.3``, ``ldf:8.17``)."""
    return max(0, min(die, HAND_LIMIT - hand_size))


# ================================================================ in play (needs the game state)

STANDING_KEY: Final = "windows.standing"
"""Where the standing preferences of the interrupt windows live in ``LDFState.effects``."""


def standing(state: LDFState) -> Standing:
    """The sides' standing preferences at the interrupt windows (:mod:`ancients_kit.windows`),
    kept in the state so that copies carry them."""
    s = state.effects.get(STANDING_KEY)
    if s is None:
        s = state.effects[STANDING_KEY] = Standing()
    return s  # type: ignore[no-any-return]


def chit_name(state: LDFState, number: int) -> str:
    return state.data.chits.chit(number).name


def spend(ctx: Context, state: LDFState, side: str, number: int, text: str, rules: tuple[str, ...]) -> None:
    """``side`` plays chit ``number`` from its hand (shown as it is played, 10.9): it
    goes where its text says (``ldf:8.17``): back in the pool after each use, set
    aside until the next turn, or out of the game. 23 has no instruction: after use
    (ruling, docs/games/ldf.md)."""
    state.hands[side].remove(number)
    returns = state.data.chits.chit(number).returns
    if returns == "next-turn":
        state.set_aside.append(number)
    elif returns == "removed":
        state.removed_chits.append(number)
    else:
        state.pool.add(number)
    ctx.event("chit-play", f"{side} plays chit {number}, {chit_name(state, number)}: {text}",
              rules=tuple(dict.fromkeys(("ldf:14.3", *rules))), side=side, chit=number)


def _holding(state: LDFState, numbers: tuple[int, ...], ok: Callable[[str, int], bool] | None = None
             ) -> Callable[[str], list[Option]]:
    """The plays of a window: the chits ``numbers`` that a side holds (and ``ok`` allows)."""

    def plays(side: str) -> list[Option]:
        return [Option(f"chit-{n}", f"play chit {n}, {chit_name(state, n)}") for n in numbers
                if n in state.hands[side] and (ok is None or ok(side, n))]

    return plays


def _number(play: Play) -> int:
    return int(play.key.removeprefix("chit-"))


def roll_die(ctx: Context, state: LDFState, roller: str, reason: str, rules: tuple[str, ...],
             redeclare: Callable[[], Generator[Decision, str, None]] | None = None
             ) -> Generator[Decision, str, int]:
    """Roll one d6 for ``roller`` and open the ``after-roll`` window: Beseech the Gods
    (chit 2, ``ldf:14.3``) may be played by either player right after any die roll,
    the opponent asked first; the roll is made again and the second result stands,
    and the other side may answer with another reroll (a chain, ``ldf:8.8``).
    ``redeclare`` runs before each reroll (a diplomacy or treachery roll: the reroll
    keeps no earlier salt or chit 17, ``ldf:8.8``). Every die roll of the game should
    be made through this function. Returns the roll that stands."""
    value = ctx.chance.d6(reason, rules)
    last = ctx.chance.last
    assert last is not None

    def resolve(play: Play) -> Generator[Decision, str, str]:
        nonlocal last, value
        spend(ctx, state, play.side, BESEECH, f"the roll of {value} ({reason}) is made again",
              ("ldf:8.8",) if redeclare is not None else ())
        if redeclare is not None:
            yield from redeclare()
        last = ctx.chance.reroll(last, reason=f"{reason}, again", rules=(*rules, "ldf:14.3"))
        value = last.value or 0
        return last.describe()

    def resolve_named(play: Play) -> Generator[Decision, str, str]:
        text = yield from resolve(play)
        return f"{roller}'s {text}"

    window = Window("after-roll", "after a die roll", "ldf:14.3", (other_side(roller), roller),
                    detail=f"{roller}'s {last.describe()}")
    yield from chain(window, standing(state), _holding(state, (BESEECH,)), resolve_named, ctx=ctx)
    return value


# ---------------------------------------------------------------- battle windows (for combat.py)


@attrs.define
class BattleChits:
    """What the chits played in one battle do (``ldf:14.3``); combat.py applies it.

    ``shifts[side]``: columns in that side's favour (1 Flanking Move, 4 Inspired
    Subordinates, 12 Savaran Cavalry, 6 They Shall Not Pass for the defender);
    ``roll_twice``: chit 15, the attacker rolls twice and keeps the result he
    prefers; ``dr_to_as``: chit 6, a DR result becomes AS.
    """

    attacker: str
    defender: str
    shifts: dict[str, int] = attrs.Factory(dict)
    roll_twice: bool = False
    dr_to_as: bool = False
    played: list[int] = attrs.Factory(list)
    where: str = ""
    """The battle in words (``roman attacks 4719 from 4620``), told in the windows' questions."""

    @property
    def net_shift(self) -> int:
        """Columns in the attacker's favour, less those in the defender's."""
        return self.shifts.get(self.attacker, 0) - self.shifts.get(self.defender, 0)


def battle_start(ctx: Context, state: LDFState, attacker: str, defender: str, *, parthians: bool = False,
                 where: str = "") -> Generator[Decision, str, BattleChits]:
    """The ``battle-start`` window (``ldf:14.3``): at the start of a battle's resolution
    either player, the attacker first, may play Flanking Move (1) or Inspired
    Subordinates (4), one column each in his favour, and the Germano-Parthian
    Savaran Cavalry (12) when Parthian units take part; a chain of plays. Then call
    :func:`before_attack_roll`. ``where`` (``roman attacks 4719 from 4620``) is told in
    the windows' questions, so that the players' table shows the battle."""
    out = BattleChits(attacker, defender, where=where)

    def ok(side: str, n: int) -> bool:
        return n != SAVARAN or (side == GP and parthians)

    def resolve(play: Play) -> Generator[Decision, str, None]:
        n = _number(play)
        out.shifts[play.side] = out.shifts.get(play.side, 0) + 1
        out.played.append(n)
        spend(ctx, state, play.side, n, f"one column in {play.side}'s favour", ())
        return None
        yield  # pragma: no cover

    window = Window("battle-start", "the start of a battle", "ldf:14.3", (attacker, defender), detail=where)
    yield from chain(window, standing(state), _holding(state, WINDOW_CHITS["battle-start"], ok), resolve, ctx=ctx)
    return out


def before_attack_roll(ctx: Context, state: LDFState, battle: BattleChits) -> Generator[Decision, str, BattleChits]:
    """The ``before-attack-roll`` window (``ldf:14.3``): after the attack is declared and
    before its die roll, the attacker may play Overwhelming Assault (15: roll twice,
    keep either), then the defender They Shall Not Pass (6: a column to the defence,
    DR becomes AS), which may not follow 15 in the same battle."""
    attack = yield from offer(Window("before-attack-roll", "an attack, before its roll", "ldf:14.3",
                                     (battle.attacker,), detail=battle.where), standing(state),
                              _holding(state, (ASSAULT,)), ctx=ctx)
    if attack is not None:
        battle.roll_twice = True
        battle.played.append(ASSAULT)
        spend(ctx, state, attack.side, ASSAULT, "the attacker rolls twice and keeps the result he prefers", ())
    defence = yield from offer(Window("before-attack-roll", "an attack, before its roll", "ldf:14.3",
                                      (battle.defender,), detail=battle.where), standing(state),
                               _holding(state, (NOT_PASS,), lambda side, n: not battle.roll_twice), ctx=ctx)
    if defence is not None:
        battle.shifts[battle.defender] = battle.shifts.get(battle.defender, 0) + 1
        battle.dr_to_as = True
        battle.played.append(NOT_PASS)
        spend(ctx, state, defence.side, NOT_PASS, "one column to the defence, and a DR becomes AS", ())
    return battle


MOVE_START_GAIN: Final[Mapping[int, int]] = {INSPIRED: 1, FORCED_MARCH: 2}
"""The movement a chit played as a move is declared adds (``ldf:14.3``): 4 one hex, 8 two MP."""


def move_start_plays(state: LDFState, side: str) -> list[Option]:
    """The chits ``side`` may play as he declares a land move (``ldf:14.3``): Inspired
    Subordinates (4) and Forced March (8), those in his hand. movement.py offers them among
    the answers of the move's own question (the mover's own action: no window is opened)."""
    return [Option(f"chit-{n}", f"play chit {n}, {chit_name(state, n)}: +{gain} movement for this force"
                   + (" (it moves together and drops nobody off)" if n == INSPIRED else ""))
            for n, gain in MOVE_START_GAIN.items() if n in state.hands[side]]


def play_move_start(ctx: Context, state: LDFState, side: str, number: int) -> int:
    """``side`` plays chit ``number`` (4 or 8) on the move he declares (``ldf:14.3``); the
    movement it adds (an odd gain includes Inspired Subordinates' hex, whose force moves
    together and drops nobody off)."""
    gain = MOVE_START_GAIN[number]
    spend(ctx, state, side, number, f"+{gain} movement for this force"
          + (" (it moves together and drops nobody off)" if number == INSPIRED else ""), ("ldf:12.1",))
    return gain


def move_start(ctx: Context, state: LDFState, side: str, where: str = "") -> Generator[Decision, str, int]:
    """The ``move-start`` window (``ldf:14.3``): when ``side`` declares a move, he may play
    Inspired Subordinates (4: one more hex; the stack moves together and drops nobody off)
    or Forced March (8: two more movement points). Returns the extra movement points.
    ``where`` (``I28, I29 from 4718``) is told in the question. The move action itself
    offers these chits in its own question (:func:`move_start_plays`); this window is for
    callers that move a force outside that question."""
    extra = 0

    def resolve(play: Play) -> Generator[Decision, str, None]:
        nonlocal extra
        extra += play_move_start(ctx, state, play.side, _number(play))
        return None
        yield  # pragma: no cover

    yield from chain(Window("move-start", "the start of your move", "ldf:14.3", (side,), detail=where),
                     standing(state),
                     _holding(state, (INSPIRED, FORCED_MARCH)), resolve, ctx=ctx)
    return extra


# ---------------------------------------------------------------- a hex chosen (the chits' and the leaders' placements)


def choose_hex(side: str, prompt: str, hexes: list[str], rule: str, kind: str
                ) -> Generator[Decision, str, str]:
    """``side`` picks one of ``hexes`` (asked only when there is a choice)."""
    if len(hexes) == 1:
        return hexes[0]
    key = yield Decision(side, prompt, tuple(Option(h) for h in hexes), rule=rule, kind=kind)  # the key is the hex
    return key
