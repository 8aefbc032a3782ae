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
- a search bot (``--bot mcts``, ``--side gauls=mcts:49``) searches one iteration a
  decision, looking no answer ahead (``mcts:1`` and ``depth=0`` added to
  ``ANCIENTS_MCTS``): the commands are checked, not the bot's strength;
- an environment prefix (``ANCIENTS_MCTS=depth=60 ancients ...``) is set for the
  command, as a shell would;
- ``--dask tcp://HOST:8786`` needs a running scheduler and is not run;
- ``replay --follow`` watches a game until it ends, so it follows a finished
  game (a game in progress would be watched for ever).

Every whole command in the guides' prose (in backticks, with an argument and no
``...``) runs too, ``TABLE`` being the melee CRT and ``FILE`` a variant; the two
the players' guide shows being refused (``ancients new GAME``, ``ancients play
/dev/zero``) must be refused with their one-line message. Inline commands the
issue found broken are run too: the players' guide's
``-o NAME=VALUE`` example (it said ``fortune=yes``; the option takes ``none``,
``first`` or ``second``) and ``ancients scenarios GAME --json``.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from ancients_kit import savefile
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
            if split_env(text)[1].startswith("ancients "):
                out.append((name, i, text))
    return out


ENV_WORD = re.compile(r"^([A-Z][A-Z0-9_]*)=(\S*)\s+")


def split_env(command: str) -> tuple[dict[str, str], str]:
    """``NAME=VALUE ... ancients ...`` -> the environment it sets and the command."""
    env: dict[str, str] = {}
    while m := ENV_WORD.match(command):
        env[m.group(1)] = m.group(2)
        command = command[m.end():]
    return env, command


SEARCH_BOT = re.compile(r"^((?:[^=\s]+=)?)mcts(?::\S*)?$")


def search_env(args: list[str], env: dict[str, str]) -> dict[str, str]:
    """The environment of a command whose bots search: one look-ahead of depth 0 on
    top of what the command sets (the budget itself is ``mcts:1`` in its words)."""
    if not any(SEARCH_BOT.match(a) for a in args):
        return env
    given = env.get("ANCIENTS_MCTS", "")
    return {**env, "ANCIENTS_MCTS": f"{given},depth=0" if given else "depth=0"}


def substitute(command: str, save: Path, scratch: Path) -> list[str] | None:
    """The command's arguments after the documented substitutions; None if not run."""
    if "tcp://" in command:
        return None
    command = split_env(command.split("  #")[0].split(" # ")[0].strip())[1]
    words = shlex.split(command)[1:]
    names = {"GAME": "centurion", "SCENARIO": "basic-servile-war", "SAVEFILE": str(save), "game.json": str(save),
             "my.toml": str(scratch / "my.toml"), "bloody.toml": str(scratch / "bloody.toml")}
    words = [names.get(w, w) for w in words]
    for i, w in enumerate(words[:-1]):
        if w == "-n" and words[i + 1].isdigit() and words[0] != "undo":
            words[i + 1] = "2"
    words = [SEARCH_BOT.sub(r"\1mcts:1", w) for w in words]
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
    return savefile.save(s, scratch / "game.json")


@pytest.fixture(scope="module")
def finished(scratch: Path) -> Path:
    from ancients_kit.bots import RandomBot, play_out

    s = Session.new("centurion", "basic-servile-war", seed=7)
    play_out(s, RandomBot())
    assert s.finished
    return savefile.save(s, scratch / "finished.json")


COMMANDS = doc_commands()


def _case(name: str, line: int, command: str) -> object:
    return pytest.param(name, line, command, id=f"{name}:{line}")


def test_the_docs_show_commands() -> None:
    assert len(COMMANDS) >= 40
    assert {name for name, _, _ in COMMANDS} == set(DOCS)


@pytest.mark.parametrize(("name", "line", "command"), [_case(*c) for c in COMMANDS])
def test_doc_command_runs(name: str, line: int, command: str, save: Path, scratch: Path, finished: Path,
                          monkeypatch: pytest.MonkeyPatch) -> None:
    args = substitute(command, save, scratch)
    if args is None:
        pytest.skip("needs a running dask scheduler")
    if "--follow" in args:
        args = [str(finished) if a == str(save) else a for a in args]
    for key, value in search_env(args, split_env(command)[0]).items():
        monkeypatch.setenv(key, value)
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


