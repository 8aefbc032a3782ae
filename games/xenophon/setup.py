"""Setting up either scenario (xen:scenario.cyrus-revolt, xen:scenario.kings-war).

Both scenarios set up alike ("Setup as for Scenario 1"); only their length
differs (``scenarios.toml``). :func:`build` creates every counter of the mix
(xen:roster: the 179 satrapy units of the Unit and City Summary Roster, each
side's Guard, Siege and Supply pool and its leaders), sets the Satrapy Control
Chart (15 Empire, 8 Rebel, 11 neutral, xen:control), the treasuries ($40
Empire, $10 Rebel, secret unless the open option, xen:treasury) and the chit
pool (all 40 chits; the Rebel draws 6, the Empire 2, xen:stratagem).

Placement:

- the satrapy units of the set-up lists go "anywhere in Satrapy of same name,
  with >=1/City" and never "in excess of a hex's FV". :func:`place_satrapy`
  does it the same way each time: one unit in each city (the strongest
  first), then the rest into the cities and then the other hexes of the
  satrapy by Forage Value, never beyond it (docs/games/xenophon.md, "Rulings:
  core": the standard placement);
- the Rebel leaders Cyrus and Ariaos and the Rebel guard (3P, 1L) in Sardis;
- the Empire's choices are decisions (:func:`deploy`): Artaxerxes in
  Persepolis, Susa or Ekbatana; Tissaphernes and Abrokomas in other
  Empire-controlled cities, the three leaders in three different satrapies; the 3 guard cavalry in
  friendly satrapies, one a satrapy (placed in its first city).

Leaders not set up stay in the mix: they are those that Leader Arises and
the Random Events draw from (ruling 1).
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from typing import Final

from ancients_kit.chance import ChitCup
from ancients_kit.data import DataStore
from ancients_kit.plugin import OptionSpec, ScenarioInfo
from ancients_kit.protocol import Context, Decision, Option
from ancients_kit.secret import SecretNumber

from . import model
from .state import (EMPIRE, GUARD_MIX, LEADER_MIX, NEUTRAL, REBEL, SIDES, TYPE_LETTER, Unit, XenData,
                    XenOptions, XenState, slug, type_name)
from .vocab import Kind

__all__ = ["OPTION_SPECS", "SETUP_RULES", "build", "deploy", "place_satrapy", "scenario_infos", "scenario_rules"]

SETUP_RULES = ("xen:scenario.cyrus-revolt", "xen:control", "xen:roster")

SUMMARY: Final[Mapping[str, str]] = {
    "cyrus-revolt": "401-395 BC: Cyrus the Younger rises against his brother Artaxerxes II.",
    "kings-war": "401-387 BC: the long war, to the King's Peace.",
}
"""Each scenario's one line for the listings."""

OPTION_SPECS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec("personal_combat", False, "Optional rule: personal combat between leaders.",
               ("xen:opt.personal-combat",)),
    OptionSpec("reaction", False, "Optional rule: the non-phasing player reacts with Forced March.",
               ("xen:opt.reaction",)),
    OptionSpec("public_works", False, "Optional rule: Public Works markers ($5, +$1 tax, VP).",
               ("xen:opt.public-works",)),
    OptionSpec("reduced_levy", False, "Optional rule: Levy Value -1 where no enemy unit is inside.",
               ("xen:opt.reduced-levy",)),
    OptionSpec("placement", "standard", "How the set-up lists are placed: 'standard' (the same placement "
               "every game: docs/games/xenophon.md, Rulings: core 1) or 'choose' (each player places his "
               "units and the Rebel the neutrals', unit by unit).", ("xen:scenario.cyrus-revolt",),
               choices=("standard", "choose")),
    OptionSpec("open_treasury", False, "Treasuries tracked openly instead of secretly.",
               ("xen:intelligence", "xen:treasury")),
)
"""The optional rules and the set-up's options, the same for both scenarios."""


def scenario_infos(store: DataStore) -> list[ScenarioInfo]:
    """Both scenarios for the listings (xen:scenario.cyrus-revolt, xen:scenario.kings-war)."""
    meta, doc = store.load("scenarios.toml", model.ScenariosDoc)
    return [ScenarioInfo(s.id, f"{s.title} ({s.turns} turns)", SIDES, meta, SUMMARY.get(s.id, ""),
                         first=s.first_player, turns=s.turns) for s in doc.scenario]


