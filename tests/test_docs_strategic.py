"""The strategic-game examples of docs/architecture.md run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.rule("ldf:6.5", "xen:combat", "xen:diplomacy")
def test_strategic_pieces_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ``python`` block of "Strategic games" executes, in order, in one namespace."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    start = text.index("## Strategic games: typed map data, exact walks, provenance per cell")
    end = text.index("\n## ", start + 1)
    blocks = re.findall(r"```python\n(.*?)```", text[start:end], re.S)
    assert len(blocks) == 3
    monkeypatch.chdir(ROOT)
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, "docs/architecture.md", "exec"), namespace)
