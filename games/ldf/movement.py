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

from collections.abc import Callable, Generator, Iterable, Sequence
from typing import Any

import attrs

from ancients_kit.hexgrid import Hex
from ancients_kit.hexmap import HexMap
from ancients_kit.protocol import Context, Decision, Option

from ancients_games.ldf import chits, politics
from ancients_games.ldf.economy import on_enter
from ancients_games.ldf.land_movement import (
    LEADER_BONUS,
    LEADERS,
    force_camps,
    force_problem,
    is_leader,
    land_reach,
    movement_caps,
    step_problem,
    stop_problem,
)
from ancients_games.ldf.sea_movement import river_destinations, sea_destinations
from ancients_games.ldf.state import GP, ROME, LDFState
from ancients_games.ldf.unstacking import emergency_unstack
from ancients_games.ldf.vocab import Kind
from ancients_games.ldf.warnings import leader_left_alone
from ancients_games.ldf.zoc import Position, Unit, ezoc, hex_ids, land_links, position

__all__ = [
    "MovingForce",
    "can_move",
    "conversion_rolls",
    "conversion_targets",
    "force_can_move",
    "movable_hexes",
    "movable_units",
    "move_action",
    "move_force",
    "move_from",
    "move_options",
    "score",
    "start_refusal",
]


# ---------------------------------------------------------------- sea and river movement


# ---------------------------------------------------------------- conversions (8.3)

