"""The command line's tools (issue 22, items A-D): bots by spec anywhere a side goes,
studies that show progress and fail early, listings that never cut a name, and the
smaller items (a missing scenario, a variant's own source).

Everything runs in-process through click's runner; search bots get budgets of one
or two iterations, so nothing here takes more than a second or two.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ancients_kit import study
from ancients_kit.bots import make_bot
from ancients_kit.cli import simulate, ui
from ancients_kit.cli.main import cli
from ancients_kit.data import DataStore
from ancients_kit.plugin import load_games
from ancients_kit.search import ENV_VAR, MCTSBot

ROOT = Path(__file__).resolve().parents[1]


def invoke(*args: str) -> object:
    return CliRunner().invoke(cli, list(args), input="", catch_exceptions=False)


# -- A. bots by spec ----------------------------------------------------------------------


def test_a_bot_spec_names_the_search_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    from ancients_kit.bots import check_bot, search_settings

    monkeypatch.delenv(ENV_VAR, raising=False)
    assert check_bot(" MCTS : 200") == "mcts:200"
    assert check_bot("greedy") == "greedy"
    bot = make_bot("mcts:7")
    assert isinstance(bot, MCTSBot) and bot.settings.iterations == 7
    bot = make_bot("mcts:seconds=0.5,depth=9")
    assert isinstance(bot, MCTSBot) and (bot.settings.iterations, bot.settings.seconds, bot.settings.depth) == (
        None, 0.5, 9)
    # the environment fills what the spec does not name; a budget in the spec replaces its budget
    assert search_settings("mcts:200", "seconds=1,depth=5") == "iterations=200,depth=5"
    assert search_settings("mcts:depth=9", "iterations=3,depth=5") == "depth=9,iterations=3"
    monkeypatch.setenv(ENV_VAR, "seconds=1,depth=5")
    st = make_bot("mcts:200").settings  # type: ignore[attr-defined]
    assert (st.iterations, st.seconds, st.depth) == (200, None, 5)


@pytest.mark.parametrize(("spec", "message"), [
    ("clever", "no bot called 'clever'"),
    ("random:3", "random takes no settings"),
    ("mcts:", "give settings after the colon"),
    ("mcts:0", "iterations must be at least 1"),
    ("mcts:depth=deep", "depth takes a number"),
])
def test_a_bad_bot_spec_is_one_line(spec: str, message: str, race_plugin: str,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from ancients_kit.bots import check_bot

    monkeypatch.delenv(ENV_VAR, raising=False)
    with pytest.raises(ValueError, match=message):
        check_bot(spec)
    res = invoke("simulate", race_plugin, "short", "-n", "1", "--side", f"red={spec}")
    assert res.exit_code == 2 and message in res.output and "Traceback" not in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_simulate_takes_a_search_bot_with_its_budget(race_plugin: str, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    records = tmp_path / "r.jsonl"
    res = invoke("simulate", race_plugin, "short", "-n", "2", "--jobs", "1", "--side", "red=MCTS:2",
                 "--bot", "greedy", "--records", str(records), "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["bots"] == {"Red": "mcts:2", "Blue": "greedy"}
    recs = [json.loads(line) for line in records.read_text().splitlines()]
    assert [r["bots"] for r in recs] == [{"Blue": "greedy", "Red": "mcts:2"}] * 2
    # another budget is another study: its records are not mixed with these
    res = invoke("simulate", race_plugin, "short", "-n", "2", "--jobs", "1", "--side", "red=mcts:3",
                 "--bot", "greedy", "--records", str(records), "--json")
    assert res.exit_code == 2 and "a record of another study (differs in bots)" in res.output
    res = invoke("simulate", race_plugin, "short", "-n", "1", "--bot", "mcts:1", "--json")
    assert res.exit_code == 0 and json.loads(res.stdout)["bots"] == {"Red": "mcts:1", "Blue": "mcts:1"}


def test_a_search_bot_study_prints_progress_lines_off_a_terminal(race_plugin: str,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Item A: `simulate --side gauls=mcts` printed nothing for ten minutes. Off a terminal a
    search bot's study now prints a line per game and, while games are in play, the answers."""
    monkeypatch.setattr(simulate, "PROGRESS_LINE_EVERY", 0.0)
    monkeypatch.setattr(study, "HEARTBEAT_EVERY", 0.0)
    res = invoke("simulate", race_plugin, "short", "-n", "2", "--jobs", "1", "--side", "red=mcts:1")
    assert res.exit_code == 0, res.output
    err = res.stderr.splitlines()
    assert err[0].startswith("original: 0/2 games done")
    assert any(re.match(r"original: 0/2 games done, 1 in play: \d+ answers so far", line) for line in err)
    assert any(line.startswith("original: 2/2 games done") for line in err)
    assert "wins: Red" in res.stdout and "original:" not in res.stdout
    # --json stays for programs unless asked; quick bots stay silent off a terminal; --no-progress silences
    for args in (["--bot", "mcts:1", "--json"], [], ["--bot", "mcts:1", "--no-progress"]):
        assert invoke("simulate", race_plugin, "short", "-n", "1", *args).stderr == ""
    res = invoke("simulate", race_plugin, "short", "-n", "1", "--progress", "--json")
    assert res.stderr.startswith("original: 0/1 games done") and json.loads(res.stdout)


