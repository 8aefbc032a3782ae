"""A test game in the shape of the strategic games' sequences of play.

It exercises what Lest Darkness Fall and Xenophon need from the decision
protocol, on a deliberately tiny game:

- **alternating actions** (LDF 5.2, 8.1): the sides take one action at a time;
  the turn ends when both pass in a row (LDF 5.4);
- **chits drawn as an action** (LDF 8.17): an event chit resolves the instant
  it is drawn; other chits go to the drawer's hidden hand;
- **reactions** (Xenophon, xen:opt.reaction): after a side completes a march,
  an interrupt window (:mod:`ancients_kit.windows`) asks the other side whether
  it plays a "forced march" chit to react at once with a force of its own,
  chosen unit by unit (:func:`ancients_kit.choice.choose_group`). The other side
  is asked *whether or not it holds the chit*, so the questions do not betray
  its hand; its standing preference may stop the questions;
- **a reroll after a die roll** (Xenophon's Consult Oracles, xen:chits): after
  the storm's die either side may play the "oracle" chit to roll again;
- **a secret treasury** (xen:treasury): each side's silver is a
  :class:`~ancients_kit.secret.SecretNumber`; each march earns 1, each unit of a
  reacting force costs 1; the ``open_treasury`` option shows it to everybody
  (xen:intelligence).

Options for tests: ``goths_chits`` deals chits to the Goths from outside the
pool (when used or at the end of the turn they leave the game, so the pool is
the same whatever was dealt); ``romans_silver``/``goths_silver`` set the starting silver.

Victory: the first side to 5 marches wins (a reacting force of n units counts
n); a "storm" event ends the game as a draw on an even roll.
"""

from __future__ import annotations

from collections.abc import Collection, Generator

import attrs

from ancients_kit.chance import ChitCup, Hand
from ancients_kit.choice import choose_group
from ancients_kit.data import DataStore, Meta
from ancients_kit.plugin import Game, OptionSpec, Outcome, ScenarioInfo
from ancients_kit.secret import SecretNumber
from ancients_kit.session import Context, Decision, Option
from ancients_kit.windows import Play, Standing, Window, chain, offer, own
from dealing import deal, held

SIDES = ("Romans", "Goths")
CHITS = ("storm", "forced-march", "forced-march", "oracle", "supply", "supply")
UNITS = (("phalanx-1", "phalanx"), ("phalanx-2", "phalanx"), ("cavalry", "cavalry"), ("light", "light"))
"""Each side's units: key and kind (two phalanxes are interchangeable)."""
REACTION_MAX = 3
"""Units at most in a reacting force."""


@attrs.define
class ChitState:
    sides: tuple[str, ...]
    cup: ChitCup
    hands: dict[str, Hand]
    marches: dict[str, int]
    silver: dict[str, SecretNumber]
    standing: Standing
    outside: list[str] = attrs.Factory(list)
    """Chits dealt to the Goths from outside the pool: they leave the game instead of joining it."""
    turn: int = 1