def scenario_rules(scenario: str) -> tuple[str, ...]:
    """The scenario IDs a set-up step applies: Scenario 1's, and The King's War's as well
    ("Setup as for Scenario 1", xen:scenario.kings-war) when that is the game."""
    return ("xen:scenario.cyrus-revolt",) + (("xen:scenario.kings-war",) if scenario == "kings-war" else ())

_GUARD_LETTER = {"phalanx": "P", "cavalry": "C", "light": "L"}
_STRENGTH = ("elephant", "phalanx", "cavalry", "barbarian_horde", "light", "militia", "fleet")
"""Order in which set-up units take the cities (the strongest first)."""


def _factor(data: XenData, type_: str) -> model.UnitFactor:
    return data.units[type_]


def _new_units(state: XenState) -> None:
    data = state.data
    for row in data.data.roster.satrapy:
        for t, letter in TYPE_LETTER.items():
            f = _factor(data, t)
            for i in range(1, getattr(row, t) + 1):
                state.add_unit(Unit(f"{slug(row.name)}-{letter}{i}", t, f.cs, f.ov, row.control, row.name))
    for side, mix in GUARD_MIX.items():
        for t, n in mix.items():
            f = _factor(data, t)
            for i in range(1, n + 1):
                if t == "siege_train":
                    uid = f"{side}-siege-{i}"
                elif t == "supply_train":
                    uid = f"{side}-supply-{i}"
                else:
                    uid = f"{side}-guard-{_GUARD_LETTER[t]}{i}"
                state.add_unit(Unit(uid, t, f.cs, f.ov, side, None, guard=not t.endswith("_train")))
    lf = _factor(data, "leader")
    for side, names in LEADER_MIX.items():
        for name in names:
            state.add_unit(Unit(name, "leader", lf.cs, lf.ov, side))


def setup_room(state: XenState, h: str) -> int:
    """How many more units a hex takes at set-up: its FV less the units there ("may not stack
    in excess of a hex's FV"; a desert hex feeds one unit of its own satrapy, xen:supply)."""
    fv = state.data.forage.get(h, 0)
    if h in state.data.desert and fv == 0:
        fv = 1
    return fv - len(state.units_at(h))


def _fleet_hexes(state: XenState, satrapy: str) -> list[str]:
    cities = state.cities_of(satrapy)
    return [h for h in cities if h in state.data.ports] + [h for h in cities if h in state.data.coastal
                                                          and h not in state.data.ports] \
        + [h for h in state.hexes_of(satrapy) if h in state.data.coastal and h not in cities]


def setup_hexes(state: XenState, satrapy: str, u: Unit, land_left: int) -> list[str]:
    """Where one set-up unit of ``satrapy`` may go (xen:scenario.cyrus-revolt): a hex of the
    satrapy with forage room; a fleet on its coast; while the land units still to place are
    no more than the empty cities, an empty city."""
    if u.fleet:
        return [h for h in _fleet_hexes(state, satrapy) if setup_room(state, h) > 0]
    empty = [h for h in state.cities_of(satrapy) if not state.units_at(h) and setup_room(state, h) > 0]
    if empty and land_left <= len(empty):
        return empty
    return [h for h in state.hexes_of(satrapy) if state.data.terrain.get(h) != "sea" and setup_room(state, h) > 0]


def place_satrapy(state: XenState, satrapy: str, units: list[Unit]) -> None:
    """The standard placement of a satrapy's set-up units (docs/games/xenophon.md, Rulings: core 1):
    the strongest land units one a city, then the rest by Forage Value, within each hex's FV."""
    land = sorted((u for u in units if not u.fleet), key=lambda u: (_STRENGTH.index(u.type), u.id))
    cities = sorted(state.cities_of(satrapy), key=lambda h: (-state.data.forage.get(h, 0), h))
    others = sorted((h for h in state.hexes_of(satrapy) if h not in cities and state.data.terrain.get(h) != "sea"),
                    key=lambda h: (-state.data.forage.get(h, 0), h))
    for i, u in enumerate(land):
        legal = set(setup_hexes(state, satrapy, u, len(land) - i))
        target = next((h for h in cities + others if h in legal), None)
        if target is None:
            raise ValueError(f"{satrapy}: no hex has forage left for {u.id} (xen:scenario.cyrus-revolt)")
        state.place(u.id, target)
    for u in (u for u in units if u.fleet):
        legal = setup_hexes(state, satrapy, u, 0)
        if not legal:
            raise ValueError(f"{satrapy}: no coastal hex with forage left for {u.id} (xen:scenario.cyrus-revolt)")
        state.place(u.id, legal[0])


