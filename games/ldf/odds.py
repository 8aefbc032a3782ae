"""Lest Darkness Fall battle odds: strengths, column shifts and exact distributions.

Everything here is a pure function of numbers and the data (the CRT and the
map); the battle procedure that uses it is :mod:`ancients_games.ldf.combat`.

* Combat strengths (``ldf:2.6``, ``ldf:13.10``): every unit but leaders,
  garrisons and German tribes is worth 1; a German tribe's factor is rolled
  afresh for every battle as d6+1 (2..7); a garrison/fortification defends at
  its hex's unlooted TP (Ctesiphon 8, each Caucasus hex 1) and never attacks;
  leaders add no strength.
* Column shifts (``+`` toward the attacker): a Roman leader shifts one column
  for his side, two leaders cancel (``ldf:13.9``, ``ldf:8.4``); a German attack
  across a Rhine or Danube hexside shifts one column to the defence
  (``ldf:13.8``); the battle chits add theirs (``ldf:14.3``).
* The CRT (``ldf:14.6``, ``data/crt.toml``): odds rounded down for the
  defender (``ldf:13.2``; the game has no general rounding rule, ``ldf:1.6``), automatic AE below 1:3 and DE above 6:1 once every
  shift is applied (``ldf:13.15``).

:func:`battle_distribution` mixes the CRT's distributions over every German
strength a battle can roll (each 1/6 a tribe), exactly; it is what
``ancients odds ldf ...`` prints and what :meth:`LDF.decision_odds` shows
before an attack is declared.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from itertools import product

import attrs

from ancients_kit.data import DataStore
from ancients_kit.errors import ParameterError
from ancients_kit.plugin import OddsReport, parse_flag, parse_int
from ancients_kit.tables import Automatic, OddsTable, probability_text

from . import model

__all__ = [
    "GERMAN_STRENGTHS",
    "HELP",
    "RESULTS",
    "Shift",
    "battle_distribution",
    "column_of",
    "german_mix",
    "leader_shift",
    "odds",
    "river_shift",
    "total_shift",
]

GERMAN_STRENGTHS: tuple[int, ...] = (2, 3, 4, 5, 6, 7)
"""A German tribe's combat factor for one battle: one die plus one (``ldf:2.6``)."""

RESULTS: tuple[str, ...] = ("AE", "AS", "DR", "EX", "DE")
"""The CRT's result codes (``ldf:13.11``), from best for the defender to worst."""

NOT_PASS_RULE = "ldf:14.3"


@attrs.frozen
class Shift:
    """One column shift of a battle (``+`` toward the attacker)."""

    amount: int
    why: str
    rules: tuple[str, ...]

    def describe(self) -> str:
        return f"{self.amount:+d} column ({self.why}) [{', '.join(self.rules)}]"


def leader_shift(attacker_leader: bool, defender_leader: bool) -> Shift | None:
    """The leaders' shift (``ldf:13.9``, ``ldf:8.4``): one column for the side
    with a leader in its hex; none when both sides have one (they cancel)."""
    if attacker_leader and defender_leader:
        return Shift(0, "a leader on both sides: their effects cancel", ("ldf:13.9",))
    if attacker_leader:
        return Shift(1, "a leader with the attacking force", ("ldf:13.9", "ldf:8.4"))
    if defender_leader:
        return Shift(-1, "a leader with the defenders", ("ldf:13.9", "ldf:8.4"))
    return None


def river_shift(german_attacks_across: bool) -> Shift | None:
    """A German tribe attacking through a Rhine or Danube hexside: one column to the defence (``ldf:13.8``)."""
    if german_attacks_across:
        return Shift(-1, "a German tribe attacks across the Rhine or Danube", ("ldf:13.8",))
    return None


def total_shift(shifts: Iterable[Shift | None]) -> int:
    """The net shift of a battle (``ldf:13.15``: every shifter applies before the CRT is read)."""
    return sum(s.amount for s in shifts if s is not None)


