"""A test game in the shape of the strategic games' sequences of play.

It exercises what Lest Darkness Fall and Xenophon need from the decision
protocol, on a deliberately tiny game:

- **alternating actions** (LDF 5.2, 8.1): the sides take one action at a time;
  the turn ends when both pass in a row (LDF 5.4);
- **chits drawn as an action** (LDF 8.17): an event chit resolves the instant
  it is drawn, before anyone is asked anything; other chits go to the
  drawer's hidden hand;
- **reactions** (Xenophon, Reaction): after a side completes a march, the
  other side may play a "forced march" chit from its hand to react at once,
  so the protocol asks the *other* side in the middle of the first side's
  action.

Victory: the first side to march 5 times wins; a "storm" event ends the game
as a draw on an even roll.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

from ancients_kit.chance import ChitCup, Hand
from ancients_kit.data import DataStore, Meta
from ancients_kit.plugin import Game, Outcome, ScenarioInfo
from ancients_kit.session import Context, Decision, Option

SIDES = ("Romans", "Goths")
CHITS = ("storm", "forced-march", "forced-march", "supply", "supply", "supply")


@attrs.define
class ChitState:
    sides: tuple[str, ...]
    cup: ChitCup
    hands: dict[str, Hand]
    marches: dict[str, int]
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

    def setup(self, ctx: Context, scenario: str) -> ChitState:
        if scenario != "standard":
            raise KeyError(scenario)
        return ChitState(SIDES, ChitCup(CHITS, "pool"), {s: Hand(s) for s in SIDES}, {s: 0 for s in SIDES})

    def play(self, ctx: Context, state: ChitState) -> Generator[Decision, str, Outcome]:
        passes = 0
        side_index = 0
        while True:
            side = state.sides[side_index]
            other = state.sides[1 - side_index]
            options = [Option("march", "march one force"), Option("pass", "pass")]
            if len(state.cup):
                options.insert(1, Option("draw", "draw a chit from the pool"))
            action = yield Decision(side, f"{side}: choose an action", tuple(options), rule="chits:actions",
                                    kind="action")
            if action == "pass":
                passes += 1
                ctx.event("pass", f"{side} passes", "chits:actions", side=side)
                if passes == 2:  # both passed in a row: the turn ends
                    state.turn += 1
                    ctx.event("turn", f"Turn {state.turn} begins; chits return to the pool", "chits:turn")
                    for s in state.sides:
                        for c in state.hands[s].cards:
                            state.hands[s].remove(c)
                            state.cup.add(c)
                    passes = 0
            else:
                passes = 0
                if action == "draw":
                    with ctx.secret(side):
                        chit = state.cup.draw(ctx.chance, f"{side} draws", ("chits:draw",))
                    if chit == "storm":  # an event: resolved the instant it is drawn
                        ctx.event("event", f"{side} draws the storm", "chits:draw", side=side)
                        if ctx.chance.d6("storm", ("chits:storm",)) % 2 == 0:
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
                    if state.marches[side] >= 5:
                        return Outcome(side, f"{side} complete five marches", rules=("chits:victory",),
                                       turn=state.turn)
                    if "forced-march" in state.hands[other]:
                        react = yield Decision(
                            other, f"{other}: react to the march with a forced march?",
                            (Option("react", "play forced march and march"), Option("no", "let it pass")),
                            rule="chits:reaction", kind="reaction")
                        if react == "react":
                            state.hands[other].remove("forced-march")
                            state.cup.add("forced-march")
                            state.marches[other] += 1
                            ctx.event("reaction", f"{other} reacts and marches ({state.marches[other]})",
                                      "chits:reaction", side=other)
                            if state.marches[other] >= 5:
                                return Outcome(other, f"{other} complete five marches", rules=("chits:victory",),
                                               turn=state.turn)
            side_index = 1 - side_index


GAME = Chits()
