"""Paths named inside data files, variants and saves stay confined (issue 13, item 6)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ancients_kit.data import DataError, DataStore, Variant, read_file
from ancients_kit.hexgrid import MAX_DIGITS, MAX_MAP_HEXES, Numbering
from ancients_kit.paths import (
    MAX_DATA_BYTES,
    check_package_name,
    read_regular_file,
    resolve_inside,
)

HEAD = '[meta]\nid = "v"\nsource = "variant"\nnote = "test"\n\n'


def _variant(folder: Path, body: str, name: str = "v.toml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    p = folder / name
    p.write_text(HEAD + body)
    return p


# ---------------------------------------------------------------- package names


@pytest.mark.parametrize("name", ["map.toml", "maps/big.toml", "scenarios/a-b.toml"])
def test_package_name_accepts_names_under_data(name: str) -> None:
    assert check_package_name(name, file="f", key="k") == name


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("../../../etc/passwd", "leaves or skips folders"),
        ("maps/../../x.toml", "leaves or skips folders"),
        ("maps//x.toml", "leaves or skips folders"),
        ("./map.toml", "leaves or skips folders"),
        ("/etc/passwd", "absolute path"),
        ("C:/x.toml", "absolute path"),
        ("maps\\x.toml", "use '/'"),
        ("map\x00.toml", "NUL byte"),
        ("", "empty"),
        (3, "expected a file name"),
    ],
)
def test_package_name_refuses_escapes(name: object, why: str) -> None:
    with pytest.raises(DataError, match=why) as info:
        check_package_name(name, file="scen.toml", key="scenario.map")
    assert str(info.value).startswith("scen.toml: scenario.map: ")


def test_store_raw_refuses_paths_out_of_data() -> None:
    store = DataStore("ancients_games.centurion")
    with pytest.raises(DataError, match="leaves or skips folders"):
        store.raw("../../../../../../etc/passwd")
    with pytest.raises(DataError, match="absolute path"):
        store.raw("/etc/passwd")


# ---------------------------------------------------------------- files beside a file


def test_resolve_inside_keeps_subfolders(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    assert resolve_inside(tmp_path, "sub/x.toml", file="v.toml", key="k") == (tmp_path / "sub" / "x.toml").resolve()
    assert resolve_inside(tmp_path, "sub/../x.toml", file="v.toml", key="k") == (tmp_path / "x.toml").resolve()


@pytest.mark.parametrize("name", ["../x.toml", "sub/../../x.toml", "/etc/hostname", "/dev/zero"])
def test_resolve_inside_refuses_escapes(tmp_path: Path, name: str) -> None:
    with pytest.raises(DataError) as info:
        resolve_inside(tmp_path / "v", name, file="v.toml", key="replace.a.file")
    assert str(info.value).startswith("v.toml: replace.a.file: ")


def test_resolve_inside_follows_symlinks_out(tmp_path: Path) -> None:
    outside = tmp_path / "outside.toml"
    outside.write_text("x = 1\n")
    inner = tmp_path / "variant"
    inner.mkdir()
    (inner / "link.toml").symlink_to(outside)
    with pytest.raises(DataError, match="resolves outside"):
        resolve_inside(inner, "link.toml", file="v.toml", key="k")


# ---------------------------------------------------------------- regular files of bounded size


def test_read_regular_file_reads_a_file(tmp_path: Path) -> None:
    p = tmp_path / "a.toml"
    p.write_bytes(b"x = 1\n")
    assert read_regular_file(p, "data file") == b"x = 1\n"


def test_read_regular_file_refuses_a_folder(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="it is a folder"):
        read_regular_file(tmp_path, "variant file")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_read_regular_file_refuses_a_fifo_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)  # no writer: a blocking open would hang the test
    with pytest.raises(DataError, match="it is a FIFO"):
        read_regular_file(fifo, "variant file")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_read_regular_file_refuses_a_device() -> None:
    with pytest.raises(DataError, match="it is a device"):
        read_regular_file("/dev/zero", "variant file")
    with pytest.raises(DataError, match="it is a device"):
        read_file("/dev/zero", "table file")


def test_read_regular_file_refuses_a_huge_file(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    with open(big, "wb") as fh:
        fh.truncate(MAX_DATA_BYTES + 1)  # sparse: costs nothing to make
    with pytest.raises(DataError, match="larger than"):
        read_regular_file(big, "variant file")
    small = tmp_path / "small.toml"
    small.write_bytes(b"12345")
    with pytest.raises(DataError, match="larger than 4 bytes"):
        read_regular_file(small, "file", limit=4)


def test_read_regular_file_names_the_file_that_named_it(tmp_path: Path) -> None:
    with pytest.raises(DataError) as info:
        read_regular_file(tmp_path / "missing.toml", "included file", file="v.toml", key="replace.a.file")
    msg = str(info.value)
    assert msg.startswith("v.toml: replace.a.file: ") and "missing.toml" in msg and "\n" not in msg


# ---------------------------------------------------------------- variants' file =


def test_variant_include_beside_the_variant_loads(tmp_path: Path) -> None:
    (tmp_path / "parts").mkdir()
    (tmp_path / "parts" / "crt.toml").write_text('title = "t"\n')
    v = Variant.from_file(_variant(tmp_path, '[replace."g.crt"]\nfile = "parts/crt.toml"\n'))
    assert v.replace["g.crt"] == {"title": "t"}


@pytest.mark.parametrize(
    ("file_value", "why"),
    [
        ('"/etc/passwd"', "absolute path"),
        ('"../../../../../../etc/hostname"', "resolves outside"),
        ('"/dev/zero"', "absolute path"),
        ('"."', "it is a folder"),
        ("3", "expected a file name"),
        ('""', "empty"),
        ('"a\\u0000b"', "NUL byte"),
    ],
)
def test_variant_include_refused(tmp_path: Path, file_value: str, why: str) -> None:
    p = _variant(tmp_path / "v", f'[replace."g.crt"]\nfile = {file_value}\n')
    with pytest.raises(DataError, match=why) as info:
        Variant.from_file(p)
    assert str(info.value).startswith(f"{p}: replace.g.crt.file: ")


def test_variant_include_must_be_a_regular_file(tmp_path: Path) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    os.mkfifo(tmp_path / "pipe.toml")
    p = _variant(tmp_path, '[replace."g.crt"]\nfile = "pipe.toml"\n')
    with pytest.raises(DataError, match="FIFO") as info:
        Variant.from_file(p)
    assert str(info.value).startswith(f"{p}: replace.g.crt.file: ")


def test_variant_file_itself_is_bounded(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    with open(big, "wb") as fh:
        fh.truncate(MAX_DATA_BYTES + 1)
    with pytest.raises(DataError, match="larger than"):
        Variant.from_file(big)


# ---------------------------------------------------------------- map size (a variant map cannot hang the loader)


def test_numbering_bounds_digits_and_size() -> None:
    with pytest.raises(ValueError, match="digits"):
        Numbering(orientation="flat", shifted="even", columns=3, rows=3, digits=MAX_DIGITS + 1)
    with pytest.raises(ValueError, match="more than a map may hold"):
        Numbering(orientation="flat", shifted="even", columns=MAX_MAP_HEXES, rows=2, digits=4)
    assert len(Numbering(orientation="flat", shifted="even", columns=3, rows=3).hexes()) == 9