def german_mix(attack_germans: int, defense_germans: int) -> dict[tuple[int, int], Fraction]:
    """Exact distribution of the German strength added to each side: ``(attack, defense)`` -> P.

    Every tribe in the battle rolls its own d6+1 (``ldf:2.6``); the German
    stacking limit makes one tribe a side the usual case (``ldf:10.2``)."""
    if attack_germans < 0 or defense_germans < 0:
        raise ValueError("the number of German tribes in a battle cannot be negative")
    out: dict[tuple[int, int], Fraction] = {}
    n = attack_germans + defense_germans
    p = Fraction(1, len(GERMAN_STRENGTHS) ** n) if n else Fraction(1)
    for faces in product(GERMAN_STRENGTHS, repeat=n):
        key = (sum(faces[:attack_germans]), sum(faces[attack_germans:]))
        out[key] = out.get(key, Fraction(0)) + p
    return out


def column_of(table: OddsTable, attack: int, defense: int, shift: int) -> str:
    """The column a battle is read on, or ``automatic AE``/``automatic DE`` (``ldf:13.15``)."""
    col = table.odds(attack, defense, shift=shift)
    if isinstance(col, Automatic):
        return f"automatic {col.result}"
    return col.label


NO_DEFENCE = "the defending hex has no combat strength: nothing to attack (ldf:13.2)"
NO_ATTACK = "the attacking force has no combat strength (ldf:2.6: leaders never attack on their own)"


def _read(table: OddsTable, attack: int, defense: int, shift: int, not_pass: bool) -> dict[str, Fraction]:
    if defense == 0:
        raise ValueError(NO_DEFENCE)
    if attack == 0:
        raise ValueError(NO_ATTACK)
    dist = table.distribution(attack, defense, shift=shift)
    if not_pass and "DR" in dist:
        # They Shall Not Pass: a DR result converts to an AS (ldf:14.3)
        dist = dict(dist)
        dist["AS"] = dist.get("AS", Fraction(0)) + dist.pop("DR")
    return dist


def battle_distribution(
    table: OddsTable,
    attack: int,
    defense: int,
    *,
    attack_germans: int = 0,
    defense_germans: int = 0,
    shift: int = 0,
    double_attack: bool = False,
    not_pass: bool = False,
) -> dict[str, Fraction]:
    """Exact probability of each CRT result of one battle.

    ``attack`` and ``defense`` are the strengths that are not rolled; each
    German tribe adds d6+1 (``ldf:2.6``), mixed exactly over its six values.
    ``double_attack``: Roman Heavy Siege Equipment doubles the attacking
    force's strength (``ldf:14.3``, chit 21). ``not_pass``: They Shall Not Pass
    turns DR into AS (``ldf:14.3``; its column shift belongs in ``shift``).
    Results are listed from best for the defender to worst (:data:`RESULTS`)."""
    total: dict[str, Fraction] = {}
    for (ga, gd), p in german_mix(attack_germans, defense_germans).items():
        a = (attack + ga) * (2 if double_attack else 1)
        for code, q in _read(table, a, defense + gd, shift, not_pass).items():
            total[code] = total.get(code, Fraction(0)) + p * q
    return {c: total[c] for c in (*RESULTS, *sorted(set(total) - set(RESULTS))) if c in total}


# ---------------------------------------------------------------- ancients odds ldf

HELP = """ancients odds ldf attack=N defense=N [key=value ...]
  attack=N             attacking strength not rolled: 1 a unit (vexillation, legion base, gund, Palmyran)
  defense=N            defending strength not rolled (units at 1; garrisons: see garrison=)
  garrison=HEX         a garrison/fortification defends in HEX: adds its strength (hex TP, Ctesiphon 5020 = 8)
  german_attack=K      German tribes attacking, each d6+1 rolled for the battle (default 0)
  german_defense=K     German tribes defending (default 0)
  german_attack_factor=V / german_defense_factor=V   a tribe's factor already rolled (2..7), instead of the mix
  attacker_leader=yes  a Roman leader is with the attacking force (+1 column)
  defender_leader=yes  a Roman leader is with the defenders (-1 column; both leaders cancel)
  river=yes            the German tribe attacks across a Rhine or Danube hexside (-1 column)
  shift=N              other column shifts, + for the attacker (Flanking Move, Inspired Subordinates ...)
  not_pass=yes         They Shall Not Pass: -1 column and DR becomes AS
  siege=yes            Roman Heavy Siege Equipment: the attacking strength is doubled"""

