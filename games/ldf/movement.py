"""Lest Darkness Fall movement: forces, movement factors, land, sea and river moves.

Rules served (each cited where it is applied):

- ``ldf:2.4`` static units never move; ``ldf:2.6`` movement factors: 4, cavalry 8;
  leaders have none of their own;
- ``ldf:8.2`` a move action moves one force from one hex; units may be left
  behind or dropped off along the way; only a loyal force with the emperor or a
  non-Gallic rebel force (which always has the co-emperor) may pick units up,
  and those move on with the MP left and stay with the leader;
- ``ldf:8.3`` rebel mobile units move only with the rebel co-emperor; the
  conversion rolls when his force moves next to loyal units (see
  :func:`conversion_targets`), after which the force may go on, even out of an
  EZOC; the leaders never share or pass through one another's hexes;
- ``ldf:8.4`` a leader moves only with mobile units and adds 1 to the force's
  movement factor (4 -> 5, all-cavalry 8 -> 9); a leaderless force cannot pick
  a leader up;
- ``ldf:8.5`` a mixed force with a leader: infantry stop after 5 MP, the leader
  and cavalry may go on to 9; without a leader the whole force stops at 4;
- ``ldf:9.2``-``ldf:9.5``, ``ldf:7.3``: hexes Palmyra, the Gallic Empire and a
  collapsed Parthia close to some units;
- ``ldf:11.3``, ``ldf:11.4`` enter EZOC at no cost, stop there, never leave one
  by a land move (:data:`ancients_kit.movement.ZOC_LOCKING`);
- ``ldf:12.1``-``ldf:12.4`` one MP a hex whatever the terrain, hex to adjacent
  hex, never into enemy-occupied hexes;
- ``ldf:1.5``, ``ldf:12.5`` only Roman units enter narrows hexes, at no extra cost;
- ``ldf:12.6`` sea movement, coastal population centre to friendly-controlled
  coastal population centre, never Petra, the whole action;
- ``ldf:12.7`` river movement, Rhine/Danube bank hex to bank hex, either bank,
  not for Gallic units, lost once Dacia or Germania Decumates is looted.

The searches are the core's (:func:`ancients_kit.movement.reachable` on the
map's land links); this module supplies the costs, vetoes and stops. A move
is staged hex by hex (:class:`MovingForce`) so that it can pause for pick-ups,
drop-offs and conversion rolls; :func:`land_reach` answers "where can this
force still end its move" for option lists and bots.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import attrs

from ancients_kit.hexgrid import Hex
from ancients_kit.hexmap import HexMap
from ancients_kit.movement import ZOC_LOCKING, ZOC_STOP, Reach, reachable

from ancients_games.ldf import stacking
from ancients_games.ldf.zoc import ROMAN_CAMPS, Position, Unit, ezoc, hostile, land_links

__all__ = [
    "LEADER_BONUS",
    "MovingForce",
    "PETRA",
    "conversion_targets",
    "force_problem",
    "land_reach",
    "movement_caps",
    "ports",
    "riverbank_hexes",
    "river_destinations",
    "sea_destinations",
    "step_problem",
    "stop_problem",
]

LEADER_BONUS = 1
"""A leader adds one to the force's movement factor (``ldf:8.4``)."""
PETRA = "4623"
"""No sea movement ever starts or ends at Petra (``ldf:12.6``)."""
LEADERS = ("emperor", "co-emperor")
INFANTRY_MF = 4


def _is_leader(u: Unit) -> bool:
    return u.piece in LEADERS


def movement_caps(pos: Position, units: Sequence[Unit], *, bonus: int = 0) -> dict[str, int]:
    """The MP each mobile unit of a force starting a move may spend (``ldf:2.6``, ``ldf:8.4``, ``ldf:8.5``).

    ``bonus``: extra hexes granted to the whole force (chit Inspired Subordinates).
    Leaders are not in the result: they move only with mobile units.
    """
    mobile = [u for u in units if pos.kind(u) == "mobile"]
    leader = any(_is_leader(u) for u in units)
    mfs = {pos.piece(u).movement for u in mobile}
    mixed = len(mfs) > 1
    out: dict[str, int] = {}
    for u in mobile:
        base = pos.piece(u).movement
        if mixed and not leader:
            base = min(mfs)  # ldf:8.5: leaderless, the cavalry stops when the infantry do, at 4
        out[u.id] = base + (LEADER_BONUS if leader else 0) + bonus  # ldf:8.4: +1 with a leader
    return out


