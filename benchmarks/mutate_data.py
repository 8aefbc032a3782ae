"""``python -m benchmarks.mutate_data [EXAMPLES] [SEED]``: the long run of the data mutations.

Draws ``EXAMPLES`` (default 500) mutated documents as ``tests/test_mutate_data.py``
does, but from a seeded ``random.Random`` and without shrinking, and goes on
after a failure: at the end it prints each distinct defect once (the
exception and the line of ours it came from) with the first mutation that
found it and how many examples hit it. Exit code 1 when any did. Not a
benchmark: it measures nothing, which is why its name does not start with
``bench_``.
"""

from __future__ import annotations

import random
import sys
import tempfile
import traceback
from pathlib import Path


def _where(exc: BaseException) -> str:
    """The innermost frame of the project's own code (not a test's) that the exception passed."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if "/.venv/" not in f.filename and "/tests/" not in f.filename and "/benchmarks/" not in f.filename]
    f = frames[-1] if frames else traceback.extract_tb(exc.__traceback__)[-1]
    return f"{Path(f.filename).name}:{f.lineno}"


def main(argv: list[str]) -> int:
    from ancients_kit.data import DataError
    from tests import test_mutate_data as m
    from tests.test_fuzz_variants import assert_refused_cleanly, fresh_folder, toml_document, write_variant

    examples = int(argv[0]) if argv else 500
    rng = random.Random(int(argv[1]) if len(argv) > 1 else 0)
    defects: dict[str, list[str]] = {}
    refused = played = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(examples):
            game, rel, data_id, scenario = rng.choice(rng.choice(m.GROUPS))
            done, doc = m.mutate(rng.choice, game, rel, rng.randint(1, 3))
            seed, bot = rng.randint(1, 3), rng.choice(["random", "greedy"])
            folder = fresh_folder(Path(tmp) / "mutated")
            variant = write_variant(folder, data_id, toml_document(doc))
            what = f"#{n} {game} {rel} seed {seed} {bot}: {'; '.join(done)}"
            try:
                with m.deadline(m.DEADLINE):
                    m.start_and_play(game, scenario, variant, seed, bot)
                played += 1
            except DataError as exc:
                try:
                    assert_refused_cleanly(exc, folder)
                    refused += 1
                except AssertionError:
                    defects.setdefault(f"DataError not naming the variant: {exc.file}", []).append(f"{what} -> {exc}")
            except BaseException as exc:  # noqa: BLE001 - every other failure is what the run looks for
                if isinstance(exc, KeyboardInterrupt):
                    raise
                cause = exc.__cause__ if isinstance(exc, AssertionError) and exc.__cause__ else exc
                key = f"{type(cause).__name__} at {_where(cause)}"
                defects.setdefault(key, []).append(f"{what} -> {str(exc)[:300]}")
            print(f"\r{n + 1}/{examples}: {refused} refused, {played} played, {len(defects)} defects",
                  end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(f"{examples} examples: {refused} refused with a DataError, {played} played, {len(defects)} distinct defects")
    for key, hits in sorted(defects.items(), key=lambda kv: -len(kv[1])):
        print(f"\n{key} ({len(hits)} examples)\n  {hits[0]}")
    return 1 if defects else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
