"""Xenophon stratagem chits at their moments: each chit's effect, the windows the phases open
and the Stratagem phase (``xen:stratagem``, ``xen:chits``).

The chits' names, counts and texts are data (``data/stratagems.toml``, 21
printed, 19 rebuilt); :mod:`.chits` gives each its **moment of play**; this
module, where the effect is the stratagem rules' own, the effect itself.

Moments (:data:`.chits.WINDOW_CHITS`). A chit played outside the player's own
Stratagem phase is offered through an interrupt window
(:mod:`ancients_kit.windows`) that the rules owning the moment open by name,
asking every side the rule allows whatever it holds:

========================  =======================================  ======================  =================
window                    opened by                                asked                   chits
========================  =======================================  ======================  =================
``after-roll``            :func:`roll` (every die roll a player    phasing, then the other Consult Oracles
                          may have rerolled)
``diplomacy``             diplomacy.py, the bidding                non-phasing, phasing    Agent, Expedition,
                                                                                           Great King,
                                                                                           Hellenistic League,
                                                                                           Treachery
``treasury``              treasury.py, start of the phase          phasing                 Currency Reform
``recruit``               recruit.py, start of the Recruit phase   phasing                 Ten Thousand
``levy``                  recruit.py, start of the Levy phase      phasing                 Leader Arises,
                                                                                           Empire Mobilizes
``operations``            operations.py, before each force         phasing                 Forced March (A),
                          is designated                                                    Royal Road
``reaction``              operations.py, after each phasing        non-phasing             Forced March (B,
                          force's operations                                               with opt.reaction),
                                                                                           Scorched Earth
``battle``                combat.py, the attack declared, before   attacker                Bribery
                          the defender's withdrawal choice
``before-odds``           combat.py, the defender stands, before   attacker, defender      Military Advantage
                          the odds (one a side a battle)
``supreme-leader-lost``   leaders.py, the instant a Supreme        its owner               Anabasis
                          Leader is eliminated
========================  =======================================  ======================  =================

King's Eye, Successor and the return of chits to the pool "at any time" are
offered in the friendly Stratagem phase (``PHASES["stratagem"]``); the Blank
does nothing.

The chits as data and in hand (moments, pool, hands of 15, draws, losses,
plays, windows and :func:`.chits.roll`) live in :mod:`.chits`, under this
module and every phase. Here are the effects played at their moments:

- combat.py: ``yield from stratagems.battle_chits(ctx, state, name, battle)``
  (an agreement broken, Bribery, Military Advantage);
- operations.py: :func:`operations_window` before each force (Royal Road,
  applied by the movement costs), :func:`reaction_window` after each phasing
  force (Forced March B with the option; Scorched Earth applied here);
- the Supreme Leader's loss and Anabasis, Leader Arises' placement:
  :func:`.leaders.supreme_leader_eliminated`, :func:`.leaders.receive_leader`;
- sequence.py wraps the Treasury, Recruit and Levy phases with their windows
  (:func:`opening`); bot.py scores these modules' decisions with :func:`score`;
  render.py and the bots read :func:`~.intelligence.view_for`.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from typing import Any, Final

from ancients_kit.protocol import Context, Decision, Option
from ancients_kit.windows import CLOSE, Play, Window, chain, own

from . import control, diplomacy, intelligence, leaders, negotiations
from .chits import EFFECTS, KEEP, RULE, WINDOWS, chit_key, draw, held, key_chit, open_window, play, playable, return_chit, roll
from .control import friendly_cities
from .leaders import successor
from .pillage import mark_pillaged
from .recruit import levy_hexes, levy_types, placement_ezoc
from .state import XenState, other_side, slug, type_name
from .treasury import closed_satrapies
from .vocab import DIPLOMACY_KINDS, Kind

__all__ = [
    "WINDOW_PLAY",
    "battle_chits",
    "opening",
    "score",
    "window_score",
]

# ---------------------------------------------------------------------------
# The chits' effects at their moments


STACK_LIMIT: Final = 10
"""Units in a hex at most (``xen:stacking``)."""
FORCED_MARCH_LOSS: Final = frozenset({1, 2, 3})
"""Forced March's roll: 1-3 eliminates 1 unit of the force (``xen:forced-march``)."""