def force_problem(pos: Position, units: Sequence[Unit], side: str) -> tuple[str, str] | None:
    """Why ``units`` may not set off together as one force of ``side``, or ``None``."""
    if not units:
        return ("a force needs at least one unit", "ldf:8.2")
    hexes = {u.hex for u in units}
    if len(hexes) > 1:
        return ("a force is units of one hex", "ldf:8.2")
    for u in units:
        if pos.side(u) != side:
            return (f"{u.id} is not a {side} unit", "ldf:1.2")
        kind = pos.kind(u)
        if kind == "static":
            return (f"{u.id} is a static unit: it never moves", "ldf:2.4")
        if u.camp == "palmyran" and pos.palmyra == "inactive":
            return (f"{u.id}: an inactive Palmyra's units may not move", "ldf:9.2")
    mobile = [u for u in units if pos.kind(u) == "mobile"]
    if not mobile:
        return ("a leader moves only with one or more friendly mobile units", "ldf:8.4")
    if any(u.camp == "rebel" for u in mobile) and not any(u.piece == "co-emperor" and u.camp == "rebel" for u in units):
        return ("rebel Roman mobile units move only with the rebel co-emperor", "ldf:8.3")
    h = next(iter(hexes))
    ids = {u.id for u in units}
    rest = [u for u in pos.at(h) if u.id not in ids]
    if rest and all(_is_leader(u) for u in rest):
        return (f"{rest[0].id} would be left alone: a leader is never without friendly units", "ldf:8.4")
    return None


def _force_camps(units: Iterable[Unit]) -> frozenset[str]:
    return frozenset(u.camp for u in units)


def step_problem(m: HexMap, pos: Position, units: Sequence[Unit], a: Hex, b: Hex) -> tuple[str, str] | None:
    """Why the force ``units`` may not step from ``a`` into ``b``, or ``None`` (ZOC and MP aside)."""
    if b not in land_links(m).get(a, ()):
        if b in m and m.terrain(b) == "sea":
            return (f"{m.to_id(b)} is an all-sea hex", "ldf:12.2")
        if b in m and a in m and b in m.neighbors(a):
            return (f"{m.to_id(a)}-{m.to_id(b)} is an all-sea hexside", "ldf:12.2")
        return (f"{m.to_id(b) if b in m else b} is not adjacent to {m.to_id(a)}: no skipping hexes", "ldf:12.2")
    camps = _force_camps(units)
    if m.value(b, "narrows") and not camps <= ROMAN_CAMPS:
        return (f"{m.to_id(b)} is a narrows hex: only Roman units may move into it", "ldf:12.5")
    for v in pos.at(b):
        if any(hostile(v.camp, c, pos.palmyra) for c in camps):
            rule = "ldf:10.5" if {v.camp} | camps <= ROMAN_CAMPS else "ldf:12.3"
            return (f"{m.to_id(b)} holds enemy units ({v.id})", rule)
    if any(_is_leader(u) for u in units) and any(_is_leader(v) for v in pos.at(b)):
        return (f"{m.to_id(b)} holds the other leader: the two never share or pass through a hex", "ldf:8.3")
    if b in m.region("palmyra"):
        if pos.palmyra == "inactive" and camps & ROMAN_CAMPS:
            return ("Roman units may not move into or through an inactive Palmyra", "ldf:9.2")
    if pos.gallic_active:
        gallic = m.region("gallic-empire")
        if "gallic" in camps and b not in gallic:
            return ("Gallic Empire forces move only into Gallic Empire hexes", "ldf:9.5")
        if b in gallic and camps & {"german", "rebel"}:
            return ("Germanic and non-Gallic rebel units may not move into the Gallic Empire", "ldf:9.5")
    if pos.parthia_collapsed and b in m.region("parthia"):
        return ("while Parthia is collapsed no unit may move into it", "ldf:7.3")
    return None


def stop_problem(m: HexMap, pos: Position, units: Sequence[Unit], h: Hex) -> tuple[str, str] | None:
    """Why ``units`` may not end a move (or be dropped off) in ``h``, or ``None`` (``ldf:10.1``)."""
    ids = {u.id for u in units}
    there = [u for u in pos.at(h) if u.id not in ids] + [attrs.evolve(u, hex=h) for u in units]
    found = stacking.problems(pos, there)
    if found:
        return found[0]
    camps = _force_camps(units)
    if h in m.region("palmyra"):
        if pos.palmyra == "roman" and "loyal" in camps:
            return ("loyal Roman units may pass through an allied Palmyra but not end a move there", "ldf:9.3")
        if pos.palmyra == "germano-parthian" and "parthian" in camps:
            return ("Parthian units may pass through an allied Palmyra but not end a move there", "ldf:9.4")
    return None


