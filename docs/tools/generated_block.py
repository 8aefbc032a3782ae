"""Shared by the page generators: replace the block between the markers, or check it."""

from __future__ import annotations

import sys
from pathlib import Path

START, END = "<!-- generated:start -->", "<!-- generated:end -->"


def update(page: Path, block: str, argv: list[str]) -> int:
    """Write ``block`` between the markers of ``page``; with ``--check`` only compare.

    Returns the exit status: 1 if ``--check`` finds the page stale.
    """
    text = page.read_text()
    start, end = text.index(START), text.index(END) + len(END)
    new = text[:start] + "\n".join([START, "", block, "", END]) + text[end:]
    if "--check" in argv:
        if new != text:
            tool = Path(sys.argv[0]).name if sys.argv and sys.argv[0].endswith(".py") else "its generator"
            print(f"{page.name} is stale: run python docs/tools/{tool}")
            return 1
        return 0
    page.write_text(new)
    return 0