_KNOWN = {"attack", "defense", "defence", "garrison", "german_attack", "german_defense", "german_defence",
          "german_attack_factor", "german_defense_factor", "german_defence_factor", "attacker_leader",
          "defender_leader", "river", "shift", "not_pass", "siege"}


def _flag(params: Mapping[str, str], key: str) -> bool:
    """Parameter ``key`` as yes or no (no if not given)."""
    return parse_flag(params.get(key, "no"), key)


def _factor(params: Mapping[str, str], key: str) -> int | None:
    if key not in params:
        return None
    v = parse_int(params, key)
    if v not in GERMAN_STRENGTHS:
        raise ParameterError(f"{key}={v}: a German tribe's factor is d6+1, 2 to 7 (ldf:2.6)", name=key, rule="ldf:2.6")
    return v


def odds(store: DataStore, params: Mapping[str, str]) -> OddsReport:
    """``ancients odds ldf ...``: the exact result distribution of a described battle."""
    return table_odds(model.load_crt(store), params, store)


_MEMO: dict[tuple[int, tuple[tuple[str, str], ...]], tuple[OddsTable, OddsReport]] = {}
"""Reports already worked out, by table and parameters (a report is immutable; the
entry keeps its table alive, so the table's id is not reused while it is here)."""
MEMO_SIZE = 4096


def table_odds(table: OddsTable, params: Mapping[str, str], store: DataStore | None = None) -> OddsReport:
    """:func:`odds` read on ``table`` (the CRT the game plays with); ``store`` is needed
    only for ``garrison=`` (its map). The same battle is worked out once: a bot scores
    every attack at every decision, most of them battles it has seen (a garrison's
    report depends on the map too, so it is not kept)."""
    if "garrison" in params:
        return _table_odds(table, params, store)
    key = (id(table), tuple(sorted(params.items())))
    hit = _MEMO.get(key)
    if hit is not None and hit[0] is table:
        return hit[1]
    report = _table_odds(table, params, store)
    if len(_MEMO) >= MEMO_SIZE:
        _MEMO.clear()
    _MEMO[key] = (table, report)
    return report