def setup_lists(state: XenState) -> list[tuple[str, list[Unit]]]:
    """Each satrapy's set-up units from the counter mix, in set-up order: Rebel, then the
    neutrals (set up by the Rebel), then the Empire (xen:scenario.cyrus-revolt)."""
    order = {REBEL: 0, NEUTRAL: 1, EMPIRE: 2}
    out = []
    for row in sorted(state.data.data.scenarios.setup, key=lambda r: (order[r.control], r.satrapy)):
        chosen: list[Unit] = []
        for t in TYPE_LETTER:
            n = getattr(row, t)
            avail = state.mix(row.satrapy, t)
            if len(avail) < n:
                raise ValueError(f"{row.satrapy}: the set-up needs {n} {t}, the roster has {len(avail)} (xen:roster)")
            chosen.extend(avail[:n])
        out.append((row.satrapy, chosen))
    return out


def build(ctx: Context, data: XenData, scenario: str) -> XenState:
    """The game at the start of Turn 1, the Empire's set-up choices still to make (:func:`deploy`)."""
    scen = {s.id: s for s in data.data.scenarios.scenario}
    if scenario not in scen:
        raise KeyError(f"Xenophon has no scenario {scenario!r} (scenarios: {', '.join(scen)})")
    sc = scen[scenario]
    options = XenOptions.from_options(ctx.options)
    state = XenState(data, scenario=scenario, last_turn=sc.turns, options=options, player_turn=sc.first_player)
    _new_units(state)
    for row in data.data.roster.satrapy:
        state.control[row.name] = NEUTRAL
    for row in data.data.scenarios.setup:
        state.set_control(row.satrapy, row.control)
    sides = {s.name: s for s in data.data.scenarios.side}
    for name, side in sides.items():
        state.treasury[name] = SecretNumber(name, side.treasury, name="treasury", rule="xen:treasury",
                                            open=options.open_treasury)
    # The rebel set-up: Cyrus, Ariaos and the guard in Sardis.
    reb = sides[REBEL]
    sardis = data.map.to_id(data.map.place(reb.guard_city))
    for name in (reb.supreme_leader, *reb.leaders):
        state.place(name, sardis)
    for t in ("phalanx", "cavalry", "light"):
        for u in state.mix(None, t, REBEL)[: getattr(reb.guard, t)]:
            state.place(u.id, sardis)
    # Satrapy units of the set-up lists: the standard placement, or the players' (deploy).
    if ctx.options.get("placement", "standard") == "standard":
        for satrapy, units in setup_lists(state):
            place_satrapy(state, satrapy, units)
    # The chit pool and the opening draws (xen:stratagem).
    names = [c.name for c in data.chits.values() for _ in range(c.count)]
    state.pool = ChitCup(names, "chit pool")
    for side in SIDES:
        with ctx.secret(side):
            for _ in range(sides[side].chits):
                state.hands[side].add(state.pool.draw(ctx.chance, f"{side} draws a chit at the start",
                                                      ("xen:stratagem",) + scenario_rules(scenario)))
    ctx.event("setup", f"{sc.title}: {sc.turns} turns; control 15 Empire, 8 Rebel, 11 neutral; "
              f"treasuries and chits dealt",
              scenario_rules(scenario) + SETUP_RULES[1:] + ("xen:treasury", "xen:stratagem"))
    return state


def _cities(state: XenState, satrapies: list[str]) -> list[str]:
    return [h for s in satrapies for h in sorted(state.data.city_kind) if state.satrapy_of(h) == s]


def choose_placement(ctx: Context, state: XenState) -> Generator[Decision, str, None]:
    """The players place the set-up lists unit by unit (the ``placement=choose`` option): the
    Rebel his satrapies' and the neutrals', then the Empire his (xen:scenario.cyrus-revolt)."""
    for satrapy, units in setup_lists(state):
        who = EMPIRE if state.control[satrapy] == EMPIRE else REBEL
        land = [u for u in units if not u.fleet]
        for i, u in enumerate(sorted(land, key=lambda u: (_STRENGTH.index(u.type), u.id)) + [u for u in units
                                                                                          if u.fleet]):
            left = max(0, len(land) - i)
            legal = setup_hexes(state, satrapy, u, left if not u.fleet else 0)
            if not legal:
                raise ValueError(f"{satrapy}: no hex has forage left for {u.id} (xen:scenario.cyrus-revolt)")
            names = state.data.city_name
            h = yield Decision(who, f"Set up {satrapy}: where does {u.id} ({type_name(u.type)}) go?",
                               tuple(Option(x, f"{names.get(x, state.data.terrain.get(x, ''))} "
                                               f"(FV {state.data.forage.get(x, 0)}, {len(state.units_at(x))} there)")
                                     for x in legal), rule="xen:scenario.cyrus-revolt", kind=Kind.SETUP_PLACE,
                               context={"highlight": tuple(legal)})
            state.place(u.id, h)
        ctx.event("setup", f"{who} sets up {satrapy}", scenario_rules(state.scenario), side=who, satrapy=satrapy)