def land_reach(
    m: HexMap,
    pos: Position,
    units: Sequence[Unit],
    at: Hex,
    mp: int,
    *,
    locked: bool = True,
    ignore_zoc_of: Iterable[str] = (),
) -> Reach:
    """Where the force ``units``, now in ``at`` with ``mp`` MP left, may end its move.

    One MP a hex (``ldf:12.4``), the vetoes of :func:`step_problem`, the stops of
    :func:`stop_problem`; it stops on entering an EZOC (``ldf:11.3``) and, if
    ``locked``, cannot leave one it is in (``ldf:11.4``); ``locked=False`` after
    the 8.3 conversions freed it (``ldf:8.3``) or for the chit that moves an
    enemy force out of an EZOC.
    """
    camps = _force_camps(units)
    ez: frozenset[Hex] = frozenset()
    for c in camps:
        ez |= ezoc(m, pos, c, ignore=ignore_zoc_of)

    def can_enter(a: Hex, b: Hex) -> bool:
        return step_problem(m, pos, units, a, b) is None

    def can_stop(h: Hex) -> bool:
        return stop_problem(m, pos, units, h) is None

    return reachable(
        at, mp, {h: 1 for h in land_links(m)}, ezoc=ez, zoc=ZOC_LOCKING if locked else ZOC_STOP,
        can_enter=can_enter, can_stop=can_stop, neighbors=land_links(m),
    )


# ---------------------------------------------------------------- sea and river movement

def ports(m: HexMap) -> frozenset[Hex]:
    """Coastal population centres, Petra excepted (``ldf:12.6``)."""
    petra = m.from_id(PETRA)
    return frozenset(h for h in m.hexes_where("coastal") if h != petra)


def riverbank_hexes(m: HexMap) -> frozenset[Hex]:
    """The hexes on either bank of the Rhine or the Danube (``ldf:12.7``)."""
    out: set[Hex] = set()
    for f in ("rhine", "danube"):
        for side in m.hexsides_with(f):
            out.update(side)
    return frozenset(out)


def _roman_realm(m: HexMap) -> frozenset[Hex]:
    return m.region("core") | m.region("caucasus") | m.region("trans-river")


def _transport_problem(m: HexMap, pos: Position, units: Sequence[Unit], rule: str) -> tuple[str, str] | None:
    camps = _force_camps(units)
    if not camps <= ROMAN_CAMPS:
        return ("only Roman mobile units and leaders may use it", rule)
    return None


def _friendly_port(m: HexMap, pos: Position, units: Sequence[Unit], h: Hex) -> bool:
    """Is ``h`` friendly controlled for the force (``ldf:12.6``; ruling in ``docs/games/ldf.md``)?"""
    camps = _force_camps(units)
    there = [u for u in pos.at(h) if u.id not in {x.id for x in units}]
    if any(hostile(v.camp, c, pos.palmyra) for v in there for c in camps):
        return False
    if there:
        return True
    if "gallic" in camps:
        return h in m.region("gallic-empire")
    if "loyal" in camps:
        if pos.gallic_active and h in m.region("gallic-empire"):
            return False
        return h in _roman_realm(m)
    return False  # a non-Gallic rebel force controls only hexes its own units hold


def sea_destinations(m: HexMap, pos: Position, units: Sequence[Unit]) -> tuple[list[Hex], tuple[str, str] | None]:
    """The ports the force may reach by sea movement (``ldf:12.6``), or why none.

    It must begin the action in a coastal population centre (not Petra) and goes
    straight to another friendly-controlled one; EZOC at either end does not
    matter; stacking and the Gallic and Palmyran closures do.
    """
    bad = _transport_problem(m, pos, units, "ldf:12.6")
    if bad:
        return [], bad
    at = units[0].hex
    harbours = ports(m)
    if at not in harbours:
        why = "Petra: no sea movement starts there" if m.to_id(at) == PETRA else "not a coastal population centre"
        return [], (f"{m.to_id(at)} is {why}", "ldf:12.6")
    out = []
    for h in sorted(harbours, key=m.to_id):
        if h == at or not _friendly_port(m, pos, units, h):
            continue
        if _closed(m, pos, units, h) or stop_problem(m, pos, units, h):
            continue
        out.append(h)
    return out, None if out else (f"no friendly-controlled port can receive the force from {m.to_id(at)}", "ldf:12.6")


