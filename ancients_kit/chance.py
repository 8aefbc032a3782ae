"""Chance: the one seeded source of randomness a session owns.

This module owns every die roll, chit draw, card draw and shuffle of the four
games, and the exact probabilities behind them:

* :class:`Rng`, our own 64-bit generator (xoshiro256**, seeded through
  splitmix64) in plain integer arithmetic, so a seed gives the same game on
  every Python version and machine. Python's ``random`` module is never used.
* :class:`Chance`, the session's dice roller. Every roll, draw and shuffle
  goes through it and is handed, as a :class:`Roll`, to the ``record``
  callback (the session turns it into a log event). Tests force results with
  :meth:`Chance.force`.
* Numbered dice: ``d6``, ``2d6`` (sum) and the tens-and-units ``d66``
  (first die tens, second units: 11..66; Xenophon's Random Events Table,
  ``xen:random-events``).
* Symbol dice (:class:`SymbolDie`: a game defines its own, e.g. the C&C battle die) and
  exact hit distributions for pools of them.
* Containers: :class:`ChitCup` (LDF event chits, Xenophon stratagem chits),
  :class:`Deck` (C&C command cards: draw pile, discard pile, reshuffle) and
  :class:`Hand` (limit and secrecy: the owner sees the cards, others the size).

Containers hold no generator: anything random is done by :class:`Chance`
(``chance.draw(cup)`` or ``cup.draw(chance)``) so that it is recorded.
"""

from __future__ import annotations

import hashlib
from collections import Counter, deque
from collections.abc import Callable, Hashable, Iterable, Mapping, MutableSequence, Sequence
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Any, TypeVar

import attrs

__all__ = [
    "Chance",
    "ChanceError",
    "ChitCup",
    "Deck",
    "DiceKind",
    "Hand",
    "HandLimitError",
    "Roll",
    "Rng",
    "SymbolDie",
    "die_distribution",
    "die_values",
    "redeal",
    "spawned_below",
    "symbol_pool_distribution",
    "symbol_pool_joint",
]

T = TypeVar("T")

_MASK = (1 << 64) - 1

DiceKind = str
"""Name of a numbered die roll a table uses: ``"d6"``, ``"2d6"`` or ``"d66"``."""


class ChanceError(ValueError):
    """Bad input to a roll or a draw (empty cup, forced value that is no face...)."""


class HandLimitError(ChanceError):
    """A card or chit was added to a hand that is already at its limit."""


# --------------------------------------------------------------------------
# The generator


_GOLDEN = 0x9E3779B97F4A7C15
"""splitmix64's increment."""


def _splitmix64(x: int) -> tuple[int, int]:
    """One splitmix64 step: returns (next state, output)."""
    x = (x + _GOLDEN) & _MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return x, z ^ (z >> 31)


def _derive(key: int, label: str) -> int:
    """A 64-bit key for a child stream: blake2b of the parent key and the label."""
    h = hashlib.blake2b(key.to_bytes(8, "little") + label.encode("utf-8"), digest_size=8)
    return int.from_bytes(h.digest(), "little")


