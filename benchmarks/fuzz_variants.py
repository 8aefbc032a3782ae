"""``python -m benchmarks.fuzz_variants [EXAMPLES]``: the long fuzzing profile of variant files.

Runs ``tests/test_fuzz_variants.py`` with ``EXAMPLES`` (default 500) examples
per property, randomised (the suite's short run is derandomised and takes
well under a minute). Exit code is pytest's. Not a benchmark: it measures
nothing, which is why its name does not start with ``bench_``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    import pytest

    examples = argv[0] if argv and argv[0].isdigit() else "500"
    os.environ["ANCIENTS_FUZZ_EXAMPLES"] = examples
    test = Path(__file__).resolve().parents[1] / "tests" / "test_fuzz_variants.py"
    return int(pytest.main(["-q", "-p", "no:cacheprovider", str(test), *[a for a in argv if not a.isdigit()]]))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
