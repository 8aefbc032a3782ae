"""Teachers' tools: ``ancients show`` (pictures of any position), the HTML replay
and explained logs (``ancients replay --html / --explain``).

Everything goes through the plugin contract (``Game.picture``,
``Game.rules_index``) and the session; nothing here names a game. The HTML
replay is one self-contained page: the static map, then each position's
counters, questions and events, packed so that each distinct string is
carried once and the JSON of those tables squeezed (:mod:`ancients_kit.packing`),
then rebuilt by the page's script.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import attrs
import click
from rich.table import Table

from ancients_kit import savefile
from ancients_kit.cli import ui
from ancients_kit.compare import CLASSES, chart_rows, class_totals, parse_engagement, translate_all
from ancients_kit.drawing import CLASS_COLOURS, class_bars_svg, counter_pieces, svg_layers, write_picture
from ancients_kit.log import Event
from ancients_kit.outputs import write_output
from ancients_kit.packing import UNPACK_JS, pack, squeeze
from ancients_kit.plots import pyplot_for, save_figure
from ancients_kit.plugin import RuleInfo, load_games, parse_params
from ancients_kit.probability import probability_decimal
from ancients_kit.session import Decision, Session
from ancients_kit.text import markup, script_json, xml

__all__ = ["COMMANDS", "explain_event", "explain_lines", "html_replay", "replay_data", "rule_titles", "session_at",
           "session_picture", "viewer_of"]


def viewer_of(s: Session, viewer: str | None) -> str | None:
    """The side named by ``--viewer`` (any case), or None for everything; unknown sides are refused."""
    if viewer is None:
        return None
    sides = s.game.sides(s.state)
    for side in sides:
        if side.lower() == viewer.strip().lower():
            return side
    raise ui.UsageProblem(f"--viewer {viewer!r} is not a side of this game (sides: {', '.join(sides)})")


def session_at(s: Session, at: int | None) -> Session:
    """The game as it stood after ``at`` answers (all of them when None)."""
    if at is None or at == len(s.answers):
        return s
    if not 0 <= at <= len(s.answers):
        raise ui.UsageProblem(f"--at {at}: the save holds {len(s.answers)} answers (give 0-{len(s.answers)})")
    return Session(s.game, s.scenario, seed=s.seed, options=s.options, variants=s.variants, answers=s.answers[:at])


def session_picture(s: Session, viewer: str | None) -> Any:
    """The picture of the game as it stands: what ``viewer`` sees, the hexes of the
    question put to ``viewer`` (everything for ``None``) outlined, the status line."""
    pic = s.game.picture(s.state, viewer)
    if pic is None:
        raise ui.UsageProblem(f"{s.game.id} draws no pictures")
    d = s.decision
    if d is not None and (viewer is None or d.side == viewer):
        hl = d.context.get("highlight", ()) if d.context else ()
        known = {h.id for h in pic.hexes}
        pic = pic.with_highlight([h for h in hl if h in known])
    status = s.game.status(s.state, viewer)
    if status:
        pic = attrs.evolve(pic, status=status)
    return pic


@click.command("show")
@click.argument("save", type=click.Path(exists=True, dir_okay=False))
@click.option("--at", type=int, default=None, metavar="N", help="The position after N answers (default: the last).")
@click.option("--viewer", help="Draw what this side sees (default: everything).")
@click.option("--svg", "svg_path", type=click.Path(dir_okay=False), help="Write the picture as SVG.")
@click.option("--png", "png_path", type=click.Path(dir_okay=False), help="Write the picture as PNG (plots extra).")
def show_cmd(save: str, at: int | None, viewer: str | None, svg_path: str | None, png_path: str | None) -> None:
    """Draw a position of a saved game: map, terrain, hexsides, units, legend.

    Without --svg or --png the map is drawn in the terminal.
    """
    s = savefile.load(save)
    who = viewer_of(s, viewer)
    s = session_at(s, at)
    if not svg_path and not png_path:
        d = s.decision
        hl = d.context.get("highlight", ()) if d is not None and d.context else ()
        ui.out.print(s.game.render(s.state, who, hl), soft_wrap=True)
        return
    pic = session_picture(s, who)
    reads = [save, *(v.path for v in s.variants)]
    for path, what in ((svg_path, "--svg"), (png_path, "--png")):
        if path:
            out = write_picture(pic, Path(path), reads, what)
            ui.out.print(f"written {markup(out)}")


# -- explained logs -------------------------------------------------------------------------


def rule_titles(s: Session) -> dict[str, RuleInfo]:
    """Rule ID -> its entry (title, line) in the game's rule index."""
    return {r.id: r for r in s.game.rules_index()}