class Rng:
    """Deterministic 64-bit generator: xoshiro256** seeded by splitmix64.

    The same seed yields the same numbers everywhere (pure integer arithmetic,
    no platform or Python-version dependence). ``seed`` may be any ``int``; it
    is reduced modulo 2**64.
    """

    __slots__ = ("_s0", "_s1", "_s2", "_s3", "_key")

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ChanceError(f"seed must be an int, not {seed!r}")
        self._seed_from_key(seed & _MASK)

    def _seed_from_key(self, key: int) -> None:
        self._key = key
        x = key
        x, self._s0 = _splitmix64(x)
        x, self._s1 = _splitmix64(x)
        x, self._s2 = _splitmix64(x)
        x, self._s3 = _splitmix64(x)

    def next_u64(self) -> int:
        """The next 64-bit unsigned integer."""
        s0, s1, s2, s3 = self._s0, self._s1, self._s2, self._s3
        x = (s1 * 5) & _MASK
        result = ((((x << 7) | (x >> 57)) & _MASK) * 9) & _MASK
        t = (s1 << 17) & _MASK
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = ((s3 << 45) | (s3 >> 19)) & _MASK
        self._s0, self._s1, self._s2, self._s3 = s0, s1, s2, s3
        return result

    def random(self) -> float:
        """A float in [0, 1) with 53 random bits (for bots' tie-breaks, never odds)."""
        return (self.next_u64() >> 11) * (1.0 / 9007199254740992.0)

    def below(self, n: int) -> int:
        """Uniform integer in ``0 .. n-1`` (Lemire's multiply-and-reject, unbiased)."""
        if n <= 0 or n > (1 << 64):
            raise ChanceError(f"range size must be in 1..2**64, not {n}")
        m = self.next_u64() * n
        low = m & _MASK
        if low < n:
            threshold = ((1 << 64) - n) % n
            while low < threshold:
                m = self.next_u64() * n
                low = m & _MASK
        return m >> 64

    def randint(self, lo: int, hi: int) -> int:
        """Uniform integer in ``lo .. hi`` inclusive, unbiased."""
        if hi < lo:
            raise ChanceError(f"empty range {lo}..{hi}")
        return lo + self.below(hi - lo + 1)

    def choice(self, seq: Sequence[T]) -> T:
        """One element of a non-empty sequence, uniformly."""
        if not seq:
            raise ChanceError("cannot choose from an empty sequence")
        return seq[self.below(len(seq))]

    def shuffle(self, items: MutableSequence[Any]) -> None:
        """Shuffle in place (Fisher-Yates, from the end)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def getstate(self) -> tuple[int, int, int, int, int]:
        """The full state; :meth:`setstate` restores it exactly."""
        return (self._key, self._s0, self._s1, self._s2, self._s3)

    def setstate(self, state: Sequence[int]) -> None:
        if len(state) != 5 or not all(isinstance(v, int) and 0 <= v <= _MASK for v in state):
            raise ChanceError(f"not an Rng state: {state!r}")
        if not any(state[1:]):
            raise ChanceError("xoshiro256** state may not be all zero")
        self._key, self._s0, self._s1, self._s2, self._s3 = state

    def spawn(self, label: str) -> Rng:
        """An independent child stream named ``label`` (e.g. ``"bot:Rome"``).

        The child depends only on this generator's seed lineage and the label,
        not on how many numbers were drawn so far, so a bot's stream does not
        shift when a rule change adds a die roll elsewhere.
        """
        child = Rng.__new__(Rng)
        child._seed_from_key(_derive(self._key, label))
        return child

    def copy(self) -> Rng:
        other = Rng.__new__(Rng)
        other.setstate(self.getstate())
        return other

    def __repr__(self) -> str:
        return f"<Rng key={self._key:#018x}>"


def spawned_below(seed: int, label: str, n: int) -> int:
    """``Rng(seed).spawn(label).below(n)``, the same number, without building either stream.

    A bot that draws one number per decision from a stream of its own (``ancients_kit.bots``)
    pays mostly for seeding: the parent's four state words, the child's four. The first output
    of xoshiro256** depends only on the second state word, which is the second splitmix64 output
    of the child's key, so that word alone is computed; when Lemire's method would have to look
    at its rejection threshold (a chance of about ``n`` in 2**64) the full stream decides.
    """
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ChanceError(f"seed must be an int, not {seed!r}")
    if n <= 0 or n > (1 << 64):
        raise ChanceError(f"range size must be in 1..2**64, not {n}")
    # the second splitmix64 output of the child's key: one step on from the key, the next output
    _, s1 = _splitmix64((_derive(seed & _MASK, label) + _GOLDEN) & _MASK)
    x = (s1 * 5) & _MASK
    m = ((((x << 7) | (x >> 57)) & _MASK) * 9 & _MASK) * n
    if m & _MASK >= n:
        return m >> 64
    return Rng(seed).spawn(label).below(n)


# --------------------------------------------------------------------------
# Dice


@attrs.frozen
class SymbolDie:
    """A die whose faces carry symbols rather than numbers."""

    name: str
    """Short name used in logs and rerolls, e.g. ``"battle"``."""
    faces: tuple[str, ...] = attrs.field(converter=tuple)
    """One entry per face; a symbol printed on two faces appears twice."""

    def __attrs_post_init__(self) -> None:
        if not self.faces:
            raise ChanceError(f"symbol die {self.name!r} has no faces")

    @property
    def symbols(self) -> tuple[str, ...]:
        """Distinct symbols in face order."""
        return tuple(dict.fromkeys(self.faces))

    def count(self, symbol: str) -> int:
        """How many faces show ``symbol``."""
        return self.faces.count(symbol)


_DIE_VALUES: dict[str, tuple[int, ...]] = {
    "d6": tuple(range(1, 7)),
    "2d6": tuple(range(2, 13)),
    "d66": tuple(10 * a + b for a in range(1, 7) for b in range(1, 7)),
}


def die_values(kind: DiceKind) -> tuple[int, ...]:
    """Every value a numbered roll can show, ascending (``d66``: 11..16, 21..66)."""
    try:
        return _DIE_VALUES[kind]
    except KeyError:
        raise ChanceError(f"unknown die {kind!r}; expected one of d6, 2d6, d66") from None


@lru_cache(maxsize=None)
def _distribution_items(kind: DiceKind) -> tuple[tuple[int, Fraction], ...]:
    die_values(kind)
    counts: Counter[int] = Counter()
    if kind == "d6":
        counts.update(range(1, 7))
        total = 6
    elif kind == "2d6":
        counts.update(a + b for a in range(1, 7) for b in range(1, 7))
        total = 36
    else:
        counts.update(10 * a + b for a in range(1, 7) for b in range(1, 7))
        total = 36
    return tuple((v, Fraction(c, total)) for v, c in sorted(counts.items()))


def die_distribution(kind: DiceKind) -> dict[int, Fraction]:
    """Exact distribution of ``"d6"``, ``"2d6"`` (sum) or ``"d66"`` (tens and units)."""
    return dict(_distribution_items(kind))


def symbol_pool_distribution(die: SymbolDie, n: int, hit_symbols: Iterable[str]) -> dict[int, Fraction]:
    """P(k faces in ``hit_symbols``) for ``n`` dice, k = 0..n (binomial, exact)."""
    hits = set(hit_symbols)
    _check_symbols(die, hits)
    if n < 0:
        raise ChanceError(f"number of dice must be >= 0, not {n}")
    f = len(die.faces)
    h = sum(1 for s in die.faces if s in hits)
    denom = f**n
    return {k: Fraction(comb(n, k) * h**k * (f - h) ** (n - k), denom) for k in range(n + 1)}


def symbol_pool_joint(
    die: SymbolDie, n: int, categories: Mapping[str, Iterable[str]]
) -> dict[tuple[int, ...], Fraction]:
    """Joint distribution of counts per category for ``n`` dice, exact.

    ``categories`` maps a name to the symbols it counts, e.g.
    ``{"hits": {"heavy", "swords"}, "flags": {"flag"}}``; keys of the result
    are tuples of counts in the order of ``categories``. A face may count in
    several categories. Faces are grouped by the set of categories they count
    in, and the multinomial over those groups is summed in integers, so cost
    grows with n**len(categories), not 6**n.
    """
    names = list(categories)
    sets = [set(categories[c]) for c in names]
    for s in sets:
        _check_symbols(die, s)
    if n < 0:
        raise ChanceError(f"number of dice must be >= 0, not {n}")
    groups: Counter[tuple[int, ...]] = Counter(tuple(int(face in s) for s in sets) for face in die.faces)
    # ways[counts] = number of ordered outcomes of the dice rolled so far.
    ways: dict[tuple[int, ...], int] = {tuple(0 for _ in names): 1}
    for _ in range(n):
        nxt: dict[tuple[int, ...], int] = {}
        for counts, w in ways.items():
            for sig, faces in groups.items():
                key = tuple(c + d for c, d in zip(counts, sig))
                nxt[key] = nxt.get(key, 0) + w * faces
        ways = nxt
    denom = len(die.faces) ** n
    return {k: Fraction(w, denom) for k, w in sorted(ways.items())}


def _check_symbols(die: SymbolDie, symbols: set[str]) -> None:
    unknown = symbols - set(die.faces)
    if unknown:
        raise ChanceError(f"symbol(s) {sorted(unknown)} not on the {die.name} die {die.symbols}")


# --------------------------------------------------------------------------
# Records


@attrs.frozen
class Roll:
    """One recorded random event: a roll, a draw or a shuffle."""

    kind: str
    """``d6``, ``2d6``, ``d66``, ``dice`` (n dice of any size), ``symbols``,
    ``draw``, ``pick`` or ``shuffle``."""
    faces: tuple[Any, ...]
    """Each die's face, or the items drawn; empty for a shuffle."""
    value: int | None = None
    """Total of numbered dice (d66: tens-and-units value); None otherwise."""
    reason: str = ""
    """Why the roll was made, in words (``"melee 26:9"``)."""
    rules: tuple[str, ...] = ()
    """Rule IDs the roll serves."""
    source: str = ""
    """The die (``d6``, symbol die name) or the container name drawn from."""
    sides: int = 0
    """Faces per numbered die (6 for d6 rolls); 0 for anything else."""
    forced: tuple[int, ...] = ()
    """Indices of faces that came from :meth:`Chance.force` (tests)."""
    rerolled: tuple[int, ...] = ()
    """Indices of faces rerolled, when this roll is a reroll of an earlier one."""

    @property
    def total(self) -> int | None:
        return self.value

    def describe(self) -> str:
        """Short human text, the dice as die faces: ``2d6 ⚂ ⚃ = 7 (melee)``, ``d6 ⚃ 4 (melee)``,
        ``battle dice: swords, flag (close combat)``, ``draw OH, 3C from command deck``."""
        if self.kind == "shuffle":
            text = f"shuffle {self.source}"
        elif self.kind in ("draw", "pick"):
            text = f"{self.kind} {', '.join(str(f) for f in self.faces) or 'nothing'} from {self.source}"
        elif self.kind == "symbols":
            text = f"{self.source + ' ' if self.source else ''}dice: {', '.join(str(f) for f in self.faces)}"
        else:
            shown = " ".join(_face(f, self.sides) for f in self.faces)
            text = f"{self.kind} {shown}"
            if self.value is not None and (len(self.faces) > 1 or self.sides == 6):
                text += f" = {self.value}" if len(self.faces) > 1 else f" {self.value}"
        if self.rerolled:
            text += f" (reroll of {_dice_named(self.rerolled)})"
        if self.reason:
            text += f" ({self.reason})"
        return text


