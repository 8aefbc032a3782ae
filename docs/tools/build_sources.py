"""Regenerate the document list in docs/sources.md from the games' data headers.

    python docs/tools/build_sources.py          # rewrite the generated block
    python docs/tools/build_sources.py --check  # exit 1 if the page is stale
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generated_block import update  # noqa: E402

from ancients_kit.cli.listing import data_documents
from ancients_kit.data import DataStore
from ancients_kit.plugin import load_games
from ancients_kit.tables import table_provenance

PAGE = Path(__file__).resolve().parent.parent / "sources.md"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def generated() -> str:
    lines: list[str] = []
    for gid, game in load_games().items():
        if not game.package.startswith("ancients_games."):
            continue
        docs = data_documents(game.package)
        lines += [f"### {game.title}", "", f"{len(docs)} documents; "
                  f"{sum(1 for _, m in docs if m.source == 'reconstructed')} reconstructed.", ""]
        lines += ["| document | file | source | rules | what it was built from |", "|---|---|---|---|---|"]
        for rel, meta in docs:
            rules = ", ".join(meta.rules[:4]) + (" ..." if len(meta.rules) > 4 else "")
            lines.append(f"| `{meta.id}` | `{rel}` | {meta.source} | {rules} | {_cell(meta.note)} |")
        lines.append("")
        lines += provenance_lines(game.package)
    return "\n".join(lines).rstrip("\n")


def provenance_lines(package: str) -> list[str]:
    """A list of the package's tables that mark rows or cells (``[[provenance]]``):
    which rows or cells come from the rulebook and which are reconstructed.
    Empty when no table does."""
    store = DataStore(package)
    lines: list[str] = []
    for rel, meta in data_documents(package):
        prov = table_provenance(store, rel)
        if prov is None:
            continue
        if not lines:
            lines += ["Tables whose rows or cells do not all share the document's source:", ""]
        lines.append(f"- `{meta.id}` (`{rel}`): {_cell(prov.summary())}")
        for mark in prov.marks:
            lines.append(f"  - {_cell(mark.describe())}")
        lines.append(f"  - the rest: {prov.document.source} (the document's own source)")
    return lines + [""] if lines else []


def main(argv: list[str]) -> int:
    return update(PAGE, generated(), argv)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
