"""Listings: ``games``, ``scenarios``, ``tables`` and ``rules``."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import click
from rich.markup import escape
from rich.table import Table

from ancients_kit.cli import ui
from ancients_kit.cli.common import variant_option, variant_store
from ancients_kit.data import DataStore, Meta, split_meta
from ancients_kit.plugin import TableInfo, find_game, load_games
from ancients_kit.tables import Provenance, table_provenance

__all__ = ["COMMANDS"]


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
    t = Table("game", "title", "scenarios", title="Installed games")
    for g in games.values():
        t.add_row(g.id, g.title, str(len(g.scenarios(DataStore(g.package)))))
    ui.out.print(t)


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
    t = Table("scenario", "title", "sides", "first", "source", title=f"{g.title}: scenarios")
    for s in infos:
        t.add_row(s.id, s.title, " v ".join(s.sides), s.first, s.meta.source)
    ui.out.print(t)


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
        t = Table(*i.header, title=f"{i.title} ({i.id})")
        for k, row in enumerate(i.rows):
            if cells is None:
                t.add_row(*row)
            else:
                t.add_row(row[0], *(_marked_cell(v, m, prov) for v, m in zip(row[1:], cells[k])))
        ui.out.print(t)
        for code, meaning in i.legend.items():
            ui.out.print(f"  {code}: {meaning}", markup=False)
        ui.out.print(f"[bold]source:[/] {escape(i.meta.source)}; rules: {', '.join(i.meta.rules)}")
        if i.meta.note:
            ui.out.print(f"[bold]note:[/] {escape(i.meta.note)}")
        if prov is not None:
            ui.out.print("[bold]provenance by row and cell[/] (marked cells carry the mark's number):")
            for n, mark in enumerate(prov.marks):
                ui.out.print(f"  {_sup(n + 1)} {mark.describe()}", markup=False)
            ui.out.print(f"  the rest: {prov.document.source}", markup=False)
        return
    t = Table("table", "title", "source", "rules", title=f"{g.title}: tables")
    for i in infos:
        src = i.meta.source if i.meta.source != "reconstructed" else "[yellow]reconstructed[/]"
        if i.id in marked:
            src = _mixed_source(marked[i.id]).replace("reconstructed", "[yellow]reconstructed[/]")
        t.add_row(i.id, i.title, src, ", ".join(i.meta.rules))
    ui.out.print(t)
    ui.out.print("Show one with: ancients tables " + g.id + " TABLE   (its note says what it was built from)")


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
    return " + ".join(sorted(prov.sources_used(), key=("rulebook", "reconstructed", "variant").index))


def _cell_marks(info: TableInfo, prov: Provenance) -> list[list[int | None]] | None:
    """Mark index per shown cell, when the listing shows the table as printed
    (a label column, then one column per table column); None otherwise."""
    width = max(1, len(prov.columns))
    if len(info.header) != width + 1 or not all(r and r[0] in prov.rows and len(r) == width + 1 for r in info.rows):
        return None
    return [[prov.mark_index(r[0], c) for c in range(width)] for r in info.rows]


def _marked_cell(value: str, mark: int | None, prov: Provenance) -> str:
    if mark is None:
        return value
    text = f"{value}{_sup(mark + 1)}"
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
    t = Table("rule", "title", "implemented in", "tested in", title=f"{g.title}: rules")
    for row in rows:
        t.add_row(
            row["id"],
            row["title"],
            ", ".join(row["implemented_in"]) or "[red]-[/]",
            ", ".join(row["tested_in"]) or "[red]-[/]",
        )
    ui.out.print(t)
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
    t = Table("game", "document", "source", "note", title="Data documents and their provenance")
    for r in rows:
        note = r["note"].strip().replace("\n", " ")
        marked_source = r["source"]
        if r["cells"] is not None:
            marked_source = f"{r['source']} ({r['cells']})"
        t.add_row(r["game"], r["id"], marked_source, note[:160] + ("..." if len(note) > 160 else ""))
    ui.out.print(t)


COMMANDS.append(sources_cmd)
