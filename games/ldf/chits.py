"""Lest Darkness Fall event chits: drawing, holding and playing them (``ldf:8.17``-``8.19``, ``ldf:14.3``).

The chits' numbers, texts and return instructions are data
(``data/chits.toml``, :func:`ancients_games.ldf.model.load_chits`); this
module gives each number its effect and its moment of play:

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
from typing import TYPE_CHECKING, Any, Final

import attrs

from ancients_kit.session import Context, Decision, Option
from ancients_kit.windows import Play, Standing, Window, chain, offer

from . import stacking
from .model import Chit
from .state import GP, PALMYRA, ROMAN, ROME, other_side

if TYPE_CHECKING:
    from .state import LDFState

__all__ = [
    "BATTLE_SHIFT",
    "BattleChits",
    "HAND_LIMIT",
    "ON_DRAW",
    "WINDOW_CHITS",
    "battle_start",
    "before_attack_roll",
    "can_deploy_siege",
    "can_play_chit",
    "cavalry_reserve_formed",
    "chit_name",
    "deploy_siege",
    "dole_cost",
    "drawn_by_wrong_side",
    "german_increase",
    "gods_bored_ends_turn",
    "jaws_draws",
    "may_draw",
    "move_start",
    "move_start_plays",
    "play_move_start",
    "on_drawn",
    "plague_target",
    "play_chit",
    "playable",
    "revenue_windfall_tp",
    "roll_die",
    "score",
    "siege_targets",
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


# ---------------------------------------------------------------- chits on the draw (8.17)


def _choose_hex(side: str, prompt: str, hexes: list[str], rule: str, kind: str
                ) -> Generator[Decision, str, str]:
    """``side`` picks one of ``hexes`` (asked only when there is a choice)."""
    if len(hexes) == 1:
        return hexes[0]
    key = yield Decision(side, prompt, tuple(Option(h) for h in hexes), rule=rule, kind=kind)  # the key is the hex
    return key


def _deduct(ctx: Context, state: LDFState, n: int, why: str, rules: tuple[str, ...]) -> Generator[Decision, str, None]:
    from . import economy

    yield from economy.deduct(ctx, state, n, why, rules)


def _plague(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """Chit 10 (``ldf:14.3``, reconstructed; ``ldf:6.3``): the plague empties a garrison
    without looting its hex (the coin of 6.3), or takes the emperor (``ldf:14.4``)."""
    die = yield from roll_die(ctx, state, side, "Plague", ("ldf:14.3",))
    target = plague_target(die)
    rules = ("ldf:14.3", "ldf:6.3")
    if target == "emperor":
        ctx.event("chit", f"chit 10, Plague: {die}: the plague takes the emperor", ("ldf:14.3", "ldf:14.4"),
                  dice=(die,))
        from . import politics

        yield from politics.emperor_eliminated(ctx, state, ("ldf:14.3", "ldf:14.4"))
        return
    if target == "parthian":
        chooser, hexes = ROMAN, sorted({u.hex for u in state.of_kind("parthian-garrison") if u.hex})
    elif target == "caucasus":
        caucasus = state.region("caucasus")
        chooser, hexes = GP, sorted({u.hex for u in state.of_kind("client-garrison") if u.hex in caucasus})
    else:
        chooser, hexes = ROMAN, sorted({u.hex for u in state.of_kind("client-garrison") if u.hex == PALMYRA})
    if not hexes:
        ctx.event("chit", f"chit 10, Plague: {die}: no {target} garrison is left; nothing happens", rules, dice=(die,))
        return
    where = yield from _choose_hex(chooser, f"Plague: choose the {target.capitalize()} garrison it takes", hexes, "ldf:14.3",
                                   "chit.plague")
    for u in [u for u in state.units_at(where) if u.garrison]:
        state.eliminate(u.id)
    state.plague.add(where)
    ctx.event("chit", f"chit 10, Plague: {die}: the {target} garrison of {where} dies; the hex is not looted",
              rules, dice=(die,), hex=where)


def _bread_hexes(state: LDFState) -> list[str]:
    """Where a refused Bread & Circuses puts a rebel garrison (``ldf:14.3``): unlooted
    population-centre hexes of the core, not Rome/Ostia, empty of all units."""
    return sorted(h for h in state.region("core") if h != ROME and state.data.centres(h)
                  and not state.is_looted(h) and not state.units_at(h) and _rebel_garrison_may_stand(state, h))


def _rebel_garrison_may_stand(state: LDFState, hex_id: str) -> bool:
    """A non-Gallic rebel garrison never stands in an active Gallic Empire (``ldf:9.5``;
    ``politics.side_change_problem``, ldf-core's ruling of issue 23)."""
    from . import politics

    return politics.side_change_problem(state, hex_id) is None


def _bread(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """Chit 19, Bread & Circuses (``ldf:14.3``): the Roman pays a die plus one TP, or
    refuses before the roll and the Germano-Parthian puts a rebel garrison in an empty
    unlooted core centre (not Rome/Ostia), which pays nothing until retaken and rebuilt."""
    from . import economy

    spare = economy.spare_garrisons(state)
    hexes = _bread_hexes(state)
    options = [Option("pay", "pay for the games: a die plus one TP")]
    if spare and hexes:
        options.append(Option("refuse", "refuse: the Germano-Parthian raises a rebel garrison in an empty core centre"))
    key = "pay"
    if len(options) > 1:
        key = yield Decision(ROMAN, "Bread & Circuses: pay for the games or refuse?", tuple(options),
                             rule="ldf:14.3", kind="chit.bread")
    if key == "pay":
        die = yield from roll_die(ctx, state, ROMAN, "Bread & Circuses", ("ldf:14.3",))
        ctx.event("chit", f"chit 19, Bread & Circuses: the Roman pays {dole_cost(die)} TP", ("ldf:14.3",),
                  dice=(die,))
        yield from _deduct(ctx, state, dole_cost(die), "Bread & Circuses", ("ldf:14.3",))
        return
    where = yield from _choose_hex(GP, "Bread & Circuses refused: choose the hex of the rebel garrison", hexes,
                                   "ldf:14.3", "chit.bread-hex")
    g = spare[0]
    g.rebel = True
    stacking.place(state, where, [g.id], "ldf:14.3")  # ldf-core: the one placement check (10.1)
    state.looted.add(where)
    ctx.event("chit", f"chit 19, Bread & Circuses: the Roman refuses; a rebel garrison holds {where}, "
              "which pays no taxes until retaken and rebuilt", ("ldf:14.3",), hex=where)


def _persecutions(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """Chit 20, Persecutions (``ldf:14.3``): the Roman pays a die plus one TP; the chit
    leaves the game."""
    die = yield from roll_die(ctx, state, ROMAN, "Persecutions", ("ldf:14.3",))
    ctx.event("chit", f"chit 20, Persecutions: the Roman pays {dole_cost(die)} TP; the chit leaves the game",
              ("ldf:14.3",), dice=(die,))
    yield from _deduct(ctx, state, dole_cost(die), "Persecutions", ("ldf:14.3",))


def _cavalry(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """Chit 25 (``ldf:14.3``, ``ldf:10.8``): a cavalry vexillation joins any hex holding
    loyal Roman units and no cavalry; then a 6 lets the central cavalry reserve form
    (not subject to salting)."""
    rules = ("ldf:14.3", "ldf:10.8")
    units = sorted(state.of_kind("cavalry-vexillation", where="pool"), key=lambda u: u.id)
    hexes = sorted({u.hex for u in state.on_map() if u.hex and u.nationality == "roman" and not u.rebel}
                   - {u.hex for u in state.of_kind("cavalry-vexillation") if u.hex})
    if units:  # never into a hex it would overstack (ldf:10.8)
        hexes = [h for h in hexes if stacking.fits(state, h, [units[0]])]
    if not units or not hexes:
        state.pool.add(CAVALRY)
        ctx.event("chit", f"{side} draws a Roman cavalry vexillation; no hex may receive it: back in the pool", rules)
        return
    where = yield from _choose_hex(ROMAN, "Cavalry reinforcement: place it in a hex with your units and no cavalry",
                                   hexes, "ldf:14.3", "chit.cavalry")
    stacking.place(state, where, [units[0].id], "ldf:14.3")
    ctx.event("chit", f"{side} draws a Roman cavalry vexillation: {units[0].id} placed in {where}", rules,
              side=side, hex=where)
    if state.cavalry_reserve:
        return
    die = yield from roll_die(ctx, state, ROMAN, "cavalry reserve", rules)
    if cavalry_reserve_formed(die):
        state.cavalry_reserve = True
        ctx.event("chit", f"cavalry reserve roll {die}: the central cavalry reserve may be formed", rules, dice=(die,))
    else:
        ctx.event("chit", f"cavalry reserve roll {die}: no reserve yet", rules, dice=(die,))


def on_drawn(ctx: Context, state: LDFState, side: str, number: int) -> Generator[Decision, str, bool]:
    """A chit ``side`` just drew (called by ``actions.receive_chit``, ldf-core; 18 is
    resolved there). Chits 10, 19, 20 and 25 are resolved now (``ldf:8.17``); a chit
    only the other side may use is shown and put back, 21 handed to the Roman
    (``ldf:14.3``). Returns ``True`` when the chit does not go into the hand."""
    if number in ON_DRAW:
        name = chit_name(state, number)
        if number != CAVALRY:
            ctx.event("chit", f"{side} draws chit {number}, {name}: resolved at once", ("ldf:8.17", "ldf:14.3"),
                      side=side)
        handler = {PLAGUE: _plague, BREAD: _bread, PERSECUTIONS: _persecutions, CAVALRY: _cavalry}[number]
        yield from handler(ctx, state, side)
        if number == PERSECUTIONS:
            state.removed_chits.append(number)
        elif number != CAVALRY:
            state.pool.add(number)
        return True
    chit = state.data.chits.chit(number)
    what = drawn_by_wrong_side(chit, side)
    if what == "shown":
        state.pool.add(number)
        ctx.event("chit", f"{side} draws chit {number}, {chit.name}, which only the {chit.player} player may use: "
                  "shown and put back in the pool; the action is spent", ("ldf:14.3",), side=side)
        return True
    if what == "handed":
        roman = state.hands[ROMAN]
        if not may_draw(len(roman)):
            back = yield Decision(ROMAN, "Chit 21 is handed to you at the hand limit: put one chit back first",
                                  tuple(Option(str(n), chit_name(state, int(n)))  # type: ignore[call-overload]
                                        for n in sorted(set(roman.cards))), rule="ldf:8.17", kind="chit.put-back")
            roman.remove(int(back))
            state.pool.add(int(back))
            ctx.event("chit", "roman puts a chit back into the pool", ("ldf:8.17",), side=ROMAN, private_to=ROMAN,
                      public_text="roman puts a chit back into the pool")
        roman.add(number)
        ctx.event("chit", f"{side} draws chit 21, {chit.name}, and hands it to the Roman player; the action is spent",
                  ("ldf:14.3", "ldf:8.16"), side=side)
        return True
    return False


# ---------------------------------------------------------------- chits played as actions (8.18)


def _jaws_ok(state: LDFState, side: str) -> bool:
    """3: the Roman while a German unit is in mainland Italy; the Germano-Parthian while a
    unit of the Roman side is in Barbaria or Parthia (``ldf:14.3``)."""
    if side == ROMAN:
        italy = state.region("italy")
        return any(u.hex in italy for u in state.of_kind("german-tribe"))
    places = state.region("barbaria") | state.region("parthia")
    return any(u.hex in places and state.side_of(u) == ROMAN for u in state.on_map())


def _jaws(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """3, From the Jaws of Death (``ldf:14.3``): put back any chits you want rid of, roll a die
    and draw that many at random, up to the hand limit. Chits drawn that are resolved on the
    draw are resolved at once, spending no further action (ruling); 3 itself is held out
    until the next turn (its once-a-turn sentence)."""
    from .actions import _draw_one, receive_chit

    spend(ctx, state, side, JAWS, "chits put back, then a die of draws", ())
    hand = state.hands[side]
    while len(hand):
        held = sorted(set(hand.cards))  # type: ignore[type-var]
        key = yield Decision(side, "From the Jaws of Death: put back another chit?",
                             (Option("done", "keep the rest"),
                              *(Option(str(n), f"put back {n}, {chit_name(state, int(n))}")  # type: ignore[call-overload]
                                for n in held)), rule="ldf:14.3", kind="chit.jaws")
        if key == "done":
            break
        hand.remove(int(key))
        state.pool.add(int(key))
        ctx.event("chit", f"{side} puts chit {key} back", ("ldf:14.3",), side=side, private_to=side,
                  public_text=f"{side} puts a chit back")
    die = yield from roll_die(ctx, state, side, "From the Jaws of Death", ("ldf:14.3",))
    n = jaws_draws(die, len(hand))
    ctx.event("chit", f"From the Jaws of Death: {die}: {side} draws {n} chit(s)", ("ldf:14.3", "ldf:8.17"),
              side=side, dice=(die,))
    for _ in range(n):
        if not len(state.pool) or state.over:
            break
        number = _draw_one(ctx, state, side, f"{side} draws (Jaws of Death)", ("ldf:14.3",))
        yield from receive_chit(ctx, state, side, number)


def _mad_dash(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """7, Mad Dash (``ldf:5.3``, reconstructed): one more action at once."""
    spend(ctx, state, side, MAD_DASH, "another action at once; the opponent's next is skipped", ("ldf:5.3",))
    state.extra_action = side
    return None
    yield  # pragma: no cover


def _mutiny_targets(state: LDFState) -> list[str]:
    leaders = {u.hex for u in state.on_map() if u.leader and not u.rebel}
    return sorted(u.id for u in state.of_kind("infantry-vexillation") if not u.rebel and u.hex != ROME
                  and u.hex not in leaders)


def _mutiny(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """9, Mutiny (``ldf:14.3``, reconstructed): one loyal infantry vexillation in a hex without a
    Roman leader and outside Rome/Ostia goes to the dead pile."""
    targets = _mutiny_targets(state)
    uid = yield Decision(GP, "Mutiny: which loyal infantry vexillation?",
                         tuple(Option(t, f"{t} in {state.units[t].hex}") for t in targets), rule="ldf:14.3",
                         kind="chit.mutiny")
    where = state.units[uid].hex
    spend(ctx, state, side, MUTINY, f"{uid} in {where} mutinies and goes to the dead pile", ())
    state.eliminate(uid)


def _debasement(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """11, Debasement of the Coinage (``ldf:14.3``, reconstructed; ``ldf:6.3``): +3 TP, then the
    Germano-Parthian loots one empty unlooted core centre other than Rome/Ostia."""
    from . import economy

    spend(ctx, state, side, DEBASEMENT, "3 TP, at the price of a looted centre", ())
    economy.gain(ctx, state, 3, "Debasement of the Coinage", ("ldf:14.3",))
    hexes = _bread_hexes(state)
    if not hexes:
        ctx.event("chit", "Debasement: no empty unlooted core centre to loot", ("ldf:14.3",))
        return
    where = yield from _choose_hex(GP, "Debasement: which empty core centre is looted?", hexes, "ldf:14.3",
                                   "chit.debasement")
    state.looted.add(where)
    ctx.event("loot", f"Debasement of the Coinage: {where} is looted", ("ldf:14.3", "ldf:6.3"), hex=where)


def _spies(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """13 (``ldf:10.9``, ``ldf:14.3``): see every chit in the opponent's hand."""
    other = other_side(side)
    cards = tuple(int(c) for c in state.hands[other].cards)  # type: ignore[call-overload]
    spend(ctx, state, side, SPIES, f"{side} looks at the {other} player's hand", ("ldf:10.9",))
    state.revealed[other] = cards
    names = ", ".join(f"{n} {chit_name(state, n)}" for n in cards) or "no chits"
    ctx.event("chit", f"{side} sees the {other} hand: {names}", ("ldf:10.9", "ldf:14.3"), side=side, private_to=side,
              public_text=f"{side} sees the {other} hand ({len(cards)} chits)")
    return None
    yield  # pragma: no cover


def _limes_ok(state: LDFState, side: str) -> bool:
    from . import economy

    return bool(economy.rebuild_hexes(state)) or bool(economy.garrison_hexes(state))


def _limes(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """14, Limes Restored (``ldf:14.3``, reconstructed; ``ldf:8.13``, ``ldf:8.14``): one whole
    fortification or rebuilding in this single action."""
    from . import economy

    options = [Option(f"rebuild:{h}", f"rebuild {h}") for h in economy.rebuild_hexes(state)]
    options += [Option(f"fortify:{h}", f"fortify {h}") for h in economy.garrison_hexes(state)]  # 10.1, 10.4
    key = yield Decision(ROMAN, "Limes Restored: rebuild or fortify which hex?", tuple(options), rule="ldf:14.3",
                         kind="chit.limes")
    what, _, where = key.partition(":")
    spend(ctx, state, side, LIMES, f"{what} {where} in one action", ("ldf:8.13", "ldf:8.14"))
    if what == "rebuild":
        state.rebuilding.discard(where)
        state.looted.discard(where)
        ctx.event("rebuild", f"{where} is rebuilt at once", ("ldf:14.3", "ldf:8.14", "ldf:6.4"), side=ROMAN, hex=where)
    else:
        g = economy.spare_garrisons(state)[0]
        g.rebel = False
        stacking.place(state, where, [g.id], "ldf:8.13")
        ctx.event("fortify", f"{where} is fortified at once: garrison {g.id}", ("ldf:14.3", "ldf:8.13"), side=ROMAN,
                  hex=where)


def _black_sea(state: LDFState) -> frozenset[str]:
    """The Black Sea (Pontus): the sea hexes joined to the Bosporus' sea hex 4118 (ruling)."""
    m = state.map
    sea = {h for h in m.hexes() if m.terrain(h) == "sea"}
    start = state.hex("4118")
    seen, todo = {start}, [start]
    while todo:
        h = todo.pop()
        for n in m.neighbors(h):
            if n in sea and n not in seen:
                seen.add(n)
                todo.append(n)
    return frozenset(m.to_id(h) for h in seen)


def _raid(state: LDFState) -> tuple[list[str], list[str]]:
    """16's tribes (in Barbaria hexes on the Black Sea) and targets (centres flagged coastal,
    next to the Black Sea or the Aegean, holding no unit). The Aegean: the other sea hexes within three of the
    Hellespont, 4019 (ruling)."""
    m = state.map
    pontus = _black_sea(state)
    hel = state.hex("4019")
    aegean = {m.to_id(h) for h in m.hexes() if m.terrain(h) == "sea" and m.to_id(h) not in pontus
              and h.distance(hel) <= 3}
    barbaria = state.region("barbaria")
    tribes = sorted(u.id for u in state.of_kind("german-tribe") if u.hex in barbaria
                    and any(n in pontus for n in state.data.neighbours(u.hex)))
    targets = sorted(state.map.to_id(h) for h in m.hexes_where("centres")
                     if not state.units_at(m.to_id(h)) and not m.value(h, "narrows")
                     and m.value(h, "coastal") and any(
                         n in pontus or n in aegean for n in state.data.neighbours(m.to_id(h))))
    return tribes, targets


def _sea_raiders(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """16, Gothic Sea Raiders (``ldf:14.3``, head reconstructed; ``ldf:6.3``): a tribe on the
    Black Sea shore of Barbaria lands in an empty coastal centre of the Black Sea or the
    Aegean, which it loots on entry."""
    from . import economy

    tribes, targets = _raid(state)
    tid = tribes[0] if len(tribes) == 1 else (yield Decision(
        GP, "Gothic Sea Raiders: which tribe sails?", tuple(Option(t, f"{t} in {state.units[t].hex}") for t in tribes),
        rule="ldf:14.3", kind="chit.raiders"))
    where = yield from _choose_hex(GP, "Gothic Sea Raiders: where does it land?", targets, "ldf:14.3",
                                   "chit.raiders-hex")
    spend(ctx, state, side, SEA_RAIDERS, f"{tid} sails from {state.units[tid].hex} to {where}", ())
    stacking.place(state, where, [tid], "ldf:14.3")
    yield from economy.on_enter(ctx, state, [tid], where)


def _resurgence(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """22, Parthian Dynastic Resurgence (``ldf:7.3``, ``ldf:14.3``): every dead Parthian unit
    returns as in 7.2; a collapse ends."""
    from . import admin

    spend(ctx, state, side, RESURGENCE, "the dead Parthians return"
          + ("; the Parthian collapse ends" if state.parthia_collapsed else ""), ("ldf:7.3",))
    state.parthia_collapsed = False
    yield from admin.redeploy_parthia(ctx, state, ("ldf:14.3", "ldf:7.2", "ldf:7.3"))


def _german_increase(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """23, German Population Increase (``ldf:14.3``, ``ldf:7.1``): a die plus three, and up to
    that many dead tribes return, one a hex, to empty hexes of Barbaria."""
    spend(ctx, state, side, GERMAN_INCREASE, "dead tribes return to Barbaria", ("ldf:7.1",))
    die = yield from roll_die(ctx, state, GP, "German Population Increase", ("ldf:14.3",))
    most = german_increase(die)
    dead = sorted(state.of_kind("german-tribe", "dead"), key=lambda u: u.id)[:most]
    back = []
    for t in dead:
        free = sorted(h for h in state.region("barbaria") if not state.units_at(h))
        if not free:
            break
        where = yield from _choose_hex(GP, f"German Population Increase: a hex for {t.id}", free, "ldf:7.1",
                                       "chit.tribe")
        stacking.place(state, where, [t.id], "ldf:7.1")
        back.append(t.id)
    ctx.event("returns", f"German Population Increase: {die} + 3 = {most}: {len(back)} tribe(s) return",
              ("ldf:14.3", "ldf:7.1"), side=GP, dice=(die,))


def _windfall(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """24, Roman Revenue Windfall (``ldf:14.3``, ``ldf:6.1``): a die plus three, taken as TP
    (never more than five) and/or legion bases and infantry vexillations reclaimed free as in
    6.8, so in pairs into the same core hexes (ruling: a unit left without its pair is not
    taken)."""
    from . import admin, economy

    spend(ctx, state, side, WINDFALL, "a die plus three in TP and/or reclaimed legions", ("ldf:6.1",))
    die = yield from roll_die(ctx, state, ROMAN, "Roman Revenue Windfall", ("ldf:14.3",))
    n = die + 3
    pairs = min(len(state.of_kind("legion-base", "dead")), len(state.of_kind("infantry-vexillation", "dead")))
    options = []
    for tp in range(min(5, n), -1, -1):
        units = min((n - tp) // 2, pairs) * 2
        if options and tp + units <= 0:
            continue
        options.append(Option(f"tp-{tp}", f"{tp} TP and {units} units ({units // 2} legion pairs)"))
    key = options[0].key if len(options) == 1 else (yield Decision(
        ROMAN, f"Revenue Windfall: {die} + 3 = {n}: how many as TP?", tuple(options), rule="ldf:14.3",
        kind="chit.windfall"))
    tp = int(key.removeprefix("tp-"))
    economy.gain(ctx, state, tp, "Roman Revenue Windfall", ("ldf:14.3",))
    for _ in range(min((n - tp) // 2, pairs)):
        hexes = admin._reclaim_hexes(state, "legion")
        if not hexes:
            break
        b, v = state.of_kind("legion-base", "dead")[0], state.of_kind("infantry-vexillation", "dead")[0]
        where = yield from _choose_hex(ROMAN, "Revenue Windfall: place a reclaimed legion", hexes, "ldf:6.8",
                                       "chit.windfall-hex")
        stacking.place(state, where, [b.id, v.id], "ldf:6.8")
        ctx.event("reclaim", f"Revenue Windfall: {b.id} and {v.id} return in {where}", ("ldf:14.3", "ldf:6.8"),
                  side=ROMAN, hex=where)


def _movement() -> Any:
    from . import movement

    return movement


def _enemy_forces(state: LDFState, side: str) -> list[str]:
    """Hexes holding an enemy force that could be moved by chit 5 (it may leave an EZOC)."""
    mv = _movement()
    pos = mv.position(state)
    enemy = other_side(side)
    out = []
    for h in sorted({u.hex for u in state.on_map() if u.hex and state.side_of(u) == enemy}):
        units = mv.movable_units(pos, enemy, state.hex(h))
        if units and mv.force_problem(pos, units, enemy) is None and any(
                mv.step_problem(state.map, pos, units, state.hex(h), n) is None
                for n in mv.land_links(state.map).get(state.hex(h), ())):
            out.append(h)
    return out


def _valley(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, object]:
    """5, Into the Valley of the Shadow of Death (``ldf:14.3``, ``ldf:11.4``): move one enemy force
    (the whole stack that may move, ruling) up to its normal allowance by the normal rules; it may
    leave the EZOC it starts in, stops on entering another, and drops nobody off. The player of
    the chit makes every choice of the move."""
    mv = _movement()
    enemy = other_side(side)
    hexes = _enemy_forces(state, side)
    key = yield Decision(side, "Into the Valley of the Shadow of Death: move which enemy force?",
                         (*(Option(h, f"the enemy force in {h}") for h in hexes),
                          Option("back", "choose another action")), rule="ldf:14.3", kind="chit.valley")
    if key == "back":
        return False
    force = [u.id for u in mv.movable_units(mv.position(state), enemy, state.hex(key))]
    spend(ctx, state, side, VALLEY, f"{side} moves the enemy force in {key}: {', '.join(force)}", ("ldf:11.4",))
    yield from mv.move_force(ctx, state, side, force, no_drop_offs=True, leave_ezoc=True, transport=False,
                             window=False)
    return None


AS_ACTION: Final[Mapping[int, tuple[Callable[[LDFState, str], bool],
                                    Callable[[Context, LDFState, str], Generator[Decision, str, object]]]]] = {
    JAWS: (_jaws_ok, _jaws),
    VALLEY: (lambda state, side: bool(_enemy_forces(state, side)), _valley),

    MAD_DASH: (lambda state, side: True, _mad_dash),
    MUTINY: (lambda state, side: bool(_mutiny_targets(state)), _mutiny),
    DEBASEMENT: (lambda state, side: True, _debasement),
    SPIES: (lambda state, side: True, _spies),
    LIMES: (_limes_ok, _limes),
    SEA_RAIDERS: (lambda state, side: all(_raid(state)), _sea_raiders),
    RESURGENCE: (lambda state, side: bool(state.of_kind("parthian-gund", "dead")
                                          or state.of_kind("parthian-garrison", "dead")), _resurgence),
    GERMAN_INCREASE: (lambda state, side: bool(state.of_kind("german-tribe", "dead")), _german_increase),
    WINDFALL: (lambda state, side: True, _windfall),
}
"""The chits played as an action (``ldf:8.18``): when each may be played, and its effect."""


def playable(state: LDFState, side: str) -> list[int]:
    """The chits of ``side``'s hand it may play as an action now (``ldf:8.18``)."""
    out = []
    for n in sorted(set(state.hands[side].cards)):  # type: ignore[type-var]
        entry = AS_ACTION.get(int(n))  # type: ignore[call-overload]
        chit = state.data.chits.chit(int(n))  # type: ignore[call-overload]
        if entry is not None and chit.player in ("both", side) and entry[0](state, side):
            out.append(int(n))  # type: ignore[call-overload]
    return out


def can_play_chit(state: LDFState, side: str) -> bool:
    return bool(playable(state, side))


def play_chit(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, object]:
    """Play a chit from the hand as an action (``ldf:8.18``); it does not give a new draw."""
    numbers = playable(state, side)
    key = yield Decision(side, "Play which chit?", (*(Option(str(n), f"{n}, {chit_name(state, n)}") for n in numbers),
                                                     Option("back", "choose another action")),
                         rule="ldf:8.18", kind="chit.play")
    if key == "back":
        return False
    return (yield from AS_ACTION[int(key)][1](ctx, state, side))


# ---------------------------------------------------------------- heavy siege equipment (8.16, chit 21)


def siege_targets(state: LDFState) -> list[tuple[str, str]]:
    """(force hex, target hex) pairs for chit 21 (``ldf:8.16``, ``ldf:14.3``): a loyal Roman
    force next to an unlooted population-centre hex held by enemy units."""
    out = []
    for h in sorted({u.hex for u in state.on_map() if u.nationality == "roman" and not u.rebel and u.hex
                     and (u.mobile or u.kind == "legion-base")}):
        for n in state.data.neighbours(h):
            if state.data.centres(n) and not state.is_looted(n) and state.enemy_in(n, ROMAN):
                out.append((h, n))
    return out


def can_deploy_siege(state: LDFState, side: str) -> bool:
    return side == ROMAN and SIEGE in state.hands[ROMAN] and state.siege is None and bool(siege_targets(state))


def deploy_siege(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, object]:
    """Roman action (``ldf:8.16``): chit 21 on a loyal force about to attack an unlooted
    population centre; combat.py doubles that force's attack strength and puts the chit back
    in the pool once the place falls or no Roman unit is left with it (``ldf:14.3``)."""
    hexes = sorted({a for a, _ in siege_targets(state)})
    key = yield Decision(ROMAN, "Heavy siege equipment: with which force?",
                         (*(Option(a, f"the force in {a} (next to "
                                   f"{', '.join(t for f, t in siege_targets(state) if f == a)})") for a in hexes),
                          Option("back", "choose another action")), rule="ldf:8.16", kind="siege.hex")
    if key == "back":
        return False
    state.hands[ROMAN].remove(SIEGE)
    state.siege = key
    ctx.event("siege", f"the Roman deploys the heavy siege equipment with his force in {key}",
              ("ldf:8.16", "ldf:14.3"), side=ROMAN, hex=key)
    return None


def score(state: LDFState, decision: Decision, key: str) -> float | None:
    """The greedy bot's hints for the ``chit.*`` decisions (``bot.score`` delegates by kind):
    :func:`politics.score`'s."""
    from . import politics

    return politics.score(state, decision, key)
