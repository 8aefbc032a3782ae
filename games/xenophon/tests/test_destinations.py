"""A force's move to a destination in one answer (issue 23): the same hexes, at the same cost,
as the step-by-step moves it replaces; and land units coming ashore when a naval move ends."""

from __future__ import annotations

import re

import pytest

from ancients_kit.bots import make_bot
from ancients_kit.session import Session

from ancients_games.xenophon import GAME
from ancients_games.xenophon import march, zoc
from ancients_games.xenophon import operations as ops
from ancients_games.xenophon.state import REBEL, XenState
from ancients_games.xenophon.tests.ops_helpers import Script, drive, empty, put

HALIKARNASSOS, SEA = "2707", "2608"


def _stepwise(state: XenState, f: march.Force, ezoc: frozenset[str]) -> dict[str, object]:
    """Every hex reachable one step at a time (:func:`march.step_options`, the units placed at
    each step as play does), with the least OP it costs: the reference the search must equal."""
    start_units = {u: state.unit(u).hex for u in f.units}
    best: dict[str, object] = {f.hex: 0}
    frontier = [(f.hex, 0)]
    try:
        while frontier:
            frontier.sort(key=lambda x: x[1])
            here, spent = frontier.pop(0)
            if best.get(here) != spent or (here != f.hex and here in ezoc):
                continue
            for u in f.units:
                state.place(u, here)
            g = march.Force(f.side, list(f.units), here, f.start, f.op - spent, f.naval, f.rate)
            for o in march.step_options(state, g, ezoc):
                if not o.key.startswith("move:"):
                    continue
                n, total = o.key[5:], spent + o.data[0]
                if n != f.hex and total < best.get(n, total + 1):  # type: ignore[operator]
                    best[n] = total
                    frontier.append((n, total))
    finally:
        for u, h in start_units.items():
            state.place(u, str(h))
    best.pop(f.hex)
    return best


def _positions(scenario: str, seed: int, n: int) -> list[tuple[Session, march.Force]]:
    """Forces about to act in a greedy game, rebuilt from their questions."""
    s = Session(GAME, scenario, seed=seed)
    bot = make_bot("greedy")
    out = []
    while s.decision is not None and len(out) < n:
        d = s.decision
        if d.kind == "ops.action" and any(k.startswith("move:") for k in d.keys):
            units = list(d.context["force"])
            hex_id = d.context["highlight"][0]
            op = re.search(r" has ([0-9/]+) OP", d.prompt).group(1)  # type: ignore[union-attr]
            st = s.state
            naval = any(st.unit(u).fleet for u in units)
            from fractions import Fraction

            f = march.Force(d.side, units, hex_id, hex_id, Fraction(op), naval,
                          2 if naval and hex_id not in ops.naval.ports(st) else 1)
            out.append((s.fork(), f))
        s.answer(bot.choose(s, d))
    return out


@pytest.mark.rule("xen:movement", "xen:zoc", "xen:stacking", "xen:naval-transport")
@pytest.mark.parametrize(("scenario", "seed"), [("cyrus-revolt", 1), ("kings-war", 2)])
def test_destinations_are_the_hexes_step_by_step_moves_reach_at_the_same_cost(scenario: str, seed: int) -> None:
    positions = _positions(scenario, seed, 12)
    assert len(positions) == 12
    for s, f in positions:
        st = s.state
        ezoc = zoc.ezoc_of(st, f.side, f.naval)
        found = {h: v[0] for h, v in march.destinations(st, f, ezoc).items()}
        assert found == _stepwise(st, f, ezoc), f"{f.side} force {f.units} in {f.hex}"
        for h, (cost, into, _, path) in march.destinations(st, f, ezoc).items():
            assert path[-1] == h and into == (h in ezoc)
            assert not set(path[:-1]) & ezoc  # the walk would have stopped there


@pytest.mark.rule("xen:movement", "xen:zoc", "xen:naval-transport")
def test_the_search_cost_by_cost_finds_what_the_search_by_heap_finds_in_the_same_order() -> None:
    """The search takes hexes cost by cost when every step costs something (the chart's do),
    else by a heap (the Royal Road rate, a variant chart with a free step): both give the
    same hexes, costs and paths, nearest first and then by hex ID."""
    from ancients_games.xenophon import movement as mv

    for s, f in _positions("kings-war", 2, 12):
        st = s.state
        ezoc = zoc.ezoc_of(st, f.side, f.naval)
        g = march._graph(st.map, mv.terrain_costs())
        steps = g.sea_steps(f.rate) if f.naval else g.land
        start, budget = g.index[f.hex], int(f.op * g.scale)
        status = march._status(st, f, ezoc, g)
        by_cost = march._reach_by_cost(g, steps, start, f.hex in ezoc, status, budget, 0)
        by_heap = march._reach_by_heap(g, steps, start, False, f.hex in ezoc, status, budget, 0)
        assert list(by_cost.items()) == list(by_heap.items()), f"{f.side} force {f.units} in {f.hex}"
        assert list(by_cost) == sorted(by_cost, key=lambda h: (by_cost[h][0], h))


@pytest.mark.rule("xen:naval-transport")
def test_land_units_come_ashore_where_a_naval_force_ends_on_a_coast_unless_they_stay_aboard() -> None:
    for answer, ashore in (("stop", True), ("stop:aboard", False)):
        ctx, st = empty()
        land = [u.id for u in st.units.values() if u.satrapy == "Ionia" and not u.fleet][:2]
        put(st, HALIKARNASSOS, ["ionia-F1", *land])
        st.player_turn = REBEL
        ctx.chance.force(3)
        script = Script(f"force:{HALIKARNASSOS}", answer)
        drive(ops.operations_phase(ctx, st, REBEL), script)
        act = [d for d in script.asked if d.kind == "ops.action"][0]
        assert {"stop", "stop:aboard"} <= set(act.keys)
        assert all((st.unit(u).embarked is None) == ashore for u in land)
        assert any(e.kind == "ashore" for e in ctx.log) == ashore
    # at sea there is no coast to land on: no choice is offered
    ctx, st = empty()
    put(st, SEA, ["ionia-F1", *land])
    st.player_turn = REBEL
    ctx.chance.force(3)
    script = Script(f"force:{SEA}")
    drive(ops.operations_phase(ctx, st, REBEL), script)
    act = [d for d in script.asked if d.kind == "ops.action"][0]
    assert "stop:aboard" not in act.keys