def _closed(m: HexMap, pos: Position, units: Sequence[Unit], h: Hex) -> tuple[str, str] | None:
    """The hex closures of :func:`step_problem` that also bind a sea or river move (not adjacency)."""
    camps = _force_camps(units)
    for v in pos.at(h):
        if any(hostile(v.camp, c, pos.palmyra) for c in camps):
            return (f"{m.to_id(h)} holds enemy units", "ldf:12.3")
    if any(_is_leader(u) for u in units) and any(_is_leader(v) for v in pos.at(h)):
        return (f"{m.to_id(h)} holds the other leader", "ldf:8.3")
    if h in m.region("palmyra") and pos.palmyra == "inactive":
        return ("Roman units may not move into an inactive Palmyra", "ldf:9.2")
    if pos.gallic_active:
        gallic = m.region("gallic-empire")
        if "gallic" in camps and h not in gallic:
            return ("Gallic Empire forces move only into Gallic Empire hexes", "ldf:9.5")
        if h in gallic and "rebel" in camps:
            return ("non-Gallic rebel units may not move into the Gallic Empire", "ldf:9.5")
    if pos.parthia_collapsed and h in m.region("parthia"):
        return ("while Parthia is collapsed no unit may move into it", "ldf:7.3")
    return None


def river_destinations(m: HexMap, pos: Position, units: Sequence[Unit]) -> tuple[list[Hex], tuple[str, str] | None]:
    """The bank hexes the force may reach by river movement (``ldf:12.7``), or why none."""
    bad = _transport_problem(m, pos, units, "ldf:12.7")
    if bad:
        return [], bad
    if any(u.camp == "gallic" for u in units):
        return [], ("Gallic Empire units may never use riverine movement", "ldf:12.7")
    if pos.river_movement_lost:
        return [], ("riverine movement was lost when Dacia or Germania Decumates was looted", "ldf:12.7")
    at = units[0].hex
    banks = riverbank_hexes(m)
    if at not in banks:
        return [], (f"{m.to_id(at)} is not on the Rhine or the Danube", "ldf:12.7")
    out = [h for h in sorted(banks, key=m.to_id)
           if h != at and not _closed(m, pos, units, h) and not stop_problem(m, pos, units, h)]
    return out, None if out else (f"no bank hex can receive the force from {m.to_id(at)}", "ldf:12.7")


# ---------------------------------------------------------------- conversions (8.3)

def conversion_targets(m: HexMap, pos: Position, at: Hex, done: Iterable[Hex] = ()) -> tuple[list[Hex], bool]:
    """The hexes next to ``at`` a rebel co-emperor's force rolls for (``ldf:8.3``), and whether
    the emperor is next to it (then there is no roll for his hex, only stasis).

    A hex is rolled for once per move (``done``: the hexes already rolled for);
    it must hold loyal Roman units and not the emperor. Adjacency is the ZOC's:
    not across an all-sea hexside (ruling in ``docs/games/ldf.md``).
    """
    skip = set(done)
    out: list[Hex] = []
    emperor = False
    for n in land_links(m).get(at, ()):
        loyal = [u for u in pos.at(n) if u.camp == "loyal"]
        if not loyal:
            continue
        if any(u.piece == "emperor" for u in loyal):
            emperor = True
            continue
        if n not in skip:
            out.append(n)
    out.sort(key=m.to_id)
    return out, emperor


# ---------------------------------------------------------------- a force on the move

