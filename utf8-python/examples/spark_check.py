"""Every bad value of a directory of Parquet files, found on a Spark
cluster: a DataFrame of the files' paths spread over the executors, each
partition's paths checked by `files.bad_values` through `mapInArrow`.

    python spark_check.py DIRECTORY

On a cluster, the executors need the wheel: install it on every node, or
ship a packed virtual environment with `spark.archives` (venv-pack), as
PySpark's documentation on Python packaging shows. Here the session is
`local[2]`, bound to the loopback interface.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pyarrow as pa
from pyspark import cloudpickle
from pyspark.sql import SparkSession

sys.path.insert(0, str(Path(__file__).resolve().parent))
import files  # noqa: E402

# The executors import nothing from this folder: the module goes by value.
cloudpickle.register_pickle_by_value(files)

SPARK_SCHEMA = "file string, row_group long, column string, row long, valid_up_to long, error_len long, bytes binary"


def session() -> SparkSession:
    # The local workers run this interpreter, whose packages (pyarrow, this
    # wheel) the job needs, unless told otherwise: not the first `python3`
    # on PATH, PySpark's default.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    return (
        SparkSession.builder.master("local[2]")
        .appName("utf8-automaton")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .getOrCreate()
    )


def check_directory(spark: SparkSession, directory: str) -> pa.Table:
    paths = sorted(str(p) for p in Path(directory).rglob("*.parquet"))
    frame = spark.createDataFrame([(p,) for p in paths], "path string").repartition(max(len(paths), 1))

    def check(batches):
        for batch in batches:
            yield from files.bad_values_of_batch(batch).to_batches()

    found = frame.mapInArrow(check, SPARK_SCHEMA).toArrow()
    return found.cast(files.SCHEMA).sort_by([("file", "ascending"), ("row", "ascending")])


def main() -> None:
    spark = session()
    try:
        for bad in check_directory(spark, sys.argv[1]).to_pylist():
            print(f"{bad['file']}: column {bad['column']}: row {bad['row']}: "
                  f"bytes {bad['bytes'].hex(' ')} after {bad['valid_up_to']} valid bytes")
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
