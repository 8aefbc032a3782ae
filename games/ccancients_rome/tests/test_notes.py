"""Battle notes must not contradict the data they describe."""

from __future__ import annotations

import re

import pytest

from ancients_kit.data import DataStore
from ancients_games.ccancients_rome.scenario import list_battles, load_battle

STORE = DataStore("ancients_games.ccancients_rome")
BATTLES = [b.slug for b in (load_battle(STORE, x.id if hasattr(x, "id") else x) for x in list_battles(STORE))]


@pytest.mark.rule("ccr:setup")
@pytest.mark.parametrize("slug", BATTLES)
def test_unit_counts_in_the_note_match_the_placements(slug: str) -> None:
    b = load_battle(STORE, slug)
    top, bottom = len(b.top.units), len(b.bottom.units)
    note = b.meta.note
    for n in re.findall(r"\b(\d+) units a side", note):
        assert int(n) == top == bottom, f"{slug}: note says {n} a side, data has {top}/{bottom}"
    for a, c in re.findall(r"\b(\d+) units for [^.]*? against (\d+) for", note):
        assert (int(a), int(c)) == (top, bottom), f"{slug}: note says {a}/{c}, data has {top}/{bottom}"