def forced_march_loss(roll: int) -> bool:
    """Whether Forced March's loss roll eliminates a unit (1-3; none for a Reaction)."""
    if not 1 <= roll <= 6:
        raise ValueError(f"a d6 roll is 1-6, not {roll} (xen:forced-march)")
    return roll in FORCED_MARCH_LOSS


def unpillaged_cities(state: XenState, side: str) -> list[str]:
    """Friendly-occupied unpillaged Cities and Colonies, outside the satrapies
    Mediterranean War closes to the player (Currency Reform's count, Ten Thousand's cities)."""
    closed = set(closed_satrapies(state, side))
    return sorted(h for h in friendly_cities(state, side) if h not in state.pillaged
                  and state.satrapy_of(h) not in closed)


def treasury_window(ctx: Context, state: XenState, side: str) -> Generator[Decision, str, int]:
    """The ``treasury`` window (treasury.py opens it at the start of the phase):
    Currency Reform gains $1 per friendly-occupied unpillaged City/Colony. Returns the $ gained."""
    got = yield from open_window(ctx, state, "treasury")
    if got is None:
        return 0
    n = len(unpillaged_cities(state, side))
    if n:
        state.treasury[side].gain(ctx, n, f"Currency Reform: {n} cities/colonies", ("xen:chits", "xen:treasury"))
    return n


def _place_words(state: XenState, h: str) -> str:
    """A hex as an option's label (its number is the key): ``Sardis (Lydia)``, ``clear (Lydia)``."""
    sat = state.satrapy_of(h) or "sea"
    place = state.data.city_name.get(h) or state.data.terrain.get(h, "")
    return place if place == sat else f"{place} ({sat})"  # Athens in Athens is "Athens"


def _hex_label(state: XenState, h: str) -> str:
    name = state.data.city_name.get(h)
    sat = state.satrapy_of(h) or "sea"
    return f"{h} {name} ({sat})" if name else f"{h} ({sat})"


TEN_THOUSAND_MAX: Final = 3
TEN_THOUSAND_COST: Final = 2


def ten_thousand_cities(state: XenState, side: str) -> list[str]:
    """Where Ten Thousand may put its phalanxes: friendly-occupied unpillaged
    Cities/Colonies holding a friendly leader, with room (ruling)."""
    return [h for h in unpillaged_cities(state, side)
            if any(u.leader and u.side == side for u in state.units_at(h))
            and len(state.units_at(h)) < STACK_LIMIT]


def recruit_window(ctx: Context, state: XenState, side: str) -> Generator[Decision, str, int]:
    """The ``recruit`` window (recruit.py opens it at the start of the phase): Ten
    Thousand, Rebel only, recruits up to 3 Guard Phalanx at $2 each into one
    friendly-occupied City/Colony with a friendly leader. Returns the phalanxes placed."""
    got = yield from open_window(ctx, state, "recruit")
    if got is None:
        return 0
    rules = EFFECTS["Ten Thousand"].rules
    cities = ten_thousand_cities(state, side)
    mix = sorted(u.id for u in state.mix(None, "phalanx", side) if u.guard)
    afford = state.treasury[side].value // TEN_THOUSAND_COST
    if not cities or not mix or not afford:
        ctx.event("recruit", f"{side}: Ten Thousand recruits nothing (no city with a leader, no phalanx or no $)",
                  rules, side=side)
        return 0
    where = yield Decision(side, "Ten Thousand: recruit in which city?",
                           tuple(Option(h, _place_words(state, h)) for h in cities), rule="xen:recruit",
                           kind=Kind.TEN_THOUSAND_CITY, context={"highlight": tuple(cities)})
    most = min(TEN_THOUSAND_MAX, len(mix), afford, STACK_LIMIT - len(state.units_at(where)))
    n = int((yield Decision(side, f"Ten Thousand: how many Phalanx at ${TEN_THOUSAND_COST} each?",
                            tuple(Option(str(k), f"Phalanx for ${k * TEN_THOUSAND_COST}") for k in range(1, most + 1)),
                            rule="xen:recruit", kind=Kind.TEN_THOUSAND_COUNT)))
    state.treasury[side].spend(ctx, n * TEN_THOUSAND_COST, f"Ten Thousand: {n} Phalanx", rules)
    for uid in mix[:n]:
        state.place(uid, where)
    ctx.event("recruit", f"{side}: Ten Thousand: {n} Phalanx recruited in {_hex_label(state, where)}", rules,
              side=side, units=tuple(mix[:n]), hex=where)
    return n


