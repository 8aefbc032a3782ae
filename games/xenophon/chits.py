"""Xenophon's stratagem chits as data and in hand: the moments of play, the pool, hands of 15,
draws, gifts, losses, plays and the windows they are played at (``xen:stratagem``, ``xen:chits``).

The chits' names, counts and texts are data (``data/stratagems.toml``); this
module gives each its moment of play (:data:`EFFECTS`, :data:`WINDOW_CHITS`)
and holds what every rules module needs of the chits, under the chits' effects
(:mod:`.stratagems`) and the phases that open their windows:

- every die roll a player may reroll (Consult Oracles): :func:`roll`;
- a chit drawn from the pool (:func:`draw_chit`, :func:`draw`; with 15 in hand
  one of the player's choice goes back, ruling 19, :func:`full_hand_return`),
  received (:func:`receive`), returned (:func:`return_chit`), lost at random
  (:func:`lose_chits`) or all lost (:func:`lose_all`), played (:func:`play`);
- a window opened by name (:func:`open_window`, :data:`WINDOWS`): who is asked
  (:func:`window_sides`) and what each may play there (:func:`playable`).

Hands (``xen:stratagem``): at most 15 chits; a player awarded a chit with 15
in hand draws it and returns one of his choice (ruling 19). Losses are random
among the chits held and go back to the pool; the death of a Supreme Leader
loses them all (after the Anabasis window, :func:`.leaders.supreme_leader_eliminated`).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence
from typing import Any, Final

import attrs

from ancients_kit.data import DataError
from ancients_kit.protocol import Context, Decision, Option
from ancients_kit.windows import Play, Window, chain, offer

from .model import ChitsDoc
from .state import EMPIRE, HAND_LIMIT, REBEL, XenState, other_side, slug
from .vocab import Kind

__all__ = [
    "BOTH",
    "CHITS_RULE",
    "CHIT_RULES",
    "EFFECTS",
    "EXTRA_MOMENTS",
    "Effect",
    "KEEP",
    "PURCHASE_COST",
    "RULE",
    "WINDOWS",
    "WINDOW_CHITS",
    "WindowSpec",
    "check_chits",
    "chit_key",
    "draw",
    "draw_chit",
    "full_hand_return",
    "held",
    "key_chit",
    "lose_all",
    "lose_chits",
    "open_window",
    "play",
    "playable",
    "receive",
    "return_chit",
    "roll",
    "window_sides",
]


RULE: Final = "xen:stratagem"
CHITS_RULE: Final = "xen:chits"
CHIT_RULES: Final = (RULE, CHITS_RULE)

PURCHASE_COST: Final = 2
"""$2 a chit in the friendly Treasury phase (``xen:stratagem``, ``xen:treasury``)."""

BOTH: Final = (EMPIRE, REBEL)


@attrs.frozen
class WindowSpec:
    """A named moment at which chits are played, who is asked and the rule opening it."""

    name: str
    title: str
    asked: str
    """Who is asked, from public facts: ``phasing``, ``non-phasing``, ``both``, ``attacker``, ``owner``."""
    rule: str


WINDOWS: Final[Mapping[str, WindowSpec]] = {
    w.name: w
    for w in (
        WindowSpec("after-roll", "after a die roll", "both", CHITS_RULE),
        WindowSpec("diplomacy", "a Diplomacy attempt", "both", "xen:diplomacy"),
        WindowSpec("treasury", "the start of the Treasury phase", "phasing", "xen:treasury"),
        WindowSpec("recruit", "the start of the Recruit phase", "phasing", "xen:recruit"),
        WindowSpec("levy", "the start of the Levy phase", "phasing", "xen:levy"),
        WindowSpec("operations", "the designation of a force", "phasing", "xen:operations"),
        WindowSpec("reaction", "the end of an enemy force's operations", "non-phasing", "xen:opt.reaction"),
        WindowSpec("battle", "the declaration of an attack", "attacker", "xen:combat"),
        WindowSpec("before-odds", "a battle, before its odds are set", "both", "xen:combat"),
        WindowSpec("supreme-leader-lost", "a Supreme Leader's elimination", "owner", "xen:supreme-leaders"),
    )
}
"""The windows chits are played at; other modules open them by these names."""


@attrs.frozen
class Effect:
    """When and by whom a chit kind may be played (``xen:chits``)."""

    chit: str
    moment: str
    """A window name of :data:`WINDOWS`, ``stratagem`` (the friendly Stratagem
    phase) or ``never`` (the Blank)."""
    sides: tuple[str, ...] = BOTH
    """Players who may play it (Empire Mobilizes: Empire; Ten Thousand: Rebel)."""
    leaves_game: bool = False
    """Removed from the game once played instead of returning to the pool (Empire Mobilizes)."""
    rules: tuple[str, ...] = CHIT_RULES
    """Rule IDs its play applies."""


EFFECTS: Final[Mapping[str, Effect]] = {
    e.chit: e
    for e in (
        Effect("Agent", "diplomacy", rules=(*CHIT_RULES, "xen:diplomacy")),
        Effect("Expedition", "diplomacy", rules=(*CHIT_RULES, "xen:diplomacy")),
        Effect("Great King", "diplomacy", rules=(*CHIT_RULES, "xen:diplomacy")),
        Effect("Hellenistic League", "diplomacy", rules=(*CHIT_RULES, "xen:diplomacy")),
        Effect("Treachery", "diplomacy", rules=(*CHIT_RULES, "xen:diplomacy")),
        Effect("Anabasis", "supreme-leader-lost", rules=(*CHIT_RULES, "xen:supreme-leaders")),
        Effect("Consult Oracles", "after-roll"),
        Effect("Currency Reform", "treasury", rules=(*CHIT_RULES, "xen:treasury")),
        Effect("Empire Mobilizes", "levy", sides=(EMPIRE,), leaves_game=True, rules=(*CHIT_RULES, "xen:levy")),
        Effect("Forced March", "operations", rules=(*CHIT_RULES, "xen:forced-march")),
        Effect("King's Eye", "stratagem", rules=(*CHIT_RULES, "xen:intelligence")),
        Effect("Leader Arises", "levy", rules=(*CHIT_RULES, "xen:leaders")),
        Effect("Military Advantage", "before-odds", rules=(*CHIT_RULES, "xen:combat")),
        Effect("Successor", "stratagem", rules=(*CHIT_RULES, "xen:supreme-leaders")),
        Effect("Ten Thousand", "recruit", sides=(REBEL,), rules=(*CHIT_RULES, "xen:recruit")),
        Effect("Royal Road", "operations", rules=(*CHIT_RULES, "xen:movement")),
        Effect("Bribery", "battle", rules=(*CHIT_RULES, "xen:combat")),
        Effect("Scorched Earth", "reaction", rules=(*CHIT_RULES, "xen:supply")),
        Effect("Blank", "never"),
    )
}
"""Every chit kind of ``data/stratagems.toml`` and its moment of play."""


EXTRA_MOMENTS: Final[Mapping[str, tuple[str, ...]]] = {"Forced March": ("reaction",)}
"""Chits played at a second moment too: Forced March's text B, a Reaction in the
enemy Operations phase (only with the optional rule, ``xen:opt.reaction``)."""


def _window_chits() -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {name: [] for name in WINDOWS}
    for e in EFFECTS.values():
        for moment in (e.moment, *EXTRA_MOMENTS.get(e.chit, ())):
            if moment in out:
                out[moment].append(e.chit)
    return {k: tuple(v) for k, v in out.items()}


WINDOW_CHITS: Final[Mapping[str, tuple[str, ...]]] = _window_chits()
"""Window name -> the chit kinds played there."""


def chit_key(chit: str) -> str:
    """Stable option key of a chit kind, the state's slug: ``consult-oracles``, ``kings-eye``."""
    return slug(chit)


