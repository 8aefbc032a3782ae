"""Xenophon negotiations: a structured offer between the two players (``xen:negotiations``).

The rules let the players negotiate "at any time" and agree to restore a
controlled satrapy to neutrality, trade $ or chits, move units out of
cities or satrapies in the current turn, not initiate combat in the current
turn, end the game at once, or "anything else that does not violate the
rules"; a broken agreement costs the violator 1d6 chits at random, and what
he cannot pay his opponent draws from the pool.

The decision protocol has no side channel, so an offer is a structured
object (ruling in docs/games/xenophon.md, "Rulings: stratagems and
diplomacy"): at the start of each Diplomacy phase each player, the phasing
player first, may make one offer (window ``negotiations``, asked whatever
he holds), built term by term from a bounded menu (:func:`menu`, at most
:data:`MAX_TERMS` terms); the other player accepts or rejects it.

What is enforced, and how:

- ``give-$n`` / ``ask-$n``, ``give-chits:n`` / ``ask-chits:n``,
  ``neutral:<satrapy>`` / ``ask-neutral:<satrapy>``: carried out the instant
  the offer is accepted (the giver chooses which chits);
- ``end-game``: the game ends at once and victory points are counted;
- ``no-combat``: until the end of the game-turn neither player may attack;
  it may be broken: operations offer the attack with :func:`may_attack`'s text
  as a warning, and the attack breaks the agreement and costs the attacker
  the penalty once (:func:`attack_declared`, :func:`breach`);
- ``leave:<satrapy>`` / ``ask-leave:<satrapy>``, ``leave-city:<hex>`` /
  ``ask-leave-city:<hex>`` (a City or Colony): checked when the game-turn
  ends (at the next Stratagem phase, before any unit can move again): a
  player with units still in the satrapy has broken it and pays the
  penalty (:func:`breach`);
- ``promise:<kind>``: "anything else", recorded in the log with the
  agreement, never enforced.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Sequence
from typing import Final

import attrs

from ancients_kit.protocol import Context, Decision, Option
from ancients_kit.windows import Window, offer

from . import chits, control, victory
from .state import XenState, other_side
from .vocab import Kind

__all__ = [
    "Agreement",
    "MAX_TERMS",
    "MONEY_STEPS",
    "PROMISES",
    "RULE",
    "Term",
    "attack_declared",
    "breach",
    "check_expired",
    "describe_terms",
    "may_attack",
    "menu",
    "negotiate",
    "parse_term",
]

RULE: Final = "xen:negotiations"
MAX_TERMS: Final = 4
"""Terms in one offer at most (a bound for the staged choice)."""
MONEY_STEPS: Final = (1, 2, 5, 10)
"""The $ amounts a term may name (ask several terms for other sums)."""
CHIT_STEPS: Final = (1, 2)
"""Chits a term may name."""
PROMISES: Final = {
    "no-diplomacy": "not to attempt Diplomacy against the other's satrapies next player-turn",
    "no-pillage": "not to pillage the other's cities next player-turn",
    "alliance": "to act as allies against a third party (recorded only)",
}
"""'Anything else': recorded promises the rules do not enforce."""


@attrs.frozen
class Term:
    """One term of an offer, as its stable key reads it."""

    kind: str
    """``give-money``, ``ask-money``, ``give-chits``, ``ask-chits``, ``neutral``,
    ``ask-neutral``, ``leave``, ``ask-leave``, ``leave-city``, ``ask-leave-city``, ``no-combat``,
    ``end-game``, ``promise``."""
    amount: int = 0
    satrapy: str = ""
    promise: str = ""
    hex: str = ""
    """The City/Colony hex of a ``leave-city`` term."""

    @property
    def key(self) -> str:
        if self.kind == "give-money":
            return f"give-${self.amount}"
        if self.kind == "ask-money":
            return f"ask-${self.amount}"
        if self.kind in ("give-chits", "ask-chits"):
            return f"{self.kind}:{self.amount}"
        if self.kind in ("neutral", "ask-neutral", "leave", "ask-leave"):
            return f"{self.kind}:{self.satrapy}"
        if self.kind in ("leave-city", "ask-leave-city"):
            return f"{self.kind}:{self.hex}"
        if self.kind == "promise":
            return f"promise:{self.promise}"
        return self.kind

    @property
    def enforced(self) -> bool:
        """False only for a recorded promise ("anything else")."""
        return self.kind != "promise"

    def describe(self, proposer: str, recipient: str) -> str:
        if self.kind == "no-combat":
            return "neither player initiates combat this turn"
        if self.kind == "end-game":
            return "the game ends at once (victory points counted)"
        if self.kind == "promise":
            return f"{proposer} promises {PROMISES[self.promise]}"
        # an ask-... term is its give-... twin with the two players the other way round
        who, whom = (recipient, proposer) if self.kind.startswith("ask-") else (proposer, recipient)
        base = self.kind.removeprefix("ask-").removeprefix("give-")
        return _WORDS[base].format(who=who, whom=whom, n=self.amount, satrapy=self.satrapy, hex=self.hex)


_WORDS: Final = {
    "money": "{who} pays {whom} ${n}",
    "chits": "{who} gives {whom} {n} chit(s) of his choice",
    "neutral": "{who} restores {satrapy} to neutrality",
    "leave": "{who} moves every unit out of {satrapy} this turn",
    "leave-city": "{who} moves every unit out of the City/Colony in {hex} this turn",
}
"""The words of each two-way term, from the side of the player who gives or does it."""


def parse_term(key: str) -> Term:
    """The term an option key names; ValueError naming the rule if none."""
    bad = ValueError(f"{key!r} is not a term of an offer ({RULE})")
    if key in ("no-combat", "end-game"):
        return Term(key)
    for prefix, kind in (("give-$", "give-money"), ("ask-$", "ask-money")):
        if key.startswith(prefix):
            rest = key[len(prefix) :]
            if not rest.isdigit() or int(rest) not in MONEY_STEPS:
                raise bad
            return Term(kind, amount=int(rest))
    head, sep, rest = key.partition(":")
    if not sep or not rest:
        raise bad
    if head in ("give-chits", "ask-chits"):
        if not rest.isdigit() or int(rest) not in CHIT_STEPS:
            raise bad
        return Term(head, amount=int(rest))
    if head in ("neutral", "ask-neutral", "leave", "ask-leave"):
        return Term(head, satrapy=rest)
    if head in ("leave-city", "ask-leave-city"):
        return Term(head, hex=rest)
    if head == "promise" and rest in PROMISES:
        return Term("promise", promise=rest)
    raise bad


def describe_terms(terms: Sequence[Term], proposer: str, recipient: str) -> str:
    """The offer in words, one term after another."""
    return "; ".join(t.describe(proposer, recipient) for t in terms) or "nothing"


def money_owed(terms: Iterable[Term]) -> tuple[int, int]:
    """$ the proposer and the recipient pay under these terms."""
    give = sum(t.amount for t in terms if t.kind == "give-money")
    ask = sum(t.amount for t in terms if t.kind == "ask-money")
    return give, ask


@attrs.frozen
class Agreement:
    """An accepted offer (kept in ``state.negotiations``, never changed: a new
    status is a new record in its place)."""

    number: int
    turn: int
    proposer: str
    recipient: str
    terms: tuple[Term, ...]
    status: str = "in force"
    """``in force`` (its turn not over), ``kept``, ``broken``."""

    def describe(self) -> str:
        return f"agreement {self.number} (turn {self.turn}): {describe_terms(self.terms, self.proposer, self.recipient)}"


def menu(state: XenState, proposer: str, chosen: Sequence[Term]) -> tuple[Option, ...]:
    """The terms ``proposer`` may add to his offer now (bounded; a term once)."""
    recipient = other_side(proposer)
    taken = {t.key for t in chosen}
    give, _ = money_owed(chosen)
    have = state.treasury[proposer].value - give
    chits_given = sum(t.amount for t in chosen if t.kind == "give-chits")
    room_chits = len(state.hands[proposer]) - chits_given
    out: list[Term] = []
    out += [Term("give-money", amount=n) for n in MONEY_STEPS if n <= have]
    out += [Term("ask-money", amount=n) for n in MONEY_STEPS]
    out += [Term("give-chits", amount=n) for n in CHIT_STEPS if n <= room_chits]
    out += [Term("ask-chits", amount=n) for n in CHIT_STEPS]
    out += [Term("neutral", satrapy=s) for s in state.controlled(proposer)]
    out += [Term("ask-neutral", satrapy=s) for s in state.controlled(recipient)]
    out += [Term("leave", satrapy=s) for s in _present(state, proposer)]
    out += [Term("ask-leave", satrapy=s) for s in _present(state, recipient)]
    out += [Term("leave-city", hex=h) for h in _cities_held(state, proposer)]
    out += [Term("ask-leave-city", hex=h) for h in _cities_held(state, recipient)]
    out += [Term("no-combat"), Term("end-game")]
    out += [Term("promise", promise=p) for p in PROMISES]
    return tuple(Option(t.key, t.describe(proposer, recipient), data=t) for t in out if t.key not in taken)


def _present(state: XenState, side: str) -> list[str]:
    """Satrapies where ``side`` has units."""
    return sorted({s for u in state.side_units(side) if u.hex and (s := state.satrapy_of(u.hex))})


def _cities_held(state: XenState, side: str) -> list[str]:
    """Cities and Colonies ``side`` occupies."""
    return sorted(h for h in state.occupied() if state.is_city(h) and state.occupier(h) == side)


def _can_fulfil(state: XenState, side: str, terms: Sequence[Term], as_proposer: bool) -> bool:
    give, ask = money_owed(terms)
    pay = give if as_proposer else ask
    kind = "give-chits" if as_proposer else "ask-chits"
    owed = sum(t.amount for t in terms if t.kind == kind)
    return state.treasury[side].value >= pay and len(state.hands[side]) >= owed


def negotiate(ctx: Context, state: XenState, phasing: str) -> Generator[Decision, str, None]:
    """The negotiation window at the start of a Diplomacy phase: each player, the
    phasing one first, is asked whether he makes an offer (whatever he holds);
    an offer is built term by term and the other accepts or rejects it."""
    w = Window("negotiations", "the start of the Diplomacy phase", RULE, sides=(phasing, other_side(phasing)))
    asked: set[str] = set()
    while not state.over:
        got = yield from offer(
            w, state.standing, lambda side: [] if side in asked else [Option("offer", "make an offer")])
        if got is None:
            return
        asked.add(got.side)
        yield from _make_offer(ctx, state, got.side)
        rest = tuple(s for s in w.sides if s not in asked)
        if not rest:
            return
        w = attrs.evolve(w, sides=rest)


def _make_offer(ctx: Context, state: XenState, proposer: str) -> Generator[Decision, str, None]:
    recipient = other_side(proposer)
    terms: list[Term] = []
    while len(terms) < MAX_TERMS:
        opts = [Option("cancel", "make no offer after all")]
        if terms:
            opts.append(Option("send", f"offer: {describe_terms(terms, proposer, recipient)}"))
        opts += menu(state, proposer, terms)
        key = yield Decision(proposer, f"add a term to your offer ({len(terms)}/{MAX_TERMS})",
                             tuple(opts), rule=RULE, kind=Kind.NEGOTIATIONS_TERM)
        if key == "cancel":
            return
        if key == "send":
            break
        terms.append(parse_term(key))
    if not terms:
        return
    text = describe_terms(terms, proposer, recipient)
    ctx.event("offer", f"{proposer} offers {recipient}: {text}", (RULE,), side=proposer,
              terms=tuple(t.key for t in terms))
    answers = [Option("reject", "reject the offer")]
    if _can_fulfil(state, recipient, terms, as_proposer=False):
        answers.append(Option("accept", "accept the offer"))
    key = yield Decision(recipient, f"{proposer} offers: {text}. Accept?", tuple(answers), rule=RULE,
                         kind=Kind.NEGOTIATIONS_ANSWER)
    if key != "accept":
        ctx.event("offer", f"{recipient} rejects the offer", (RULE,), side=recipient)
        return
    if not _can_fulfil(state, proposer, terms, as_proposer=True):
        ctx.event("offer", f"{proposer} can no longer pay what he offered: no agreement", (RULE,), side=proposer)
        return
    agreement = Agreement(len(state.negotiations) + 1, state.turn, proposer, recipient, tuple(terms))
    state.negotiations.append(agreement)
    ctx.event("agreement", f"{recipient} accepts: {agreement.describe()}", (RULE,), side=recipient,
              number=agreement.number, terms=tuple(t.key for t in terms),
              recorded=tuple(t.key for t in terms if not t.enforced))
    yield from _carry_out(ctx, state, agreement)


def _carry_out(ctx: Context, state: XenState, a: Agreement) -> Generator[Decision, str, None]:
    """The terms carried out at once: money, chits, neutrality, the end of the game."""

    for t in a.terms:
        giver, taker = (a.proposer, a.recipient) if t.kind in ("give-money", "give-chits", "neutral") else (
            a.recipient, a.proposer)
        if t.kind in ("give-money", "ask-money"):
            state.treasury[giver].spend(ctx, t.amount, f"agreement {a.number}: pays {taker}", (RULE, "xen:treasury"))
            state.treasury[taker].gain(ctx, t.amount, f"agreement {a.number}: paid by {giver}", (RULE, "xen:treasury"))
        elif t.kind in ("give-chits", "ask-chits"):
            for _ in range(t.amount):
                kinds = chits.held(state, giver)
                if not kinds:
                    break
                key = yield Decision(giver, f"agreement {a.number}: which chit do you give {taker}?",
                                     tuple(Option(chits.chit_key(k), k) for k in kinds), rule=RULE,
                                     kind=Kind.NEGOTIATIONS_CHIT)
                chit = chits.key_chit(key)
                state.hands[giver].remove(chit)
                ctx.event("chits", f"{giver} gives {taker} {chit} (agreement {a.number})", (RULE,), side=giver,
                          private_to=giver, public_text=f"{giver} gives {taker} a chit (agreement {a.number})")
                yield from chits.receive(ctx, state, taker, chit, f"agreement {a.number}", (RULE,))
        elif t.kind in ("neutral", "ask-neutral"):
            if state.control.get(t.satrapy) == giver:
                yield from control.turn_and_unstack(ctx, state, t.satrapy, "neutral", (RULE, "xen:control"),
                                                    f"agreement {a.number}")
        elif t.kind == "end-game":
            victory.final(ctx, state, f"agreement {a.number}: the players end the game")
            return


def may_attack(state: XenState, side: str) -> str | None:
    """The agreement of this turn ``side`` would break by initiating combat now, or None;
    operations.py warns with this text on each attack it offers (the attack is allowed and
    breaks the agreement: :func:`attack_declared`)."""
    for a in state.negotiations:
        if a.turn == state.turn and a.status == "in force" and any(t.kind == "no-combat" for t in a.terms):
            return f"{side} agreed not to initiate combat this turn ({a.describe()})"
    return None


def attack_declared(ctx: Context, state: XenState, attacker: str) -> Generator[Decision, str, None]:
    """An attack declared by ``attacker`` (combat's ``battle`` window calls this): an
    agreement of this turn not to initiate combat is broken, and ``attacker`` pays
    the penalty (:func:`breach`) once for it (operations offer such attacks with a warning,
    :func:`may_attack`)."""
    for i, a in enumerate(list(state.negotiations)):
        if a.turn == state.turn and a.status == "in force" and any(t.kind == "no-combat" for t in a.terms):
            state.negotiations[i] = attrs.evolve(a, status="broken")
            ctx.event("agreement", f"{attacker} attacks and breaks {a.describe()}", (RULE,), side=attacker,
                      number=a.number)
            yield from breach(ctx, state, attacker)


def check_expired(ctx: Context, state: XenState) -> Generator[Decision, str, None]:
    """Agreements of turns now over: a ``leave`` term is broken if the player who
    promised still has units in the satrapy (the penalty :func:`breach`); the
    others are kept (called at each Stratagem phase, before any unit moves again)."""
    for i, a in enumerate(list(state.negotiations)):
        if a.status != "in force" or a.turn >= state.turn:
            continue
        broken_by: str | None = None
        for t in a.terms:
            if t.kind in ("leave", "ask-leave", "leave-city", "ask-leave-city"):
                who = a.recipient if t.kind.startswith("ask-") else a.proposer
                still = t.satrapy in _present(state, who) if t.satrapy else state.occupier(t.hex) == who
                if still:
                    broken_by = who
                    ctx.event("agreement", f"{who} broke {a.describe()}: units still in {t.satrapy or t.hex}",
                              (RULE,), side=who, number=a.number)
                    break
        state.negotiations[i] = attrs.evolve(a, status="broken" if broken_by else "kept")
        if broken_by is not None:
            yield from breach(ctx, state, broken_by)


def breach(ctx: Context, state: XenState, violator: str) -> Generator[Decision, str, None]:
    """A broken agreement (``xen:negotiations``): the violator rolls 1d6 and loses that
    many chits at random; for each he cannot lose, his opponent draws one from the
    pool (the cup is opaque: "picks" is a draw, ruling)."""

    n = yield from chits.roll(ctx, state, f"{violator} breaks an agreement: chits lost", (RULE,))
    lost = chits.lose_chits(ctx, state, violator, n, "broken agreement", (RULE, "xen:stratagem"))
    if n > lost:
        yield from chits.draw(ctx, state, other_side(violator), n - lost, f"{violator} broke an agreement", (RULE,))