def key_satrapy(state: XenState, key: str) -> str:
    """The satrapy an option key (its slug) names."""
    return next(s for s in state.data.satrapies if slug(s) == key)


def empire_mobilizes(ctx: Context, state: XenState, side: str, n: int) -> Generator[Decision, str, int]:
    """Empire Mobilizes: ``n`` units levied beyond the normal levy, one a controlled
    satrapy, placed by the normal Levy rules (recruit.levy_hexes; no satrapy closed
    by Mediterranean War). Returns the units placed."""
    rules = EFFECTS["Empire Mobilizes"].rules
    closed = set(closed_satrapies(state, side))
    done: set[str] = set()
    placed: list[str] = []
    while len(placed) < n:
        ezoc = {f: placement_ezoc(state, side, f) for f in (False, True)}  # the same for every satrapy asked
        sats = [s for s in state.controlled(side)
                if s not in done and s not in closed and levy_types(state, side, s, set(), ezoc)]
        if not sats:
            ctx.event("levy", f"Empire Mobilizes: {n - len(placed)} extra levies lost (no satrapy left to levy in)",
                      rules, side=side)
            break
        key = yield Decision(side, f"levy {len(placed) + 1} of {n} (the Empire Mobilizes chit): in which satrapy?",
                             (Option("done", "levy no more"), *(Option(slug(s), s) for s in sats)), rule="xen:levy",
                             kind=Kind.MOBILIZE_SATRAPY)
        if key == "done":
            break
        sat = key_satrapy(state, key)
        done.add(sat)
        t = yield Decision(side, f"which {sat} unit to levy (the Empire Mobilizes chit)?",
                           tuple(Option(t, f"{sat} {type_name(t)}") for t in levy_types(state, side, sat, set())),
                           rule="xen:levy", kind=Kind.MOBILIZE_TYPE)
        hexes = levy_hexes(state, side, sat, t == "fleet")
        h = yield Decision(side, f"{sat} {type_name(t)} levied (the Empire Mobilizes chit): in which hex?",
                           tuple(Option(x, _place_words(state, x)) for x in hexes), rule="xen:levy",
                           kind=Kind.MOBILIZE_HEX)
        u = state.mix(sat, t)[0]
        state.place(u.id, h)
        placed.append(u.id)
        # the hex took its one levied unit this player-turn (recruit.levy_phase reads it, xen:levy)
        state.effects["player-turn:levied"] = (*state.effects.get("player-turn:levied", ()), h)
        ctx.event("levy", f"Empire Mobilizes: {u.id} levied in {_hex_label(state, h)}", rules, side=side, unit=u.id,
                  hex=h)
    return len(placed)


def levy_window(ctx: Context, state: XenState, side: str) -> Generator[Decision, str, Play | None]:
    """The ``levy`` window (opened at the start of the Levy phase, and again after
    each play): Leader Arises places a leader at once; Empire Mobilizes rolls 1d6
    and levies that many extra units (:func:`empire_mobilizes`). Returns the last play."""
    last: Play | None = None
    while True:
        got = yield from open_window(ctx, state, "levy")
        if got is None:
            return last
        last = got
        chit = str(got.option.data)
        if chit == "Leader Arises":
            yield from leaders.receive_leader(ctx, state, side, "Leader Arises", EFFECTS[chit].rules)
        elif chit == "Empire Mobilizes":
            n = yield from roll(ctx, state, "Empire Mobilizes: extra levies", EFFECTS[chit].rules)
            yield from empire_mobilizes(ctx, state, side, n)


def operations_window(ctx: Context, state: XenState, side: str, detail: str = "") -> Generator[Decision, str, Play | None]:
    """The ``operations`` window (operations.py opens it before each force is
    designated): Forced March (text A: a force that has operated operates again,
    after :func:`forced_march_loss`) or Royal Road. operations.py applies the Play."""
    return (yield from open_window(ctx, state, "operations", detail=detail))