REFUSALS = {
    "ancients new GAME": "missing argument SCENARIO: name one of centurion's scenarios",
    "ancients play /dev/zero": "refused without reading or writing it",
}
"""Inline commands the guides show being refused, and a piece of the one-line message."""


def inline_commands() -> list[tuple[str, str]]:
    """(file, command) for every whole ``ancients`` command in backticks in the guides'
    prose: a command with an argument (``ancients new -o`` names an option) and no ``...``."""
    out = []
    for name in DOCS[1:]:
        text = re.sub(r"```.*?```", "", (ROOT / name).read_text("utf-8"), flags=re.S)
        for m in re.finditer(r"`((?:[A-Z_]+=\S+\s+)*ancients\s[^`]+)`", text):
            command = " ".join(m.group(1).split())
            words = split_env(command)[1].split()
            if "..." in words or all(w.startswith("-") for w in words[2:]):
                continue
            out.append((name, command))
    return out


INLINE = inline_commands()


@pytest.mark.parametrize(("name", "command"), INLINE, ids=[f"{n}:{c}" for n, c in INLINE])
def test_inline_guide_commands_run(name: str, command: str, save: Path, scratch: Path, finished: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 22: the guides' commands all run as written, those in the prose too (with the
    substitutions above, ``TABLE`` the melee CRT and ``FILE`` a variant); a command shown
    being refused is refused with its one-line message."""
    args = substitute(command, finished if "--follow" in command else save, scratch)
    assert args is not None
    args = [{"TABLE": "crt_melee", "FILE": str(scratch / "my.toml")}.get(a, a) for a in args]
    monkeypatch.setenv("ANCIENTS_KIT_SAVES", str(scratch / "saves"))
    monkeypatch.chdir(scratch)
    if args[0] == "new" and command in REFUSALS:  # no --stop-after and --save for a game that never starts
        args = args[:-4]
    result = CliRunner().invoke(cli, args, input="")
    if command in REFUSALS:
        assert result.exit_code == 2 and REFUSALS[command] in result.output, result.output
        assert len(result.output.strip().splitlines()) == 1
    else:
        assert result.exit_code == 0, f"{name}: `{command}` -> {args} exit {result.exit_code}:\n{result.output}"


def test_the_prose_shows_whole_commands() -> None:
    assert len(INLINE) >= 8 and set(REFUSALS) <= {c for _, c in INLINE}


def test_substitutions_are_the_documented_ones(save: Path, scratch: Path) -> None:
    got = substitute("ancients simulate centurion basic-gaul -n 400 --variant bloody.toml", save, scratch)
    assert got == ["simulate", "centurion", "basic-gaul", "-n", "2", "--variant", str(scratch / "bloody.toml")]
    assert substitute("ancients simulate x y --dask tcp://HOST:8786", save, scratch) is None
    assert re.match(r"new-\d+\.json", Path(substitute("ancients new GAME SCENARIO", save, scratch)[-1]).name)
    got = substitute("ANCIENTS_MCTS=depth=60 ancients simulate x y --bot mcts --side a=mcts:49", save, scratch)
    assert got == ["simulate", "x", "y", "--bot", "mcts:1", "--side", "a=mcts:1"]
    assert search_env(got, {"ANCIENTS_MCTS": "depth=60"}) == {"ANCIENTS_MCTS": "depth=60,depth=0"}
    assert search_env(["games"], {}) == {}


def test_the_guides_show_the_search_bot_on_the_command_line() -> None:
    """Issue 22 item A: the players' guide's search-bot example is a command that runs
    (``--side SIDE=mcts:N`` in ``new``), and the designer's guide's study with it too."""
    shown = {(name, split_env(c)[1].split()[1]) for name, _, c in COMMANDS if "mcts" in c}
    assert ("docs/players-guide.md", "new") in shown
    assert ("docs/designers-guide.md", "simulate") in shown
