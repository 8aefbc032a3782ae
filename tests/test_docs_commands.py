"""Docs that run: every ``ancients`` command in a shell block of README.md,
docs/players-guide.md and docs/designers-guide.md is run here (issue 14 item 8).

Commands run as written, in-process through click's runner, in a scratch
folder, with these small substitutions (and only these):

- ``.venv/bin/ancients`` is ``ancients``; ``python3 -m venv ...`` set-up lines are skipped;
- the placeholders ``GAME`` and ``SCENARIO`` become ``centurion`` and
  ``basic-servile-war`` (whose sides are the Rebels and the Romans, as the
  guide's ``--side`` example names them); ``SAVEFILE`` and ``game.json`` are a
  saved game of 40 answers made first;
- ``-n N`` becomes ``-n 2`` (the figures are not checked, only that the
  command works), and ``sweep`` gets ``-n 2`` when it has none;
- ``new`` and ``demo`` get ``--stop-after 3`` / ``--save`` into the scratch
  folder (they are interactive; end of input saves and stops);
- ``my.toml`` and ``bloody.toml`` are a variant that switches the
  ``fortune`` option (the guide's replacement table is shown, not shipped);
- ``--dask tcp://HOST:8786`` needs a running scheduler and is not run;
- ``replay --follow`` watches a game until it ends, so it follows a finished
  game (a game in progress would be watched for ever).

Inline commands the issue found broken are run too: the players' guide's
``-o NAME=VALUE`` example (it said ``fortune=yes``; the option takes ``none``,
``first`` or ``second``) and ``ancients scenarios GAME --json``.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from ancients_kit.cli.main import cli
from ancients_kit.session import Session

ROOT = Path(__file__).resolve().parents[1]
DOCS = ("README.md", "docs/players-guide.md", "docs/designers-guide.md")
VARIANT = '[meta]\nid = "doc-variant"\nsource = "variant"\nnote = "options only"\n\n[options]\nfortune = "first"\n'


def doc_commands() -> list[tuple[str, int, str]]:
    """(file, line, command) for every ``ancients`` line of a sh/plain fenced block."""
    out = []
    for name in DOCS:
        inside = False
        lang = ""
        for i, line in enumerate((ROOT / name).read_text("utf-8").splitlines(), 1):
            if line.startswith("```"):
                inside = not inside
                lang = line[3:].strip()
                continue
            if not inside or lang not in ("", "sh", "bash", "console"):
                continue
            text = line.strip().removeprefix("$ ")
            if "&&" in text:
                text = text.rsplit("&&", 1)[1].strip()
            text = text.removeprefix(".venv/bin/")
            if text.startswith("ancients "):
                out.append((name, i, text))
    return out


def substitute(command: str, save: Path, scratch: Path) -> list[str] | None:
    """The command's arguments after the documented substitutions; None if not run."""
    if "tcp://" in command:
        return None
    command = command.split("  #")[0].split(" # ")[0].strip()
    words = shlex.split(command)[1:]
    names = {"GAME": "centurion", "SCENARIO": "basic-servile-war", "SAVEFILE": str(save), "game.json": str(save),
             "my.toml": str(scratch / "my.toml"), "bloody.toml": str(scratch / "bloody.toml")}
    words = [names.get(w, w) for w in words]
    for i, w in enumerate(words[:-1]):
        if w == "-n" and words[i + 1].isdigit() and words[0] != "undo":
            words[i + 1] = "2"
    if words[0] == "sweep" and "-n" not in words:
        words += ["-n", "2"]
    if words[0] == "new":
        words += ["--stop-after", "3", "--save", str(scratch / f"new-{len(words)}.json")]
    if words[0] == "demo":
        words += ["--save", str(scratch / "demo.json")]
    for i, w in enumerate(words):
        if w.endswith((".svg", ".html", ".jsonl")) and "/" not in w:
            words[i] = str(scratch / w)
    return words


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("docs")
    (d / "my.toml").write_text(VARIANT)
    (d / "bloody.toml").write_text(VARIANT)
    return d


@pytest.fixture(scope="module")
def save(scratch: Path) -> Path:
    from ancients_kit.bots import make_bot

    s = Session.new("centurion", "basic-servile-war", seed=7)
    bot = make_bot("greedy")
    while len(s.answers) < 40 and s.decision is not None:
        s.answer(bot.choose(s, s.decision))
    s.meta["sides"] = {side: "human" for side in s.game.sides(s.state)}
    return s.save(scratch / "game.json")


@pytest.fixture(scope="module")
def finished(scratch: Path) -> Path:
    from ancients_kit.bots import RandomBot, play_out

    s = Session.new("centurion", "basic-servile-war", seed=7)
    play_out(s, RandomBot())
    assert s.finished
    return s.save(scratch / "finished.json")


COMMANDS = doc_commands()


def test_the_docs_show_commands() -> None:
    assert len(COMMANDS) >= 40
    assert {name for name, _, _ in COMMANDS} == set(DOCS)


@pytest.mark.parametrize(("name", "line", "command"), COMMANDS, ids=[f"{n}:{i}" for n, i, _ in COMMANDS])
def test_doc_command_runs(name: str, line: int, command: str, save: Path, scratch: Path, finished: Path,
                          monkeypatch: pytest.MonkeyPatch) -> None:
    args = substitute(command, save, scratch)
    if args is None:
        pytest.skip("needs a running dask scheduler")
    if "--follow" in args:
        args = [str(finished) if a == str(save) else a for a in args]
    monkeypatch.setenv("ANCIENTS_KIT_SAVES", str(scratch / "saves"))
    monkeypatch.chdir(scratch)
    if args[0] == "undo":  # undo rewrites the save: work on a copy
        copy = scratch / "undo.json"
        copy.write_text(save.read_text())
        args = [str(copy) if a == str(save) else a for a in args]
    result = CliRunner().invoke(cli, args, input="")
    assert result.exit_code == 0, f"{name}:{line}: `{command}` -> {args} exit {result.exit_code}:\n{result.output}"


GUIDE_OPTION = re.search(r"for example\s+`-o ([^`]+)`", (ROOT / "docs/players-guide.md").read_text("utf-8")).group(1)


@pytest.mark.parametrize("args", [
    ["new", "centurion", "basic-servile-war", "-o", GUIDE_OPTION, "--stop-after", "1"],
    ["scenarios", "centurion", "--json"],
    ["tables", "centurion", "crt_melee"],
])
def test_inline_commands_run(args: list[str], scratch: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANCIENTS_KIT_SAVES", str(scratch / "saves"))
    result = CliRunner().invoke(cli, args, input="")
    assert result.exit_code == 0, result.output


def test_substitutions_are_the_documented_ones(save: Path, scratch: Path) -> None:
    got = substitute("ancients simulate centurion basic-gaul -n 400 --variant bloody.toml", save, scratch)
    assert got == ["simulate", "centurion", "basic-gaul", "-n", "2", "--variant", str(scratch / "bloody.toml")]
    assert substitute("ancients simulate x y --dask tcp://HOST:8786", save, scratch) is None
    assert re.match(r"new-\d+\.json", Path(substitute("ancients new GAME SCENARIO", save, scratch)[-1]).name)