def scorched_earth_hexes(state: XenState, side: str) -> list[str]:
    """Where ``side`` may scorch the earth: land hexes its units occupy that are no
    City or Colony and carry no Pillage marker yet."""
    return sorted(h for h in state.occupied() if state.occupier(h) == side and state.satrapy_of(h)
                  and not state.is_city(h) and h not in state.pillaged)


def reaction_window(ctx: Context, state: XenState, side: str, detail: str = "",
                    eligible: Callable[[str, str], bool] | None = None) -> Generator[Decision, str, Play | None]:
    """The ``reaction`` window (operations.py opens it after each phasing force's
    operations; ``side`` is the non-phasing player): Forced March text B (a
    Reaction, only with ``xen:opt.reaction``; operations.py applies it) or
    Scorched Earth, applied here: a Pillage marker in one non-City hex the
    player's units occupy, so it and its adjacent non-City hexes have FV 0 until
    the marker is removed (``xen:pillage``, ``xen:remove-pillage``; ruling).
    ``eligible(side, chit)`` narrows the plays: operations.py offers Forced March
    only when a force may react (docs, Rulings: second reading 2)."""
    got = yield from open_window(ctx, state, "reaction", detail=detail, sides=(side,), eligible=eligible)
    if got is None or str(got.option.data) != "Scorched Earth":
        return got
    rules = (*EFFECTS["Scorched Earth"].rules, "xen:pillage")
    hexes = scorched_earth_hexes(state, side)
    if not hexes:
        ctx.event("supply", f"{side}: Scorched Earth: no unpillaged non-City hex of yours to burn", rules, side=side)
        return got
    where = yield Decision(side, "Scorched Earth: burn which of your hexes?",
                           tuple(Option(h, _place_words(state, h)) for h in hexes), rule="xen:chits",
                           kind=Kind.SCORCHED_EARTH_HEX, context={"highlight": tuple(hexes)})
    mark_pillaged(ctx, state, where, f"{side}'s Scorched Earth", rules)
    return got


def battle_window(ctx: Context, state: XenState, attacker: str, detail: str = "") -> Generator[Decision, str, bool]:
    """The ``battle`` window (combat.py opens it when an attack is declared, before
    the defender chooses): Bribery, by the attacker: True means the defender may
    not withdraw this battle."""
    got = yield from open_window(ctx, state, "battle", detail=detail, sides=(attacker,))
    return got is not None


def before_odds(
    ctx: Context, state: XenState, attacker: str, defender: str, detail: str = ""
) -> Generator[Decision, str, dict[str, int]]:
    """The ``before-odds`` window (combat.py opens it when the defender stands,
    before the odds): each side may play one Military Advantage, one CS
    multiplier (``xen:combat``). Returns the multipliers per side (0 or 1)."""
    spec = WINDOWS["before-odds"]
    got: dict[str, int] = {attacker: 0, defender: 0}
    w = Window("before-odds", spec.title, spec.rule, sides=(attacker, defender), detail=detail)

    def plays(side: str) -> list[Option]:
        return [] if got[side] else playable(state, side, "before-odds")

    def resolve(p: Play) -> Generator[Decision, str, Any]:
        play(ctx, state, p.side, str(p.option.data), detail)
        got[p.side] = 1
        return None if not all(got.values()) else CLOSE
        yield  # a generator

    yield from chain(w, state.standing, plays, resolve, ctx=ctx)
    return got


# ---------------------------------------------------------------------------
# The Stratagem phase (phase b)


