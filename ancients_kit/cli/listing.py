"""Listings: ``games``, ``scenarios``, ``tables``, ``rules`` and ``sources``.

A listing never cuts a name the user must type next (a game, a scenario, a
table, a data ID for a variant's ``replace``, a rule ID): those columns do not
wrap and are as wide as their longest name, at 80 columns, in a pipe or at any
width; the other columns wrap between words (and fold a word too long for
them) instead of ending in an ellipsis. ``--json`` gives the same data whole.
"""

from __future__ import annotations

import io
import re
from collections.abc import Collection
from importlib import resources
from pathlib import Path

import click
from rich.cells import cell_len
from rich.console import Console
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from ancients_kit.cli import ui
from ancients_kit.cli.common import variant_option, variant_store
from ancients_kit.data import DataStore, Meta, split_meta
from ancients_kit.plugin import TableInfo, find_game, load_games
from ancients_kit.tables import Provenance, table_provenance
from ancients_kit.text import markup

__all__ = ["COMMANDS", "Listing", "variant_of"]


class Listing:
    """A listing's table that never cuts a name the user must type.

    The columns in ``names`` hold such names (games, scenarios, table and data
    IDs, rule IDs): they never wrap and are as wide as their longest entry.
    Every other column wraps between words and is at least as wide as its
    longest word, so no word is cut either. When the console is too narrow for
    that, the listing is printed as one block a row instead: the names on one
    line, then each other column as ``header: value``.
    """

    def __init__(self, title: str, *headers: str, names: Collection[str], caption: str = "") -> None:
        self.title = title
        """Plain text (not markup), as is ``caption`` (a line under the listing)."""
        self.caption = caption
        self.headers = headers
        self.names = frozenset(names)
        self.rows: list[tuple[str, ...]] = []
        """Cells as rich markup (escape plain text)."""

    def add_row(self, *cells: str) -> None:
        """One row: ``cells`` in the order of the headers, as markup."""
        self.rows.append(cells)

    def _min_widths(self) -> list[int]:
        widths = []
        for k, h in enumerate(self.headers):
            texts = [Text.from_markup(r[k]).plain for r in self.rows] + [h]
            if h in self.names:
                widths.append(max(cell_len(x) for x in texts))
            else:
                widths.append(max((cell_len(w) for x in texts for w in x.split()), default=1))
        return widths

    def table(self) -> Table:
        """The listing as a rich table (names unwrapped, other columns at least a word wide)."""
        t = Table(title=markup(self.title), caption=markup(self.caption) or None)
        for h, w in zip(self.headers, self._min_widths()):
            if h in self.names:
                t.add_column(h, no_wrap=True, min_width=w)
            else:
                t.add_column(h, min_width=w)
        for r in self.rows:
            t.add_row(*r)
        return t

    def fits(self, width: int) -> bool:
        """Whether the table form fits ``width`` columns without cutting a word: drawn
        at that width, every word of every cell is there whole."""
        if sum(self._min_widths()) + 3 * len(self.headers) + 1 > width:
            return False
        probe = Console(width=width, file=io.StringIO(), color_system=None, highlight=False)
        probe.print(self.table(), crop=False)
        drawn = probe.file.getvalue()
        if any(cell_len(line) > width for line in drawn.splitlines()):
            return False
        return all(w in drawn for r in self.rows for cell in r for w in Text.from_markup(cell).plain.split())

    def print(self, console: Console) -> None:
        """The table if it fits the console, else one block a row."""
        if self.fits(console.width):
            console.print(self.table())
            return
        console.print(f"[bold]{markup(self.title)}[/]")
        first = [k for k, h in enumerate(self.headers) if h in self.names] or [0]
        for r in self.rows:
            console.print("  ".join(f"[bold]{r[k]}[/]" for k in first), soft_wrap=True)
            for k, h in enumerate(self.headers):
                if k not in first and Text.from_markup(r[k]).plain.strip():
                    block = Padding(Text.from_markup(f"{markup(h)}: {r[k]}"), (0, 0, 0, 4), expand=False)
                    for line in console.render_lines(block, pad=False):  # no trailing blanks in a pipe
                        text = Text.assemble(*((s.text, s.style) for s in line if not s.control))
                        text.rstrip()
                        console.print(text)
        if self.caption:
            console.print(markup(self.caption))