D6_FACES = "⚀⚁⚂⚃⚄⚅"
"""The faces of a six-sided die, as printed in roll events."""


def _face(face: Any, sides: int) -> str:
    """One die as printed: a d6 face as its pips (``⚃``), any other number as itself."""
    if sides == 6 and isinstance(face, int) and not isinstance(face, bool) and 1 <= face <= 6:
        return D6_FACES[face - 1]
    return str(face)


def _dice_named(indices: Sequence[int]) -> str:
    """``die 2`` or ``dice 1, 3`` (1-based, as a player counts them)."""
    nums = [str(i + 1) for i in indices]
    return f"die {nums[0]}" if len(nums) == 1 else f"dice {', '.join(nums)}"


# --------------------------------------------------------------------------
# Containers


class ChitCup:
    """An opaque cup of chits: draws are uniform among the chits inside.

    Chits are any hashable values (names or numbers); duplicates are allowed
    (Xenophon has twelve Agent chits). Returning a chit is :meth:`add`.
    """

    def __init__(self, chits: Iterable[Hashable] = (), name: str = "cup") -> None:
        self.name = name
        self._chits: list[Hashable] = list(chits)

    def add(self, *chits: Hashable) -> None:
        """Put chits (back) into the cup."""
        self._chits.extend(chits)

    def remove(self, chit: Hashable) -> None:
        """Take a named chit out without drawing (e.g. removed from the game)."""
        try:
            self._chits.remove(chit)
        except ValueError:
            raise ChanceError(f"chit {chit!r} is not in {self.name}") from None

    def draw(self, chance: Chance, reason: str = "", rules: Sequence[str] = ()) -> Hashable:
        """Draw one chit at random (recorded through ``chance``)."""
        return chance.draw(self, reason, rules)

    def counts(self) -> Counter[Hashable]:
        return Counter(self._chits)

    @property
    def contents(self) -> tuple[Hashable, ...]:
        return tuple(self._chits)

    def __contains__(self, chit: object) -> bool:
        return chit in self._chits

    def __len__(self) -> int:
        return len(self._chits)

    def copy(self) -> ChitCup:
        return ChitCup(self._chits, self.name)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ChitCup) and self.name == other.name and self._chits == other._chits

    def __repr__(self) -> str:
        return f"ChitCup({self._chits!r}, name={self.name!r})"


