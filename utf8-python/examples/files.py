"""The check of whole Parquet files that a cluster spreads over its
workers: each worker reads its files with `check_parquet` (their byte
array columns as bytes, a malformed file an error rather than a crash)
and names every bad value by file, row group, column and row.

The engines below (`ray_check.py`, `spark_check.py`) send file paths to
the workers, not rows, so that a row keeps its number in its file."""

from __future__ import annotations

import pyarrow as pa

import utf8_automaton as u8

#: What every recipe gives: a row per bad value.
SCHEMA = pa.schema(
    [
        ("file", pa.string()),
        ("row_group", pa.int64()),
        ("column", pa.string()),
        ("row", pa.int64()),
        ("valid_up_to", pa.int64()),
        ("error_len", pa.int64()),
        ("bytes", pa.binary()),
    ]
)


def bad_values(paths: list[str]) -> pa.Table:
    """Every bad value of the Parquet files at `paths`, by file then row.

    One thread a file: the cluster already gives each core its own files."""
    return u8.check_parquet(paths, threads=1).select(SCHEMA.names).cast(SCHEMA)


def bad_values_of_batch(batch: pa.RecordBatch | pa.Table) -> pa.Table:
    """`bad_values` of a batch whose column `path` names the files."""
    return bad_values(batch.column("path").to_pylist())
