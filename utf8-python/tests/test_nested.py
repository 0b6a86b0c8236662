"""Strings inside lists, large lists, structs, maps and dictionaries:
every bad value named by the row that holds it and its path, against a
reference that walks the values as Python sees them."""

from __future__ import annotations

import random

import pyarrow as pa
import pytest

import utf8_automaton as u8

PIECES = [b"a", b"\xc3\xa9", b"\xc3", b"\xa9", b"\xff", b"\xf0\x9f\x98", b"ok"]


def bad(value: bytes) -> tuple[int, int | None] | None:
    try:
        value.decode()
        return None
    except UnicodeDecodeError as e:
        return (e.start, None if e.reason == "unexpected end of data" else e.end - e.start)


def is_bytes(type_: pa.DataType) -> bool:
    return pa.types.is_binary(type_) or pa.types.is_large_binary(type_) or pa.types.is_binary_view(type_)


def is_text(type_: pa.DataType) -> bool:
    return pa.types.is_string(type_) or pa.types.is_large_string(type_) or pa.types.is_string_view(type_)


def walk(type_: pa.DataType, value, path: str = "", leaf=is_bytes):
    """Every leaf value inside `value` (of `type_`), in order, with its path."""
    if value is None:
        return
    if leaf(type_):
        yield path, value
    elif pa.types.is_map(type_):
        for key, item in value:
            yield from walk(type_.key_type, key, f"{path}.entries.key".lstrip("."), leaf)
            yield from walk(type_.item_type, item, f"{path}.entries.value".lstrip("."), leaf)
    elif pa.types.is_list(type_) or pa.types.is_large_list(type_):
        for element in value:
            yield from walk(type_.value_type, element, f"{path}.{type_.value_field.name}".lstrip("."), leaf)
    elif pa.types.is_struct(type_):
        for field in type_:
            yield from walk(field.type, value[field.name], f"{path}.{field.name}".lstrip("."), leaf)


def expected(array: pa.Array, column: str = "") -> list[tuple[str, int, int, int | None]]:
    type_ = array.type.value_type if pa.types.is_dictionary(array.type) else array.type
    out = []
    for row, value in enumerate(array.to_pylist()):
        for path, raw in walk(type_, value, column):
            if (found := bad(raw)) is not None:
                out.append((path, row, *found))
    return out


def got(data) -> list[tuple[str, int, int, int | None]]:
    return [(r["column"], r["row"], r["valid_up_to"], r["error_len"]) for r in u8.invalid_rows(data).to_pylist()]


def value(rng: random.Random) -> bytes | None:
    if rng.random() < 0.1:
        return None
    return b"".join(rng.choice(PIECES) for _ in range(rng.randrange(4)))


def values(rng: random.Random, n: int) -> list:
    return [value(rng) for _ in range(n)]


def lists(rng: random.Random, n: int, make) -> list:
    return [None if rng.random() < 0.1 else [make() for _ in range(rng.randrange(4))] for _ in range(n)]


def nested_arrays(seed: int) -> list[pa.Array]:
    rng = random.Random(seed)
    n = rng.choice([0, 1, 255, 256, 257])
    binary = pa.binary()
    list_type = pa.list_(binary)
    struct_type = pa.struct([("name", binary), ("n", pa.int32()), ("tags", list_type)])
    return [
        pa.array(lists(rng, n, lambda: value(rng)), type=list_type),
        pa.array(lists(rng, n, lambda: value(rng)), type=pa.large_list(pa.binary_view())),
        pa.array(
            [None if rng.random() < 0.1 else {"name": value(rng), "n": 1, "tags": lists(rng, 1, lambda: value(rng))[0]} for _ in range(n)],
            type=struct_type,
        ),
        pa.array(lists(rng, n, lambda: {"name": value(rng), "n": 2, "tags": None}), type=pa.list_(struct_type)),
        pa.array(
            [None if rng.random() < 0.1 else [(value(rng) or b"k", value(rng)) for _ in range(rng.randrange(3))] for _ in range(n)],
            type=pa.map_(binary, binary),
        ),
        pa.array(values(rng, n), type=binary).dictionary_encode(),
    ]


@pytest.mark.parametrize("seed", range(12))
def test_nested_values_are_named_by_row_and_path(seed: int) -> None:
    for array in nested_arrays(seed):
        assert got(array) == expected(array), array.type
        # A slice: rows count from its first, and the list elements outside it are no values.
        if len(array) > 10:
            sliced = array.slice(3, len(array) - 7)
            assert got(sliced) == expected(sliced), array.type
        rows_with_bad = {row for _, row, *_ in expected(array)}
        want = [None if v is None else row not in rows_with_bad for row, v in enumerate(array.to_pylist())]
        assert u8.is_valid(array).to_pylist() == want, array.type


@pytest.mark.parametrize("seed", range(6))
def test_nested_to_string_nulls_or_repairs_only_the_bad_values(seed: int) -> None:
    for array in nested_arrays(seed):
        repaired = u8.to_string(array, errors="replace")
        strings = array.cast(_as_strings(array.type)) if not expected(array) else None
        if strings is not None:
            assert u8.to_string(array).equals(strings), array.type
        # Every value of the repaired array is what `decode(errors="replace")` makes.
        type_ = array.type.value_type if pa.types.is_dictionary(array.type) else array.type
        want = [[v.decode(errors="replace") for _, v in walk(type_, row)] for row in array.to_pylist()]
        rtype = repaired.type.value_type if pa.types.is_dictionary(repaired.type) else repaired.type
        have = [[v for _, v in walk(rtype, row, leaf=is_text)] for row in repaired.to_pylist()]
        assert have == want, array.type
        nulled = u8.to_string(array, errors="null")
        assert u8.invalid_rows(nulled).num_rows == 0


def _as_strings(type_: pa.DataType) -> pa.DataType:
    if pa.types.is_dictionary(type_):
        return pa.dictionary(type_.index_type, _as_strings(type_.value_type))
    if pa.types.is_binary(type_):
        return pa.string()
    if pa.types.is_binary_view(type_):
        return pa.string_view()
    if pa.types.is_map(type_):
        return pa.map_(_as_strings(type_.key_type), _as_strings(type_.item_type))
    if pa.types.is_list(type_):
        return pa.list_(pa.field(type_.value_field.name, _as_strings(type_.value_type)))
    if pa.types.is_large_list(type_):
        return pa.large_list(pa.field(type_.value_field.name, _as_strings(type_.value_type)))
    if pa.types.is_struct(type_):
        return pa.struct([pa.field(f.name, _as_strings(f.type)) for f in type_])
    return type_


def test_a_table_with_a_list_column_names_the_element() -> None:
    table = pa.table({"id": [1, 2], "tags": pa.array([[b"ok"], [b"a", b"caf\xc3"]])})
    assert got(table) == [("tags.item", 1, 3, None)]
    with pytest.raises(u8.InvalidUtf8Error, match="column tags.item: row 1"):
        u8.validate(table)