@attrs.define
class MovingForce:
    """A force in the middle of a land move, staged hex by hex (``ldf:8.2``).

    ``left`` holds the MP each mobile unit may still spend; the force may step
    while every moving mobile unit has one. Units exhausted before the others
    (8.5's infantry at 5) are left in the hex where they ran out.
    """

    units: list[str]
    at: Hex
    left: dict[str, int]
    picked: set[str] = attrs.field(factory=set)
    """Units picked up on the way: they stay with the leader to the end (``ldf:8.2``)."""
    path: list[Hex] = attrs.field(factory=list)
    leader_bonus: bool = False
    """The force started with a leader: its units carry his +1 (``ldf:8.4``)."""
    released: bool = False
    """Conversions freed it from the EZOC it was in (``ldf:8.3``)."""
    rolled: set[Hex] = attrs.field(factory=set)
    """Hexes already rolled for during this move (``ldf:8.3``)."""
    no_drop_offs: bool = False

    @classmethod
    def start(cls, pos: Position, units: Sequence[Unit], *, bonus: int = 0, no_drop_offs: bool = False) -> MovingForce:
        caps = movement_caps(pos, units, bonus=bonus)
        return cls(
            units=[u.id for u in units], at=units[0].hex, left=caps, path=[units[0].hex],
            leader_bonus=any(_is_leader(u) for u in units), no_drop_offs=no_drop_offs,
        )

    def remaining(self) -> int:
        """MP the units that can still move may spend together (0: the move is over).

        Units already exhausted (``ldf:8.5``: infantry after 5 MP while the leader
        and the cavalry go on to 9) do not hold the others back: they stay in the
        hex where they ran out when the force steps on.
        """
        going = [n for n in self.left.values() if n > 0]
        return min(going) if going else 0

    def exhausted(self) -> list[str]:
        """Mobile units with no MP left (``ldf:8.5``)."""
        return [u for u, n in self.left.items() if n <= 0]

    def movers(self, pos: Position) -> list[Unit]:
        return [attrs.evolve(pos.unit(u), hex=self.at) for u in self.units]

    def leader(self, pos: Position) -> Unit | None:
        for u in self.units:
            if pos.unit(u).piece in LEADERS:
                return pos.unit(u)
        return None

    def may_pick_up(self, pos: Position) -> bool:
        """``ldf:8.2``: a loyal force with the emperor, or a non-Gallic rebel force (with the co-emperor)."""
        lead = self.leader(pos)
        if lead is None:
            return False
        return (lead.piece == "emperor" and lead.camp == "loyal") or (lead.piece == "co-emperor" and lead.camp == "rebel")

    def pick_up_candidates(self, pos: Position) -> list[Unit]:
        """Friendly mobile units in the force's hex it may add (``ldf:8.2``, ``ldf:8.4``)."""
        if not self.may_pick_up(pos) or self.remaining() <= 0:
            return []
        lead = self.leader(pos)
        assert lead is not None
        out = []
        for u in pos.at(self.at):
            if u.id in self.units or pos.kind(u) != "mobile" or u.camp != lead.camp:
                continue
            out.append(u)
        return out

    def pick_up(self, pos: Position, u: Unit) -> None:
        """Add ``u``: it moves on with the MP the force has left (``ldf:8.2``)."""
        own = movement_caps(pos, [u, self.leader(pos)])[u.id]  # type: ignore[list-item]
        self.units.append(u.id)
        self.left[u.id] = min(own, self.remaining())
        self.picked.add(u.id)

    def drop_off_candidates(self, pos: Position) -> list[str]:
        """Units that may be left in the current hex (``ldf:8.2``): not picked-up units, not the
        rebel co-emperor (his units move only with him, ``ldf:8.3``); at least one mobile unit stays."""
        if self.no_drop_offs:
            return []
        out = []
        mobile = [u for u in self.units if u in self.left]
        for uid in self.units:
            u = pos.unit(uid)
            if uid in self.picked:
                continue
            if u.piece == "co-emperor" and u.camp == "rebel":
                continue
            if uid in self.left and len(mobile) == 1:
                continue
            out.append(uid)
        return out

    def drop_off(self, pos: Position, uid: str) -> None:
        """Leave ``uid`` here; dropping the leader takes his +1 from the rest (``ldf:8.4``)."""
        self.units.remove(uid)
        self.left.pop(uid, None)
        if pos.unit(uid).piece in LEADERS and self.leader_bonus:
            self.leader_bonus = False
            for k in self.left:
                self.left[k] = max(0, self.left[k] - LEADER_BONUS)

    def step(self, b: Hex) -> list[str]:
        """Enter ``b``: one MP for every moving unit (``ldf:12.4``). Returns the exhausted
        units left behind in the hex the force leaves (``ldf:8.5``)."""
        tired = self.exhausted()
        for uid in tired:
            self.units.remove(uid)
            del self.left[uid]
        for k in self.left:
            self.left[k] -= 1
        self.at = b
        self.path.append(b)
        return tired
