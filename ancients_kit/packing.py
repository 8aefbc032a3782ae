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

The page then carries that JSON *squeezed* (:func:`squeeze`): every run of
six or more characters that already appeared earlier in it is replaced by a
short back-reference. A strategic game asks thousands of questions whose
option lists differ from an earlier list by an option or two; the tables
alone cannot share those, the back-references do. The squeezing is this
module's own (plain LZ77, no entropy coding, no zlib): the same JSON always
squeezes to the same characters, on every machine, and the page's script
expands it synchronously before parsing (:data:`UNPACK_JS`), from a
``file://`` URL as from anywhere.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

__all__ = ["PACK_VERSION", "UNPACK_JS", "as_read", "js_number", "pack", "squeeze", "unpack", "unsqueeze"]

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


def as_read(steps: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """``steps`` as :func:`unpack` and the page give them back: without the step number
    ``n`` (it is the step's place), a question's ``more`` always there (0 when absent)."""
    out = []
    for st in steps:
        st = {k: v for k, v in st.items() if k != "n"}
        if st["q"] is not None:
            st["q"] = {**st["q"], "more": st["q"].get("more", 0)}
        out.append(st)
    return out


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


# -- squeezing: back-references to earlier runs of the JSON text ------------------------------

_DIGITS = "".join(c for c in map(chr, range(0x21, 0x7F)) if c not in "<`")
"""The characters of a squeezed number: printable ASCII, no ``<`` (so that no ``</`` or
``<!--`` can form in a <script> element) and no backquote (the mark of a back-reference)."""
_BASE = len(_DIGITS) // 2
_LAST, _MORE = _DIGITS[:_BASE], _DIGITS[_BASE:]
"""A number is written in base 46, most significant digit first: the last digit
from ``_LAST``, the ones before it from ``_MORE`` (so a number ends itself)."""
_VALUE = {c: i for i, c in enumerate(_LAST)} | {c: i for i, c in enumerate(_MORE)}
_MARK = "`"
_MIN = 6
"""The shortest run worth a back-reference (a reference takes four or five characters)."""


def _number(n: int) -> str:
    digits = _LAST[n % _BASE]
    n //= _BASE
    while n:
        digits = _MORE[n % _BASE] + digits
        n //= _BASE
    return digits


def squeeze(text: str) -> str:
    """``text`` (ASCII, as ``json.dumps`` writes it) with earlier runs replaced by back-references.

    The result is the length of ``text`` (a number, see ``_number``), then
    ``text`` itself except that a run of ``_MIN`` or more characters found
    earlier is written `` `LD``: the mark, the run's length less ``_MIN`` and
    how far back it starts (its source may overlap it); a backquote of
    ``text`` is written `` `!!`` (distance 0). Matching is greedy, against
    the latest earlier occurrence of the next six characters: plain Python,
    so the same text squeezes to the same characters everywhere. Neither
    ``</`` nor ``<!--`` appears in the result unless it is in ``text``.
    """
    if not text.isascii():
        raise ValueError("squeeze() takes ASCII text (json.dumps with ensure_ascii)")
    out = [_number(len(text))]
    latest: dict[str, int] = {}
    n = len(text)
    end = n - _MIN  # the last position where a run of _MIN can start
    i = literal = 0
    while i <= end:
        key = text[i:i + _MIN]
        at = latest.get(key)
        latest[key] = i
        if at is None:
            i += 1
            continue
        length = _MIN
        while i + length + 32 <= n and text[at + length:at + length + 32] == text[i + length:i + length + 32]:
            length += 32
        while i + length < n and text[at + length] == text[i + length]:
            length += 1
        if literal < i:
            out.append(text[literal:i].replace(_MARK, _MARK + _LAST[0] * 2))
        out.append(_MARK + _number(length - _MIN) + _number(i - at))
        for j in range(i + 1, min(i + length, end + 1)):
            latest[text[j:j + _MIN]] = j
        i += length
        literal = i
    out.append(text[literal:].replace(_MARK, _MARK + _LAST[0] * 2))
    return "".join(out)


def unsqueeze(squeezed: str) -> str:
    """The text back from :func:`squeeze` (the Python twin of the page's ``unsqueeze``)."""

    def number(at: int) -> tuple[int, int]:
        v = 0
        while squeezed[at] in _MORE:
            v = v * _BASE + _VALUE[squeezed[at]]
            at += 1
        return v * _BASE + _VALUE[squeezed[at]], at + 1

    size, i = number(0)
    out = bytearray()
    while True:
        k = squeezed.find(_MARK, i)
        out += squeezed[i:len(squeezed) if k < 0 else k].encode("ascii")
        if k < 0:
            break
        length, i = number(k + 1)
        back, i = number(i)
        if back == 0:
            out += _MARK.encode("ascii")
            continue
        length += _MIN
        start = len(out) - back
        if back >= length:
            out += out[start:start + length]
        else:  # the run repeats its own beginning
            for j in range(start, start + length):
                out.append(out[j])
    if len(out) != size:
        raise ValueError(f"the squeezed text gives {len(out)} characters, not {size}")
    return out.decode("ascii")


UNPACK_JS = """
function unsqueeze(s){
  const DIGITS = DIGITS_HERE, BASE = DIGITS.length / 2, MARK = 96, MIN = MIN_HERE, value = new Int32Array(128).fill(-1);
  for (let j = 0; j < DIGITS.length; j++) value[DIGITS.charCodeAt(j)] = j;
  let i = 0;
  function number(){
    let v = 0, d;
    while ((d = value[s.charCodeAt(i++)]) >= BASE) v = v * BASE + d - BASE;
    return v * BASE + d;
  }
  const size = number(), out = new Uint8Array(size);
  let o = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c !== MARK) { out[o++] = c; i++; continue; }
    i++;
    const length = number() + MIN, back = number();
    if (back === 0) { out[o++] = MARK; continue; }
    for (let j = o - back, e = j + length; j < e; j++) out[o++] = out[j];
  }
  if (o !== size) throw new Error("the squeezed data gives " + o + " characters, not " + size);
  return new TextDecoder("ascii").decode(out);
}
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
"""The page's half of :func:`unpack` and :func:`unsqueeze`, in JavaScript."""

UNPACK_JS = UNPACK_JS.replace("DIGITS_HERE", json.dumps(_DIGITS)).replace("MIN_HERE", str(_MIN))