def stratagem_phase(ctx: Context, state: XenState, side: str) -> Generator[Decision, str, None]:
    """Phase b (``xen:stratagem``): agreements of the past turn checked
    (negotiations.py), one free chit if his
    Supreme Leader occupies a Capital City, then his own plays: King's Eye,
    Successor, returning chits, revealing his chits or $ (``xen:intelligence``)."""
    yield from negotiations.check_expired(ctx, state)
    cap = control.capital_occupied(state, side)
    if cap is not None:
        yield from draw(ctx, state, side, 1, f"Supreme Leader in {_hex_label(state, cap)}",
                        (RULE, "xen:supreme-leaders"))
    while not state.over:
        opts = [Option("done", "end the Stratagem phase")]
        hand = held(state, side)
        if "King's Eye" in hand:
            opts.append(Option("kings-eye", "play King's Eye: see the opponent's chits and $"))
        if "Successor" in hand and state.supreme_leader(side) is None:
            for u in sorted(state.leaders(side), key=lambda u: u.id):
                opts.append(Option(f"successor:{u.id}", f"play Successor: {u.id} becomes Supreme Leader"))
        if hand:
            opts.append(Option("return", "return a chit to the pool without effect"))
        opts.append(Option("reveal", "show the opponent your chits or $"))
        key = yield from own(Decision(side, "Stratagem phase: play a chit?", tuple(opts), rule=RULE,
                                      kind=Kind.STRATAGEM_PLAY), state.standing)
        if key == "done":
            return
        if key == "kings-eye":
            rules = play(ctx, state, side, "King's Eye")
            intelligence.reveal(ctx, state, other_side(side), side, ("chits", "treasury"), rules, "King's Eye")
        elif key.startswith("successor:"):
            leader = key.split(":", 1)[1]
            rules = play(ctx, state, side, "Successor", f"{leader} becomes Supreme Leader")
            successor(state, side, leader)
            ctx.event("leader", f"{side}: {leader} is the new Supreme Leader", rules, side=side, leader=leader)
        elif key == "return":
            back = yield Decision(side, "return which chit?",
                                  (Option("back", "none"), *(Option(chit_key(c), c) for c in hand)),
                                  rule=RULE, kind=Kind.STRATAGEM_RETURN)
            if back != "back":
                return_chit(ctx, state, side, key_chit(back))
        elif key == "reveal":
            what = yield Decision(side, "show the opponent what?",
                                  (Option("back", "nothing"), Option("chits", "your chits"),
                                   Option("treasury", "your $"), Option("both", "chits and $")),
                                  rule=intelligence.RULE, kind=Kind.STRATAGEM_REVEAL)
            if what != "back":
                items = ("chits", "treasury") if what == "both" else (what,)
                intelligence.reveal(ctx, state, side, other_side(side), items, (intelligence.RULE,), "shown voluntarily")


# ---------------------------------------------------------------------------
# Bot heuristics for every decision these modules ask


WINDOW_PLAY: Final[Mapping[Kind, float]] = {
    Kind.WINDOW_AFTER_ROLL: -0.5, Kind.WINDOW_DIPLOMACY: 1.0, Kind.WINDOW_TREASURY: 1.0, Kind.WINDOW_RECRUIT: 1.0,
    Kind.WINDOW_LEVY: 2.0, Kind.WINDOW_OPERATIONS: -0.2, Kind.WINDOW_REACTION: -0.2, Kind.WINDOW_BATTLE: 0.5,
    Kind.WINDOW_BEFORE_ODDS: 1.0, Kind.WINDOW_SUPREME_LEADER_LOST: 5.0, Kind.WINDOW_NEGOTIATIONS: -1.0,
}
"""A bot's taste for playing at each window (``no`` scores 0, ``never`` -0.1), by its kind."""


def window_score(state: XenState, decision: Decision, key: str) -> float:
    """Cheap heuristic score of answering a chit window (a :data:`WINDOW_PLAY` kind, xen:chits)
    with ``key``: a play by the bot's taste for that window, ``no`` 0, a standing choice below."""
    if key == "no":
        return 0.0
    taste = WINDOW_PLAY.get(decision.kind, 0.0)  # type: ignore[call-overload]  # a Kind is its string
    if key == "never":
        # a window the bot never plays at (its taste below 0): it says so once, as a person
        # would, and is not asked there again (ancients_kit.windows, standing choices)
        return 0.1 if taste < 0 else -0.1
    if key == "turn" or key.startswith("ask:"):
        return -0.1  # a standing choice is no play (it tied with the chits before)
    if decision.kind == Kind.WINDOW_TREASURY:
        return 0.5 * len(unpillaged_cities(state, decision.side)) - 1
    return taste