def test_worker_processes_report_the_answers_of_their_games() -> None:
    """The heartbeat crosses from worker processes (--jobs) and does not change a game."""
    spec = study.StudySpec("centurion", "basic-servile-war", {"romans": "greedy", "rebels": "random"})
    beats: list[dict[int, int]] = []
    with_beat = study.run_study(spec, 2, seed=3, jobs=2, heartbeat=lambda p: beats.append(dict(p)))
    assert beats and all(set(b) <= {0, 1} for b in beats)
    assert max(n for b in beats for n in b.values()) > 0
    inline: list[dict[int, int]] = []
    alone = study.run_study(spec, 2, seed=3, jobs=1, heartbeat=lambda p: inline.append(dict(p)))
    assert inline[0] == {0: 0} and {1: 0} in inline
    plain = study.run_study(spec, 2, seed=3, jobs=1)
    assert all(a.same_game(b) and a.same_game(c) for a, b, c in zip(with_beat, alone, plain))


# -- B. tools that fail early -------------------------------------------------------------


@pytest.mark.parametrize("command", ["sweep", "simulate"])
def test_plot_without_matplotlib_fails_before_any_game(command: str, monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError

    def no_games(*a: object, **k: object) -> None:
        raise AssertionError("a game was played")

    monkeypatch.setattr(simulate, "run_study", no_games)
    args = [command, "centurion", "basic-gaul", "-n", "1"]
    if command == "sweep":
        args += ["--set", "centurion.units:unit[code=BI].basic.attack", "--values", "4,5"]
    res = invoke(*args, "--plot", str(tmp_path / "c.svg"))
    assert res.exit_code == 2
    assert res.output.strip() == ("Error: --plot needs matplotlib, which is not installed: "
                                  "pip install -e '.[plots]' (no game was played)")
    res = invoke(*args, "--plot", str(tmp_path / "c.pdf"))
    assert res.exit_code == 2 and "name a .svg or .png file" in res.output


def test_the_sweep_title_keeps_its_brackets() -> None:
    res = invoke("sweep", "centurion", "basic-servile-war", "--set", "centurion.units:unit[code=BI].basic.attack",
                 "--values", "4", "-n", "1", "--jobs", "1")
    assert res.exit_code == 0, res.output
    title = " ".join(res.stdout.split("┏")[0].split())
    assert "centurion.units:unit[code=BI].basic.attack" in title


# -- C. listings never cut a name ---------------------------------------------------------

GAMES = sorted(load_games())


def _words(text: str) -> set[str]:
    return set(re.findall(r"[^\s│┃]+", text))


@pytest.mark.parametrize("width", [80, 60, 40])
@pytest.mark.parametrize("game", GAMES)
def test_listings_show_every_name_whole(game: str, width: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ui.out, "_width", width)
    g = load_games()[game]
    store = DataStore(g.package)
    res = invoke("scenarios", game)
    assert res.exit_code == 0
    assert {s.id for s in g.scenarios(store)} <= _words(res.stdout)
    assert "…" not in res.stdout
    res = invoke("tables", game)
    assert res.exit_code == 0
    assert {i.id for i in g.tables(store)} <= _words(res.stdout)
    assert "…" not in res.stdout
    assert all(len(line) <= width for line in res.stdout.splitlines() if not line.startswith("Show one"))
    res = invoke("games")
    assert set(GAMES) <= _words(res.stdout)


def test_listing_json_is_unchanged_by_the_layout() -> None:
    data = json.loads(invoke("scenarios", "centurion", "--json").stdout)
    assert set(data[0]) == {"id", "title", "sides", "first", "turns", "source", "rules", "summary"}
    data = json.loads(invoke("tables", "xenophon", "--json").stdout)
    assert set(data[0]) == {"id", "title", "source", "rules", "note", "sources", "header", "rows", "legend",
                            "provenance"}


# -- D. smaller items ---------------------------------------------------------------------


@pytest.mark.parametrize("command", ["new", "simulate", "sweep"])
def test_a_missing_scenario_names_the_games_scenarios(command: str, monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    monkeypatch.setenv("ANCIENTS_KIT_SAVES", str(tmp_path))
    res = invoke(command, "centurion")
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: missing argument SCENARIO: name one of centurion's")
    assert "basic-servile-war" in lines[0] and f"`ancients {command} centurion basic-carrhae`" in lines[0]
    res = invoke(command, "chess")  # no such game: click's own message, then the game's when named
    assert res.exit_code == 2 and "Missing argument 'SCENARIO'" in res.output


@pytest.fixture
def copied_crt(tmp_path: Path) -> Path:
    """A designer's variant whose CRT is a copy of the shipped one, [meta] and all."""
    crt = (ROOT / "games/centurion/data/crt_melee.toml").read_text("utf-8")
    (tmp_path / "my_crt.toml").write_text(crt.replace('1 = ["DD", "DE"', '1 = ["DE", "DE"', 1))
    (tmp_path / "my_gaul.toml").write_text(
        (ROOT / "games/centurion/data/scenarios/basic-gaul.toml").read_text("utf-8"))
    v = tmp_path / "bloody.toml"
    v.write_text('[meta]\nid = "bloody-crt"\nsource = "variant"\nnote = "Bloodier."\n\n'
                 '[replace."centurion.crt.melee"]\nfile = "my_crt.toml"\n\n'
                 '[replace."centurion.scenario.basic-gaul"]\nfile = "my_gaul.toml"\n')
    return v


def test_a_replaced_document_is_listed_with_its_variant_file(copied_crt: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(copied_crt.parent)
    monkeypatch.setattr(ui.out, "_width", 200)
    res = invoke("tables", "centurion", "--variant", "bloody.toml")
    assert res.exit_code == 0
    row = next(line for line in res.stdout.splitlines() if "centurion.crt.melee" in line)
    assert "variant bloody.toml" in row and "reconstructed" not in row
    other = next(line for line in res.stdout.splitlines() if "centurion.crt.fire" in line)
    assert "variant" not in other
    res = invoke("tables", "centurion", "crt_melee", "--variant", "bloody.toml")
    assert ("source: variant bloody.toml, replacing the game's centurion.crt.melee "
            "(the replacement's own meta.source: reconstructed)") in " ".join(res.stdout.split())
    res = invoke("scenarios", "centurion", "--variant", "bloody.toml")
    row = next(line for line in res.stdout.splitlines() if "basic-gaul" in line)
    assert "variant bloody.toml" in row
    assert "reconstructed" in next(line for line in res.stdout.splitlines() if "basic-carrhae" in line)


# -- search bots in new and play; a demo leaves no save --


def test_new_and_play_take_a_search_bot_with_its_budget(race_plugin: str, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    save = tmp_path / "g.json"
    res = invoke("new", race_plugin, "short", "--side", "blue=mcts:2", "--side", "red=greedy", "--seed", "3",
                 "--stop-after", "4", "--no-map", "--save", str(save))
    assert res.exit_code == 0, res.output
    assert json.loads(save.read_text())["meta"]["sides"] == {"Red": "greedy", "Blue": "mcts:2"}
    res = invoke("play", str(save), "--no-map")  # the save keeps the bot and its budget
    assert res.exit_code == 0, res.output
    assert json.loads(save.read_text())["finished"]
    res = invoke("new", race_plugin, "short", "--side", "blue=mcts:lots", "--save", str(tmp_path / "h.json"))
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1 and "mcts:lots" in res.output


def test_a_demo_leaves_no_save_file(race_plugin: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    saves = tmp_path / "saves"
    monkeypatch.setenv("ANCIENTS_KIT_SAVES", str(saves))
    for _ in range(2):
        res = invoke("demo", race_plugin)
        assert res.exit_code == 0, res.output
    assert not saves.exists() or not any(saves.iterdir())
    assert "--save FILE" in res.output
    res = invoke("demo", race_plugin, "--save", str(tmp_path / "kept.json"))
    assert res.exit_code == 0 and json.loads((tmp_path / "kept.json").read_text())["finished"]


def test_a_demo_without_a_game_plays_the_first_installed_game(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The core names no game: ``ancients demo`` alone takes the first installed game by name."""
    from ancients_kit.plugin import load_games

    monkeypatch.setenv("ANCIENTS_KIT_SAVES", str(tmp_path / "saves"))
    first = min(load_games())
    res = invoke("demo", "--save", str(tmp_path / "first.json"))
    assert res.exit_code == 0, res.output
    assert json.loads((tmp_path / "first.json").read_text())["game"] == first