def _convertible(m: HexMap, pos: Position, h: Hex) -> bool:
    """Whether the loyal units of ``h`` could turn rebel where they stand (``politics.convertible``:
    ldf:8.3 with 10.1 and 9.5; ldf-politics' ruling of issue 23)."""
    return politics.convertible(m, pos, h)


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
        if not _convertible(m, pos, n):  # a client garrison there, an active Gallic Empire (issue 23)
            continue
        if n not in skip:
            out.append(n)
    out.sort(key=hex_ids(m).__getitem__)
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
    moved: set[str] = attrs.field(factory=set)
    """Every unit that has been part of the force in this action (none may join twice)."""

    @classmethod
    def start(cls, pos: Position, units: Sequence[Unit], *, bonus: int = 0, no_drop_offs: bool = False) -> MovingForce:
        caps = movement_caps(pos, units, bonus=bonus)
        return cls(
            units=[u.id for u in units], at=units[0].hex, left=caps, path=[units[0].hex],
            leader_bonus=any(is_leader(u) for u in units), no_drop_offs=no_drop_offs,
            moved={u.id for u in units},
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
        return [pos.unit(u).moved_to(self.at) for u in self.units]

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
            if u.id in self.moved or pos.kind(u) != "mobile" or u.camp != lead.camp:
                continue
            out.append(u)
        return out

    def pick_up(self, pos: Position, u: Unit) -> None:
        """Add ``u``: it moves on with the MP the force has left (``ldf:8.2``)."""
        own = movement_caps(pos, [u, self.leader(pos)])[u.id]  # type: ignore[list-item]
        self.units.append(u.id)
        self.moved.add(u.id)
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


# ---------------------------------------------------------------- the move action on a game in progress


def _ezoc_for(m: HexMap, pos: Position, camps: Iterable[str], cache: dict[str, frozenset[Hex]] | None = None,
              ) -> frozenset[Hex]:
    out: frozenset[Hex] = frozenset()
    for c in camps:
        if cache is not None and c in cache:
            z = cache[c]
        else:
            z = ezoc(m, pos, c)
            if cache is not None:
                cache[c] = z
        out |= z
    return out


def movable_units(pos: Position, side: str, h: Hex) -> list[Unit]:
    """The units of ``side`` in ``h`` that may be part of a moving force (``ldf:2.4``, ``ldf:8.3``,
    ``ldf:8.4``, ``ldf:9.2``); empty when none may move."""
    here = pos.at(h)
    rebel_leader = any(u.piece == "co-emperor" and u.camp == "rebel" for u in here)
    out = []
    for u in here:
        if pos.side(u) != side or pos.kind(u) == "static":
            continue
        if u.camp == "palmyran" and pos.palmyra == "inactive":
            continue  # ldf:9.2
        if pos.kind(u) == "mobile" and u.camp == "rebel" and not rebel_leader:
            continue  # ldf:8.3
        out.append(u)
    if not any(pos.kind(u) == "mobile" for u in out):
        return []
    return out


def _stasis(m: HexMap, pos: Position, units: Sequence[Unit], at: Hex) -> bool:
    """A rebel force next to the emperor's hex may not move on (``ldf:8.3``: "mutual stasis")."""
    if not any(u.camp == "rebel" for u in units):
        return False
    return conversion_targets(m, pos, at)[1]


def _has_land_step(m: HexMap, pos: Position, units: Sequence[Unit], ez: frozenset[Hex]) -> bool:
    at = units[0].hex
    if at in ez or _stasis(m, pos, units, at):
        # A rebel force next to loyal units may still roll to convert them (ldf:8.3).
        return any(u.camp == "rebel" for u in units) and bool(conversion_targets(m, pos, at)[0])
    return any(step_problem(m, pos, units, at, n) is None for n in land_links(m).get(at, ()))


def force_can_move(m: HexMap, pos: Position, units: Sequence[Unit], cache: dict[str, frozenset[Hex]] | None = None,
                   ) -> bool:
    """Whether the force has any move at all: a land step, a sea or a river move."""
    ez = _ezoc_for(m, pos, force_camps(units), cache)
    if _has_land_step(m, pos, units, ez):
        return True
    return bool(sea_destinations(m, pos, units)[0] or river_destinations(m, pos, units)[0])


def _movable(state: LDFState, side: str, first_only: bool) -> list[str]:
    m, pos = state.map, position(state)
    # the same map and position: the same forces can move
    return list(pos.remembered(m, ("movable", side, first_only), lambda: tuple(_movable_in(m, pos, side, first_only))))


def _movable_in(m: HexMap, pos: Position, side: str, first_only: bool) -> list[str]:
    cache: dict[str, frozenset[Hex]] = {}
    out = []
    ids = hex_ids(m)
    for h in sorted({u.hex for u in pos.units if pos.side(u) == side}, key=ids.__getitem__):
        units = movable_units(pos, side, h)
        if units and force_problem(pos, units, side) is None and force_can_move(m, pos, units, cache):
            out.append(ids[h])
            if first_only:
                break
    return out


def movable_hexes(state: LDFState, side: str) -> list[str]:
    """Printed IDs of the hexes from which ``side`` can start a move action (``ldf:8.2``)."""
    return _movable(state, side, False)


def can_move(state: LDFState, side: str) -> bool:
    """The ``move`` entry of the Action Summary is offered when some force can move (``ldf:8.2``)."""
    return bool(_movable(state, side, True))


def conversion_rolls(ctx: Context, state: LDFState, hex_id: str, rolled: set[str]) -> Generator[Decision, Any, bool]:
    """The 8.3 pause: a rebel co-emperor's force in ``hex_id`` rolls one die for each adjacent
    hex of loyal Roman units not yet rolled for in this move (never the emperor's hex).
    Even: the hex's loyal Romans turn rebel; odd: they stay loyal and the move ends.
    Returns ``False`` if any roll failed."""
    m, pos = state.map, position(state)
    targets, _ = conversion_targets(m, pos, state.hex(hex_id), {state.hex(h) for h in rolled})
    ok = True
    for t in targets:
        tid = m.to_id(t)
        rolled.add(tid)
        converted = yield from politics.convert(ctx, state, tid)
        ok = ok and converted
        if state.over:
            return False
    return ok


def _choose_force(ctx: Context, state: LDFState, side: str, hex_id: str) -> Generator[Decision, Any, list[str] | None]:
    """Staged choice of the units that move (``ldf:8.2``: all, some or one of the hex's units)."""
    pos = position(state)
    here = movable_units(pos, side, state.hex(hex_id))
    if len(here) == 1:
        return [here[0].id]  # nothing to choose
    chosen: list[str] = []
    while True:
        pos = position(state)
        units = [pos.unit(u) for u in chosen]
        ok = bool(chosen) and force_problem(pos, units, side) is None
        opts: list[Option] = []
        rest = [u for u in here if u.id not in chosen]
        if rest and not chosen and force_problem(pos, here, side) is None:
            opts.append(Option("all", "every unit here that may move: " + ", ".join(u.id for u in here)))
        opts += [Option(u.id, f"add {u.id} ({pos.piece(u).name})") for u in rest]
        if ok:
            opts.append(Option("done", "these units move: " + ", ".join(chosen)))
        opts.append(Option("back", "choose another action"))
        why = force_problem(pos, units, side) if chosen else None

        def refuse(text: str, why: tuple[str, str] | None = why) -> tuple[str, str] | None:
            return why if text.strip().lower() == "done" and why else None

        key = yield Decision(side, f"Move from {hex_id}: choose the units of the force"
                             + (f" (so far {', '.join(chosen)})" if chosen else ""),
                             tuple(opts), rule="ldf:8.2", kind=Kind.MOVE_UNIT, refuse=refuse,
                             context={"highlight": (hex_id,)})
        if key == "back":
            return None
        if key == "all":
            return [u.id for u in here]
        if key == "done":
            return chosen
        chosen.append(key)


def start_refusal(state: LDFState, side: str) -> Callable[[str], tuple[str, str] | None]:
    """Why no move may start from the hex a player typed (``ldf:8.2`` and the rules it cites)."""

    def refuse(text: str) -> tuple[str, str] | None:
        hid = text.strip()
        if hid not in state.data.ids:
            return None
        pos = position(state)
        units = movable_units(pos, side, state.hex(hid))
        if not units:
            if any(pos.side(u) == side and u.camp == "rebel" for u in pos.at(state.hex(hid))):
                return (f"the rebel units in {hid} move only with the rebel co-emperor", "ldf:8.3")
            return (f"{hid} holds no {side} unit that may move", "ldf:2.4")
        why = force_problem(pos, units, side)
        if why:
            return why
        return (f"the force in {hid} is in an enemy zone of control and may not leave it by land", "ldf:11.4")

    return refuse


def _step_refusal(state: LDFState, f: MovingForce, going: Sequence[Unit], ez: frozenset[Hex], rem: int
                  ) -> Callable[[str], tuple[str, str] | None]:
    """Why the force may not step into the hex a player typed now."""

    def refuse(text: str) -> tuple[str, str] | None:
        hid = text.strip()
        if hid not in state.data.ids:
            return None
        m, pos = state.map, position(state)
        if f.at in ez and len(f.path) > 1:
            return (f"the force entered an enemy zone of control in {m.to_id(f.at)}: its move ends there", "ldf:11.3")
        if f.at in ez:
            return ("the force is in an enemy zone of control and may not leave it", "ldf:11.4")
        if rem <= 0:
            return ("the force has no movement points left", "ldf:12.4")
        why = step_problem(m, pos, going, f.at, state.hex(hid))
        if why:
            return why
        return (f"the force could neither end its move in {hid} nor go on from there", "ldf:10.1")

    return refuse


UNITS = "units"
"""What :func:`_move` returns when the player asks to choose the units of the force first."""


def move_options(state: LDFState, side: str) -> list[Option]:
    """The move action as the action menu offers it (``ldf:8.1``, ``ldf:8.2``): one answer a
    hex from which a force can move, ``move:<hex>``, naming the units there that may move."""
    pos = position(state)
    return [Option(f"move:{h}", f"move from {h}: " + ", ".join(u.id for u in movable_units(pos, side, state.hex(h))))
            for h in movable_hexes(state, side)]


def move_action(ctx: Context, state: LDFState, side: str) -> Generator[Decision, Any, Any]:
    """The move action (``ldf:8.2``) asked in two steps: the hex the force starts from, then
    :func:`move_from`. The action menu offers the hexes itself (:func:`move_options`); this
    is for callers that name the action alone. Returns ``False`` if the player went back."""
    while True:
        hexes = movable_hexes(state, side)
        if not hexes:
            ctx.event("move", f"{side} has no force that can move", rules=("ldf:8.2",), side=side)
            return False
        pos = position(state)
        opts = [Option(h, "move units from " + h + ": " + ", ".join(u.id for u in movable_units(pos, side, state.hex(h))))
                for h in hexes]
        opts.append(Option("back", "choose another action"))
        key = yield Decision(side, "Move: choose the hex the moving force starts from", tuple(opts),
                             rule="ldf:8.2", kind=Kind.MOVE_HEX, refuse=start_refusal(state, side),
                             context={"highlight": tuple(hexes)})
        if key == "back":
            return False
        result = yield from move_from(ctx, state, side, key)
        if result is False:
            continue
        return None


def move_from(ctx: Context, state: LDFState, side: str, hex_id: str) -> Generator[Decision, Any, bool]:
    """The move action from ``hex_id`` (``ldf:8.2``), as chosen in the action menu: the force
    is every unit there that may move unless the player chooses the units (the answer
    ``units`` of the move's question, then ``move.unit``), and one answer sends it where it
    goes (:func:`move_force`). Returns ``False`` if the player went back before anything
    happened."""
    pos = position(state)
    here = movable_units(pos, side, state.hex(hex_id))
    if not here:
        why = start_refusal(state, side)(hex_id) or (f"{hex_id} holds no {side} force that may move", "ldf:8.2")
        raise ValueError(f"move from {hex_id}: {why[0]} ({why[1]})")
    force: list[str] | None = [u.id for u in here]
    if force_problem(pos, here, side) is not None:
        force = yield from _choose_force(ctx, state, side, hex_id)
    while force is not None:
        result = yield from _move(ctx, state, side, force, choose_units=len(here) > 1)
        if result != UNITS:
            return bool(result)
        force = yield from _choose_force(ctx, state, side, hex_id)
    return False


def move_force(
    ctx: Context,
    state: LDFState,
    side: str,
    force: Sequence[str],
    *,
    bonus: int = 0,
    no_drop_offs: bool = False,
    leave_ezoc: bool = False,
    transport: bool = True,
    window: bool = True,
) -> Generator[Decision, Any, bool]:
    """Move the units ``force`` (one hex's) as one force; ``side`` answers the questions.

    One question (``move.to``) offers every hex the force can reach by land as one answer
    (the path and its cost in the answer's words), the ports and bank hexes of sea
    (``ldf:12.6``) and river (``ldf:12.7``) movement (``sea:<hex>``, ``river:<hex>``), the
    chits the mover may play as he declares the move (``chit-4``, ``chit-8``:
    ``chits.move_start_plays``), and ``steps``: the move hex by hex (``move.step``), with its
    pick-ups and drop-offs. A force sent to a hex walks there by itself and stops on the way
    only where a rule does: a conversion roll (``ldf:8.3``), units it may pick up
    (``ldf:8.2``), units of the force that have spent their movement while others may go on
    (``ldf:8.5``), a hex where the rest of the way is no longer open; then the question is
    asked again from there.

    ``bonus``, ``no_drop_offs``: the chit Inspired Subordinates (one more hex, the stack
    moving together). ``leave_ezoc``: the force may leave the EZOC it starts in (chit Into
    the Valley of the Shadow of Death). ``transport``: sea and river moves may be offered.
    ``window``: the move-start chits may be played; a chit that moves a force passes
    ``False``, and then the move cannot be taken back (the chit is spent). Returns ``False``
    if the player went back before anything happened.
    """
    result = yield from _move(ctx, state, side, force, bonus=bonus, no_drop_offs=no_drop_offs,
                              leave_ezoc=leave_ezoc, transport=transport, window=window)
    return bool(result)


def _move(
    ctx: Context, state: LDFState, side: str, force: Sequence[str], *, bonus: int = 0, no_drop_offs: bool = False,
    leave_ezoc: bool = False, transport: bool = True, window: bool = True, choose_units: bool = False,
) -> Generator[Decision, Any, bool | str]:
    """:func:`move_force`, and :data:`UNITS` when ``choose_units`` and the player asked to
    choose the units of the force first."""
    m, pos = state.map, position(state)
    units = [pos.unit(u) for u in force]
    sea, _ = sea_destinations(m, pos, units) if transport else ([], None)
    river, _ = river_destinations(m, pos, units) if transport else ([], None)
    return (yield from _land_move(ctx, state, side, units, bonus=bonus, no_drop_offs=no_drop_offs,
                                  leave_ezoc=leave_ezoc, committed=bool(bonus) or not window, chits_offered=window,
                                  sea=sea, river=river, choose_units=choose_units))


def _rebel_in_rome(ctx: Context, state: LDFState, uids: Sequence[str], hex_id: str) -> Generator[Decision, Any, bool]:
    """8.3: did the rebel co-emperor who moved into Rome/Ostia end the rebellion there?
    ``economy.on_enter`` (called just before) applies ``economy.rebel_takes_rome``,
    which sets him aside; this only tells the move to stop."""
    return hex_id == ROME and "CE" in uids and state.unit("CE").hex is None
    yield  # a generator, as its callers expect


def _after_move(ctx: Context, state: LDFState, units: Sequence[Unit], start: str) -> Generator[Decision, Any, None]:
    """10.7: a leader who left his hex may leave it overstacked: unstack it at once."""
    if state.over:
        return
    if any(u.piece in LEADERS for u in units) and any(state.unit(u.id).hex != start for u in units
                                                      if u.piece in LEADERS):
        yield from emergency_unstack(ctx, state, start)


def _leader_warning(state: LDFState, from_hex: str, moving: Sequence[str]) -> str:
    """The warning of ``warnings.leader_left_alone`` for a move that leaves a leader alone
    (issue 23 item 5), as words to add to an answer; empty when there is none."""
    text = leader_left_alone(state, from_hex, list(moving))
    return f" Warning: {text}" if text else ""


def _destinations(m: HexMap, pos: Position, going: Sequence[Unit], at: Hex, rem: int, ez: frozenset[Hex],
                  free_start: bool) -> list[tuple[Hex, list[Hex]]]:
    """Every hex ``going`` may end its move in from ``at`` with ``rem`` MP, with the path it
    walks there, nearest first (``ldf:12.4``, ``ldf:11.3``, ``ldf:11.4``, ``ldf:10.1``)."""
    reach = land_reach(m, pos, going, at, rem, locked=not free_start, ezoc_hexes=ez)
    ids = hex_ids(m)
    out = sorted(reach.hexes, key=lambda h: (reach.cost[h], ids[h]))
    return [(h, reach.path_to(h)) for h in out]


def _land_move(
    ctx: Context, state: LDFState, side: str, units: Sequence[Unit], *, bonus: int, no_drop_offs: bool,
    leave_ezoc: bool, committed: bool = False, chits_offered: bool = False, sea: Sequence[Hex] = (),
    river: Sequence[Hex] = (), choose_units: bool = False,
) -> Generator[Decision, Any, bool | str]:
    """The move's questions and its walk (``ldf:8.2``-``ldf:8.5``, ``ldf:11.3``, ``ldf:12.2``-``ldf:12.7``).

    Before anything happens the question offers the chits of the move's start, sea and
    river moves, choosing the units and going back; then the land destinations (each one
    answer, the walk stopping where a rule does) or the move hex by hex."""
    m = state.map
    pos = position(state)
    f = MovingForce.start(pos, units, bonus=bonus, no_drop_offs=no_drop_offs)
    start = m.to_id(f.at)
    rules: set[str] = {"ldf:8.2", "ldf:12.4"}
    if f.leader_bonus:
        rules.add("ldf:8.4")
    if len({pos.piece(u).movement for u in units if pos.kind(u) == "mobile"}) > 1:
        rules.add("ldf:8.5")
    rebel = any(u.camp == "rebel" for u in units)
    rolled: set[str] = set()
    touched = committed  # dice rolled, chits played or units moved: no going back
    ended = ""
    must_roll = rebel and side == GP and bool(conversion_targets(m, pos, f.at)[0])
    if must_roll and touched:  # a committed move rolls at once (ldf:8.3)
        must_roll = False
        rules.add("ldf:8.3")
        ok = yield from conversion_rolls(ctx, state, start, rolled)
        if not ok:
            ended = "a conversion roll failed: the move action ends (ldf:8.3)"
    free_start = leave_ezoc
    declaring = not touched  # the move is being declared: the move-start chits may be played (ldf:14.3)
    steps_mode = False
    plan: list[Hex] = []  # the rest of the way to the hex the player chose
    fresh = False  # the force has just entered f.at (no question asked there yet)
    pause = False  # a rule stopped the walk in f.at: ask again before going on
    while not ended and not state.over:
        pos = position(state)
        movers = f.movers(pos)
        going = [u for u in movers if u.id not in f.exhausted()]
        tired = [u for u in movers if u.id in f.exhausted()]
        camps = force_camps(movers)
        ez = _ezoc_for(m, pos, camps)
        locked = (f.at in ez and not free_start) or _stasis(m, pos, movers, f.at)
        rem = f.remaining()
        at_id = m.to_id(f.at)
        moved = len(f.path) > 1
        opening = not moved and not touched
        can_go = bool(going) and not locked and rem > 0 and not (tired and stop_problem(m, pos, tired, f.at))
        picks = f.pick_up_candidates(pos) if moved and not locked else []
        split = bool(tired) and can_go  # ldf:8.5: some have spent their movement, the others may go on
        if plan:
            hold = fresh and (pause or bool(picks) or split)
            if not hold and can_go and step_problem(m, pos, going, f.at, plan[0]) is None:
                n = plan.pop(0)
                key = m.to_id(n)
                if m.value(n, "narrows"):
                    rules.add("ldf:12.5")
                left_behind = f.step(n)
                touched, free_start, fresh, pause = True, False, True, False
                if left_behind:
                    ctx.event("exhausted", f"{', '.join(left_behind)} have spent their movement factor and stay in "
                              f"{at_id}", rules=("ldf:8.5",), side=side, hex=at_id)
                for uid in f.units:
                    state.place(uid, key)
                yield from on_enter(ctx, state, list(f.units), key)
                if state.over:
                    break
                if (yield from _rebel_in_rome(ctx, state, f.units, key)):
                    rules.add("ldf:8.3")
                    ended = "the rebel co-emperor has entered Rome/Ostia (ldf:8.3)"
                    break
                if any(state.unit(uid).hex != key for uid in f.units):
                    ended = f"the force was moved from {key} by another rule"
                    break
                if rebel and side == GP:
                    pos = position(state)
                    if conversion_targets(m, pos, n, {state.hex(h) for h in rolled})[0]:
                        rules.add("ldf:8.3")
                        pause = True  # ldf:8.3: after the rolls the force may go on: ask again
                        ok = yield from conversion_rolls(ctx, state, key, rolled)
                        if not ok:
                            ended = "a conversion roll failed: the move action ends (ldf:8.3)"
                pos = position(state)
                if f.at in _ezoc_for(m, pos, force_camps(f.movers(pos))):
                    rules.add("ldf:11.3")
                continue
            plan = []  # stopped on the way: ask again here
        elif (fresh and not steps_mode and not pause and not picks and not split
              and stop_problem(m, pos, movers, f.at) is None):
            if locked:
                ended = f"{at_id} is in an enemy zone of control: the move ends there (ldf:11.3)"
                rules.add("ldf:11.3")
            break  # the chosen hex is reached: the move ends there
        opts: list[Option] = []
        dests: dict[str, list[Hex]] = {}
        land_ok = can_go or must_roll
        if declaring and not moved and chits_offered and land_ok:
            opts += chits.move_start_plays(state, side)
        if must_roll and not moved:
            opts.append(Option("land", "move by land: first roll to win over the loyal units next to the force (8.3)"))
        elif steps_mode and can_go:
            for n in land_links(m).get(f.at, ()):
                if step_problem(m, pos, going, f.at, n) is not None:
                    continue
                if stop_problem(m, pos, going, n) is not None:
                    if n in ez or rem <= 1 or not land_reach(m, pos, going, n, rem - 1, ezoc_hexes=ez).hexes:
                        continue  # a dead end: it could neither stop there nor go on
                nid = m.to_id(n)
                label = f"enter {nid} ({rem - 1} MP left after)" + (" - enemy ZOC: the move ends there"
                                                                     if n in ez else "")
                opts.append(Option(nid, label))
        elif can_go:
            for h, path in _destinations(m, pos, going, f.at, rem, ez, free_start):
                hid = m.to_id(h)
                dests[hid] = path[1:]
                way = ", ".join(m.to_id(p) for p in path[1:])
                opts.append(Option(hid, f"to {hid} ({len(path) - 1} MP: {way})"
                                   + (" - enemy ZOC: the move ends there" if h in ez else "")))
        if moved and not locked:
            for u in picks:
                opts.append(Option(f"pick:{u.id}", f"pick up {u.id} (it moves on with the {rem} MP left)"))
        if moved:
            for uid in f.drop_off_candidates(pos):
                u = pos.unit(uid)
                if stop_problem(m, pos, [u.moved_to(f.at)], f.at) is not None:
                    continue
                if u.piece in LEADERS and not [v for v in pos.at(f.at) if v.id not in f.units]:
                    continue  # ldf:8.4: a leader is never left alone
                opts.append(Option(f"drop:{uid}", f"leave {uid} in {at_id}"))
        if stop_problem(m, pos, movers, f.at) is None:
            if moved or touched:
                opts.append(Option("stop", f"end the move in {at_id}"))
        if dests and not steps_mode:
            opts.append(Option("steps", "move hex by hex (to pick units up or leave them on the way)"))
        transport: list[Option] = []
        if opening:
            transport += [Option(f"sea:{m.to_id(h)}", f"by sea to {m.to_id(h)} (12.6)") for h in sea]
            transport += [Option(f"river:{m.to_id(h)}", f"by river to {m.to_id(h)} (12.7)") for h in river]
            if choose_units and (land_ok or transport):
                transport.append(Option(UNITS, "choose the units that move"))
            transport.append(Option("back", "choose another force"))
        if opening and not land_ok and len(transport) == 1:
            return False  # neither by land nor otherwise: nothing to ask
        if not (opening and len(transport) > 1):
            if [o.key for o in opts] == ["stop"]:
                break  # nothing left to decide: the move ends here
            if locked and (moved or touched):
                if moved:
                    ended = f"{at_id} is in an enemy zone of control: the move ends there (ldf:11.3)"
                    rules.add("ldf:11.3")
                else:
                    ended = f"{at_id} is still in an enemy zone of control: the force may not leave it (ldf:11.4)"
                    rules.add("ldf:11.4")
                break
            if (locked and not must_roll) or not (opts or opening):
                if not touched:
                    return False
                ended = f"the force can go no farther from {at_id}"
                break
        opts += transport
        names = ", ".join(f.units)
        if steps_mode:
            prompt, kind = f"Moving {names} in {at_id}, {rem} MP left: where next?", Kind.MOVE_STEP
            refuse = _step_refusal(state, f, going, ez, rem)
        else:
            prompt = (f"Move {names} from {at_id} ({rem} MP): where to?"
                      + _leader_warning(state, at_id, [u.id for u in going]) if not moved
                      else f"Moving {names} in {at_id}, {rem} MP left: where now?")
            kind, refuse = Kind.MOVE_TO, _destination_refusal(state, f, going, ez, rem)
        key = yield Decision(side, prompt, tuple(opts), rule="ldf:8.2", kind=kind, refuse=refuse,
                             context={"highlight": tuple(o.key for o in opts if o.key.isdigit())})
        fresh = pause = False
        if key == "back":
            return False
        if key == UNITS:
            return UNITS
        if key == "stop":
            break
        if key == "steps":
            steps_mode = True
            continue
        if key == "land":
            touched, must_roll, declaring = True, False, False
            rules.add("ldf:8.3")
            ok = yield from conversion_rolls(ctx, state, start, rolled)
            if not ok:
                ended = "a conversion roll failed: the move action ends (ldf:8.3)"
            continue
        if key.startswith("chit-"):
            gain = chits.play_move_start(ctx, state, side, int(key.removeprefix("chit-")))
            bonus += gain
            no_drop_offs = no_drop_offs or gain % 2 == 1  # Inspired Subordinates: together, no drop-offs
            f = MovingForce.start(position(state), units, bonus=bonus, no_drop_offs=no_drop_offs)
            touched = True
            continue
        if key.startswith(("sea:", "river:")):  # the whole action (ldf:12.6, ldf:12.7)
            mode, _, where = key.partition(":")
            rule = "ldf:12.6" if mode == "sea" else "ldf:12.7"
            force = [u.id for u in units]
            for uid in force:
                state.place(uid, where)
            ctx.event("move", f"{', '.join(force)} go by {mode} from {start} to {where}; the move action is used up",
                      rules=("ldf:8.2", rule), side=side, path=(start, where))
            yield from on_enter(ctx, state, force, where)
            rome = not state.over and (yield from _rebel_in_rome(ctx, state, force, where))
            if not state.over and not rome and rebel and side == GP:
                yield from conversion_rolls(ctx, state, where, set())
            yield from _after_move(ctx, state, units, start)
            return True
        if key.startswith("pick:"):
            uid = key[5:]
            f.pick_up(pos, pos.unit(uid))
            rules.add("ldf:8.2")
            ctx.event("pick-up", f"{f.leader(pos).id} picks up {uid} in {at_id}; it moves on with "  # type: ignore[union-attr]
                      f"{f.left[uid]} MP", rules=("ldf:8.2",), side=side, hex=at_id)
            continue
        if key.startswith("drop:"):
            uid = key[5:]
            f.drop_off(pos, uid)
            ctx.event("drop-off", f"{uid} is left in {at_id}", rules=("ldf:8.2", "ldf:8.4") if pos.unit(uid).piece
                      in LEADERS else ("ldf:8.2",), side=side, hex=at_id)
            continue
        plan = [state.hex(key)] if steps_mode else list(dests[key])
    path = [m.to_id(h) for h in f.path]
    text = f"{', '.join(f.units)} move {' - '.join(path)}" if len(path) > 1 else f"{', '.join(f.units)} stay in {start}"
    ctx.event("move", text + (f"; {ended}" if ended else ""), rules=tuple(sorted(rules, key=_rule_order)),
              side=side, path=tuple(path))
    yield from _after_move(ctx, state, units, start)
    return True


def _destination_refusal(state: LDFState, f: MovingForce, going: Sequence[Unit], ez: frozenset[Hex], rem: int
                         ) -> Callable[[str], tuple[str, str] | None]:
    """Why the force may not go to the hex a player typed now."""
    step = _step_refusal(state, f, going, ez, rem)

    def refuse(text: str) -> tuple[str, str] | None:
        hid = text.strip()
        if hid not in state.data.ids:
            return None
        m = state.map
        if state.hex(hid) in land_links(m).get(f.at, ()) or f.at in ez or rem <= 0:
            return step(text)
        return (f"{hid} cannot be reached from {m.to_id(f.at)} with {rem} MP (one MP a hex, never through "
                "enemy units or out of an enemy zone of control)", "ldf:12.4")

    return refuse


def _rule_order(rule: str) -> tuple[int, ...]:
    return tuple(int(p) if p.isdigit() else 0 for p in rule.split(":")[1].split("."))


def score(state: LDFState, decision: Decision, key: str) -> float | None:
    """A cheap hint for the greedy bot on the move decisions (``move.*``, through ``bot.py``'s
    module hook); ``None`` elsewhere.

    The Germano-Parthian likes steps toward Rome and into the core; the Roman
    likes steps toward enemy units in the core. Every option offered is legal.
    """
    if not decision.kind.startswith(("move.", "stack.", "retreat.")):
        return None
    if key in ("back", "steps", UNITS):
        return -1.0
    if key.startswith("chit-"):
        return 3.0  # the chits of a move's start are played when held, as at the window before
    if key == "land":
        return 1.0
    if decision.kind == Kind.MOVE_TO and key.isdigit():
        # A destination is worth its hex when that is worth going on for (the 0.5 of "stop");
        # otherwise the force goes one hex, the best first step, as a walk hex by hex would.
        label = decision.option(key).label
        way = label.split(" MP: ", 1)[1].split(")", 1)[0].split(", ") if " MP: " in label else [key]
        end = _hex_score(state, decision.side, key)
        if end >= 0.5:
            return end
        return _hex_score(state, decision.side, way[0]) - 0.05 * (len(way) - 1)
    if decision.kind in (Kind.MOVE_STEP, Kind.MOVE_TO, "move.transport", Kind.MOVE_UNSTACK) and key[-4:].isdigit():
        return _hex_score(state, decision.side, key[-4:])
    if key == "stop":
        return 0.5
    if key.startswith("drop:"):
        return -0.5
    if key.startswith("pick:") or key == "all":
        return 1.0
    return 0.0


def _hex_score(state: LDFState, side: str, hex_id: str) -> float:
    """The greedy bot's worth of ``side``'s force ending a step in ``hex_id``: the
    Germano-Parthian near Rome and in the core, the Roman near enemy units in the core."""
    target = state.hex(hex_id)
    core = state.region("core")
    if side == GP:
        return 2.0 - 0.1 * target.distance(state.hex(ROME)) + (1.0 if hex_id in core else 0.0)
    enemies = [state.hex(u.hex) for u in state.on_map() if u.hex in core and state.side_of(u) == GP]
    if not enemies:
        return 0.0
    return 2.0 - 0.1 * min(target.distance(e) for e in enemies)
