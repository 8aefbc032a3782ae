"""Regenerate the document list in docs/sources.md from the games' data headers.

    python docs/tools/build_sources.py          # rewrite the generated block
    python docs/tools/build_sources.py --check  # exit 1 if the page is stale
"""

from __future__ import annotations

import sys
from pathlib import Path

from ancients_kit.cli.listing import data_documents
from ancients_kit.plugin import load_games

PAGE = Path(__file__).resolve().parent.parent / "sources.md"
START, END = "<!-- generated:start -->", "<!-- generated:end -->"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def generated() -> str:
    lines = [START, ""]
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
    lines.append(END)
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    text = PAGE.read_text()
    start, end = text.index(START), text.index(END) + len(END)
    new = text[:start] + generated() + text[end:]
    if "--check" in argv:
        if new != text:
            print("docs/sources.md is stale: run python docs/tools/build_sources.py")
            return 1
        return 0
    PAGE.write_text(new)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
