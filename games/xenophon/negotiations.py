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
  :func:`may_attack` refuses the attack, naming the rule;
- ``leave:<satrapy>`` / ``ask-leave:<satrapy>``: checked when the game-turn
  ends (at the next Stratagem phase, before any unit can move again): a
  player with units still in the satrapy has broken it and pays the
  penalty (:func:`breach`);
- ``promise:<kind>``: "anything else", recorded in the log with the
  agreement, never enforced.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

import attrs

__all__ = [
    "MAX_TERMS",
    "MONEY_STEPS",
    "PROMISES",
    "RULE",
    "Term",
    "describe_terms",
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
    ``ask-neutral``, ``leave``, ``ask-leave``, ``no-combat``, ``end-game``, ``promise``."""
    amount: int = 0
    satrapy: str = ""
    promise: str = ""

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
        if self.kind == "promise":
            return f"promise:{self.promise}"
        return self.kind

    @property
    def enforced(self) -> bool:
        """False only for a recorded promise ("anything else")."""
        return self.kind != "promise"

    def describe(self, proposer: str, recipient: str) -> str:
        k = self.kind
        if k == "give-money":
            return f"{proposer} pays {recipient} ${self.amount}"
        if k == "ask-money":
            return f"{recipient} pays {proposer} ${self.amount}"
        if k == "give-chits":
            return f"{proposer} gives {recipient} {self.amount} chit(s) of his choice"
        if k == "ask-chits":
            return f"{recipient} gives {proposer} {self.amount} chit(s) of his choice"
        if k == "neutral":
            return f"{proposer} restores {self.satrapy} to neutrality"
        if k == "ask-neutral":
            return f"{recipient} restores {self.satrapy} to neutrality"
        if k == "leave":
            return f"{proposer} moves every unit out of {self.satrapy} this turn"
        if k == "ask-leave":
            return f"{recipient} moves every unit out of {self.satrapy} this turn"
        if k == "no-combat":
            return "neither player initiates combat this turn"
        if k == "end-game":
            return "the game ends at once (victory points counted)"
        return f"{proposer} promises {PROMISES[self.promise]}"


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
