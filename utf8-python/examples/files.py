"""The check of whole Parquet files that a cluster spreads over its
workers: each worker reads its files with pyarrow (which hands strings
over unchecked) and names every bad value by file, column and row.

The engines below (`ray_check.py`, `spark_check.py`) send file paths to
the workers, not rows, so that a row keeps its number in its file."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq

import utf8_automaton as u8

#: What every recipe gives: a row per bad value.
SCHEMA = pa.schema(
    [
        ("file", pa.string()),
        ("column", pa.string()),
        ("row", pa.int64()),
        ("valid_up_to", pa.int64()),
        ("error_len", pa.int64()),
        ("bytes", pa.binary()),
    ]
)


def bad_values(paths: list[str]) -> pa.Table:
    """Every bad value of the Parquet files at `paths`, by file then row."""
    tables = []
    for path in paths:
        found = u8.invalid_rows(pq.read_table(path))
        files = pa.array([path] * found.num_rows, type=pa.string())
        found = found.select(["column", "row", "valid_up_to", "error_len", "bytes"])
        tables.append(found.add_column(0, "file", files))
    if not tables:
        return SCHEMA.empty_table()
    return pa.concat_tables(tables).cast(SCHEMA)


def bad_values_of_batch(batch: pa.RecordBatch | pa.Table) -> pa.Table:
    """`bad_values` of a batch whose column `path` names the files."""
    return bad_values(batch.column("path").to_pylist())
