"""Garbage command lines (issue 27, "ancients never prints a Python traceback for
any input"): hypothesis builds command lines from every command, the options each
takes, real and wrong game, scenario and file names, hostile text and numbers at
their extremes, and runs them. Each must end in exit code 0, 1 or 2 with no
traceback and no internal error; a variant it reads is never written, a file
that is no save never becomes one, and the save stays a save (an output the
user names may replace any other file, as ``cp`` would).

Commands that play (``new``, ``play``, ``demo``, ``simulate``, ``sweep``) are
kept short by their own options (``--stop-after``, ``-n``). The default run is a
few dozen command lines (about 20 s). No argument holds a NUL byte: a process's
arguments cannot (they are C strings), so only a test could pass one; ``ANCIENTS_FUZZ_EXAMPLES=2000`` runs a long
profile.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ancients_kit.cli.main import cli

EXAMPLES = int(os.environ.get("ANCIENTS_FUZZ_EXAMPLES", "0")) or 40

GAMES = ["centurion", "ccancients_rome", "ldf", "xenophon", "cen", "c", "", "nosuchgame", "CENTURION"]
SCENARIOS = ["numidia", "carrhes", "campaign", "cyrus-revolt", "basic-carrhae", "", "x" * 300, "../etc"]
HOSTILE = ["[/]", "[revised]", "<!--<script>", "\x1b[31m", "\x07", "\u2028", "%s", "{}", "-", "--", "=", "a=b=c",
           "é", "9" * 40, "-1", "0", "2**63", "1e9999", "nan", "yes", "no", "True"]
VARIANT = '[meta]\nid = "v"\nsource = "variant"\nnote = "n"\n'
NUMBERS = ["0", "1", "-1", "3", "99999999999999999999", "-9223372036854775809", "1.5", "", "x"]


def _files(folder: Path) -> list[str]:
    return [str(folder / n) for n in ("g.json", "v.toml", "notes.txt", "missing.json", "dir", "link.json")] + \
        ["/dev/null", "/dev/zero", "", "."]


def _command(folder: Path) -> st.SearchStrategy[list[str]]:
    files = st.sampled_from(_files(folder))
    game, scenario = st.sampled_from(GAMES), st.sampled_from(SCENARIOS)
    word = st.sampled_from(HOSTILE) | st.text(st.characters(exclude_characters="\x00"), max_size=12)
    number = st.sampled_from(NUMBERS)
    opt = st.sampled_from(["fortune=yes", "concession=no", "turn_limit=3", "action_limit=-3", "x", "=", "a=b"])
    side = st.sampled_from(["romans=human", "x=greedy", "romans=mcts:1", "romans=nobot", "=", "all"])
    extra = st.lists(word | files | number, max_size=3)

    def line(*parts: st.SearchStrategy) -> st.SearchStrategy[list[str]]:
        return st.tuples(*parts, extra).map(lambda t: [x for p in t for x in (p if isinstance(p, list) else [p])])

    flat = st.just
    return st.one_of(
        line(flat("games")),
        line(flat("scenarios"), game),
        line(flat("tables"), game),
        line(flat("tables"), game, word),
        line(flat("rules"), game),
        line(flat("sources"), game),
        line(flat("odds"), game, st.lists(st.tuples(word, word).map("=".join) | word, max_size=3)),
        line(flat("compare"), st.lists(st.sampled_from(["attacker=heavy-infantry*2", "defender=warband",
                                                         "terrain=hill", "attacker=", "x=y"]) | word, max_size=3)),
        line(flat("new"), game, scenario, flat("--bots"), flat("--no-map"), flat("--plain"), flat("--stop-after"),
             st.sampled_from(["0", "1", "3", "-1", "x"]), flat("--save"), files,
             st.lists(st.sampled_from(["--seed", "-o", "--side", "--variant"]), max_size=1).flatmap(
                 lambda o: st.just([]) if not o else st.tuples(st.just(o[0]), number | opt | side | files).map(list))),
        line(flat("play"), files, flat("--plain"), flat("--no-map"), flat("--stop-after"), flat("0")),
        line(flat("undo"), files, flat("-n"), number),
        line(flat("replay"), files, st.sampled_from(["--no-map", "--json", "--check", "--explain", "--viewer"])),
        line(flat("replay"), files, flat("--html"), files),
        line(flat("show"), files, st.sampled_from(["--svg", "--png", "--at", "--viewer"]), files | number | word),
        line(flat("simulate"), game, scenario, flat("-n"), st.sampled_from(["0", "1", "-1", "x"]),
             st.sampled_from(["--bot", "--records", "--plot", "--seed", "--jobs", "--max-decisions"]),
             word | files | number),
        line(st.sampled_from(["--version", "-h", "--help", "nosuchcommand", ""])),
    )


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A saved game, a variant, a plain file, a folder and a link, as a user's folder holds them."""
    f = tmp_path_factory.mktemp("cli")
    res = CliRunner().invoke(cli, ["new", "centurion", "numidia", "--bots", "--seed", "1", "--no-map", "--plain",
                                   "--stop-after", "3", "--save", str(f / "g.json")])
    assert res.exit_code == 0, res.output
    (f / "v.toml").write_text(VARIANT)
    (f / "notes.txt").write_text("my notes\n")
    (f / "dir").mkdir()
    (f / "link.json").symlink_to(f / "notes.txt")
    return f


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.filter_too_much, HealthCheck.data_too_large])
@given(data=st.data())
def test_no_command_line_ends_in_a_traceback(folder: Path, data: st.DataObject,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(folder)  # outputs named by a relative path (--records %s) land there
    monkeypatch.setenv("ANCIENTS_KIT_SAVES", str(folder / "saves"))
    argv = data.draw(_command(folder), label="argv")
    (folder / "v.toml").write_text(VARIANT)  # an output of an earlier line may have replaced them
    (folder / "notes.txt").write_text("my notes\n")
    res = CliRunner().invoke(cli, argv, catch_exceptions=True)
    shown = res.output + (res.stderr if res.stderr_bytes is not None else "")
    assert res.exception is None or isinstance(res.exception, SystemExit), (argv, repr(res.exception))
    assert res.exit_code in (0, 1, 2), (argv, res.exit_code, shown[-400:])
    assert "Traceback" not in shown and "internal error" not in shown, (argv, shown[-800:])
    if "--variant" in argv:  # a file the command reads is never written
        assert (folder / "v.toml").read_text() == VARIANT, argv
    if argv[:1] in (["new"], ["undo"]) or "--save" in argv:  # a file that is no save is never made one
        assert (folder / "notes.txt").read_text() == "my notes\n", argv
    assert json.loads((folder / "g.json").read_text())["format"] == "ancients-kit/session", argv
