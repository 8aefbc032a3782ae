"""Balance studies: records, resuming, worker processes, Dask, sweeps and plots."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from ancients_kit import study
from ancients_kit.cli.main import cli
from ancients_kit.study import Record, StudyError, StudySpec, read_records, replay_record, run_study, summarize
from ancients_kit.sweep import SweepError, parse_values, set_value

RACE = StudySpec("race", "short", {"Red": "random", "Blue": "greedy"})


def _lines_without_elapsed(path: Path) -> list[dict]:
    out = []
    for line in path.read_text().splitlines():
        d = json.loads(line)
        d.pop("elapsed")
        out.append(d)
    return out


def test_records_do_not_depend_on_the_number_of_workers(race_plugin: str, tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    a = run_study(RACE, 12, seed=40, jobs=1, records=one)
    b = run_study(RACE, 12, seed=40, jobs=2, records=two)
    assert [r.index for r in b] == list(range(12))
    assert all(x.same_game(y) for x, y in zip(a, b))
    assert _lines_without_elapsed(one) == _lines_without_elapsed(two)
    assert len({r.log_sha256 for r in a}) > 1  # the seeds really give different games


def test_an_interrupted_study_continues_where_it_stopped(race_plugin: str, tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    seen: list[int] = []

    def stop_after_three(done: int, total: int) -> None:
        seen.append(done)
        if done == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_study(RACE, 10, seed=5, records=path, progress=stop_after_three)
    kept, _ = read_records(path, RACE)
    assert sorted(kept) == [0, 1, 2]
    with path.open("ab") as fh:  # a line cut short by kill -9
        fh.write(b'{"format": "ancients-kit/study-rec')
    played: list[int] = []
    real = study.play_game

    def counting(spec: StudySpec, index: int, seed: int) -> Record:
        played.append(index)
        return real(spec, index, seed)

    study.play_game = counting  # type: ignore[assignment]
    try:
        resumed = run_study(RACE, 10, seed=5, records=path)
    finally:
        study.play_game = real  # type: ignore[assignment]
    assert played == list(range(3, 10))
    straight = run_study(RACE, 10, seed=5)
    assert all(x.same_game(y) for x, y in zip(resumed, straight))
    assert len(path.read_text().splitlines()) == 10


def test_records_of_another_study_are_refused(race_plugin: str, tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    run_study(RACE, 3, seed=1, records=path)
    other = StudySpec("race", "short", {"Red": "greedy", "Blue": "greedy"})
    with pytest.raises(StudyError, match=r"r\.jsonl, line 1: a record of another study \(differs in bots\)"):
        run_study(other, 3, seed=1, records=path)
    with pytest.raises(StudyError, match="played with seed 1, not 9"):
        run_study(RACE, 3, seed=9, records=path)
    path.write_text('{"format": "something else"}\n')
    with pytest.raises(StudyError, match="line 1: not a study record"):
        run_study(RACE, 3, seed=1, records=path)


def test_any_record_replays_to_the_same_game(race_plugin: str) -> None:
    rec = run_study(RACE, 4, seed=77)[3]
    session = replay_record(rec)
    assert session.log.digest() == rec.log_sha256
    assert len(session.answers) == rec.decisions
    assert session.outcome is not None and session.outcome.winner == rec.winner
    with pytest.raises(StudyError, match="no longer plays as recorded"):
        replay_record(_with(rec, log_sha256="0" * 64))


def _with(rec: Record, **changes: object) -> Record:
    import attrs

    return attrs.evolve(rec, **changes)


def test_summary_counts_and_intervals(race_plugin: str) -> None:
    recs = run_study(RACE, 20, seed=3)
    s = summarize(recs, ["Red", "Blue"])
    assert s.wins["Red"] + s.wins["Blue"] + s.draws + s.unfinished == 20
    for side in ("Red", "Blue"):
        iv = s.win_rates[side]
        assert iv.low <= s.wins[side] / 20 <= iv.high
    assert s.decision_quantiles["q05"] <= s.decision_quantiles["q50"] <= s.decision_quantiles["q95"]


def test_dask_local_cluster_gives_the_records_of_jobs(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    spec = StudySpec("centurion", "basic-gaul", {"romans": "random", "gauls": "random"})
    local = run_study(spec, 4, seed=11, jobs=1)
    path = tmp_path / "dask.jsonl"
    on_dask = run_study(spec, 4, seed=11, dask="local", records=path)
    assert all(x.same_game(y) for x, y in zip(local, on_dask))
    assert [json.loads(line)["index"] for line in path.read_text().splitlines()] == [0, 1, 2, 3]


# -- sweeps ---------------------------------------------------------------------------------


def test_sweep_values_and_paths() -> None:
    assert parse_values("2..8:3") == ["2", "5", "8"]
    assert parse_values("0.5..1:0.25") == ["0.5", "0.75", "1"]
    assert parse_values("3, 4,6") == ["3", "4", "6"]
    with pytest.raises(SweepError, match="positive STEP"):
        parse_values("8..2")
    doc = {"unit": [{"code": "BI", "attack": 6}, {"code": "LG", "attack": 8}], "turns": 10}
    new, old = set_value(doc, "unit[code=LG].attack", "9")
    assert old == 8 and new["unit"][1]["attack"] == 9 and doc["unit"][1]["attack"] == 8
    assert set_value(doc, "unit[0].code", "XX")[0]["unit"][0]["code"] == "XX"
    with pytest.raises(SweepError, match="whole number"):
        set_value(doc, "turns", "ten")
    with pytest.raises(SweepError, match="0 elements of unit have code = 'ZZ'"):
        set_value(doc, "unit[code=ZZ].attack", "1")
    with pytest.raises(SweepError, match="no key 'turn'"):
        set_value(doc, "turn", "1")


@pytest.fixture
def run(race_plugin: str):
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(cli, list(args), catch_exceptions=False)

    return invoke


def test_sweep_command_moves_the_game_length(run) -> None:
    res = run("sweep", "race", "short", "--set", "race.short:target", "--values", "5,30", "-n", "8", "-j", "1", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    short, long = data["values"]
    assert short["label"] == "5" and long["label"] == "30"
    assert short["decisions"]["estimate"] < long["decisions"]["estimate"]


def test_sweep_command_errors_are_one_line(run) -> None:
    res = run("sweep", "race", "short", "--set", "race.short:goal", "--values", "5", "-n", "2")
    assert res.exit_code == 2
    assert "no key 'goal'" in res.output and len(res.output.strip().splitlines()) == 1
    res = run("sweep", "race", "short", "--set", "race.nothing:target", "--values", "5", "-n", "2")
    assert res.exit_code == 2 and "no data document 'race.nothing'" in res.output


def test_simulate_compares_a_variant_with_tests(run, tmp_path: Path) -> None:
    variant = tmp_path / "v.toml"
    variant.write_text(
        '[meta]\nid = "quick"\nsource = "variant"\nnote = "shorter race"\n\n'
        '[replace."race.short"]\ntitle = "Race to five"\nsides = ["Red", "Blue"]\ntarget = 5\n'
    )
    res = run("simulate", "race", "short", "-n", "10", "--side", "Blue=greedy", "--variant", str(variant),
              "--records", str(tmp_path / "r.jsonl"), "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["bots"] == {"Red": "random", "Blue": "greedy"}
    assert [c["side"] for c in data["comparison"]] == ["Red", "Blue"]
    for c in data["comparison"]:
        assert 0 < c["exact_test"]["p_value"] <= 1 and c["games_for_five_points"] > 100
    files = sorted(p.name for p in tmp_path.glob("r*.jsonl"))
    assert files[0] == "r.jsonl" and files[1].startswith("r.variant-") and len(files) == 2


def test_plots_are_well_formed_and_reproducible(run, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    a, b = tmp_path / "a.svg", tmp_path / "b.svg"
    for p in (a, b):
        res = run("simulate", "race", "short", "-n", "6", "-j", "1", "--plot", str(p))
        assert res.exit_code == 0, res.output
    root = ET.parse(a).getroot()
    assert root.tag.endswith("svg")
    assert a.read_bytes() == b.read_bytes()
    sweep = tmp_path / "s.png"
    res = run("sweep", "race", "short", "--set", "race.short:target", "--values", "5..15:5", "-n", "4", "-j", "1",
              "--plot", str(sweep))
    assert res.exit_code == 0, res.output
    assert sweep.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    res = run("simulate", "race", "short", "-n", "2", "--plot", str(tmp_path / "x.pdf"))
    assert res.exit_code == 2 and "name a .svg or .png file" in res.output
