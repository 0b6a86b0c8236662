"""`check_parquet` against a per-value reference on files pyarrow writes
(every encoding and codec it offers, several row groups, lists and
structs), and on files that are not Parquet or are malformed: an
exception naming the file, never a crash."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import utf8_automaton as u8

from test_differential import random_values, reference

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "utf8-cli" / "tests" / "data" / "hostile"
COLUMNS = ["file", "row_group", "column", "row", "element", "valid_up_to", "error_len", "bytes"]


def expected_flat(path: str, column: str, values: list[bytes | None], group_rows: int) -> list[dict]:
    found = []
    for row, value in enumerate(values):
        bad = reference(value)
        if bad is None:
            continue
        at, length = bad
        assert value is not None
        found.append(
            {
                "file": path,
                "row_group": row // group_rows,
                "column": column,
                "row": row,
                "element": None,
                "valid_up_to": at,
                "error_len": length,
                "bytes": value[at : len(value) if length is None else at + length],
            }
        )
    return found


def as_string(values: list[bytes | None]) -> pa.Array:
    """A string array holding the bytes unchecked, as a writer that does
    not check them makes one."""
    return pa.array(values, type=pa.binary()).view(pa.string())


WRITES = [
    {"compression": "none", "use_dictionary": False},
    {"compression": "snappy", "use_dictionary": True},
    {"compression": "zstd", "use_dictionary": False, "column_encoding": {"s": "DELTA_LENGTH_BYTE_ARRAY"}},
    {"compression": "gzip", "use_dictionary": False, "column_encoding": {"s": "DELTA_BYTE_ARRAY"}},
    {"compression": "lz4", "use_dictionary": False, "data_page_version": "2.0"},
    {"compression": "brotli", "use_dictionary": True, "data_page_version": "2.0"},
]


@pytest.mark.parametrize("write", WRITES, ids=[str(i) for i in range(len(WRITES))])
@pytest.mark.parametrize("rows", [0, 1, 255, 256, 257, 1025])
def test_every_bad_value_of_a_flat_column_is_found(tmp_path: Path, write: dict, rows: int) -> None:
    rng = random.Random(rows * 31 + len(str(write)))
    values = random_values(rng, rows)
    path = str(tmp_path / "t.parquet")
    group_rows = 100
    table = pa.table({"id": pa.array(range(rows), pa.int64()), "s": as_string(values)})
    pq.write_table(table, path, row_group_size=group_rows, data_page_size=512, **write)
    found = u8.check_parquet(path, threads=3).select(COLUMNS).to_pylist()
    assert found == expected_flat(path, "s", values, group_rows)


def test_the_answer_does_not_depend_on_the_thread_count(tmp_path: Path) -> None:
    rng = random.Random(7)
    values = random_values(rng, 2000)
    path = str(tmp_path / "t.parquet")
    pq.write_table(pa.table({"s": as_string(values)}), path, row_group_size=77)
    answers = [u8.check_parquet(path, threads=n).to_pylist() for n in (1, 2, 5, 64)]
    assert all(answer == answers[0] for answer in answers)
    assert len(answers[0]) == sum(reference(v) is not None for v in values)


def test_strings_only_leaves_binary_columns_out(tmp_path: Path) -> None:
    path = str(tmp_path / "t.parquet")
    pq.write_table(pa.table({"b": pa.array([b"\xff"]), "s": as_string([b"caf\xc3"])}), path)
    assert u8.check_parquet(path).column("column").to_pylist() == ["b", "s"]
    assert u8.check_parquet(path, strings_only=True).column("column").to_pylist() == ["s"]


def test_values_in_lists_and_structs_are_named_by_row_element_and_path(tmp_path: Path) -> None:
    path = str(tmp_path / "t.parquet")
    tags = pa.array([[b"ok"], None, [b"a", b"b", b"\xff"], []], pa.list_(pa.binary()))
    who = pa.StructArray.from_arrays([pa.array([b"x", b"\xc3", None, b"y"])], names=["name"])
    pq.write_table(pa.table({"tags": tags, "who": who}), path)
    found = u8.check_parquet(path).select(["column", "row", "element", "valid_up_to", "error_len"]).to_pylist()
    assert found == [
        {"column": "who.name", "row": 1, "element": None, "valid_up_to": 0, "error_len": None},
        {"column": "tags.list.element", "row": 2, "element": 2, "valid_up_to": 0, "error_len": 1},
    ]


def test_a_ruleset_is_named(tmp_path: Path) -> None:
    path = str(tmp_path / "t.parquet")
    # U+1F600 as CESU-8: a surrogate pair, each half three bytes.
    pair = "\ud83d\ude00".encode("utf-8", "surrogatepass")
    pq.write_table(pa.table({"s": as_string([pair, "😀".encode()])}), path)
    assert u8.check_parquet(path).column("row").to_pylist() == [0]
    assert u8.check_parquet(path, ruleset="cesu8").column("row").to_pylist() == [1]
    with pytest.raises(ValueError, match="ruleset"):
        u8.check_parquet(path, ruleset="utf-9")


def test_a_folder_is_its_parquet_files_in_order(tmp_path: Path) -> None:
    for name, value in [("b/2.parquet", b"\xff"), ("a.parquet", b"\xc3"), ("b/1.parquet", b"ok"), ("_c.parquet", b"\xff")]:
        (tmp_path / name).parent.mkdir(exist_ok=True)
        pq.write_table(pa.table({"s": pa.array([value])}), tmp_path / name)
    (tmp_path / "notes.txt").write_bytes(b"\xff")
    found = u8.check_parquet(tmp_path).column("file").to_pylist()
    assert found == [str(tmp_path / "a.parquet"), str(tmp_path / "b" / "2.parquet")]
    both = u8.check_parquet([tmp_path / "b" / "2.parquet", str(tmp_path / "a.parquet")])
    assert both.column("file").to_pylist() == [str(tmp_path / "b" / "2.parquet"), str(tmp_path / "a.parquet")]
    assert u8.check_parquet([]).num_rows == 0


def test_a_missing_file_is_an_os_error_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "missing.parquet"
    with pytest.raises(FileNotFoundError) as caught:
        u8.check_parquet(missing)
    assert caught.value.filename == str(missing)


def test_a_file_that_is_not_parquet_is_a_value_error_naming_it(tmp_path: Path) -> None:
    text = tmp_path / "t.parquet"
    text.write_bytes(b"caf\xc3\xa9\n" * 100)
    with pytest.raises(ValueError, match=f"cannot read {text} as Parquet"):
        u8.check_parquet(text)
    with pytest.raises(TypeError):
        u8.check_parquet([b"t.parquet"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="threads"):
        u8.check_parquet(text, threads=0)


@pytest.mark.parametrize("cut", [0, 1, 4, 100, -8, -1])
def test_a_truncated_file_is_a_value_error(tmp_path: Path, cut: int) -> None:
    whole = tmp_path / "whole.parquet"
    pq.write_table(pa.table({"s": as_string([b"ok", b"\xff"] * 100)}), whole)
    data = whole.read_bytes()
    cut_file = tmp_path / "cut.parquet"
    cut_file.write_bytes(data[:cut])
    with pytest.raises(ValueError, match="cut.parquet"):
        u8.check_parquet(cut_file)


@pytest.mark.parametrize("name", sorted(p.name for p in HOSTILE.glob("*.parquet")))
def test_a_malformed_file_is_a_value_error_naming_it_never_a_crash(tmp_path: Path, name: str) -> None:
    # The files `utf8 check` refuses with one line each (their README says
    # what each does to the parquet crate's reader), checked in this
    # process, which a crash, a hang or an abort would end.
    copy = tmp_path / name
    shutil.copyfile(HOSTILE / name, copy)
    with pytest.raises(ValueError) as caught:
        u8.check_parquet(copy)
    assert str(caught.value).startswith(f"cannot read {copy} as Parquet: ")
    assert "\n" not in str(caught.value)


def test_the_malformed_files_are_there() -> None:
    assert len(list(HOSTILE.glob("*.parquet"))) >= 12


SPLIT = [b"ok", b"caf\xc3", b"\xa9lait", None, b"fin"]


@pytest.mark.parametrize("encoding", ["PLAIN", "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY"])
def test_the_character_cut_across_rows_is_found_in_every_encoding(tmp_path: Path, encoding: str) -> None:
    # `é` cut across rows 1 and 2: each value alone is not UTF-8, back to
    # back they are. A reader that checks a page's strings as one run (as
    # arrow-rs's does for the delta encodings) lets it through; pyarrow
    # checks none.
    path = tmp_path / f"{encoding}.parquet"
    table = pa.table({"s": as_string(SPLIT)})
    pq.write_table(table, path, use_dictionary=False, column_encoding={"s": encoding})
    expected = [
        {"column": "s", "row": 1, "valid_up_to": 3, "error_len": None, "bytes": b"\xc3"},
        {"column": "s", "row": 2, "valid_up_to": 0, "error_len": 1, "bytes": b"\xa9"},
    ]
    assert u8.check_parquet(path).select(list(expected[0])).to_pylist() == expected
    read = pq.read_table(path)
    assert read.column("s").type == pa.string()
    assert u8.invalid_rows(read).select(list(expected[0])).to_pylist() == expected
    assert u8.is_valid(read.column("s")).to_pylist() == [True, False, False, None, True]
    with pytest.raises(u8.InvalidUtf8Error) as caught:
        u8.validate(read)
    assert (caught.value.column, caught.value.row, caught.value.valid_up_to) == ("s", 1, 3)
    assert u8.to_string(read, errors="null").column("s").to_pylist() == ["ok", None, None, None, "fin"]
