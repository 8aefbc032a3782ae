"""A test game in the shape of Lest Darkness Fall's plays around a roll.

It exercises :mod:`ancients_kit.windows` the way LDF will use it:

- **salting and chits before a treachery roll** (ldf:8.8): the acting side's
  declarations and the opponent's answers are one window (``before-roll``)
  opened as a chain: the Roman may salt with 1-3 TP (positively on his own
  roll, negatively on the German's), either side may declare Agents in Enemy
  Camp (+2 on its own roll or -2 on the enemy's, ldf:14.3); no combination may
  move the roll by more than 3 (ldf:8.8), so a play that would is not offered;
- **a reroll after any roll by either player** (Beseech the Gods, ldf:14.3),
  window ``after-roll``, as a chain of counter-plays (ldf:8.8): a reroll of a
  treachery roll loses every earlier salting and chit ("would not be considered
  salted unless the Roman player made a new TP expenditure ... without the
  benefit of 17's influence"), so the ``before-roll`` window opens again before
  the die is rolled again, and the side that lost may counter with its own reroll;
- **the start of a battle** (Flanking Move, ldf:14.3): window ``battle-start``,
  either side, chained; then **during an enemy attack, before the roll** (They
  Shall Not Pass, ldf:14.3): window ``before-attack-roll``, the defender only.

Roman TP are public (ldf:10.9); hands are secret but their size is public
(ldf:10.9). Every window asks every side the rule names, held chit or not.

Actions alternate (draw, treachery, attack, pass). A successful treachery or a
won battle scores 1; the first side to 3 wins; two passes in a row end the
game as a draw. Treachery succeeds on a modified 5-6 (ldf:8.8; results above 6
read as 6). A battle is won by the attacker on a d6 of 4 or more, plus the
attacker's column shifts, minus the defender's.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Generator

import attrs

from ancients_kit.chance import ChitCup, Hand
from ancients_kit.data import DataStore, Meta
from ancients_kit.plugin import Game, OptionSpec, Outcome, ScenarioInfo
from ancients_kit.session import Context, Decision, Option
from ancients_kit.windows import Play, Standing, Window, chain, offer, own
from dealing import deal, held

SIDES = ("Romans", "Germans")
ROMANS = "Romans"
CHITS = ("beseech", "beseech", "agents", "flanking", "flanking", "not-pass")
NAMES = {
    "beseech": "Beseech the Gods",
    "agents": "Agents in Enemy Camp",
    "flanking": "Flanking Move",
    "not-pass": "They Shall Not Pass",
}
HAND_LIMIT = 6
CAP = 3
"""No combination of salting and chits moves a treachery roll by more than 3 (ldf:8.8)."""
TO_WIN = 3


@attrs.define
class SaltState:
    sides: tuple[str, ...]
    cup: ChitCup
    hands: dict[str, Hand]
    tp: int
    """Roman treasury points: public (ldf:10.9)."""
    score: dict[str, int]
    standing: Standing


@attrs.define
class Roll:
    """The roll being fought over, with the modifiers declared for it."""

    actor: str
    value: int = 0
    modifiers: dict[str, int] = attrs.Factory(dict)
    """``salt`` / ``agents:<side>`` -> its effect on the roll."""

    @property
    def total(self) -> int:
        return sum(self.modifiers.values())


class Salt(Game):
    id = "salt"
    title = "Salting and counter-chits (test plugin)"
    package = "salt_game"
    rule_prefix = "salt"
    hidden_information = True

    def scenarios(self, store: DataStore) -> list[ScenarioInfo]:
        meta = Meta("salt.standard", "reconstructed", ("ldf:8.8", "ldf:14.3"), "Test fixture.")
        return [ScenarioInfo("standard", "Standard", SIDES, meta, first=SIDES[0])]

    def option_specs(self, store: DataStore, scenario: str) -> list[OptionSpec]:
        return [
            OptionSpec("tp", 5, "Roman treasury points at the start"),
            OptionSpec("romans_chits", "", "chits dealt to the Romans from outside the pool, comma-separated (tests)"),
            OptionSpec("germans_chits", "", "chits dealt to the Germans from outside the pool, comma-separated (tests)"),
        ]

    def setup(self, ctx: Context, scenario: str) -> SaltState:
        if scenario != "standard":
            raise KeyError(scenario)
        hands = {s: Hand(s, HAND_LIMIT, limit_rule="ldf:8.17") for s in SIDES}
        for side in SIDES:
            name = f"{side.lower()}_chits"
            deal(hands[side], str(ctx.options[name]), name, NAMES)
        return SaltState(SIDES, ChitCup(CHITS, "pool"), hands, int(ctx.options["tp"]), {s: 0 for s in SIDES},
                         Standing())

    def play(self, ctx: Context, state: SaltState) -> Generator[Decision, str, Outcome]:
        passes = 0
        i = 0
        while True:
            side, enemy = state.sides[i], state.sides[1 - i]
            options = [Option("treachery", "attempt treachery"), Option("attack", "attack"), Option("pass", "pass")]
            if len(state.cup) and len(state.hands[side]) < HAND_LIMIT:
                options.insert(0, Option("draw", "draw a chit"))
            action = yield from own(
                Decision(side, f"{side}: choose an action", tuple(options), rule="salt:actions", kind="action"),
                state.standing,
            )
            if action == "pass":
                passes += 1
                ctx.event("pass", f"{side} passes", "salt:actions", side=side)
                if passes == 2:
                    return Outcome(None, "Both sides pass: the campaign ends", rules=("salt:actions",))
            else:
                passes = 0
                won = False
                if action == "draw":
                    with ctx.secret(side):
                        chit = state.cup.draw(ctx.chance, f"{side} draws", ("ldf:8.17",))
                    state.hands[side].add(chit)
                    ctx.event("draw", f"{side} draws {NAMES[str(chit)]}", ("ldf:8.17", "ldf:10.9"), side=side, private_to=side,
                              public_text=f"{side} draws a chit")
                elif action == "treachery":
                    won = yield from self._treachery(ctx, state, side, enemy)
                else:
                    won = yield from self._battle(ctx, state, side, enemy)
                if won:
                    state.score[side] += 1
                    if state.score[side] >= TO_WIN:
                        return Outcome(side, f"{side} score {TO_WIN}", rules=("salt:actions",))
            i = 1 - i

    # -- plays -----------------------------------------------------------------

    def _discard(self, ctx: Context, state: SaltState, play: Play, text: str, rules: tuple[str, ...]) -> None:
        chit = play.key
        state.hands[play.side].remove(chit)
        state.cup.add(chit)  # "Return this chit to the pool immediately after each use" (ldf:14.3)
        ctx.event("play", f"{play.side} play {NAMES[chit]}: {text}", rules, side=play.side, chit=chit)

    def _after_roll(
        self,
        ctx: Context,
        state: SaltState,
        roll: Roll,
        enemy: str,
        before: Callable[[Context, SaltState, Roll, str], Generator[Decision, str, None]] | None,
    ) -> Generator[Decision, str, None]:
        """Beseech the Gods after any roll by either player (ldf:14.3), opponent
        first, as a chain of counter-plays (ldf:8.8). ``before`` makes the
        pre-roll declarations again before each reroll (treachery only)."""
        last = ctx.chance.last
        assert last is not None

        def plays(side: str) -> list[Option]:
            return [Option("beseech", f"play {NAMES['beseech']}: roll again")] if "beseech" in state.hands[side] \
                else []

        def resolve(play: Play) -> Generator[Decision, str, str]:
            nonlocal last
            self._discard(ctx, state, play, "the roll is rolled again", ("ldf:14.3", "ldf:8.8"))
            if before is not None:
                if roll.modifiers:
                    ctx.event("modifiers", f"the reroll keeps none of {sorted(roll.modifiers)}", "ldf:8.8")
                roll.modifiers.clear()  # 8.8: a reroll is not salted, nor helped by 17, unless declared anew
                yield from before(ctx, state, roll, enemy)
            last = ctx.chance.reroll(last, reason=f"{last.reason}, again", rules=(*last.rules, "ldf:14.3"))
            roll.value = last.value or 0
            return last.describe()

        window = Window("after-roll", "after a die roll", "ldf:14.3", (enemy, roll.actor), detail=last.describe())
        yield from chain(window, state.standing, plays, resolve, ctx=ctx)

    def _before_roll(self, ctx: Context, state: SaltState, roll: Roll, enemy: str) -> Generator[Decision, str, None]:
        """Salting and Agents in Enemy Camp, declared before the roll (ldf:8.8),
        the acting side first; the total never leaves -3..+3 (ldf:8.8)."""
        actor = roll.actor

        def plays(side: str) -> list[Option]:
            sign = 1 if side == actor else -1
            out: list[Option] = []
            if side == ROMANS and "salt" not in roll.modifiers:
                for n in range(1, min(CAP, state.tp) + 1):
                    if abs(roll.total + sign * n) <= CAP:
                        out.append(Option(f"salt-{n}", f"spend {n} TP to move the roll by {sign * n:+d}"))
            if "agents" in state.hands[side] and f"agents:{side}" not in roll.modifiers \
                    and abs(roll.total + 2 * sign) <= CAP:
                out.append(Option("agents", f"play {NAMES['agents']}: {2 * sign:+d} to the roll"))
            return out

        def resolve(play: Play) -> Generator[Decision, str, None]:
            sign = 1 if play.side == actor else -1
            if play.key.startswith("salt-"):
                n = int(play.key.removeprefix("salt-"))
                state.tp -= n  # "the spent TP are indeed spent" (ldf:8.8)
                roll.modifiers["salt"] = sign * n
                ctx.event("salt", f"{play.side} salt {sign * n:+d} with {n} TP ({state.tp} TP left)", "ldf:8.8",
                          side=play.side)
            else:
                roll.modifiers[f"agents:{play.side}"] = 2 * sign
                self._discard(ctx, state, play, f"{2 * sign:+d} to the roll", ("ldf:14.3", "ldf:8.8"))
            return None
            yield

        window = Window("before-roll", "before a treachery roll", "ldf:8.8", (actor, enemy), detail=f"{actor}")
        yield from chain(window, state.standing, plays, resolve, ctx=ctx)

    def _treachery(self, ctx: Context, state: SaltState, side: str, enemy: str) -> Generator[Decision, str, bool]:
        roll = Roll(side)
        yield from self._before_roll(ctx, state, roll, enemy)
        roll.value = ctx.chance.d6(f"{side} treachery", ("ldf:8.8",))
        yield from self._after_roll(ctx, state, roll, enemy, before=self._before_roll)
        result = min(6, roll.value + roll.total)  # results above six read as six (ldf:8.8)
        ok = result >= 5
        ctx.event("treachery", f"{side} treachery: {roll.value} {roll.total:+d} = {result}: "
                               f"{'success' if ok else 'failure'}", "ldf:8.8", side=side)
        return ok

    def _battle(self, ctx: Context, state: SaltState, side: str, enemy: str) -> Generator[Decision, str, bool]:
        shifts = {side: 0, enemy: 0}

        def holding(chit: str, text: str) -> Callable[[str], list[Option]]:
            def plays(s: str) -> list[Option]:
                return [Option(chit, f"play {NAMES[chit]}: {text}")] if chit in state.hands[s] else []
            return plays

        def shift(play: Play) -> Generator[Decision, str, None]:
            shifts[play.side] += 1
            self._discard(ctx, state, play, "one column in its favour", ("ldf:14.3",))
            return None
            yield

        yield from chain(Window("battle-start", "the start of a battle", "ldf:14.3", (side, enemy)), state.standing,
                         holding("flanking", "one column in your favour"), shift, ctx=ctx)
        # They Shall Not Pass: one play by the defender, so an offer, not a chain
        play = yield from offer(Window("before-attack-roll", "an enemy attack, before the roll", "ldf:14.3", (enemy,)),
                                state.standing, holding("not-pass", "one column to the defence"), ctx=ctx)
        if play is not None:
            yield from shift(play)
        roll = Roll(side)
        roll.value = ctx.chance.d6(f"{side} attack", ("salt:battle",))
        yield from self._after_roll(ctx, state, roll, enemy, before=None)
        net = shifts[side] - shifts[enemy]
        ok = roll.value + net >= 4
        ctx.event("battle", f"{side} attack: {roll.value} {net:+d}: {'won' if ok else 'lost'}", "salt:battle",
                  side=side)
        return ok

    def render(self, state: SaltState, viewer: str | None, highlight: Collection[str] = ()) -> str:
        lines = [f"Roman TP {state.tp}; pool {len(state.cup)} chits"]
        for s in state.sides:
            lines.append(f"{s}: score {state.score[s]}; {held(state.hands[s], viewer)}")
        return "\n".join(lines)


GAME = Salt()