class Chits(Game):
    id = "chits"
    title = "Chits and reactions (test plugin)"
    package = "chits_game"
    rule_prefix = "chits"
    hidden_information = True

    def scenarios(self, store: DataStore) -> list[ScenarioInfo]:
        meta = Meta("chits.standard", "reconstructed", ("chits:actions",), "Test fixture.")
        return [ScenarioInfo("standard", "Standard", SIDES, meta, first=SIDES[0])]

    def option_specs(self, store: DataStore, scenario: str) -> list[OptionSpec]:
        return [
            OptionSpec("open_treasury", False, "everybody sees every side's silver", ("xen:intelligence",)),
            OptionSpec("romans_silver", 2, "the Romans' starting silver", ("xen:treasury",)),
            OptionSpec("goths_silver", 2, "the Goths' starting silver", ("xen:treasury",)),
            OptionSpec("goths_chits", "", "chits dealt to the Goths at the start, comma-separated (tests)"),
        ]

    def setup(self, ctx: Context, scenario: str) -> ChitState:
        if scenario != "standard":
            raise KeyError(scenario)
        hands = {s: Hand(s) for s in SIDES}
        deal(hands["Goths"], str(ctx.options["goths_chits"]), "goths_chits", set(CHITS) - {"storm"})
        is_open = bool(ctx.options["open_treasury"])
        silver = {
            s: SecretNumber(s, int(ctx.options[f"{s.lower()}_silver"]), name="silver", rule="xen:treasury",
                            open=is_open)
            for s in SIDES
        }
        return ChitState(SIDES, ChitCup(CHITS, "pool"), hands, {s: 0 for s in SIDES}, silver, Standing(),
                         outside=list(hands["Goths"].cards))

    def play(self, ctx: Context, state: ChitState) -> Generator[Decision, str, Outcome]:
        passes = 0
        side_index = 0
        while True:
            side = state.sides[side_index]
            other = state.sides[1 - side_index]
            options = [Option("march", "march one force"), Option("pass", "pass")]
            if len(state.cup):
                options.insert(1, Option("draw", "draw a chit from the pool"))
            action = yield from own(
                Decision(side, f"{side}: choose an action", tuple(options), rule="chits:actions", kind="action"),
                state.standing,
            )
            if action == "pass":
                passes += 1
                ctx.event("pass", f"{side} passes", "chits:actions", side=side)
                if passes == 2:  # both passed in a row: the turn ends
                    state.turn += 1
                    ctx.event("turn", f"Turn {state.turn} begins; chits return to the pool", "chits:turn")
                    for s in state.sides:
                        for c in state.hands[s].cards:
                            state.hands[s].remove(c)
                            _to_pool(state, s, c)
                    passes = 0
            else:
                passes = 0
                if action == "draw":
                    with ctx.secret(side):
                        chit = state.cup.draw(ctx.chance, f"{side} draws", ("chits:draw",))
                    if chit == "storm":  # an event: resolved the instant it is drawn
                        ctx.event("event", f"{side} draws the storm", "chits:draw", side=side)
                        roll = yield from self._storm(ctx, state, side, other)
                        if roll % 2 == 0:
                            return Outcome(None, "The storm ends the campaign", rules=("chits:storm",),
                                           turn=state.turn)
                        state.cup.add(chit)
                    else:
                        state.hands[side].add(chit)
                        ctx.event("draw", f"{side} draws {chit}", "chits:draw", side=side, private_to=side,
                                  public_text=f"{side} draws a chit")
                else:
                    state.marches[side] += 1
                    ctx.event("march", f"{side} marches ({state.marches[side]})", "chits:actions", side=side)
                    state.silver[side].gain(ctx, 1, "pay for the march", "xen:treasury")
                    if state.marches[side] >= 5:
                        return Outcome(side, f"{side} complete five marches", rules=("chits:victory",),
                                       turn=state.turn)
                    reacted = yield from self._reaction(ctx, state, other)
                    if reacted and state.marches[other] >= 5:
                        return Outcome(other, f"{other} complete five marches", rules=("chits:victory",),
                                       turn=state.turn)
            side_index = 1 - side_index

    # -- windows ---------------------------------------------------------------

    def _storm(self, ctx: Context, state: ChitState, drawer: str, other: str) -> Generator[Decision, str, int]:
        """The storm's die, then the after-roll window: either side may play the
        oracle to roll again (Consult Oracles, xen:chits); the last roll counts."""
        ctx.chance.d6("storm", ("chits:storm",))
        last = ctx.chance.last
        assert last is not None

        def plays(s: str) -> list[Option]:
            return [Option("oracle", "consult the oracle: roll the storm's die again")] if "oracle" in state.hands[s] \
                else []

        def resolve(play: Play) -> Generator[Decision, str, str]:
            nonlocal last
            state.hands[play.side].remove("oracle")
            _to_pool(state, play.side, "oracle")
            ctx.event("play", f"{play.side} consult the oracle", "xen:chits", side=play.side)
            last = ctx.chance.reroll(last, reason="storm, oracle", rules=("xen:chits", "chits:storm"))
            return last.describe()
            yield  # a generator that asks nothing

        window = Window("after-roll", "after a die roll", "xen:chits", (drawer, other), detail=last.describe())
        yield from chain(window, state.standing, plays, resolve, ctx=ctx)
        assert last.value is not None
        return last.value

    def _reaction(self, ctx: Context, state: ChitState, side: str) -> Generator[Decision, str, bool]:
        """After the other side's march, ``side`` may react (xen:opt.reaction)
        with a force paid 1 silver a unit (xen:treasury)."""
        silver = state.silver[side]

        def plays(s: str) -> list[Option]:
            if "forced-march" in state.hands[s] and silver.value >= 1:
                return [Option("forced-march", "play forced march and react with a force")]
            return []

        play = yield from offer(Window("reaction", "the enemy's march", "xen:opt.reaction", (side,)), state.standing,
                                plays, ctx=ctx)
        if play is None:
            return False
        state.hands[side].remove("forced-march")
        _to_pool(state, side, "forced-march")
        candidates = [Option(key, f"{key} ({kind})", data=kind) for key, kind in UNITS]
        force = yield from choose_group(
            side, f"{side}: form the reacting force", candidates, at_least=1,
            at_most=min(REACTION_MAX, silver.value), rule="xen:forces", kind="force", same=lambda o: o.data,
        )
        silver.spend(ctx, len(force), "pay the reacting force", "xen:treasury")
        state.marches[side] += len(force)
        ctx.event("reaction", f"{side} play a forced march and react with {', '.join(force)} "
                              f"({state.marches[side]})", ("xen:opt.reaction", "xen:forces"), side=side,
                  force=list(force))
        return True

    # -- views -----------------------------------------------------------------

    def render(self, state: ChitState, viewer: str | None, highlight: Collection[str] = ()) -> str:
        lines = [f"Turn {state.turn}; pool {len(state.cup)} chits"]
        for s in state.sides:
            lines.append(f"{s}: {state.marches[s]} marches; silver {state.silver[s].shown_to(viewer)}; "
                         f"{held(state.hands[s], viewer)}")
        return "\n".join(lines)

    def status(self, state: ChitState, viewer: str | None) -> str:
        return f"Turn {state.turn}"


def _to_pool(state: ChitState, side: str, chit: str) -> None:
    """A chit ``side`` used goes back to the pool, unless it was dealt from outside it."""
    if side == "Goths" and chit in state.outside:
        state.outside.remove(chit)
    else:
        state.cup.add(chit)


GAME = Chits()
