"""``python -m benchmarks``: run every benchmark and print its figures.

Each ``benchmarks/bench_*.py`` module exposes ``run() -> dict``; figures that
are ratios against a reference measured in the same process (networkx, a
naive implementation, a bare loop) are machine-independent and are the ones
to compare between runs. ``--json`` prints everything as JSON; naming modules
(``python -m benchmarks core movement``) runs only those.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import sys
import time
from pathlib import Path


def main(argv: list[str]) -> int:
    as_json = "--json" in argv
    wanted = [a for a in argv if not a.startswith("-")]
    here = Path(__file__).parent
    names = sorted(m.name for m in pkgutil.iter_modules([str(here)]) if m.name.startswith("bench_"))
    if wanted:
        names = [n for n in names if n.removeprefix("bench_") in wanted or n in wanted]
    results: dict[str, object] = {}
    for name in names:
        mod = importlib.import_module(f"benchmarks.{name}")
        start = time.perf_counter()
        try:
            figures = mod.run()
        except Exception as exc:  # one broken benchmark must not hide the others
            figures = {"error": f"{type(exc).__name__}: {exc}"}
        figures["wall_seconds"] = round(time.perf_counter() - start, 2)
        results[name.removeprefix("bench_")] = figures
        if not as_json:
            print(f"== {name.removeprefix('bench_')}")
            for k, v in figures.items():
                print(f"  {k:42} {v}")
            sys.stdout.flush()
    if as_json:
        print(json.dumps(results, indent=1, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