_DATA_SKIP = {"turn", "text", "rules", "winner"}


def _detail(data: Mapping[str, Any]) -> str:
    """The dice, columns, rows and modifiers behind an event, from its data."""
    parts = []
    for k, v in data.items():
        if k in _DATA_SKIP:
            continue
        if isinstance(v, (list, tuple)):
            v = ", ".join(map(str, v))
        elif isinstance(v, dict):
            v = ", ".join(f"{a} {b}" for a, b in v.items())
        parts.append(f"{k.replace('_', ' ')}: {v}")
    return "; ".join(parts)


def explain_event(e: Event, titles: Mapping[str, RuleInfo], viewer: str | None) -> list[str]:
    """An event as lines: its text, then each rule it applied with the rule's title
    and section, then the dice and table cells behind it."""
    out = [e.text_for(viewer)]
    for r in e.rules:
        info = titles.get(r)
        where = f" (rulebook line {info.line})" if info is not None and info.line else ""
        out.append(f"    rule {r}: {info.title if info is not None else 'not in the rule index'}{where}")
    if e.dice:
        out.append(f"    dice: {', '.join(map(str, e.dice))}")
    data = e.to_json(viewer).get("data", {})
    if data:
        detail = _detail(data)
        if detail:
            out.append(f"    behind it: {detail}")
    return out


def explain_lines(s: Session, viewer: str | None) -> Iterator[str]:
    titles = rule_titles(s)
    for e in s.log:
        yield from explain_event(e, titles, viewer)


# -- the HTML replay ------------------------------------------------------------------------


def _question(d: Decision | None, viewer: str | None) -> dict[str, Any] | None:
    if d is None:
        return None
    if viewer is not None and d.side != viewer:
        return {"side": d.side, "prompt": f"{d.side} is deciding", "rule": d.rule, "options": []}
    return {
        "side": d.side,
        "prompt": d.prompt,
        "rule": d.rule,
        "options": [[o.key, o.label] for o in d.options[:60]],
        "more": max(0, len(d.options) - 60),
    }


def _steps(s: Session, viewer: str | None) -> tuple[list[str], float, float, list[list[str]], list[dict[str, Any]],
                                                   list[dict[str, Any]]]:
    """The replay's plain data: the static map (SVG lines), its size, the distinct
    counter layers (each as its pieces), the steps and the events."""
    fresh = Session(s.game, s.scenario, seed=s.seed, options=s.options, variants=s.variants)
    pic = session_picture(fresh, viewer)
    base, _, width, height = svg_layers(pic)
    frames: list[list[str]] = []
    index: dict[tuple[str, ...], int] = {}
    steps: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []

    def frame(sess: Session) -> tuple[int, list[str]]:
        pic = session_picture(sess, viewer)
        pieces = tuple(counter_pieces(pic, highlight=False))
        if pieces not in index:
            index[pieces] = len(frames)
            frames.append(list(pieces))
        return index[pieces], sorted(pic.highlight)

    def grab(since: int, sess: Session) -> list[int]:
        ids = []
        for e in sess.log.since(since):
            ids.append(len(events))
            events.append({"text": e.text_for(viewer), "rules": list(e.rules), "kind": e.kind})
        return ids

    seen = grab(0, fresh)
    for i, answer in enumerate(s.answers):
        d = fresh.decision
        f, hl = frame(fresh)
        steps.append({"n": i, "frame": f, "hl": hl, "q": _question(d, viewer),
                      "answer": answer if viewer is None or d is None or d.side == viewer else "(hidden)",
                      "before": seen, "status": fresh.game.status(fresh.state, viewer)})
        start = len(fresh.log)
        fresh.answer(answer)
        seen = grab(start, fresh)
    f, hl = frame(fresh)
    steps.append({"n": len(s.answers), "frame": f, "hl": hl, "q": _question(fresh.decision, viewer),
                  "answer": None, "before": seen, "status": fresh.game.status(fresh.state, viewer),
                  "end": fresh.outcome.text if fresh.outcome else None})
    return base.split("\n"), width, height, frames, steps, events


