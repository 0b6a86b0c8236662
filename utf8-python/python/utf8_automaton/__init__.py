"""Find the values that are not UTF-8 in Arrow data, and where they are.

Any object with the Arrow PyCapsule interface is read without copying its
values: a pyarrow ``Array``, ``ChunkedArray``, ``RecordBatch``, ``Table``
or ``RecordBatchReader``, a Polars ``Series`` or ``DataFrame``, a pandas
column with an Arrow dtype, a DuckDB result's ``.arrow()``, nanoarrow's
arrays. Columns of ``binary``, ``large_binary``, ``binary_view``,
``string``, ``large_string`` and ``string_view`` are checked, and so are
those inside a table, a struct, a list, a map or a dictionary, each bad
value named by its row and path; a table's other columns are skipped, and
a column that holds no strings or bytes is a ``TypeError``.

The check is utf8-core's column check, run with the GIL released. Besides
UTF-8 as RFC 3629 defines it (``"rfc3629"``, the default), every built-in
ruleset can be asked for by name: ``"cesu8"``, ``"mutf8"`` (Java's
modified UTF-8), ``"wtf8"`` and ``"rfc2279"``.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Literal

import pyarrow as pa

from . import _native
from ._native import InvalidUtf8Error

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

__all__ = [
    "InvalidUtf8Error",
    "check_parquet",
    "invalid_rows",
    "is_valid",
    "rulesets",
    "to_string",
    "validate",
]


def _rejoined(chunks: Sequence[pa.Array], streamed: bool, like: Any) -> Any:
    """The chunks as the kind of object the data came as."""
    if not streamed:
        result = chunks[0]
        if isinstance(like, pa.RecordBatch) and pa.types.is_struct(result.type):
            return pa.RecordBatch.from_struct_array(result)
        return result
    if chunks and pa.types.is_struct(chunks[0].type) and _is_table(like):
        batches = [pa.RecordBatch.from_struct_array(chunk) for chunk in chunks]
        return pa.Table.from_batches(batches)
    if not chunks:
        return pa.chunked_array([], type=pa.bool_())
    return pa.chunked_array(chunks, type=chunks[0].type)


def _is_table(data: Any) -> bool:
    return isinstance(data, (pa.Table, pa.RecordBatchReader)) or type(data).__name__ == "DataFrame"


def is_valid(data: Any, ruleset: str = "rfc3629") -> pa.Array | pa.ChunkedArray:
    """Whether each row holds no invalid value, as booleans; null rows stay null.

    A row of a table is valid when every string or binary value in it is.
    An array gives an array; a chunked array, a table or a stream (a Polars
    Series) gives a chunked array.

    >>> import pyarrow as pa
    >>> is_valid(pa.array([b"caf\\xc3", b"\\xa9lait", None, b"ok"])).to_pylist()
    [False, False, None, True]
    """
    chunks, streamed = _native.is_valid(data, ruleset)
    if not streamed:
        return chunks[0]
    return pa.chunked_array(chunks, type=pa.bool_())


def validate(data: Any, ruleset: str = "rfc3629") -> None:
    """Raise ``InvalidUtf8Error`` for the first invalid value (by row).

    The exception's ``column``, ``row``, ``valid_up_to``, ``error_len``
    (``None`` where the value ends inside a character) and ``bytes`` say
    which value and where; null rows are not values and are not checked.

    >>> import pyarrow as pa
    >>> try:
    ...     validate(pa.table({"s": pa.array([b"ok", b"caf\\xc3"])}))
    ... except InvalidUtf8Error as e:
    ...     print(e)
    column s: row 1: invalid UTF-8 at byte 3 of the value (C3, the value ends inside a character)
    """
    _native.validate(data, ruleset)


def invalid_rows(data: Any, ruleset: str = "rfc3629") -> pa.Table:
    """Every invalid value, in row order, as a table.

    Its columns: ``column`` (the column's path, ``""`` for a lone array),
    ``row`` (counted from the first, across chunks), ``valid_up_to``,
    ``error_len`` (null where the value ends inside a character), ``bytes``
    (the invalid bytes) and ``context`` (up to 16 bytes either side).
    """
    return pa.Table.from_batches([_native.invalid_rows(data, ruleset)])


def to_string(
    data: Any, errors: Literal["raise", "null", "replace"] = "raise"
) -> pa.Array | pa.ChunkedArray | pa.RecordBatch | pa.Table:
    """Binary as strings: ``binary`` to ``string``, ``large_binary`` to
    ``large_string``, ``binary_view`` to ``string_view``, over the same
    buffers where every value is UTF-8; string columns come back checked.

    ``errors``: ``"raise"`` (``InvalidUtf8Error`` for the first invalid
    value), ``"null"`` (each invalid value becomes null) or ``"replace"``
    (U+FFFD in the invalid values, as ``bytes.decode(errors="replace")``).
    A table's or struct's string and binary columns are all converted.
    """
    chunks, streamed = _native.to_string(data, errors)
    return _rejoined(chunks, streamed, data)


def _parquet_files(paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]]) -> list[str]:
    """The files named, a folder's ``*.parquet`` files (at any depth, by name)."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    files = []
    for path in paths:
        path = os.fspath(path)
        if not isinstance(path, str):
            raise TypeError(f"a path is a str or os.PathLike of str, not {type(path).__name__}")
        if os.path.isdir(path):
            found = []
            for folder, folders, names in os.walk(path):
                folders[:] = [f for f in folders if not f.startswith((".", "_"))]
                found.extend(
                    os.path.join(folder, name)
                    for name in names
                    if name.lower().endswith(".parquet") and not name.startswith((".", "_"))
                )
            files.extend(sorted(found))
        else:
            files.append(path)
    return files


def check_parquet(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    strings_only: bool = False,
    ruleset: str = "rfc3629",
    threads: int | None = None,
) -> pa.Table:
    """Every invalid value in Parquet files, read from the files themselves.

    What ``utf8 check`` finds: every ``BYTE_ARRAY`` column is read as bytes
    (with ``strings_only``, those annotated as text only), nothing trusted,
    and each bad value is named. ``paths`` is a file, a folder (its
    ``*.parquet`` files at any depth, hidden ones and ``_``-prefixed ones
    left out, as pyarrow's datasets do) or a list of them. Each file's row
    groups are checked on ``threads`` threads (default: every core), the
    GIL released.

    The table has ``invalid_rows``' columns and three more: ``file``,
    ``row_group``, ``column`` (the column's path in the file's schema,
    ``tags.list.element``), ``row`` (from the file's start), ``element``
    (the value's place in its row's list or map, null outside one),
    ``valid_up_to``, ``error_len``, ``bytes`` and ``context`` (up to 16
    bytes before the error, and the error). A file that cannot be opened is
    an ``OSError``; one that is not Parquet, or is malformed, a
    ``ValueError``; both name the file.

    >>> t = check_parquet("data/examples/cut-across-rows.parquet")
    >>> t.select(["column", "row", "valid_up_to"]).to_pylist()
    [{'column': 's', 'row': 1, 'valid_up_to': 3}, {'column': 's', 'row': 2, 'valid_up_to': 0}]
    """
    if threads is None:
        threads = os.cpu_count() or 1
    if not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive int, not {threads!r}")
    batch = _native.check_parquet(_parquet_files(paths), strings_only, ruleset, threads)
    return pa.Table.from_batches([batch])


def rulesets() -> list[str]:
    """The names of the built-in rulesets, the default first."""
    return _native.rulesets()
