"""Files a command writes besides its save (issue 27 item 2): never an input, a
save or through a symbolic link (ancients_kit/outputs.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from ancients_kit.cli.main import cli
from ancients_kit.outputs import OutputRefused, check_output, is_save_file, write_output
from ancients_kit.files import write_atomic

VARIANT = '[meta]\nid = "plain"\nsource = "variant"\nnote = "changes nothing"\n'


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A short saved Centurion game played with a variant file beside it."""
    folder = tmp_path_factory.mktemp("outputs")
    (folder / "v.toml").write_text(VARIANT)
    r = CliRunner().invoke(cli, ["new", "centurion", "numidia", "--bots", "--seed", "1", "--no-map", "--plain",
                                 "--stop-after", "4", "--save", str(folder / "g.json"),
                                 "--variant", str(folder / "v.toml")])
    assert r.exit_code == 0, r.output
    return folder / "g.json"


def _run(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(cli, list(args))
    assert "Traceback" not in r.output
    return r.exit_code, r.output


def _kept(path: Path) -> bytes:
    return path.read_bytes()


def test_replay_html_never_replaces_the_save_it_reads(game: Path) -> None:
    before = _kept(game)
    for name in (str(game), str(game.parent / "." / game.name), str(game.parent / ".." / game.parent.name / game.name)):
        code, out = _run("replay", str(game), "--html", name)
        assert code == 2 and "which this command reads" in out
    assert _kept(game) == before


def test_an_output_is_never_a_variant_the_game_reads(game: Path) -> None:
    variant = game.parent / "v.toml"
    for args in (["replay", str(game), "--html", str(variant)], ["show", str(game), "--svg", str(variant)]):
        code, out = _run(*args)
        assert code == 2, out
    assert variant.read_text() == VARIANT


def test_a_hard_link_to_the_save_is_the_save(game: Path, tmp_path: Path) -> None:
    link = tmp_path / "page.html"
    os.link(game, link)
    code, out = _run("replay", str(game), "--html", str(link))
    assert code == 2 and "which this command reads" in out
    assert link.read_bytes() == game.read_bytes()


def test_no_output_overwrites_another_saved_game(game: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.svg"
    other.write_bytes(game.read_bytes())
    for args in (["replay", str(game), "--html", str(other)], ["show", str(game), "--svg", str(other)]):
        code, out = _run(*args)
        assert code == 2 and "is a saved game" in out
    assert other.read_bytes() == game.read_bytes()


def test_an_output_is_not_written_through_a_symbolic_link(game: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("someone else's file\n")
    for name, args in (("page.html", ["replay", str(game), "--html"]), ("pic.svg", ["show", str(game), "--svg"]),
                       ("pic.png", ["show", str(game), "--png"])):
        link = tmp_path / name
        link.symlink_to(elsewhere)
        code, out = _run(*args, str(link))
        assert code == 2 and "symbolic link" in out, out
        assert link.is_symlink()
    assert elsewhere.read_text() == "someone else's file\n"


def test_a_dangling_link_is_refused_too(game: Path, tmp_path: Path) -> None:
    link = tmp_path / "page.html"
    link.symlink_to(tmp_path / "nowhere" / "x.html")
    code, out = _run("replay", str(game), "--html", str(link))
    assert code == 2 and "symbolic link" in out
    assert not (tmp_path / "nowhere").exists()


def test_a_good_output_is_written_and_rewritten(game: Path, tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    for _ in range(2):  # the second run replaces the page it wrote (an HTML page is no save)
        code, out = _run("replay", str(game), "--html", str(page))
        assert code == 0, out
    assert page.read_text().startswith("<!DOCTYPE html>")
    code, out = _run("show", str(game), "--svg", str(tmp_path / "pic.svg"))
    assert code == 0 and "<svg" in (tmp_path / "pic.svg").read_text()


def test_study_records_and_plots_refuse_variants_saves_and_links(game: Path, tmp_path: Path) -> None:
    variant = game.parent / "v.toml"
    link = tmp_path / "r.jsonl"
    link.symlink_to(tmp_path / "target.jsonl")
    for extra in (["--records", str(variant)], ["--records", str(game)], ["--records", str(link)],
                  ["--plot", str(game.with_suffix(".svg"))]):
        if extra[0] == "--plot":
            game.with_suffix(".svg").write_bytes(game.read_bytes())  # a save named like a chart
        code, out = _run("simulate", "centurion", "numidia", "-n", "1", "--variant", str(variant), *extra)
        assert code == 2, out
    assert variant.read_text() == VARIANT
    assert not (tmp_path / "target.jsonl").exists()


def test_a_link_planted_after_the_check_is_replaced_not_followed(tmp_path: Path) -> None:
    """The write renames a new file into place: a link put there between the
    check and the write is replaced, its target untouched."""
    target = tmp_path / "precious.txt"
    target.write_text("keep me\n")
    out = tmp_path / "page.html"
    check_output(out)
    out.symlink_to(target)  # the race
    write_atomic(out, "<p>page</p>\n", follow_links=False)
    assert not out.is_symlink() and out.read_text() == "<p>page</p>\n"
    assert target.read_text() == "keep me\n"


def test_check_output_messages_are_one_line_and_name_the_option(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    for path in (tmp_path / "d", Path(f"{tmp_path}/a\x00b")):
        with pytest.raises(OutputRefused) as exc:
            write_output(path, "x", what="--html")
        assert str(exc.value).startswith("--html ") and "\n" not in str(exc.value)


def test_is_save_file_reads_only_the_head_and_never_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    assert not is_save_file(fifo)  # would block a plain open(); refused unread
    plain = tmp_path / "notes.json"
    plain.write_text('{"format": "something else"}')
    assert not is_save_file(plain)