class Deck:
    """A card deck: draw pile, discard pile and the cards out (in hands).

    The set of cards is fixed at creation, so the total is conserved: a card
    can only be discarded if it is out. Drawing from an empty draw pile first
    reshuffles the discards into it (both through :class:`Chance`).
    """

    def __init__(self, cards: Iterable[Hashable], name: str = "deck") -> None:
        self.name = name
        self.draw_pile: list[Hashable] = list(cards)
        """Face-down cards; the top card is the *last* element."""
        self.discard_pile: list[Hashable] = []
        self._all: Counter[Hashable] = Counter(self.draw_pile)

    @property
    def total(self) -> int:
        return sum(self._all.values())

    def out(self) -> Counter[Hashable]:
        """Cards neither in the draw pile nor in the discards (held or played)."""
        return self._all - Counter(self.draw_pile) - Counter(self.discard_pile)

    def discard(self, card: Hashable) -> None:
        """Put an out card on the discard pile."""
        # Counted in place (list.count) rather than via out(): discards are frequent.
        if self._all[card] - self.draw_pile.count(card) - self.discard_pile.count(card) <= 0:
            raise ChanceError(f"card {card!r} is not out of {self.name}; cannot discard it")
        self.discard_pile.append(card)

    def draw(self, chance: Chance, reason: str = "", rules: Sequence[str] = ()) -> Hashable:
        """Draw the top card, reshuffling the discards first if the pile is empty."""
        return chance.draw(self, reason, rules)

    def reshuffle(self, chance: Chance, reason: str = "", rules: Sequence[str] = ()) -> None:
        """Gather the discards into the draw pile and shuffle it."""
        chance.shuffle(self, reason, rules)

    def __len__(self) -> int:
        return len(self.draw_pile)

    def copy(self) -> Deck:
        """An independent copy; the set of cards, fixed at creation and never changed, is shared."""
        other = type(self).__new__(type(self))
        other.name = self.name
        other.draw_pile = list(self.draw_pile)
        other.discard_pile = list(self.discard_pile)
        other._all = self._all
        return other

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Deck)
            and self.name == other.name
            and self.draw_pile == other.draw_pile
            and self.discard_pile == other.discard_pile
            and self._all == other._all
        )

    def __repr__(self) -> str:
        return f"<Deck {self.name}: {len(self.draw_pile)} to draw, {len(self.discard_pile)} discarded>"