_BY_KEY: Final = {chit_key(c): c for c in EFFECTS}


def key_chit(key: str) -> str:
    """The chit kind an option key names; ValueError naming the rule if none."""
    try:
        return _BY_KEY[key]
    except KeyError:
        raise ValueError(f"{key!r} is not a stratagem chit ({CHITS_RULE})") from None


def check_chits(doc: ChitsDoc, file: str = "stratagems.toml") -> None:
    """Every chit of the data has a moment here and every moment a chit of the data
    (``xen:chits``); the phases the data names agree with the moments."""
    names = [c.name for c in doc.chit]
    missing = sorted(set(names) - set(EFFECTS))
    if missing:
        raise DataError(file, f"no effect for the chit(s) {', '.join(missing)} ({CHITS_RULE})", "chit")
    unknown = sorted(set(EFFECTS) - set(names))
    if unknown:
        raise DataError(file, f"the pool has no {', '.join(unknown)} chit ({CHITS_RULE})", "chit")
    phase_of = {
        "diplomacy": "diplomacy",
        "treasury": "treasury",
        "recruit": "recruit",
        "levy": "levy",
        "operations": "operations",
        "reaction": "operations",
        "battle": "combat",
        "before-odds": "combat",
        "after-roll": "any",
        "supreme-leader-lost": "any",
        "stratagem": "any",
        "never": "none",
    }
    for i, c in enumerate(doc.chit):
        if phase_of[EFFECTS[c.name].moment] != c.phase:
            raise DataError(
                file, f"{c.name} is played at {EFFECTS[c.name].moment}, not in phase {c.phase!r} ({CHITS_RULE})", f"chit[{i}].phase"
            )


