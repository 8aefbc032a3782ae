"""Data text on its way out: one escaping rule per output.

Every string a data file, a save or a variant supplies (scenario titles, unit,
leader and action names, log text) is hostile until proven otherwise. Each of
the three outputs has one rule, applied here and nowhere else:

- **terminal** (:func:`clean`, :func:`markup`): control characters (C0 except
  newline and tab, DEL, C1) are replaced by a visible mark, so data can never
  move the cursor, clear the screen or ring the bell; text that goes into rich
  markup is escaped as well, so ``[revised]`` stays on the screen and ``[/]``
  cannot end a style (or raise). The CLI's consoles also clean every segment
  they write (:mod:`ancients_kit.cli.ui`), so a print site that forgets still
  writes no ESC byte.
- **HTML** (:func:`script_json`): data embedded in a ``<script>`` element is JSON
  with ``<``, ``>``, ``&``, U+2028 and U+2029 written as ``\\u`` escapes: the
  block holds no ``<`` at all, so no data string can end the script or open a
  comment that swallows the next one.
- **XML/SVG** (:func:`xml`, :func:`xml_attr`): characters XML 1.0 does not
  allow (and the other control characters) are dropped and ``& < >`` written as
  entities (in an attribute the double quote and white space too, as
  ``quoteattr`` does), so the result is well-formed for any data.

The helpers are pure functions on strings; they name no game.
"""

from __future__ import annotations

import json
import re
from typing import Any

from rich.markup import escape as _rich_escape

__all__ = ["CONTROL", "clean", "markup", "script_json", "xml", "xml_attr"]

CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""The control characters no terminal text may carry: C0 but newline and tab, DEL, C1."""


def _mark(m: re.Match[str]) -> str:
    c = ord(m.group())
    if c < 0x20:
        return chr(0x2400 + c)  # the control picture: ESC -> U+241B, BEL -> U+2407
    if c == 0x7F:
        return "\u2421"
    return "\ufffd"  # C1 has no pictures


def clean(text: object) -> str:
    """``text`` as a string fit for a terminal: each control character (:data:`CONTROL`)
    replaced by one visible character (its Unicode control picture, U+FFFD for C1)."""
    s = str(text)
    return CONTROL.sub(_mark, s) if CONTROL.search(s) else s


def markup(text: object) -> str:
    """``text`` :func:`clean`\\ ed and escaped for rich markup: the way data enters a markup
    string (``f"[bold]{markup(name)}[/]"``); never put data into markup without it."""
    return _rich_escape(clean(text))


_SCRIPT_UNSAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
_SCRIPT_RE = re.compile("[<>&\u2028\u2029]")


def script_json(data: Any, **dumps: Any) -> str:
    """``data`` as JSON safe inside an HTML ``<script>`` element: ``<``, ``>``, ``&`` and the
    two line separators JavaScript once refused in strings are ``\\u`` escapes (they can only
    occur inside JSON strings, where the escape reads back the same character)."""
    return _SCRIPT_RE.sub(lambda m: _SCRIPT_UNSAFE[m.group()], json.dumps(data, **dumps))


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
"""What :func:`xml` drops: characters XML 1.0 forbids (C0 but tab, newline and carriage
return; lone surrogates; U+FFFE, U+FFFF) and the discouraged DEL and C1 controls."""
_XML_TEXT = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_XML_ATTR = _XML_TEXT | {'"': "&quot;", "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"}
_XML_TEXT_RE = re.compile("[&<>]")
_XML_ATTR_RE = re.compile("[&<>\"\n\r\t]")


def xml(text: object) -> str:
    """``text`` for XML (SVG, HTML) character data: forbidden characters dropped, ``& < >``
    written as entities."""
    return _XML_TEXT_RE.sub(lambda m: _XML_TEXT[m.group()], _NOT_XML.sub("", str(text)))


def xml_attr(text: object) -> str:
    """``text`` for an XML attribute value in double quotes: as :func:`xml`, and the quote and
    the white space an attribute would normalise written as references."""
    return _XML_ATTR_RE.sub(lambda m: _XML_ATTR[m.group()], _NOT_XML.sub("", str(text)))