def variant_of(store: DataStore, data_id: str) -> str | None:
    """The path (as given) of the variant file that replaces the document ``data_id``, if one does."""
    hit = store.override(data_id)
    return hit[0].path if hit is not None else None


def _source_of(store: DataStore, meta: Meta) -> str:
    """Where a listed document comes from: its ``meta.source``, or ``variant FILE`` for a
    document a designer's variant file replaces (whatever the ``[meta]`` it copied says)."""
    path = variant_of(store, meta.id)
    return meta.source if path is None else f"variant {path}"


@click.command("games")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def games_cmd(as_json: bool) -> None:
    """List the installed games."""
    games = load_games()
    if as_json:
        ui.print_json(
            [{"id": g.id, "title": g.title, "scenarios": len(g.scenarios(DataStore(g.package)))} for g in games.values()]
        )
        return
    t = Listing("Installed games", "game", "title", "scenarios", names={"game"})
    for g in games.values():
        t.add_row(markup(g.id), markup(g.title), str(len(g.scenarios(DataStore(g.package)))))
    t.print(ui.out)


@click.command("scenarios")
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@variant_option
def scenarios_cmd(game: str, as_json: bool, variant: tuple[str, ...]) -> None:
    """List a game's scenarios with their sides and provenance."""
    g = find_game(game)
    store = variant_store(g.package, variant)
    infos = g.scenarios(store)
    if as_json:
        ui.print_json(
            [
                {
                    "id": s.id,
                    "title": s.title,
                    "sides": list(s.sides),
                    "first": s.first,
                    "turns": s.turns,
                    "source": s.meta.source,
                    "rules": list(s.meta.rules),
                    "summary": s.summary,
                }
                for s in infos
            ]
        )
        return
    t = Listing(f"{g.title}: scenarios", "scenario", "title", "sides", "source", names={"scenario"},
                caption="* moves first")
    for s in infos:
        sides = " v ".join(f"{side}*" if side == s.first else side for side in s.sides)
        t.add_row(markup(s.id), markup(s.title), markup(sides), markup(_source_of(store, s.meta)))
    t.print(ui.out)