# ---------------------------------------------------------------------------
# Hands: draws, returns, losses (xen:stratagem)


def held(state: XenState, side: str) -> tuple[str, ...]:
    """The chit kinds ``side`` holds, each once, sorted (its own view only)."""
    return tuple(sorted({str(c) for c in state.hands[side].cards}))


def lose_chits(ctx: Context, state: XenState, side: str, n: int, why: str, rules: tuple[str, ...]) -> int:
    """``side`` returns ``n`` chits chosen at random to the pool (xen:stratagem); returns how many."""
    hand = state.hands[side]
    lost = 0
    with ctx.secret(side):
        for _ in range(min(n, len(hand))):
            c = ctx.chance.draw(hand, f"{side} loses a chit ({why})", rules)
            state.pool.add(c)
            lost += 1
    ctx.event("chits-lost", f"{side} returns {lost} chit(s) at random to the pool ({why})", rules, side=side)
    return lost


def draw_chit(ctx: Context, state: XenState, side: str, why: str,
              rules: tuple[str, ...]) -> Generator[Decision, str, str | None]:
    """``side`` draws a chit from the pool; with 15 in hand he returns one of his choice (ruling 19)."""
    if not len(state.pool):
        ctx.event("chit", f"{side} would draw a chit ({why}) but the pool is empty", rules, side=side)
        return None
    hand = state.hands[side]
    with ctx.secret(side):
        chit = str(state.pool.draw(ctx.chance, f"{side} draws a chit ({why})", rules))
    if hand.limit is not None and len(hand) >= hand.limit:
        back = yield from full_hand_return(state, side, chit, f"You hold {len(hand)} chits, the most allowed, "
                                           f"and drew {chit}: return one to the pool")
        ctx.event("chit", f"{side} draws a chit ({why}) and returns one to the pool (hand of 15)", rules,
                  side=side)
        return None if back == chit else chit
    hand.add(chit)
    ctx.event("chit", f"{side} draws a chit ({why})", rules, side=side)
    return chit


def draw(
    ctx: Context, state: XenState, side: str, n: int, reason: str, rules: Sequence[str] = CHIT_RULES
) -> Generator[Decision, str, int]:
    """``side`` draws ``n`` chits from the pool, privately (:func:`draw_chit`: with 15 in
    hand one of his choice goes back, ruling 19); returns how many it drew."""
    got = 0
    for _ in range(n):
        if not len(state.pool):
            break
        yield from draw_chit(ctx, state, side, reason, tuple(rules))
        got += 1
    return got