def _fv_room(state: XenState, h: str) -> bool:
    """A set-up unit may go to ``h`` without stacking beyond its FV (the unit key)."""
    return len(state.units_at(h)) < state.forage(h)


def _guard_hexes(state: XenState, satrapy: str) -> list[str]:
    """Where an Empire guard unit may set up in ``satrapy``: its land hexes with FV room,
    its cities first (xen:guards, xen:scenario.cyrus-revolt)."""
    land = [h for h in state.hexes_of(satrapy) if state.data.terrain.get(h) != "sea" and _fv_room(state, h)
            and state.occupier(h) in (None, EMPIRE)]
    return sorted(land, key=lambda h: (not state.is_city(h), h))


def deploy(ctx: Context, state: XenState) -> Generator[Decision, str, None]:
    """The Empire's set-up choices (xen:scenario.cyrus-revolt): Artaxerxes, two leaders, 3 guard cavalry."""
    data = state.data
    if ctx.options.get("placement", "standard") == "choose":
        yield from choose_placement(ctx, state)
    emp = {s.name: s for s in data.data.scenarios.side}[EMPIRE]
    names = data.city_name
    capitals = ["Persepolis", "Susa", "Ekbatana"]
    opts = tuple(Option(c.lower(), f"{c} ({state.satrapy_of(data.map.to_id(data.map.place(c)))})") for c in capitals)
    key = yield Decision(EMPIRE, f"Set up {emp.supreme_leader}: in which capital?", opts,
                         rule="xen:scenario.cyrus-revolt", kind=Kind.SETUP_SUPREME)
    city = data.map.to_id(data.map.place(next(c for c in capitals if c.lower() == key)))
    state.place(emp.supreme_leader, city)
    # "Tissaphernes, Abrokomas: in any other Empire-controlled cities, but in different
    # Satrapies": the three leaders each in a satrapy of his own, so neither in Artaxerxes'
    # satrapy (Rulings: second reading 5, replacing core 24's first half);
    # "may not stack in excess of a hex's FV": only where the forage has room.
    used: set[str | None] = {state.satrapy_of(city)}
    for leader in emp.leaders:
        cand = [h for h in _cities(state, state.controlled(EMPIRE)) if state.satrapy_of(h) not in used
                and h != city and _fv_room(state, h)]
        opts = tuple(Option(h, f"{names.get(h, h)} ({state.satrapy_of(h)})") for h in cand)
        h = yield Decision(EMPIRE, f"Set up {leader}: in another Empire city, not in a satrapy another leader "
                           "took", opts, rule="xen:scenario.cyrus-revolt", kind=Kind.SETUP_LEADER)
        state.place(leader, h)
        used.add(state.satrapy_of(h))
    guard = state.mix(None, "cavalry", EMPIRE)[: emp.guard.cavalry]
    chosen: set[str] = set()
    for u in guard:
        cand = [s for s in state.controlled(EMPIRE) if s not in chosen and _guard_hexes(state, s)]
        opts = tuple(Option(slug(s), s) for s in cand)
        key = yield Decision(EMPIRE, f"Set up guard {u.id}: in which friendly satrapy (one guard a satrapy)?", opts,
                             rule="xen:guards", kind=Kind.SETUP_GUARD)
        sat = next(s for s in cand if slug(s) == key)
        chosen.add(sat)
        hexes = _guard_hexes(state, sat)
        h = yield Decision(EMPIRE, f"Set up guard {u.id}: in which hex of {sat}?",
                           tuple(Option(x, f"{names.get(x, state.data.terrain.get(x, ''))} "
                                           f"(FV {state.forage(x)}, {len(state.units_at(x))} there)") for x in hexes),
                           rule="xen:guards", kind=Kind.SETUP_GUARD_HEX, context={"highlight": tuple(hexes)})
        state.place(u.id, h)
    ctx.event("setup", "The Empire has set up its leaders and guard", scenario_rules(state.scenario) + ("xen:guards",),
              side=EMPIRE)
