"""Packing the HTML replay's data: every repeated string, SVG line and list stored once.

A replay of a strategic campaign shows thousands of positions of one map
with a hundred or two counters each. Written out in full those positions
weigh tens or hundreds of megabytes, although one answer moves a counter or
two and a counter looks the same on every hex. :func:`pack` turns the
replay's plain data into tables that the page's script (:data:`UNPACK_JS`)
expands step by step, back into exactly the same strings::

    packed = pack(frames, steps, events, base=map_lines)   # JSON-ready
    # in the page: unpack(packed) -> {steps, step(k), frame(f), event(i), map()}

The tables, each in order of first use (so the same replay packs to the
same bytes):

``S``
    every distinct string: plain texts and the fragments of the others;
``T``
    every distinct tuple; what a tuple means depends on who refers to it
    (a list of texts, a text with numbers, a counter, a question).

A *text* (an SVG line, a prompt, an option's label, an event) is cut at
every number standing alone in it (a coordinate, a hex number, a cost): its
*skeleton*, the fragments between the numbers, is a tuple of string IDs that
every hex and every cost share, and the text is the tuple ``(skeleton,
number, ...)``. A number is kept as a JSON number when JavaScript's
``String(x)`` writes it back identically (``545``, ``2360.3``) and as its
digits otherwise (``"0948"``), so every text comes back byte for byte. A
reference to a text is ``-1`` for none, ``i >= 0`` for the plain string
``S[i]`` and ``-2 - i`` for the cut text ``T[i]``.

A *piece* (one marker or counter, see
:func:`~ancients_kit.drawing.counter_pieces`) is the tuple of its lines; a
*frame* (the counter layer of one position) is the splices that turn the
frame before it into it. Steps and events are stored column by column,
each value as its difference from the one before (a column that repeats or
climbs is mostly small numbers); a step's events are always those logged
since the step before, so only their number is kept.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

__all__ = ["PACK_VERSION", "UNPACK_JS", "js_number", "pack", "unpack"]

PACK_VERSION = 1
"""Recorded as ``v`` in the packed data; changes whenever the layout does, so a reader can tell them apart."""

_NUMBER = re.compile(r"(?<![\w#.\-])-?\d+(?:\.\d+)?(?![\w.])")
"""A number standing alone (not part of a word, a colour or a longer number)."""

_SAFE = 2**53


def js_number(token: str) -> int | float | None:
    """The number that JavaScript's ``String(x)`` writes back as exactly ``token``, or None.

    ``"545"`` -> 545 and ``"2360.3"`` -> 2360.3, but ``"-0"``, ``"0948"``,
    ``"1.50"``, ``"2.0"`` and numbers too large to hold exactly give None.
    """
    if "." in token:
        v = float(token)
        text = repr(v)
        # JSON keeps 2.0 a float, but the page reads it as the number 2 and writes "2".
        return v if text == token and "e" not in text and abs(v) < 1e15 and not v.is_integer() else None
    n = int(token)
    return n if str(n) == token and abs(n) < _SAFE else None


Hole = int | float | str
"""A number cut out of a text: a JSON number, or its digits when the page could not write it back."""


class _Table:
    """Distinct values in order of first use, each with its index."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self._index: dict[Hashable, int] = {}

    def add(self, value: Hashable) -> int:
        i = self._index.get(value)
        if i is None:
            i = self._index[value] = len(self.items)
            self.items.append(value)
        return i


class _Packer:
    def __init__(self) -> None:
        self.strings = _Table()
        self.tuples = _Table()
        self._texts: dict[str, int] = {}
        self._pieces: dict[str, int] = {}

    def t(self, values: Sequence[Hole]) -> int:
        return self.tuples.add(tuple(values))

    def text(self, text: str | None) -> int:
        """A reference to a text (see the module's docstring)."""
        if text is None:
            return -1
        ref = self._texts.get(text)
        if ref is None:
            fragments: list[str] = []
            holes: list[Hole] = []
            at = 0
            for m in _NUMBER.finditer(text):
                token = m.group()
                v = js_number(token)
                fragments.append(text[at:m.start()])
                holes.append(token if v is None else v)
                at = m.end()
            fragments.append(text[at:])
            if not holes or not any(fragments):  # nothing to share: a plain string is shorter
                ref = self.strings.add(text)
            else:
                ref = -2 - self.t([self.t([self.strings.add(f) for f in fragments]), *holes])
            self._texts[text] = ref
        return ref

    def texts(self, texts: Sequence[str]) -> int:
        return self.t([self.text(x) for x in texts])

    def piece(self, svg: str) -> int:
        i = self._pieces.get(svg)
        if i is None:
            i = self._pieces[svg] = self.texts(svg.split("\n"))
        return i

    def question(self, q: Mapping[str, Any] | None) -> int:
        if q is None:
            return -1
        options = self.t([self.t([self.text(k), self.text(label)]) for k, label in q["options"]])
        return self.t([self.text(q["side"]), self.text(q["prompt"]), self.text(q["rule"]), options,
                       q.get("more", 0)])