def full_hand_return(state: XenState, side: str, chit: str, prompt: str) -> Generator[Decision, str, str]:
    """``chit`` comes to ``side``, who already holds the 15 allowed (xen:stratagem, ruling 19):
    he returns one chit of his choice, perhaps that one, to the pool; returns it. The one home
    of the full-hand rule for a draw (:func:`draw_chit`) and a gift (:func:`receive`)."""
    hand = state.hands[side]
    kinds = sorted({*map(str, hand.cards), chit})
    d = Decision(side, prompt, tuple(Option(chit_key(k), k) for k in kinds), rule=RULE, kind=Kind.CHIT_RETURN)
    back = key_chit((yield d))
    if back != chit:
        hand.remove(back)
        hand.add(chit)
    state.pool.add(back)
    return back


def receive(
    ctx: Context, state: XenState, side: str, chit: str, reason: str, rules: Sequence[str] = CHIT_RULES
) -> Generator[Decision, str, None]:
    """A known ``chit`` comes into ``side``'s hand (a gift, xen:negotiations): logged
    privately; with 15 in hand it comes in and ``side`` returns one of its choice to
    the pool (ruling 19, as :func:`draw_chit` for a draw)."""
    ctx.event("chits", f"{side} receives {chit} ({reason})", tuple(rules), side=side, private_to=side,
              public_text=f"{side} receives a chit ({reason})")
    hand = state.hands[side]
    if hand.limit is None or len(hand) < hand.limit:
        hand.add(chit)
        return
    back = yield from full_hand_return(
        state, side, chit, f"{side}: you hold {len(hand)} chits, the most allowed; return one to the pool")
    ctx.event("chits", f"{side} returns {back} to the pool (hand of {HAND_LIMIT})", (RULE,), side=side,
              private_to=side, public_text=f"{side} returns a chit to the pool (hand of {HAND_LIMIT})")


def return_chit(ctx: Context, state: XenState, side: str, chit: str) -> None:
    """Return a held chit to the pool without effect (``xen:stratagem``: at any time)."""
    hand = state.hands[side]
    if chit not in hand:
        raise ValueError(f"{side} holds no {chit} ({RULE})")
    hand.remove(chit)
    state.pool.add(chit)
    ctx.event("chits", f"{side} returns {chit} to the pool without effect", (RULE,), side=side,
              private_to=side, public_text=f"{side} returns a chit to the pool")


def lose_all(ctx: Context, state: XenState, side: str, reason: str, rules: Sequence[str] = (RULE,)) -> int:
    """Every chit held back to the pool (the Supreme Leader's death, ``xen:supreme-leaders``)."""
    hand = state.hands[side]
    lost = [str(c) for c in hand.cards]
    for c in lost:
        hand.remove(c)
        state.pool.add(c)
    if lost:
        ctx.event("chits", f"{side} discards all {len(lost)} chits ({reason}): {', '.join(lost)}", tuple(rules),
                  side=side, private_to=side, public_text=f"{side} discards all {len(lost)} chits ({reason})",
                  lost=tuple(lost))
    return len(lost)


def play(ctx: Context, state: XenState, side: str, chit: str, detail: str = "") -> tuple[str, ...]:
    """``side`` plays ``chit``: out of its hand, back to the pool (or out of the game,
    Empire Mobilizes), logged publicly with the chit's rules. Returns the rules applied."""
    effect = EFFECTS[chit]
    if side not in effect.sides:
        raise ValueError(f"{chit} may be played only by {' or '.join(effect.sides)} ({CHITS_RULE})")
    hand = state.hands[side]
    if chit not in hand:
        raise ValueError(f"{side} holds no {chit} ({CHITS_RULE})")
    hand.remove(chit)
    if effect.leaves_game:
        state.removed_chits.append(chit)
    else:
        state.pool.add(chit)
    where = " (removed from the game)" if effect.leaves_game else ""
    ctx.event("chit-played", f"{side} plays {chit}{where}" + (f": {detail}" if detail else ""), effect.rules,
              side=side, chit=chit)
    return effect.rules


# ---------------------------------------------------------------------------
# Windows: the chits played outside one's own Stratagem phase


