"""Human win rates of the battles, as commandsandcolors.net prints them (issue 24 item 4).

Owns the schema and loader of ``data/human_records.toml``: per battle the
scenario page's address, the plays recorded there and the two printed
percentages, each keyed by this repo's side ID, and the side the page's first
figure refers to (its TOP ARMY). No rule reads these figures; the balance
benchmark (``benchmarks/bench_balance.py``) compares bot play with them::

    records = load_human_records(DataStore(PACKAGE))
    for r in records.battles:
        r.battle, r.side, r.rate(r.side), r.games   # 'fano', 'alemanni', Fraction(11, 25), 57

Every check is made when the file loads and fails with one line naming the
file and the key: an unknown battle, a side the battle does not have, a
percentage outside 0..100, two percentages that do not add up to 100 (the page
rounds each, so 99 and 101 are allowed), a battle both recorded and listed as
missing.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import attrs

from ancients_kit.data import DataError, DataStore, Meta, bounded, document_file, first_repeat

from .packaged import load_packaged
from .scenario import BATTLE_PREFIX, list_battles, load_battle
from .state import side_name

__all__ = ["REL", "HumanRecord", "HumanRecords", "MissingRecord", "load_human_records"]

REL = "human_records.toml"
"""The document's path under the package's ``data/`` folder."""

URL_PREFIX = "https://www.commandsandcolors.net/"
"""Every record comes from a page of this site (the document's one source)."""

MAX_PLAYS = 1_000_000
"""More plays than any scenario page counts (the pages print tens): a larger number is a typo."""


@attrs.frozen
class Collection:
    """How the records were gathered: the same for every record."""

    site: str
    """The site the figures were read from."""
    retrieved: str
    """When they were read (YYYY-MM-DD)."""
    side_mapping: str
    """How the page's TOP/BOTTOM ARMY was matched to this repo's sides."""


@attrs.frozen
class _Record:
    scenario: str
    url: str
    games: int = attrs.field(validator=bounded(1, MAX_PLAYS))
    side: str
    percent: Mapping[str, int] = attrs.field(validator=bounded(0, 100))
    last_reported: str = ""
    note: str = ""


@attrs.frozen
class MissingRecord:
    """A battle without a usable record, and why."""

    battle: str
    """Battle slug."""
    reason: str
    """What was found (or not) and why it gives no figures."""


@attrs.frozen
class _File:
    collection: Collection
    battles: Mapping[str, _Record]
    missing: tuple[MissingRecord, ...] = ()


@attrs.frozen
class HumanRecord:
    """One battle's human results, as its scenario page prints them."""

    battle: str
    """Battle slug (``fano``); its data ID is ``ccancients_rome.battle.<slug>``."""
    scenario: str
    """The page's scenario number and title (``420 Fano (271 AD)``)."""
    url: str
    """Address of the scenario page."""
    games: int
    """Plays recorded on the page."""
    side: str
    """The side the page's first figure is for (its TOP ARMY), a side ID of the battle."""
    percent: Mapping[str, int]
    """Side ID -> the page's rounded win percentage, for both sides."""
    last_reported: str = ""
    """The page's 'last reported' date (YYYY-MM-DD), '' where it prints none."""
    note: str = ""

    def rate(self, side: str) -> Fraction:
        """The share of recorded games ``side`` won, as printed (a rounded percentage)."""
        return Fraction(self.percent[side], 100)


@attrs.frozen
class HumanRecords:
    """The whole document: provenance, collection, records in book order, missing battles."""

    meta: Meta
    collection: Collection
    battles: tuple[HumanRecord, ...]
    missing: tuple[MissingRecord, ...] = ()

    def by_battle(self) -> dict[str, HumanRecord]:
        return {r.battle: r for r in self.battles}


def _sides(store: DataStore, slug: str) -> tuple[str, str]:
    b = load_battle(store, BATTLE_PREFIX + slug)
    return side_name(b.top.army), side_name(b.bottom.army)


def load_human_records(store: DataStore) -> HumanRecords:
    """Load and check ``data/human_records.toml`` (or the variant replacing it).

    Raises :class:`ancients_kit.data.DataError` naming the file and the key.
    """
    meta, doc = load_packaged(store, REL, _File)
    file = document_file(store, REL, meta.id)
    known = {bid.removeprefix(BATTLE_PREFIX): bid for bid in list_battles(store)}
    order = {slug: i for i, slug in enumerate(known)}
    records: list[HumanRecord] = []
    for slug, r in doc.battles.items():
        path = f"battles.{slug}"
        if slug not in known:
            raise DataError(file, f"no battle {slug!r} (known: {', '.join(sorted(known))})", path)
        sides = _sides(store, slug)
        if set(r.percent) != set(sides):
            raise DataError(file, f"percent must give both sides of {slug}, {' and '.join(sides)}, "
                                f"not {', '.join(sorted(r.percent)) or 'none'}", path + ".percent")
        if not 99 <= sum(r.percent.values()) <= 101:
            raise DataError(file, f"the two percentages add up to {sum(r.percent.values())}, "
                                "not 100 (99 or 101 after rounding)", path + ".percent")
        if r.side not in sides:
            raise DataError(file, f"side {r.side!r} is not a side of {slug} ({', '.join(sides)})", path + ".side")
        if not r.url.startswith(URL_PREFIX):
            raise DataError(file, f"url {r.url!r} is not a page of {URL_PREFIX}", path + ".url")
        if not r.scenario.strip():
            raise DataError(file, "scenario must give the page's number and title", path + ".scenario")
        records.append(HumanRecord(slug, r.scenario, r.url, r.games, r.side, r.percent, r.last_reported, r.note))
    repeat = first_repeat(m.battle for m in doc.missing)
    if repeat is not None:
        raise DataError(file, f"battle {repeat[1]!r} is listed twice", f"missing[{repeat[0]}].battle")
    for i, m in enumerate(doc.missing):
        if m.battle not in known:
            raise DataError(file, f"no battle {m.battle!r}", f"missing[{i}].battle")
        if m.battle in doc.battles:
            raise DataError(file, f"battle {m.battle!r} is recorded and listed as missing", f"missing[{i}].battle")
        if not m.reason.strip():
            raise DataError(file, "a missing battle must say why", f"missing[{i}].reason")
    records.sort(key=lambda r: order[r.battle])
    if not records:
        raise DataError(file, "no battle is recorded", "battles")
    return HumanRecords(meta, doc.collection, tuple(records), doc.missing)