class Hand:
    """Cards or chits held by one side, with an optional limit and secrecy.

    ``limit_rule`` is the rule ID quoted when the limit is broken (e.g.
    Xenophon's 15-chit limit).
    """

    def __init__(
        self, owner: str, limit: int | None = None, cards: Iterable[Hashable] = (), limit_rule: str = ""
    ) -> None:
        self.owner = owner
        self.limit = limit
        self.limit_rule = limit_rule
        self._cards: list[Hashable] = []
        for c in cards:
            self.add(c)

    def add(self, card: Hashable) -> None:
        if self.limit is not None and len(self._cards) >= self.limit:
            rule = f" ({self.limit_rule})" if self.limit_rule else ""
            raise HandLimitError(
                f"{self.owner} already holds {len(self._cards)} of at most {self.limit}; cannot add {card!r}{rule}"
            )
        self._cards.append(card)

    def remove(self, card: Hashable) -> None:
        try:
            self._cards.remove(card)
        except ValueError:
            raise ChanceError(f"{self.owner} does not hold {card!r}") from None

    @property
    def cards(self) -> tuple[Hashable, ...]:
        return tuple(self._cards)

    def visible_to(self, side: str) -> tuple[Hashable, ...] | int:
        """The cards for the owner; only their number for anyone else."""
        return tuple(self._cards) if side == self.owner else len(self._cards)

    def __contains__(self, card: object) -> bool:
        return card in self._cards

    def __len__(self) -> int:
        return len(self._cards)

    def copy(self) -> Hand:
        other = type(self).__new__(type(self))
        other.owner, other.limit, other.limit_rule = self.owner, self.limit, self.limit_rule
        other._cards = list(self._cards)
        return other

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Hand)
            and (self.owner, self.limit, self._cards) == (other.owner, other.limit, other._cards)
        )

    def __repr__(self) -> str:
        return f"Hand({self.owner!r}, limit={self.limit}, cards={self._cards!r})"


# --------------------------------------------------------------------------
# The session's roller

_NO_FORCE = object()