def _splices(old: Sequence[int], new: Sequence[int]) -> list[int]:
    """Flat ``[at, deleted, inserted, ids...]`` splices turning ``old`` into ``new``,
    last position first (so each ``at`` still counts in ``old``)."""
    out: list[list[int]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag != "equal":
            out.append([i1, i2 - i1, j2 - j1, *new[j1:j2]])
    return [x for op in reversed(out) for x in op]


def _deltas(values: Sequence[int]) -> list[int]:
    """Each value less the one before (the first as it is): a column whose values
    repeat or climb step by step is mostly small numbers."""
    return [b - a for a, b in zip([0, *values], values)]


def _sums(deltas: Sequence[int]) -> list[int]:
    out: list[int] = []
    v = 0
    for d in deltas:
        v += d
        out.append(v)
    return out


def pack(frames: Sequence[Sequence[str]], steps: Sequence[Mapping[str, Any]],
         events: Sequence[Mapping[str, Any]], *, base: Sequence[str] = ()) -> dict[str, Any]:
    """The replay's data as tables (see the module's docstring), JSON-ready.

    ``frames`` are the counter layers, each as its pieces; ``steps`` have
    ``frame``, ``hl``, ``q``, ``answer``, ``before``, ``status`` and, on the
    last, ``end``; ``events`` have ``text``, ``rules`` and ``kind``; ``base``
    is the static map as SVG lines. ``ValueError`` if a step's events are not
    the ones following the step before's.
    """
    p = _Packer()
    map_lines = [p.text(x) for x in base]
    packed_frames: list[list[int]] = []
    before: list[int] = []
    for f in frames:
        now = [p.piece(x) for x in f]
        packed_frames.append(_splices(before, now))
        before = now
    counts = []
    first = 0
    for st in steps:
        ids = list(st["before"])
        if ids != list(range(first, first + len(ids))):
            raise ValueError(f"step {len(counts)}: its events {ids[:5]}... do not follow on from event {first}")
        counts.append(len(ids))
        first += len(ids)
    if first != len(events):
        raise ValueError(f"the steps show {first} events of {len(events)}")
    columns = {
        "frame": _deltas([st["frame"] for st in steps]),
        "hl": _deltas([p.texts(st["hl"]) for st in steps]),
        "q": _deltas([p.question(st["q"]) for st in steps]),
        "answer": _deltas([p.text(st["answer"]) for st in steps]),
        "events": counts,
        "status": _deltas([p.text(st["status"]) for st in steps]),
        "end": p.text(steps[-1].get("end")) if steps else -1,
    }
    ev = {
        "text": _deltas([p.text(e["text"]) for e in events]),
        "rules": _deltas([p.texts(e["rules"]) for e in events]),
        "kind": _deltas([p.text(e["kind"]) for e in events]),
    }
    return {"v": PACK_VERSION, "S": p.strings.items, "T": [list(t) for t in p.tuples.items], "map": map_lines,
            "frames": packed_frames, "steps": columns, "events": ev}


def _hole_text(v: Hole) -> str:
    return v if isinstance(v, str) else str(v) if isinstance(v, int) else repr(v)


def unpack(packed: Mapping[str, Any]) -> dict[str, Any]:
    """The plain data back from :func:`pack`, as the page's script rebuilds it (for tests):
    ``map`` (SVG lines), ``frames`` (each its pieces), ``steps`` and ``events``."""
    S, T = packed["S"], packed["T"]

    def text(ref: int) -> str | None:
        if ref == -1:
            return None
        if ref >= 0:
            return S[ref]
        t = T[-2 - ref]
        k = T[t[0]]
        return S[k[0]] + "".join(_hole_text(v) + S[f] for v, f in zip(t[1:], k[1:]))

    def texts(i: int) -> list[str]:
        return [text(x) or "" for x in T[i]]

    frames: list[list[str]] = []
    cur: list[int] = []
    for ops in packed["frames"]:
        cur = list(cur)
        j = 0
        while j < len(ops):
            at, deleted, n = ops[j:j + 3]
            cur[at:at + deleted] = ops[j + 3:j + 3 + n]
            j += 3 + n
        frames.append(["\n".join(texts(x)) for x in cur])
    col = {k: v if k in ("events", "end") else _sums(v) for k, v in packed["steps"].items()}
    steps = []
    first = 0
    for k, f in enumerate(col["frame"]):
        qi = col["q"][k]
        q = None
        if qi >= 0:
            side, prompt, rule, options, more = T[qi]
            q = {"side": text(side), "prompt": text(prompt), "rule": text(rule),
                 "options": [[text(a), text(b)] for a, b in (T[o] for o in T[options])], "more": more}
        n = col["events"][k]
        st = {"frame": f, "hl": texts(col["hl"][k]), "q": q, "answer": text(col["answer"][k]),
              "before": list(range(first, first + n)), "status": text(col["status"][k])}
        first += n
        if k == len(col["frame"]) - 1:
            st["end"] = text(col["end"])
        steps.append(st)
    ev = {k: _sums(v) for k, v in packed["events"].items()}
    events = [{"text": text(t), "rules": texts(rs), "kind": text(kd)}
              for t, rs, kd in zip(ev["text"], ev["rules"], ev["kind"])]
    return {"map": [text(i) for i in packed["map"]], "frames": frames, "steps": steps, "events": events}


UNPACK_JS = """
function unpack(P){
  const S = P.S, T = P.T, cut = new Map(), pieces = new Map(), steps = new Map();
  function text(r){
    if (r >= 0) return S[r];
    if (r === -1) return null;
    let v = cut.get(r);
    if (v === undefined) {
      const t = T[-2 - r], k = T[t[0]];
      v = S[k[0]];
      for (let j = 1; j < k.length; j++) v += String(t[j]) + S[k[j]];
      cut.set(r, v);
    }
    return v;
  }
  const texts = i => T[i].map(text);
  function piece(i){
    let v = pieces.get(i);
    if (v === undefined) { v = texts(i).join("\\n"); pieces.set(i, v); }
    return v;
  }
  const frames = [];
  let cur = [];
  for (const ops of P.frames) {
    cur = cur.slice();
    for (let j = 0; j < ops.length; ) {
      const at = ops[j], del = ops[j+1], n = ops[j+2];
      cur.splice(at, del, ...ops.slice(j+3, j+3+n));
      j += 3 + n;
    }
    frames.push(cur);
  }
  const sums = d => { let v = 0; return d.map(x => v += x); };
  const C = {frame: sums(P.steps.frame), hl: sums(P.steps.hl), q: sums(P.steps.q), answer: sums(P.steps.answer),
             status: sums(P.steps.status), events: P.steps.events, end: P.steps.end}, first = [0];
  for (const n of C.events) first.push(first[first.length-1] + n);
  function step(k){
    let v = steps.get(k);
    if (v === undefined) {
      let q = null;
      if (C.q[k] >= 0) {
        const [side, prompt, rule, options, more] = T[C.q[k]];
        q = {side: text(side), prompt: text(prompt), rule: text(rule), more: more,
             options: T[options].map(o => [text(T[o][0]), text(T[o][1])])};
      }
      const before = [];
      for (let i = first[k]; i < first[k+1]; i++) before.push(i);
      v = {frame: C.frame[k], hl: texts(C.hl[k]), q: q, answer: text(C.answer[k]), before: before,
           status: text(C.status[k])};
      if (k === C.frame.length - 1) v.end = text(C.end);
      steps.set(k, v);
    }
    return v;
  }
  const E = {text: sums(P.events.text), rules: sums(P.events.rules), kind: sums(P.events.kind)};
  return {
    steps: C.frame.length,
    step: step,
    frame: f => frames[f].map(piece).join("\\n"),
    event: i => ({text: text(E.text[i]), rules: texts(E.rules[i]), kind: text(E.kind[i])}),
    map: () => P.map.map(text).join("\\n"),
  };
}
"""
"""The page's half of :func:`unpack`, in JavaScript."""