def _table_odds(table: OddsTable, params: Mapping[str, str], store: DataStore | None) -> OddsReport:
    p = {("defense" if k == "defence" else k.replace("defence", "defense")): v for k, v in params.items()}
    bad = sorted(set(params) - _KNOWN)
    if bad:
        raise ParameterError(f"unknown parameter(s) {', '.join(bad)}", name=bad[0])
    attack = parse_int(p, "attack")
    given = {"garrison", "german_defense", "german_defense_factor"} & set(p)
    defense = parse_int(p, "defense", 0 if given else None)
    ga, gd = parse_int(p, "german_attack", 0), parse_int(p, "german_defense", 0)
    fa, fd = _factor(p, "german_attack_factor"), _factor(p, "german_defense_factor")
    explain: list[str] = []
    rules: list[str] = ["ldf:13.2", "ldf:13.15", "ldf:14.6"]
    if "garrison" in p:
        if store is None:
            raise ValueError("garrison= needs the game's map: give table_odds its store")
        game_map = model.load_map(store)
        try:
            h = game_map.from_id(p["garrison"])
        except ValueError:
            raise ParameterError(f"garrison={p['garrison']!r} is not a hex of the LDF map", name="garrison") from None
        g = model.garrison_strength(game_map, h)
        if g == 0:
            raise ParameterError(f"garrison={p['garrison']}: hex {p['garrison']} has no population centre, "
                                 "so no garrison/fortification (ldf:13.10)", name="garrison", rule="ldf:13.10")
        defense += g
        explain.append(f"garrison/fortification in {p['garrison']} defends at {g} (ldf:13.10)")
        rules.append("ldf:13.10")
    for factor, n, key in ((fa, ga, "attack"), (fd, gd, "defense")):
        if factor is not None:
            if n > 1:
                raise ParameterError(f"german_{key}_factor gives one tribe's factor; german_{key}={n} tribes",
                                     name=f"german_{key}_factor", rule="ldf:2.6")
            explain.append(f"German tribe {'attacking' if key == 'attack' else 'defending'} at {factor} (rolled)")
    if fa is not None:
        attack, ga = attack + fa, 0
    if fd is not None:
        defense, gd = defense + fd, 0
    if ga or gd or fa is not None or fd is not None:
        rules.append("ldf:2.6")
    river = _flag(p, "river")
    if river and not (ga or fa is not None):
        raise ParameterError("river=yes: only a German tribe's attack across the Rhine or Danube is shifted "
                             "(ldf:13.8); give german_attack=1", name="river", rule="ldf:13.8")
    shifts = [leader_shift(_flag(p, "attacker_leader"), _flag(p, "defender_leader")), river_shift(river)]
    extra = parse_int(p, "shift", 0, lo=-99)
    if extra:
        shifts.append(Shift(extra, "battle chits", ("ldf:14.3",)))
    not_pass = _flag(p, "not_pass")
    if not_pass:
        shifts.append(Shift(-1, "They Shall Not Pass; DR becomes AS", ("ldf:14.3",)))
    siege = _flag(p, "siege")
    if siege and (ga or fa is not None):
        raise ParameterError("siege=yes: Heavy Siege Equipment doubles only a loyal Roman attack (ldf:14.3, "
                             "chit 21); German tribes never use it", name="siege", rule="ldf:14.3")
    net = total_shift(shifts)
    for s in shifts:
        if s is not None:
            explain.append(s.describe())
            rules.extend(r for r in s.rules if r not in rules)
    if siege:
        explain.append("Roman Heavy Siege Equipment doubles the attacking strength (ldf:14.3, chit 21)")
        if "ldf:14.3" not in rules:
            rules.append("ldf:14.3")
    if defense == 0 and not gd:  # what battle_distribution would refuse, as the user's parameters
        raise ParameterError(NO_DEFENCE, name="defense", rule="ldf:13.2")
    if attack == 0 and not ga:
        raise ParameterError(NO_ATTACK, name="attack", rule="ldf:2.6")
    dist = battle_distribution(table, attack, defense, attack_germans=ga, defense_germans=gd, shift=net,
                               double_attack=siege, not_pass=not_pass)
    mult = 2 if siege else 1
    explain.extend(_columns(table, attack, defense, ga, gd, net, mult))
    for code in dist:
        explain.append(f"P({code}) = {probability_text(dist[code])}")
    att = " + ".join([*([str(attack)] if attack or not ga else []), *["German"] * ga])
    dfn = " + ".join([*([str(defense)] if defense or not gd else []), *["German"] * gd])
    return OddsReport(f"LDF battle: {att} against {dfn}", dist, tuple(explain), tuple(rules),
                      {c: table.meaning(c) for c in dist})


def _columns(table: OddsTable, attack: int, defense: int, ga: int, gd: int, net: int, mult: int) -> Sequence[str]:
    """One line per German strength (or one line) saying which column is read."""
    lines: list[str] = []
    by_col: dict[str, list[str]] = {}
    for (a, d), pr in sorted(german_mix(ga, gd).items()):
        at, de = (attack + a) * mult, defense + d
        col = column_of(table, at, de, net)
        by_col.setdefault(col, []).append(f"{at}:{de} ({pr})" if (ga or gd) else f"{at}:{de}")
    for col, cases in by_col.items():
        shifted = f" after {net:+d}" if net else ""
        lines.append(f"{', '.join(cases)} -> {col}{shifted} (odds rounded for the defender, ldf:13.2)")
    return lines