@click.command("tables")
@click.argument("game")
@click.argument("table", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@variant_option
def tables_cmd(game: str, table: str | None, as_json: bool, variant: tuple[str, ...]) -> None:
    """List a game's tables with their provenance, or show one TABLE."""
    g = find_game(game)
    store = variant_store(g.package, variant)
    infos = g.tables(store)
    if table:
        hits = [i for i in infos if i.id == table or i.id.endswith("." + table)]
        if not hits:  # the data file's name as the docs write it: crt_melee for centurion.crt.melee
            dotted = table.replace("_", ".")
            hits = [i for i in infos if i.id.endswith("." + dotted)]
        if not hits:
            raise ui.UsageProblem(f"{g.id} has no table {table!r} (tables: {', '.join(i.id for i in infos)})")
        infos = hits[:1]
    marked = marked_tables(store)
    if as_json:
        ui.print_json(
            [
                {
                    "id": i.id,
                    "title": i.title,
                    "source": i.meta.source,
                    "rules": list(i.meta.rules),
                    "note": i.meta.note,
                    "sources": list(i.meta.sources),
                    "header": list(i.header),
                    "rows": [list(r) for r in i.rows],
                    "legend": dict(i.legend),
                    "provenance": _provenance_json(i, marked.get(i.id)),
                }
                for i in infos
            ]
        )
        return
    if table:
        i = infos[0]
        prov = marked.get(i.id)
        cells = _cell_marks(i, prov) if prov is not None else None
        t = Table(*map(markup, i.header), title=markup(f"{i.title} ({i.id})"))
        for k, row in enumerate(i.rows):
            if cells is None:
                t.add_row(*map(markup, row))
            else:
                t.add_row(markup(row[0]), *(_marked_cell(v, m, prov) for v, m in zip(row[1:], cells[k])))
        ui.out.print(t)
        for code, meaning in i.legend.items():
            ui.out.print(f"  {code}: {meaning}", markup=False)
        source = i.meta.source
        path = variant_of(store, i.meta.id)
        if path is not None:
            source = f"variant {path}, replacing the game's {i.meta.id}" + (
                f" (the replacement's own meta.source: {i.meta.source})" if i.meta.source != "variant" else "")
        ui.out.print(f"[bold]source:[/] {markup(source)}; rules: {markup(', '.join(i.meta.rules))}")
        if i.meta.note:
            ui.out.print(f"[bold]note:[/] {markup(i.meta.note)}")
        if prov is not None:
            ui.out.print("[bold]provenance by row and cell[/] (marked cells carry the mark's number):")
            for n, mark in enumerate(prov.marks):
                ui.out.print(f"  {_sup(n + 1)} {mark.describe()}", markup=False)
            ui.out.print(f"  the rest: {prov.document.source}", markup=False)
        return
    t = Listing(f"{g.title}: tables", "table", "title", "source", "rules", names={"table"})
    for i in infos:
        src = markup(i.meta.source) if i.meta.source != "reconstructed" else "[yellow]reconstructed[/]"
        if i.id in marked:
            src = markup(_mixed_source(marked[i.id])).replace("reconstructed", "[yellow]reconstructed[/]")
        if variant_of(store, i.meta.id) is not None:
            src = markup(_source_of(store, i.meta))
        t.add_row(markup(i.id), markup(i.title), src, markup(", ".join(i.meta.rules)))
    t.print(ui.out)
    ui.out.print(f"Show one with: ancients tables {markup(g.id)} TABLE   (its note says what it was built from)")


_SUPERSCRIPT = "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"


def _sup(n: int) -> str:
    """``n`` in superscript digits: the number of a provenance mark beside a cell."""
    return "".join(_SUPERSCRIPT[int(d)] for d in str(n))


def marked_tables(store: DataStore) -> dict[str, Provenance]:
    """Data ID -> provenance of every table document of the store's game that
    marks rows or cells (``[[provenance]]``), variant replacements honoured."""
    out: dict[str, Provenance] = {}
    for rel in store.listing():
        doc = store.raw(rel)
        if "meta" not in doc or "table" not in doc:
            continue
        prov = table_provenance(store, rel)
        if prov is not None:
            out[split_meta(doc, file=store.path(rel))[0].id] = prov
    return out


def _mixed_source(prov: Provenance) -> str:
    """Every source some cell of a partly printed table has: ``rulebook + reconstructed``."""
    return " + ".join(sorted(prov.sources_used(), key=("rulebook", "reconstructed", "variant", "observed").index))


def _cell_marks(info: TableInfo, prov: Provenance) -> list[list[int | None]] | None:
    """Mark index per shown cell, when the listing shows the table as printed
    (a label column, then one column per table column); None otherwise."""
    width = max(1, len(prov.columns))
    if len(info.header) != width + 1 or not all(r and r[0] in prov.rows and len(r) == width + 1 for r in info.rows):
        return None
    return [[prov.mark_index(r[0], c) for c in range(width)] for r in info.rows]


def _marked_cell(value: str, mark: int | None, prov: Provenance) -> str:
    """A cell as markup: its value, then its mark's number, yellow when reconstructed."""
    if mark is None:
        return markup(value)
    text = f"{markup(value)}{_sup(mark + 1)}"
    return f"[yellow]{text}[/]" if prov.marks[mark].source == "reconstructed" else text


def _provenance_json(info: TableInfo, prov: Provenance | None) -> dict[str, object] | None:
    if prov is None:
        return None
    cells = _cell_marks(info, prov)
    return {
        "summary": prov.summary(),
        "document": prov.document.source,
        "marks": [
            {"source": m.source, "note": m.note, "sources": list(m.sources), "rows": list(m.rows),
             "columns": list(m.columns), "entries": list(m.entries)}
            for m in prov.marks
        ],
        "cells": None if cells is None else [
            [prov.document.source if m is None else prov.marks[m].source for m in row] for row in cells
        ],
    }


_RULE_MARK = re.compile(r"mark\.rule\(([^)]*)\)")
_RULE_ID = re.compile(r"[\"']?\b([a-z]+:[A-Za-z0-9_.\-]+[A-Za-z0-9])")


def rule_usage(package: str, prefix: str) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Which modules of ``package`` cite each rule ID, split into code and tests."""
    code: dict[str, set[str]] = {}
    tests: dict[str, set[str]] = {}
    root = Path(str(resources.files(package)))
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        text = path.read_text("utf-8", errors="replace")
        is_test = "tests/" in rel or path.name.startswith("test_")
        if is_test:
            for args in _RULE_MARK.findall(text):
                for rid in _RULE_ID.findall(args):
                    tests.setdefault(rid, set()).add(rel)
        else:
            for rid in _RULE_ID.findall(text):
                if rid.startswith(prefix + ":"):
                    code.setdefault(rid, set()).add(rel)
    return code, tests


@click.command("rules")
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--missing", is_flag=True, help="Only rules no code or no test cites yet.")
def rules_cmd(game: str, as_json: bool, missing: bool) -> None:
    """A game's rule index: what implements and what tests each rule."""
    g = find_game(game)
    index = g.rules_index()
    code, tests = rule_usage(g.package, g.rule_prefix)
    rows = []
    for r in index:
        impl = sorted(code.get(r.id, ()))
        tst = sorted(tests.get(r.id, ()))
        if missing and impl and tst:
            continue
        rows.append({"id": r.id, "title": r.title, "line": r.line, "implemented_in": impl, "tested_in": tst})
    if as_json:
        ui.print_json(rows)
        return
    t = Listing(f"{g.title}: rules", "rule", "title", "implemented in", "tested in", names={"rule"})
    for row in rows:
        t.add_row(
            markup(row["id"]),
            markup(row["title"]),
            markup(", ".join(row["implemented_in"])) or "[red]-[/]",
            markup(", ".join(row["tested_in"])) or "[red]-[/]",
        )
    t.print(ui.out)
    done = sum(1 for r in index if code.get(r.id) and tests.get(r.id))
    ui.out.print(f"{done}/{len(index)} rules both implemented and tested")


COMMANDS = [games_cmd, scenarios_cmd, tables_cmd, rules_cmd]


def data_documents(package: str) -> list[tuple[str, Meta]]:
    """Every data document of a game package with its provenance header."""
    store = DataStore(package)
    docs: list[tuple[str, Meta]] = []
    for rel in store.listing():
        doc = store.raw(rel)
        if "meta" not in doc:
            continue  # e.g. the copy of the rule index, which is not game data
        meta, _ = split_meta(doc, file=store.path(rel))
        docs.append((rel, meta))
    return docs


@click.command("sources")
@click.argument("game", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--reconstructed", is_flag=True, help="Only documents that are reconstructed.")
def sources_cmd(game: str | None, as_json: bool, reconstructed: bool) -> None:
    """Every data document (tables, maps, units, scenarios) and where it comes from."""
    games = [find_game(game)] if game else list(load_games().values())
    rows = []
    for g in games:
        marked = marked_tables(DataStore(g.package))
        for rel, meta in data_documents(g.package):
            prov = marked.get(meta.id)
            used = prov.sources_used() if prov is not None else {meta.source}
            if reconstructed and "reconstructed" not in used:
                continue
            rows.append({"game": g.id, "file": rel, "id": meta.id, "source": meta.source,
                         "rules": list(meta.rules), "note": meta.note, "sources": list(meta.sources),
                         "cells": prov.summary() if prov is not None else None})
    if as_json:
        ui.print_json(rows)
        return
    t = Listing("Data documents and their provenance", "game", "document", "source", "note",
                names={"game", "document"})
    for r in rows:
        note = r["note"].strip().replace("\n", " ")
        marked_source = r["source"]
        if r["cells"] is not None:
            marked_source = f"{r['source']} ({r['cells']})"
        t.add_row(markup(r["game"]), markup(r["id"]), markup(marked_source), markup(note[:160] + ("..." if len(note) > 160 else "")))
    t.print(ui.out)


COMMANDS.append(sources_cmd)