class Chance:
    """The session's dice roller: one :class:`Rng`, every result recorded.

    ``record(roll)`` is called once per roll, draw or shuffle, forced or not.
    Forced values (:meth:`force`) are consumed one per die face or per drawn
    item, in order, before the generator is used; the generator is not
    advanced for a forced face.
    """

    def __init__(self, rng: Rng | int, record: Callable[[Roll], None] | None = None) -> None:
        self.rng = rng if isinstance(rng, Rng) else Rng(rng)
        self.record = record
        self.last: Roll | None = None
        """The most recent :class:`Roll`."""
        self._forced: deque[Any] = deque()
        self._symbol_dice: dict[str, SymbolDie] = {}
        self._keyed: Rng | None = None
        """With :meth:`key_by_reason`: the generator every roll's own stream is spawned from."""
        self._keyed_counts: dict[str, int] = {}
        """With :meth:`key_by_reason`: reason -> rolls made with it so far."""

    # -- keyed dice (search copies) ------------------------------------------

    def key_by_reason(self, key: int | None) -> None:
        """From now on take each roll, draw or shuffle from a stream of its own,
        derived from ``key``, its reason and how many earlier ones had the same
        reason (``None``: back to the one generator, :attr:`rng`).

        The dice stay independent and fair; what changes is which die goes where.
        Two search copies keyed alike give "the second attack on hex 1416" the
        same die, whatever was rolled before it in either copy, so comparing
        two moves on the same sample compares the moves, not the order in which
        their dice happened to be drawn (common random numbers;
        :meth:`Session.fork <ancients_kit.session.Session.fork>` with
        ``keyed_dice``). The rules name each roll's reason already (``attack on
        1416``); rolls without one share the reason ``""``."""
        if key is not None and (isinstance(key, bool) or not isinstance(key, int)):
            raise ChanceError(f"a dice key must be a whole number, not {key!r}")
        self._keyed = None if key is None else Rng(key)
        self._keyed_counts = {}

    def _rng_for(self, reason: str) -> Rng:
        """The generator the next roll with ``reason`` draws from (see :meth:`key_by_reason`)."""
        if self._keyed is None:
            return self.rng
        n = self._keyed_counts.get(reason, 0)
        self._keyed_counts[reason] = n + 1
        return self._keyed.spawn(f"{n}:{reason}")

    # -- forcing (tests) ---------------------------------------------------

    def force(self, *values: Any) -> None:
        """Queue values the next die faces or draws return (one value each)."""
        self._forced.extend(values)

    @property
    def pending_forced(self) -> tuple[Any, ...]:
        """Forced values not yet used (a test can assert this is empty)."""
        return tuple(self._forced)

    def _take_forced(self) -> Any:
        return self._forced.popleft() if self._forced else _NO_FORCE

    def _emit(self, roll: Roll) -> Roll:
        self.last = roll
        if self.record is not None:
            self.record(roll)
        return roll

    # -- numbered dice -------------------------------------------------------

    def _faces(self, n: int, sides: int, kind: str, rng: Rng) -> tuple[tuple[int, ...], tuple[int, ...]]:
        faces: list[int] = []
        forced: list[int] = []
        for i in range(n):
            f = self._take_forced()
            if f is _NO_FORCE:
                faces.append(1 + rng.below(sides))
            else:
                if not isinstance(f, int) or isinstance(f, bool) or not 1 <= f <= sides:
                    raise ChanceError(f"forced value {f!r} is not a face of a {sides}-sided die ({kind})")
                faces.append(f)
                forced.append(i)
        return tuple(faces), tuple(forced)

    def _numbered(self, kind: str, n: int, sides: int, reason: str, rules: Sequence[str]) -> Roll:
        if n < 1:
            raise ChanceError(f"number of dice must be >= 1, not {n}")
        if sides < 2:
            raise ChanceError(f"a die needs at least 2 sides, not {sides}")
        faces, forced = self._faces(n, sides, kind, self._rng_for(reason))
        value = faces[0] * 10 + faces[1] if kind == "d66" else sum(faces)
        return self._emit(
            Roll(kind, faces, value, reason, tuple(rules), source=kind, sides=sides, forced=forced)
        )

    def d6(self, reason: str = "", rules: Sequence[str] = ()) -> int:
        """One six-sided die."""
        return self._numbered("d6", 1, 6, reason, rules).value  # type: ignore[return-value]

    def two_d6(self, reason: str = "", rules: Sequence[str] = ()) -> int:
        """Two six-sided dice, summed (2..12)."""
        return self._numbered("2d6", 2, 6, reason, rules).value  # type: ignore[return-value]

    def d66(self, reason: str = "", rules: Sequence[str] = ()) -> int:
        """Tens-and-units: first die tens, second units (11..66), as Xenophon's
        Random Events Table reads it (``xen:random-events``)."""
        return self._numbered("d66", 2, 6, reason, rules).value  # type: ignore[return-value]

    def dice(self, n: int, sides: int = 6, reason: str = "", rules: Sequence[str] = ()) -> tuple[int, ...]:
        """``n`` dice of ``sides`` faces; the faces in rolling order."""
        kind = "d6" if (n, sides) == (1, 6) else f"{n}d{sides}"
        return self._numbered(kind, n, sides, reason, rules).faces

    def roll(self, kind: DiceKind, reason: str = "", rules: Sequence[str] = ()) -> int:
        """Roll a numbered die by name (``d6``, ``2d6``, ``d66``), as tables do."""
        if kind == "d6":
            return self.d6(reason, rules)
        if kind == "2d6":
            return self.two_d6(reason, rules)
        if kind == "d66":
            return self.d66(reason, rules)
        die_values(kind)  # raises for unknown names
        raise AssertionError(kind)

    # -- symbol dice ---------------------------------------------------------

    def symbols(self, die: SymbolDie, n: int, reason: str = "", rules: Sequence[str] = ()) -> tuple[str, ...]:
        """Roll ``n`` symbol dice; forced values are symbol names."""
        if n < 0:
            raise ChanceError(f"number of dice must be >= 0, not {n}")
        # Rerolls find the die by name: the one most recently rolled under it
        # (a designer's variant may redefine the battle die's faces).
        self._symbol_dice[die.name] = die
        faces, forced = self._symbol_faces(die, range(n), self._rng_for(reason))
        return self._emit(
            Roll("symbols", faces, None, reason, tuple(rules), source=die.name, forced=forced)
        ).faces

    def _symbol_faces(self, die: SymbolDie, indices: Iterable[int],
                      rng: Rng) -> tuple[tuple[str, ...], tuple[int, ...]]:
        faces: list[str] = []
        forced: list[int] = []
        for i in indices:
            f = self._take_forced()
            if f is _NO_FORCE:
                faces.append(die.faces[rng.below(len(die.faces))])
            else:
                if f not in die.faces:
                    raise ChanceError(f"forced value {f!r} is not a face of the {die.name} die {die.symbols}")
                faces.append(f)
                forced.append(i)
        return tuple(faces), tuple(forced)

    # -- rerolls -------------------------------------------------------------

    def reroll(
        self,
        previous: Roll | None = None,
        indices: Iterable[int] | None = None,
        reason: str = "",
        rules: Sequence[str] = (),
    ) -> Roll:
        """Roll again some dice of an earlier roll (all of them by default).

        The other faces are kept; the new :class:`Roll` has the same kind,
        recomputed value, and ``rerolled`` naming the indices rolled again
        (Xenophon's Consult Oracles chit rerolls both Event dice).
        """
        prev = previous if previous is not None else self.last
        if prev is None:
            raise ChanceError("nothing to reroll: no roll has been made")
        if prev.kind in ("draw", "pick", "shuffle"):
            raise ChanceError(f"a {prev.kind} cannot be rerolled")
        idx = tuple(range(len(prev.faces))) if indices is None else tuple(sorted(set(indices)))
        for i in idx:
            if not 0 <= i < len(prev.faces):
                raise ChanceError(f"die index {i} out of range for {prev.describe()}")
        faces = list(prev.faces)
        rng = self._rng_for(reason or prev.reason)
        if prev.kind == "symbols":
            die = self._symbol_dice.get(prev.source)
            if die is None:
                raise ChanceError(f"unknown symbol die {prev.source!r}")
            new, forced_local = self._symbol_faces(die, range(len(idx)), rng)
            value = None
        else:
            new, forced_local = self._faces(len(idx), prev.sides, prev.kind, rng)
        for i, f in zip(idx, new):
            faces[i] = f
        if prev.kind == "symbols":
            value = None
        elif prev.kind == "d66":
            value = faces[0] * 10 + faces[1]
        else:
            value = sum(faces)
        forced = tuple(idx[j] for j in forced_local)
        roll = Roll(
            prev.kind,
            tuple(faces),
            value,
            reason or prev.reason,
            tuple(rules) or prev.rules,
            source=prev.source,
            sides=prev.sides,
            forced=forced,
            rerolled=idx,
        )
        return self._emit(roll)

    # -- draws and shuffles --------------------------------------------------

    def draw(
        self, container: ChitCup | Deck | Hand, reason: str = "", rules: Sequence[str] = ()
    ) -> Hashable:
        """Draw one item: a random chit from a cup, a random card from a hand,
        or the top card of a deck (reshuffling its discards when empty).

        A forced value names the item to take; it must be in the container.
        """
        if isinstance(container, Deck):
            if not container.draw_pile:
                if not container.discard_pile:
                    raise ChanceError(f"{container.name} is exhausted: no cards to draw or reshuffle")
                self.shuffle(container, "draw pile empty", rules)
            pile = container.draw_pile
            f = self._take_forced()
            if f is _NO_FORCE:
                item = pile.pop()
                forced: tuple[int, ...] = ()
            else:
                if f not in pile:
                    raise ChanceError(f"forced card {f!r} is not in the draw pile of {container.name}")
                pile.remove(f)
                item, forced = f, (0,)
            source = container.name
        elif isinstance(container, ChitCup):
            item, forced = self._pick_from(container._chits, container.name, reason)
            source = container.name
        elif isinstance(container, Hand):
            item, forced = self._pick_from(container._cards, f"{container.owner}'s hand", reason)
            source = f"hand:{container.owner}"
        else:
            raise ChanceError(f"cannot draw from {container!r}")
        self._emit(Roll("draw", (item,), None, reason, tuple(rules), source=source, forced=forced))
        return item

    def _pick_from(self, items: list[Hashable], name: str, reason: str) -> tuple[Hashable, tuple[int, ...]]:
        if not items:
            raise ChanceError(f"{name} is empty; nothing to draw")
        f = self._take_forced()
        if f is _NO_FORCE:
            return items.pop(self._rng_for(reason).below(len(items))), ()
        if f not in items:
            raise ChanceError(f"forced item {f!r} is not in {name}")
        items.remove(f)
        return f, (0,)

    def pick(self, options: Sequence[T], reason: str = "", rules: Sequence[str] = ()) -> T:
        """Choose one of ``options`` uniformly (e.g. which chits to discard
        "chosen randomly"); recorded; forced value names the option."""
        if not options:
            raise ChanceError("cannot pick from no options")
        f = self._take_forced()
        if f is _NO_FORCE:
            item = options[self._rng_for(reason).below(len(options))]
            forced: tuple[int, ...] = ()
        else:
            if f not in options:
                raise ChanceError(f"forced option {f!r} is not among {list(options)!r}")
            item, forced = f, (0,)
        self._emit(Roll("pick", (item,), None, reason, tuple(rules), source="options", forced=forced))
        return item

    def shuffle(
        self, target: Deck | MutableSequence[Any], reason: str = "", rules: Sequence[str] = ()
    ) -> None:
        """Shuffle a list in place, or a deck (its discards join the draw pile)."""
        if isinstance(target, Deck):
            target.draw_pile.extend(target.discard_pile)
            target.discard_pile.clear()
            self._rng_for(reason).shuffle(target.draw_pile)
            source = target.name
        else:
            self._rng_for(reason).shuffle(target)
            source = "list"
        self._emit(Roll("shuffle", (), None, reason, tuple(rules), source=source))

    def getstate(self) -> tuple[Any, ...]:
        """Everything a later roll depends on (generator, forced values, the last
        roll for rerolls, the symbol dice seen, the key of keyed dice and each
        reason's count of rolls); :meth:`setstate` restores it.
        Session checkpoints keep it beside a copy of the game state."""
        keyed = None if self._keyed is None else self._keyed.getstate()
        return (self.rng.getstate(), tuple(self._forced), self.last, tuple(self._symbol_dice.items()),
                keyed, tuple(self._keyed_counts.items()))

    def setstate(self, state: tuple[Any, ...]) -> None:
        rng, forced, last, dice, keyed, counts = state
        self.rng.setstate(rng)
        self._forced = deque(forced)
        self.last = last
        self._symbol_dice = dict(dice)
        self._keyed = None
        if keyed is not None:
            self._keyed = Rng(0)
            self._keyed.setstate(keyed)
        self._keyed_counts = dict(counts)

    def spawn(self, label: str, record: Callable[[Roll], None] | None = None) -> Chance:
        """A roller on an independent child stream (e.g. for a bot's own choices)."""
        return Chance(self.rng.spawn(label), record)


def redeal(hand: Hand, pool: ChitCup, rng: Any) -> None:
    """Deal ``hand`` again from everything an opponent cannot tell apart: the hand's
    chits and the pool's, together, shuffled by ``rng`` (``shuffle(list)``). The hand
    keeps its size and the pool gets the rest; a search bot samples hidden hands so.
    The order before the shuffle is sorted, so the same ``rng`` gives the same deal."""
    unseen = sorted([*pool.contents, *hand.cards])
    rng.shuffle(unseen)
    held = len(hand)
    for c in hand.cards:
        hand.remove(c)
    for _ in range(held):
        hand.add(unseen.pop())
    for c in list(pool.contents):
        pool.remove(c)
    pool.add(*unseen)
