"""The log's digest is carried forward as the log grows, and equals a digest of the whole."""

from __future__ import annotations

import copy
import hashlib
import json
import pickle

from hypothesis import given
from hypothesis import strategies as st

from ancients_kit.log import Event, Log


def _from_scratch(log: Log) -> str:
    h = hashlib.sha256()
    for e in log:
        h.update(json.dumps(e.to_json(None), sort_keys=True, default=str).encode())
        h.update(b"\n")
    return h.hexdigest()


@given(st.lists(st.tuples(st.text(max_size=5), st.booleans()), max_size=12), st.integers(0, 12))
def test_incremental_digest_matches_the_whole_stream(steps: list[tuple[str, bool]], cut: int) -> None:
    log = Log()
    for text, ask in steps:
        log.append(Event("x", text, ("r",), dice=(1,) if ask else ()))
        if ask:
            assert log.digest() == _from_scratch(log)
    assert log.digest() == _from_scratch(log)
    part = log.copy(cut)
    part.append(Event("y", "after the cut"))
    assert part.digest() == _from_scratch(part)
    assert log.digest() == _from_scratch(log)  # the copy's appends never reach the original
    for other in (pickle.loads(pickle.dumps(log)), copy.deepcopy(log), log.copy()):
        assert other.digest() == log.digest() and list(other) == list(log)