def score(state: XenState, decision: Decision, key: str) -> float | None:
    """Cheap heuristic score of ``key`` for ``decision.side`` (higher is better), for
    the greedy bot (``Game.score_option``), or None for a decision these modules do
    not ask. It reads only what that side may see (its hand, its $, the open map)."""
    kind = decision.kind
    if kind in WINDOW_PLAY:
        return window_score(state, decision, key)
    if kind == Kind.STRATAGEM_PLAY:
        return {"done": 0.0, "kings-eye": 0.2}.get(key, 5.0 if key.startswith("successor:") else -1.0)
    if kind in (Kind.STRATAGEM_RETURN, Kind.CHIT_RETURN):
        return 1.0 if key == "back" else float(10 - KEEP.get(key_chit(key), 3))
    if kind == Kind.STRATAGEM_REVEAL:
        return 1.0 if key == "back" else -1.0
    if kind in (Kind.LEADER_ARISE,):
        u = state.units.get(key)
        return float(u.cs + u.ov) if u is not None else 0.0
    if kind in (Kind.TEN_THOUSAND_CITY, Kind.SCORCHED_EARTH_HEX, Kind.MOBILIZE_HEX):
        return float(len(state.units_at(key)))
    if kind == Kind.TEN_THOUSAND_COUNT:
        return float(key)
    if kind == Kind.MOBILIZE_SATRAPY:
        return float(state.data.row(key_satrapy(state, key)).levy_value) if key != "done" else -1.0
    if kind == Kind.MOBILIZE_TYPE:
        f = state.data.units.get(key)
        return float(f.cs + f.ov) if f is not None else 0.0
    if kind in DIPLOMACY_KINDS:
        return diplomacy.score(state, decision, key)
    return None


# ---------------------------------------------------------------------------
# The windows other phases open at their start


_OPENERS: Final[Mapping[str, Callable[..., Generator[Decision, str, Any]]]] = {
    "treasury": treasury_window,
    "recruit": recruit_window,
    "levy": levy_window,
}


def opening(name: str, phase: Callable[[Context, XenState, str], Generator[Decision, Any, None]]
            ) -> Callable[[Context, XenState, str], Generator[Decision, Any, None]]:
    """``phase`` with the chit window of its name opened at its start (``treasury``:
    Currency Reform; ``recruit``: Ten Thousand; ``levy``: Leader Arises, Empire
    Mobilizes); registered in sequence.py around the owner's phase."""
    opener = _OPENERS[name]

    def opened(ctx: Context, state: XenState, side: str) -> Generator[Decision, Any, None]:
        yield from opener(ctx, state, side)
        yield from phase(ctx, state, side)

    opened.__name__ = f"{getattr(phase, '__name__', name)}_with_chits"
    opened.__doc__ = f"{phase.__doc__ or name}\n\nOpened by the ``{name}`` chit window (stratagems.py)."
    return opened


def battle_chits(
    ctx: Context, state: XenState, name: str, battle: Any = None, *, side: str | None = None
) -> Generator[Decision, str, None]:
    """The chit windows of a battle, as combat.py opens them (``combat.open_window``):
    ``battle`` (an agreement not to fight broken, xen:negotiations; Bribery:
    ``battle.no_withdrawal``), ``before-odds`` (Military
    Advantage: the sides added to ``battle.advantage``) and ``supreme-leader-lost``
    (:func:`supreme_leader_eliminated` for ``side``)."""
    if name == "supreme-leader-lost":
        if side is None:
            raise ValueError("the supreme-leader-lost window needs the side that lost him")
        yield from leaders.supreme_leader_eliminated(ctx, state, side)
        return
    detail = battle.describe() if hasattr(battle, "describe") else ""
    if name == "battle":
        yield from negotiations.attack_declared(ctx, state, battle.attacker)
        if (yield from battle_window(ctx, state, battle.attacker, detail)):
            battle.no_withdrawal = True
        return
    if name == "before-odds":
        got = yield from before_odds(ctx, state, battle.attacker, battle.defender, detail)
        battle.advantage.update(s for s, n in got.items() if n)
        return
    raise ValueError(f"no battle window {name!r} (windows: battle, before-odds, supreme-leader-lost)")