def window_sides(state: XenState, name: str, *, attacker: str | None = None, owner: str | None = None) -> tuple[str, ...]:
    """Who is asked at a window, from public facts (:data:`WINDOWS`)."""
    spec = WINDOWS[name]
    phasing = state.player_turn
    if spec.asked == "phasing":
        return (phasing,)
    if spec.asked == "non-phasing":
        return (other_side(phasing),)
    if spec.asked == "attacker":
        return (attacker or phasing,)
    if spec.asked == "owner":
        if owner is None:
            raise ValueError(f"window {name!r} needs the owner asked")
        return (owner,)
    first = attacker or phasing
    return (first, other_side(first))


def playable(state: XenState, side: str, name: str, eligible: Callable[[str, str], bool] | None = None) -> list[Option]:
    """The plays ``side`` may make at window ``name``: the kinds it holds that are
    played there by that side (and that ``eligible(side, chit)`` allows)."""
    out: list[Option] = []
    for chit in held(state, side):
        if chit not in WINDOW_CHITS[name] or side not in EFFECTS[chit].sides:
            continue
        if name == "reaction" and chit == "Forced March" and not state.options.reaction:
            continue  # text B needs the optional rule (ruling 4)
        if eligible is not None and not eligible(side, chit):
            continue
        out.append(Option(chit_key(chit), f"play {chit}: {state.data.chits[chit].text}", data=chit))
    return out


def open_window(
    ctx: Context,
    state: XenState,
    name: str,
    *,
    detail: str = "",
    sides: Sequence[str] | None = None,
    eligible: Callable[[str, str], bool] | None = None,
) -> Generator[Decision, str, Play | None]:
    """Open window ``name`` (:data:`WINDOWS`): ask each side whatever it holds; the
    first play found is played (:func:`play`) and returned, ``play.option.data``
    the chit's name. The caller applies what the chit does at its moment."""
    spec = WINDOWS[name]
    asked = tuple(sides) if sides is not None else window_sides(state, name)
    w = Window(name, spec.title, spec.rule, sides=asked, detail=detail)
    got = yield from offer(w, state.standing, lambda side: playable(state, side, name, eligible), ctx=ctx)
    if got is not None:
        play(ctx, state, got.side, str(got.option.data), detail)
    return got


def roll(
    ctx: Context, state: XenState, reason: str, rules: Sequence[str], kind: str = "d6", *, sides: Sequence[str] | None = None
) -> Generator[Decision, str, int]:
    """Roll a die a player may have rerolled by Consult Oracles (``xen:chits``):
    after the roll the ``after-roll`` window asks both players (the phasing one
    first); a play ignores the roll and rolls again (both dice for the d66 of
    events). Every rules module rolls its players' dice through this."""
    value = ctx.chance.roll(kind, reason, tuple(rules))
    last = ctx.chance.last
    spec = WINDOWS["after-roll"]
    asked = tuple(sides) if sides is not None else window_sides(state, "after-roll")
    w = Window("after-roll", spec.title, spec.rule, sides=asked, detail=f"{reason}: {value}")
    result = {"value": value, "roll": last}

    def resolve(p: Play) -> Generator[Decision, str, Any]:
        play(ctx, state, p.side, str(p.option.data), f"{reason}: {result['value']} ignored")
        again = ctx.chance.reroll(result["roll"], reason=f"{reason} (Consult Oracles)", rules=(*tuple(rules), CHITS_RULE))
        result["value"], result["roll"] = again.value, again
        return f"{reason}: {again.value}"
        yield  # a generator

    yield from chain(w, state.standing, lambda side: playable(state, side, "after-roll"), resolve, ctx=ctx)
    return int(result["value"])


# ---------------------------------------------------------------------------
# Bot heuristics shared by the chits' and the agreements' decisions


KEEP: Final = {
    "Blank": 0, "Scorched Earth": 1, "Royal Road": 1, "Bribery": 2, "Consult Oracles": 2, "Currency Reform": 2,
    "Ten Thousand": 2, "Forced March": 3, "King's Eye": 2, "Treachery": 4, "Military Advantage": 4, "Agent": 4,
    "Expedition": 4, "Leader Arises": 4, "Empire Mobilizes": 5, "Great King": 5, "Hellenistic League": 5,
    "Successor": 5, "Anabasis": 5,
}
"""How much a bot wants to keep each chit kind (returns the least wanted)."""
