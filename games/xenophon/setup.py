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
  Empire-controlled cities of different satrapies; the 3 guard cavalry in
  friendly satrapies, one a satrapy (placed in its first city).

Leaders not set up stay in the mix: they are those that Leader Arises and
the Random Events draw from (ruling 1).
"""

from __future__ import annotations

from collections.abc import Generator
from ancients_kit.chance import ChitCup
from ancients_kit.session import Context, Decision, Option
from ancients_kit.secret import SecretNumber

from . import model
from .state import (EMPIRE, GUARD_MIX, LEADER_MIX, NEUTRAL, REBEL, SIDES, TYPE_LETTER, Unit, XenData,
                    XenOptions, XenState, slug)

__all__ = ["SETUP_RULES", "build", "deploy", "place_satrapy"]

SETUP_RULES = ("xen:scenario.cyrus-revolt", "xen:control", "xen:roster")

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


def place_satrapy(state: XenState, satrapy: str, units: list[Unit]) -> None:
    """Place a satrapy's set-up units: >=1 a city, within each hex's FV (xen:scenario.cyrus-revolt)."""
    fleets = [u for u in units if u.fleet]
    land = sorted((u for u in units if not u.fleet), key=lambda u: (_STRENGTH.index(u.type), u.id))
    cities = sorted(state.cities_of(satrapy), key=lambda h: (-state.data.forage.get(h, 0), h))
    count: dict[str, int] = {}

    def room(h: str) -> int:
        fv = state.data.forage.get(h, 0)
        if h in state.data.desert and fv == 0:
            fv = 1  # xen:supply: a desert hex always supplies one unit of its own satrapy
        return fv - count.get(h, 0)

    def put(u: Unit, h: str) -> None:
        state.place(u.id, h)
        count[h] = count.get(h, 0) + 1

    queue = list(land)
    for h in cities:
        if queue and room(h) > 0:
            put(queue.pop(0), h)
    others = sorted((h for h in state.hexes_of(satrapy) if h not in cities and state.data.terrain.get(h) != "sea"),
                    key=lambda h: (-state.data.forage.get(h, 0), h))
    for u in queue:
        target = next((h for h in cities + others if room(h) > 0), None)
        if target is None:
            raise ValueError(f"{satrapy}: no hex has forage left for {u.id} (xen:scenario.cyrus-revolt)")
        put(u, target)
    ports = [h for h in cities if h in state.data.ports] or [h for h in cities if h in state.data.coastal] \
        or [h for h in state.hexes_of(satrapy) if h in state.data.coastal]
    for u in fleets:
        if not ports:
            raise ValueError(f"{satrapy}: no port or coastal hex for {u.id} (xen:scenario.cyrus-revolt)")
        target = next((h for h in ports if room(h) > 0), ports[0])
        put(u, target)


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
    # Satrapy units of the set-up lists (Rebel, then neutrals set up by the Rebel, then the Empire).
    order = {REBEL: 0, NEUTRAL: 1, EMPIRE: 2}
    for row in sorted(data.data.scenarios.setup, key=lambda r: (order[r.control], r.satrapy)):
        chosen: list[Unit] = []
        for t in TYPE_LETTER:
            n = getattr(row, t)
            avail = state.mix(row.satrapy, t)
            if len(avail) < n:
                raise ValueError(f"{row.satrapy}: the set-up needs {n} {t}, the roster has {len(avail)} (xen:roster)")
            chosen.extend(avail[:n])
        place_satrapy(state, row.satrapy, chosen)
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
    # The chit pool and the opening draws (xen:stratagem).
    names = [c.name for c in data.chits.values() for _ in range(c.count)]
    state.pool = ChitCup(names, "chit pool")
    for side in SIDES:
        with ctx.secret(side):
            for _ in range(sides[side].chits):
                state.hands[side].add(state.pool.draw(ctx.chance, f"{side} draws a chit at the start",
                                                      ("xen:stratagem", "xen:scenario.cyrus-revolt")))
    ctx.event("setup", f"{sc.title}: {sc.turns} turns; control 15 Empire, 8 Rebel, 11 neutral; "
              f"treasuries and chits dealt", SETUP_RULES + ("xen:treasury", "xen:stratagem"))
    return state


def _cities(state: XenState, satrapies: list[str]) -> list[str]:
    return [h for s in satrapies for h in sorted(state.data.city_kind) if state.satrapy_of(h) == s]


def deploy(ctx: Context, state: XenState) -> Generator[Decision, str, None]:
    """The Empire's set-up choices (xen:scenario.cyrus-revolt): Artaxerxes, two leaders, 3 guard cavalry."""
    data = state.data
    emp = {s.name: s for s in data.data.scenarios.side}[EMPIRE]
    names = data.city_name
    capitals = ["Persepolis", "Susa", "Ekbatana"]
    opts = tuple(Option(c.lower(), f"{c} ({state.satrapy_of(data.map.to_id(data.map.place(c)))})") for c in capitals)
    key = yield Decision(EMPIRE, f"Set up {emp.supreme_leader}: in which capital?", opts,
                         rule="xen:scenario.cyrus-revolt", kind="setup.supreme")
    city = data.map.to_id(data.map.place(next(c for c in capitals if c.lower() == key)))
    state.place(emp.supreme_leader, city)
    used = {state.satrapy_of(city)}
    for leader in emp.leaders:
        cand = [h for h in _cities(state, state.controlled(EMPIRE)) if state.satrapy_of(h) not in used]
        opts = tuple(Option(h, f"{names.get(h, h)} ({state.satrapy_of(h)})") for h in cand)
        h = yield Decision(EMPIRE, f"Set up {leader}: in an Empire city of another satrapy", opts,
                           rule="xen:scenario.cyrus-revolt", kind="setup.leader")
        state.place(leader, h)
        used.add(state.satrapy_of(h))
    guard = state.mix(None, "cavalry", EMPIRE)[: emp.guard.cavalry]
    chosen: set[str] = set()
    for u in guard:
        cand = [s for s in state.controlled(EMPIRE) if s not in chosen and state.cities_of(s)]
        opts = tuple(Option(slug(s), s) for s in cand)
        key = yield Decision(EMPIRE, f"Set up guard {u.id}: in which friendly satrapy (one a satrapy)?", opts,
                             rule="xen:guards", kind="setup.guard")
        sat = next(s for s in cand if slug(s) == key)
        chosen.add(sat)
        state.place(u.id, state.cities_of(sat)[0])
    ctx.event("setup", "The Empire has set up its leaders and guard", ("xen:scenario.cyrus-revolt", "xen:guards"),
              side=EMPIRE)
