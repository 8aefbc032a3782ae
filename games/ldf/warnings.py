"""Warnings before a mistake, for the move prompt (issue 23 item 5; owned by ldf-core).

A warning is one line of plain words naming its rule, shown next to an option
that is legal but costly. The rules never print and never refuse here: these
are pure functions of the state, cheap enough to call for every option of a
question.

- :func:`leader_left_alone`: moving some units out of a hex would leave a
  leader there with no unit of his own, and "a leader shares the fate of the
  last friendly unit, mobile or static, in his hex" (``ldf:8.4``).

Usage (the move prompt, for each option that moves ``ids`` out of ``hex_id``)::

    note = warnings.leader_left_alone(state, hex_id, ids)
    label = option.label if note is None else f"{option.label} ({note})"
"""

from __future__ import annotations

from collections.abc import Collection

from .state import LDFState

__all__ = ["leader_left_alone"]

_NAMES = {"E": "the emperor", "CE": "the co-emperor"}


def leader_left_alone(state: LDFState, from_hex: str, moving: Collection[str]) -> str | None:
    """The warning when moving the units ``moving`` out of ``from_hex`` would leave a leader there
    with no friendly unit, mobile or static (``ldf:8.4``), or ``None``.

    A leader among ``moving`` goes with them and is not left; a leader staying behind is safe
    while one unit of his own side (not an enemy of his: rebels and Germans are both the
    Germano-Parthian's) stays with him. Only the hex's own units are read (no map scan).
    """
    here = state.units_at(from_hex)
    staying = [u for u in here if u.id not in moving]
    for lead in staying:
        if not lead.leader:
            continue
        side = state.side_of(lead)
        if any(not u.leader and state.side_of(u) == side and not state.hostile(u, lead) for u in staying):
            continue
        who = _NAMES.get(lead.id, lead.id)
        if lead.id == "CE" and lead.rebel:
            who = "the rebel co-emperor"
        return f"would leave {who} alone in {from_hex} (ldf:8.4: a leader shares the fate of the last unit in his hex)"
    return None