def _icon(*polygons: str) -> str:
    """A small inline SVG drawing for a button: shapes, so that no font is needed to show it."""
    shapes = "".join(f'<polygon points="{p}" fill="currentColor"/>' for p in polygons)
    return f'<svg class="icon" width="12" height="10" viewBox="0 0 12 10" aria-hidden="true">{shapes}</svg>'


_ICONS = {
    "first": _icon("0,0 2,0 2,10 0,10", "12,0 12,10 3,5"),
    "prev": _icon("10,0 10,10 2,5"),
    "next": _icon("2,0 2,10 10,5"),
    "last": _icon("0,0 0,10 9,5", "10,0 12,0 12,10 10,10"),
}
"""The step buttons' drawings; each button also says what it does in plain words."""

_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>%(title)s</title>
<style>
body{font-family:sans-serif;margin:0;display:flex;height:100vh;color:#222}
#left{flex:3;overflow:auto;padding:8px;border-right:1px solid #ccc}
#right{flex:2;overflow:auto;padding:8px;font-size:13px}
#bar{position:sticky;top:0;background:#fff;padding:4px 0;border-bottom:1px solid #ddd}
button{font-size:14px;font-family:sans-serif;margin-right:4px}
button svg.icon{vertical-align:-1px;margin:0 3px}
.rules{color:#7a4b00;font-size:11px}
.rule-title{color:#666}
#question{background:#f6f2e6;padding:6px;margin:6px 0}
#answer{background:#e6f0f6;padding:6px;margin:6px 0}
li{margin:2px 0}
</style></head><body>
<div id="left">
<div id="bar"><button id="first" title="Home" aria-label="first decision">%(first)s<span class="label">first</span></button>
<button id="prev" title="Left arrow" aria-label="back one decision">%(prev)s<span class="label">back</span></button>
<button id="next" title="Right arrow" aria-label="forward one decision"><span class="label">forward</span>%(next)s</button>
<button id="last" title="End" aria-label="last decision"><span class="label">last</span>%(last)s</button>
<span id="where"></span></div>
<svg xmlns="http://www.w3.org/2000/svg" id="map" width="%(w)s" height="%(h)s" viewBox="0 0 %(w)s %(h)s">
<rect id="paper" width="100%%" height="100%%" fill="#fff"/><g id="counters"></g></svg>
</div>
<div id="right">
<h2>%(title)s</h2>
<div id="status"></div>
<h3>Events</h3><ul id="events"></ul>
<div id="question"></div>
<div id="answer"></div>
<p style="color:#888">Keys: Left and Right arrows step, Home and End go to the first and last decision.
Every event names the rules it applied.</p>
</div>
<script id="data" type="text/plain">%(data)s</script>
<script>
"use strict";
%(unpack)s
const D = JSON.parse(unsqueeze(document.getElementById("data").textContent));
const R = unpack(D);
document.getElementById("paper").insertAdjacentHTML("afterend", R.map());
let k = 0;
function esc(s){const d=document.createElement("div");d.textContent=s;return d.innerHTML.replace(/"/g,"&quot;");}
function rules(ids){return ids.map(r=>'<span class="rule" data-rule="'+esc(r)+'">'+esc(r)+
  (D.titles[r]?' <span class="rule-title">('+esc(D.titles[r])+')</span>':'')+'</span>').join(", ");}
function show(n){
  k = Math.max(0, Math.min(R.steps-1, n));
  const s = R.step(k);
  let marks = "";
  for (const id of s.hl) {
    const hex = document.querySelector('#map polygon.hex[data-hex="'+CSS.escape(id)+'"]');
    if (hex) marks += '<polygon class="highlight" data-hex="'+esc(id)+'" points="'+hex.getAttribute("points")+
      '" fill="none" stroke="#f5b800" stroke-width="3"/>';
  }
  document.getElementById("counters").innerHTML = marks + R.frame(s.frame);
  document.getElementById("where").textContent = "decision " + k + " of " + (R.steps-1);
  document.getElementById("status").textContent = s.status || "";
  document.getElementById("events").innerHTML = s.before.map(i=>{const e=R.event(i);
    return '<li class="event">'+esc(e.text)+(e.rules.length?' <span class="rules">['+rules(e.rules)+']</span>':'')+'</li>';}).join("");
  const q = s.q;
  document.getElementById("question").innerHTML = q ? ('<b>Question to '+esc(q.side)+':</b> <span id="prompt">'+esc(q.prompt)+'</span>'+
    (q.rule?' <span class="rules">['+rules([q.rule])+']</span>':'')+'<ol>'+q.options.map(o=>'<li><code>'+esc(o[0])+'</code> '+esc(o[1])+'</li>').join("")+
    '</ol>'+(q.more?'<i>and '+q.more+' more</i>':'')) : ('<b>Game over.</b> '+esc(s.end||""));
  document.getElementById("answer").innerHTML = s.answer===null ? "" : '<b>Answer:</b> <code id="given">'+esc(s.answer)+'</code>';
  document.body.dataset.step = String(k);
}
document.getElementById("first").onclick=()=>show(0);
document.getElementById("prev").onclick=()=>show(k-1);
document.getElementById("next").onclick=()=>show(k+1);
document.getElementById("last").onclick=()=>show(R.steps-1);
document.addEventListener("keydown", ev=>{
  if(ev.key==="ArrowRight"){show(k+1);ev.preventDefault();}
  else if(ev.key==="ArrowLeft"){show(k-1);ev.preventDefault();}
  else if(ev.key==="Home"){show(0);ev.preventDefault();}
  else if(ev.key==="End"){show(R.steps-1);ev.preventDefault();}
});
show(0);
</script></body></html>
"""


def replay_data(s: Session, viewer: str | None = None) -> dict[str, Any]:
    """What the HTML replay embeds: the packed map, counter layers, steps and
    events (:func:`ancients_kit.packing.pack`), the titles of the rules they
    name and the map's size."""
    return _pack_replay(s, *_steps(s, viewer))


def _pack_replay(s: Session, base: list[str], w: float, h: float, frames: list[list[str]],
                 steps: list[dict[str, Any]], events: list[dict[str, Any]]) -> dict[str, Any]:
    used = {r for e in events for r in e["rules"]} | {st["q"]["rule"] for st in steps if st["q"] and st["q"]["rule"]}
    titles = {k: v.title for k, v in rule_titles(s).items() if k in used}
    data = pack(frames, steps, events, base=base)
    data["titles"] = titles
    data["size"] = [f"{w:.0f}", f"{h:.0f}"]
    return data


def _script_json(data: Any) -> str:
    """The page's data as JSON safe inside a <script> element (:func:`ancients_kit.text.script_json`):
    it holds no ``<`` at all, so it can neither end the element nor open a comment; the
    squeeze adds none (:data:`ancients_kit.packing._DIGITS`)."""
    return script_json(data, separators=(",", ":"), sort_keys=True)


def _page(s: Session, data: Mapping[str, Any]) -> str:
    w, h = data["size"]
    title = f"{s.game.title}: {s.scenario}"
    return _PAGE % {"title": xml(title), "w": xml(w), "h": xml(h), "data": squeeze(_script_json(data)),
                    "unpack": UNPACK_JS.strip(),
                    **_ICONS}


def html_replay(s: Session, viewer: str | None = None) -> str:
    """One self-contained page stepping through the game decision by decision.

    The page carries each distinct string, SVG line, counter and question once
    (:mod:`ancients_kit.packing`) and its script rebuilds every position's
    drawing exactly, so a whole strategic campaign stays within a megabyte or two.
    """
    return _page(s, replay_data(s, viewer))


# -- the same clash under every system ------------------------------------------------------


@click.command("compare")
@click.argument("params", nargs=-1, metavar="KEY=VALUE...")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (exact fractions and floats).")
@click.option("--plot", type=click.Path(dir_okay=False), metavar="FILE.svg|png",
              help="Chart the common outcome classes game by game (plots extra).")
def compare_cmd(params: tuple[str, ...], as_json: bool, plot: str | None) -> None:
    """One engagement under every installed game's combat system, side by side.

    \b
    Keys: attacker=KIND[*N],...  defender=KIND[*N],...  terrain=clear|hill|forest|town|ford|bridge|fort
          mode=melee|missile  leader=yes (attacker's)  defender_leader=yes  support=yes  flank=yes
    Kinds: heavy-infantry medium-infantry light-infantry warband spearmen pikemen archers slingers
           light-cavalry medium-cavalry heavy-cavalry cataphracts elephants
    Example: ancients compare attacker=heavy-infantry*2 defender=warband terrain=hill
    """
    try:
        e = parse_engagement(parse_params(params))
    except ValueError as exc:
        raise ui.UsageProblem(str(exc)) from None
    results, refused = translate_all(load_games(), e)
    if not results:
        raise ui.UsageProblem("no installed game can translate this engagement: " +
                              "; ".join(f"{k}: {v}" for k, v in refused.items()))
    if plot:
        _plot_compare(e.describe(), results, Path(plot))
    if as_json:
        ui.print_json({"engagement": e.describe(), "games": [t.to_json() for t in results], "refused": refused})
        return
    for t in results:
        tab = Table("outcome", "exact", "probability", title=markup(f"{t.game}: {t.system}"))
        for k, v in t.distribution.items():
            tab.add_row(markup(k), str(v), probability_decimal(v))
        ui.out.print(tab)
        for step in t.steps:
            ui.prose(f"  {step}")
        ui.out.print(f"  rules: {', '.join(t.rules)}", markup=False, highlight=False)
    side = Table("common class", *(markup(t.game) for t in results), title=markup(f"side by side: {e.describe()}"))
    totals = [class_totals(t) for t in results]
    for c in CLASSES:
        side.add_row(c, *(f"{probability_decimal(tot[c], 3)} ({tot[c]})" if tot[c] != 0 else "-" for tot in totals))
    ui.out.print(side)
    for game, why in refused.items():
        ui.prose(f"{game}: cannot be compared ({why})")
    if plot:
        ui.out.print(f"chart written to {markup(plot)}")


def _plot_compare(title: str, results: list[Any], path: Path) -> None:
    """The common classes game by game: SVG drawn by the core (no dependency), PNG by matplotlib."""
    rows = chart_rows(results)
    if path.suffix.lower() == ".svg":
        write_output(path, class_bars_svg(title, CLASSES, rows), what="--plot")
        return
    plt = pyplot_for(path)
    fig, ax = plt.subplots(figsize=(8, 1.2 + 0.9 * len(rows)))
    for i, (_, shares) in enumerate(rows):
        left = 0.0
        for c, col in zip(CLASSES, CLASS_COLOURS):
            w = shares[c]
            ax.barh(i, w, left=left, color=col, label=c if i == 0 else None)
            left += w
    ax.set_yticks(range(len(rows)), [label.replace("\n", ": ") for label, _ in rows])
    ax.set_xlim(0, 1)
    ax.set_xlabel("probability")
    ax.legend(fontsize="small", ncol=3, loc="upper center", bbox_to_anchor=(0.5, -0.35))
    ax.set_title(title, fontsize=10)
    save_figure(fig, path)
    plt.close(fig)


COMMANDS = [compare_cmd, show_cmd]
