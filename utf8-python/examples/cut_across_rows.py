"""The repository's example file, whose "é" is cut across two rows,
read with pyarrow and Polars, and its bad rows named."""

from pathlib import Path

import polars as pl
import pyarrow.parquet as pq

import utf8_automaton as u8

FILE = Path(__file__).resolve().parents[2] / "data" / "examples" / "cut-across-rows.parquet"

# pyarrow reads the file as strings without looking at them.
table = pq.read_table(FILE)
for bad in u8.invalid_rows(table).to_pylist():
    print(f"column {bad['column']}, row {bad['row']}: bytes {bad['bytes'].hex(' ')} "
          f"after {bad['valid_up_to']} valid bytes")

# The same column as a Polars Series, read as bytes.
series = pl.from_arrow(table.column("s").cast("binary"))
print(u8.is_valid(series).to_pylist())
