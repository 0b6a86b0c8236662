"""The objects people hold: pyarrow tables and batches, Polars, pandas,
DuckDB, nanoarrow-style capsules; the rulesets by name; and bad
arguments, which get a clear exception."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import utf8_automaton as u8

REPO = Path(__file__).resolve().parents[2]
CUT_FILE = REPO / "data" / "examples" / "cut-across-rows.parquet"
CUT = [b"ok", b"caf\xc3", b"\xa9lait", None, b"fine"]


def rows(table: pa.Table) -> list[tuple[str, int]]:
    return [(r["column"], r["row"]) for r in table.to_pylist()]


def test_the_example_file_read_by_pyarrow_names_both_rows() -> None:
    table = pq.read_table(CUT_FILE)
    assert rows(u8.invalid_rows(table)) == [("s", 1), ("s", 2)]
    with pytest.raises(u8.InvalidUtf8Error, match="column s: row 1: invalid UTF-8 at byte 3"):
        u8.validate(table)


def test_a_tables_string_columns_and_struct_fields_are_checked_by_path() -> None:
    struct = pa.StructArray.from_arrays(
        [pa.array([b"x", b"\xff", b"y", b"z", b"\xfe"]), pa.array([1, 2, 3, 4, 5])],
        names=["city", "zip"],
        mask=pa.array([False, False, False, False, True]),
    )
    table = pa.table({"id": range(5), "s": pa.array(CUT), "address": struct})
    assert rows(u8.invalid_rows(table)) == [("s", 1), ("address.city", 1), ("s", 2)]
    assert u8.is_valid(table).to_pylist() == [True, False, False, True, True]
    batch = table.to_batches()[0]
    assert rows(u8.invalid_rows(batch)) == [("s", 1), ("address.city", 1), ("s", 2)]
    repaired = u8.to_string(table, errors="replace")
    assert isinstance(repaired, pa.Table)
    assert repaired.column("s").to_pylist() == ["ok", "caf\ufffd", "\ufffdlait", None, "fine"]
    assert repaired.schema.field("s").type == pa.string()
    assert repaired.column("address").type.field("city").type == pa.string()


def test_polars_series_and_frames() -> None:
    pl = pytest.importorskip("polars")
    series = pl.Series("s", CUT, dtype=pl.Binary)
    assert u8.is_valid(series).to_pylist() == [True, False, False, None, True]
    assert rows(u8.invalid_rows(series)) == [("s", 1), ("s", 2)]
    frame = pl.DataFrame({"s": series, "n": [1, 2, 3, 4, 5]})
    assert rows(u8.invalid_rows(frame)) == [("s", 1), ("s", 2)]
    strings = pl.from_arrow(u8.to_string(series, errors="null"))
    assert strings.to_list() == ["ok", None, None, None, "fine"]


def test_pandas_columns_with_an_arrow_dtype() -> None:
    pd = pytest.importorskip("pandas")
    column = pd.Series(pd.arrays.ArrowExtensionArray(pa.array(CUT)))
    assert rows(u8.invalid_rows(column)) == [("", 1), ("", 2)]
    frame = pd.DataFrame({"s": column})
    assert [row for _, row in rows(u8.invalid_rows(frame))] == [1, 2]


def test_duckdb_results() -> None:
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    result = con.sql("SELECT * FROM (VALUES ('\\xC3'::BLOB), ('ok'::BLOB)) t(b)").arrow()
    found = u8.invalid_rows(result)
    assert [(r["column"], r["row"]) for r in found.to_pylist()] == [("b", 0)]


def test_every_ruleset_by_name() -> None:
    # U+1F496 as a CESU-8 surrogate pair: CESU-8 and not UTF-8.
    pair = pa.array([b"\xed\xa0\xbd\xed\xb2\x96"])
    assert u8.is_valid(pair).to_pylist() == [False]
    assert u8.is_valid(pair, ruleset="cesu8").to_pylist() == [True]
    assert u8.is_valid(pair, ruleset="CESU-8").to_pylist() == [True]
    # NUL as Java writes it: modified UTF-8 only.
    assert u8.is_valid(pa.array([b"\xc0\x80"]), ruleset="mutf8").to_pylist() == [True]
    assert u8.is_valid(pa.array([b"\xc0\x80"]), ruleset="wtf8").to_pylist() == [False]
    # A lone surrogate: WTF-8 and RFC 2279, not UTF-8.
    lone = pa.array([b"\xed\xa0\x80"])
    assert u8.is_valid(lone, ruleset="wtf8").to_pylist() == [True]
    assert u8.is_valid(lone, ruleset="rfc2279").to_pylist() == [True]
    with pytest.raises(u8.InvalidUtf8Error) as raised:
        u8.validate(lone, ruleset="cesu8")
    assert raised.value.ruleset == "cesu8"
    assert u8.rulesets()[0] == "rfc3629"


def test_bad_arguments_get_a_clear_exception() -> None:
    with pytest.raises(TypeError, match="got list"):
        u8.is_valid([b"a"])
    with pytest.raises(TypeError, match="(?i)got int64"):
        u8.is_valid(pa.array([1, 2]))
    with pytest.raises(ValueError, match="unknown ruleset `utf9`; the rulesets are rfc3629"):
        u8.is_valid(pa.array([b"a"]), ruleset="utf9")
    with pytest.raises(ValueError, match='errors must be "raise", "null" or "replace"'):
        u8.to_string(pa.array([b"a"]), errors="ignore")
    with pytest.raises(TypeError, match="(?i)got list<item: int64>|got List"):
        u8.is_valid(pa.array([[1]]))


def test_a_malformed_array_is_an_error_not_a_crash() -> None:
    # Offsets that go back: pyarrow's `from_buffers` checks only the last
    # against the values' size, and exports the array as it is.
    offsets = pa.array([0, 10, 2], type=pa.int32()).buffers()[1]
    values = pa.py_buffer(b"ok" + bytes(14))
    array = pa.Array.from_buffers(pa.binary(), 2, [None, offsets, values])
    with pytest.raises(ValueError, match="malformed"):
        u8.is_valid(array)
    with pytest.raises(ValueError, match="malformed"):
        u8.to_string(array)


def test_a_malformed_nested_array_is_an_error_not_a_crash() -> None:
    # A list whose binary elements' offsets go back, and a dictionary whose
    # key points past its values: arrow-rs's full validation of the byte
    # twin refuses both before any value is read.
    offsets = pa.array([0, 10, 2], type=pa.int32()).buffers()[1]
    elements = pa.Array.from_buffers(pa.binary(), 2, [None, offsets, pa.py_buffer(b"ok" + bytes(14))])
    lists = pa.ListArray.from_arrays(pa.array([0, 2], type=pa.int32()), elements)
    with pytest.raises(ValueError, match="malformed"):
        u8.invalid_rows(lists)
    keys = pa.array([0, 7], type=pa.int32())
    dictionary = pa.DictionaryArray.from_buffers(
        pa.dictionary(pa.int32(), pa.binary()), 2, keys.buffers(), pa.array([b"a"])
    )
    with pytest.raises(ValueError, match="malformed"):
        u8.to_string(dictionary)
