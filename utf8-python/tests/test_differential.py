"""Every function against a per-value reference (`bytes.decode` and its
`UnicodeDecodeError`), on random arrays of every string and binary type:
nulls over invalid bytes, slices, chunks, empty arrays, and the edge
counts of rows and value lengths."""

from __future__ import annotations

import random

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import utf8_automaton as u8

TYPES = [pa.binary(), pa.large_binary(), pa.binary_view(), pa.string(), pa.large_string(), pa.string_view()]
ROW_COUNTS = [0, 1, 255, 256, 257, 1023, 1024, 1025]
VALUE_LENGTHS = [0, 1, 12, 13, 255, 256]
PIECES = [b"a", b"\xc3\xa9", b"\xe2\x82\xac", b"\xf0\x9f\x98\x80", b"\xc3", b"\xa9", b"\xff", b"\xed\xa0\x80", b"\xf0\x9f\x98", b"\x00"]


def reference(value: bytes | None) -> tuple[int, int | None] | None:
    """None for a valid value (or a null), else (valid_up_to, error_len)."""
    if value is None:
        return None
    try:
        value.decode("utf-8")
        return None
    except UnicodeDecodeError as e:
        # Python's decoder says "unexpected end of data" where the value
        # ends inside a character: no error length, as Rust's Utf8Error.
        cut = e.reason == "unexpected end of data"
        return (e.start, None if cut else e.end - e.start)


def random_value(rng: random.Random, length: int) -> bytes:
    out = bytearray()
    while len(out) < length:
        out += rng.choice(PIECES)
    return bytes(out[:length])


def random_values(rng: random.Random, rows: int) -> list[bytes | None]:
    values: list[bytes | None] = []
    for _ in range(rows):
        if rng.random() < 0.1:
            values.append(None)
        else:
            values.append(random_value(rng, rng.choice(VALUE_LENGTHS)))
    return values


def array_of(values: list[bytes | None], type_: pa.DataType) -> pa.Array:
    """An array of `type_` holding `values` as they are (a string array's
    bytes unchecked, as a reader that does not check them would make it),
    with bad bytes under some nulls."""
    binary = pa.array(values, type=pa.binary())
    if pa.types.is_string(type_) or pa.types.is_large_string(type_) or pa.types.is_string_view(type_):
        twin = {pa.string(): pa.binary(), pa.large_string(): pa.large_binary(), pa.string_view(): pa.binary_view()}[type_]
        as_bytes = binary.cast(twin)
        return pa.Array.from_buffers(type_, len(as_bytes), as_bytes.buffers(), as_bytes.null_count)
    return binary.cast(type_)


def expected_rows(values: list[bytes | None]) -> list[tuple[int, int, int | None]]:
    return [(row, *bad) for row, value in enumerate(values) if (bad := reference(value)) is not None]


@pytest.mark.parametrize("type_", TYPES, ids=str)
@pytest.mark.parametrize("rows", ROW_COUNTS)
def test_every_function_agrees_with_bytes_decode(type_: pa.DataType, rows: int) -> None:
    rng = random.Random(f"{type_}-{rows}")
    values = random_values(rng, rows)
    array = array_of(values, type_)

    want = [None if v is None else reference(v) is None for v in values]
    assert u8.is_valid(array).to_pylist() == want

    got = u8.invalid_rows(array).to_pylist()
    assert [(r["row"], r["valid_up_to"], r["error_len"]) for r in got] == expected_rows(values)
    for r in got:
        value = values[r["row"]]
        assert r["bytes"] == value[r["valid_up_to"] : r["valid_up_to"] + len(r["bytes"])]

    bad = expected_rows(values)
    if bad:
        with pytest.raises(u8.InvalidUtf8Error) as raised:
            u8.validate(array)
        assert (raised.value.row, raised.value.valid_up_to, raised.value.error_len) == bad[0]
        with pytest.raises(u8.InvalidUtf8Error):
            u8.to_string(array)
    else:
        u8.validate(array)
        assert u8.to_string(array).to_pylist() == [None if v is None else v.decode() for v in values]

    replaced = u8.to_string(array, errors="replace").to_pylist()
    assert replaced == [None if v is None else v.decode("utf-8", errors="replace") for v in values]
    nulled = u8.to_string(array, errors="null").to_pylist()
    assert nulled == [None if v is None or reference(v) is not None else v.decode() for v in values]


@pytest.mark.parametrize("type_", TYPES, ids=str)
def test_slices_and_chunks_count_rows_from_the_first(type_: pa.DataType) -> None:
    rng = random.Random(str(type_))
    values = random_values(rng, 600)
    array = array_of(values, type_)
    for start, length in [(0, 0), (1, 1), (13, 300), (299, 301), (599, 1)]:
        sliced = array.slice(start, length)
        assert [r["row"] for r in u8.invalid_rows(sliced).to_pylist()] == [
            row for row, *_ in expected_rows(values[start : start + length])
        ]
    chunks = [array.slice(0, 0), array.slice(0, 250), array.slice(250, 0), array.slice(250, 350)]
    chunked = pa.chunked_array(chunks, type=type_)
    assert [r["row"] for r in u8.invalid_rows(chunked).to_pylist()] == [row for row, *_ in expected_rows(values)]
    assert u8.is_valid(chunked).to_pylist() == [None if v is None else reference(v) is None for v in values]


def test_a_character_cut_across_rows_is_two_bad_rows() -> None:
    array = pa.array([b"ok", b"caf\xc3", b"\xa9lait"])
    got = [(r["row"], r["valid_up_to"], r["error_len"]) for r in u8.invalid_rows(array).to_pylist()]
    assert got == [(1, 3, None), (2, 0, 1)]


def test_bad_bytes_under_a_null_are_no_value() -> None:
    offsets = pa.array([0, 1, 3], type=pa.int32()).buffers()[1]
    values = pa.py_buffer(b"\xffok")
    validity = pa.array([False, True]).buffers()[1]
    # A validity buffer with row 0 null: bit 0 clear, bit 1 set.
    validity = pa.py_buffer(bytes([0b10]))
    array = pa.Array.from_buffers(pa.string(), 2, [validity, offsets, values], 1)
    assert u8.is_valid(array).to_pylist() == [None, True]
    u8.validate(array)
    assert u8.to_string(array).to_pylist() == [None, "ok"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.none(), st.binary(max_size=40)), max_size=80), st.sampled_from(TYPES))
def test_hypothesis_values(values: list[bytes | None], type_: pa.DataType) -> None:
    array = array_of(values, type_)
    got = u8.invalid_rows(array).to_pylist()
    assert [(r["row"], r["valid_up_to"], r["error_len"]) for r in got] == expected_rows(values)
