"""The long profile of the save and answer fuzzing (tests/test_fuzz_saves.py).

The test suite runs a few hundred examples; this runs the same properties with
``ANCIENTS_FUZZ_EXAMPLES`` examples each (default 2,000; set the variable to
change it) in a separate pytest process, and reports how many examples ran and
whether every property held. It is a soak run, not a speed figure.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests" / "test_fuzz_saves.py"


def run() -> dict[str, Any]:
    examples = int(os.environ.get("ANCIENTS_FUZZ_EXAMPLES", "2000"))
    env = {**os.environ, "ANCIENTS_FUZZ_EXAMPLES": str(examples)}
    res = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(TESTS)],
                         cwd=ROOT, env=env, capture_output=True, text=True)
    tail = (res.stdout.strip().splitlines() or [""])[-1]
    return {"examples_per_property": examples, "properties_held": res.returncode == 0, "pytest": tail}
