"""The cluster recipes (`examples/ray_check.py`, `examples/spark_check.py`)
on a local Ray of 2 CPUs and a `local[2]` Spark session: a directory of
Parquet files with bad rows in several files gives exactly the bad values
the single-process check gives. Each engine's test runs where the engine
is installed (Spark's also needs Java), and is skipped elsewhere."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
sys.path.insert(0, str(EXAMPLES))
import files  # noqa: E402


@pytest.fixture(scope="module")
def directory(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("parquet")
    contents = {
        "a.parquet": [b"ok", b"caf\xc3", b"\xa9lait", b"fine"],
        "b.parquet": [b"good", b"also good"],
        "part=1/c.parquet": [b"x"] * 300 + [b"\xff"] + [b"y"] * 5 + [b"\xf0\x9f\x98"],
    }
    for name, values in contents.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        # A string column holding bytes that are not UTF-8, as a writer
        # that does not check them leaves it.
        strings = pa.array(values, type=pa.binary()).view(pa.string())
        table = pa.table({"id": range(len(values)), "s": strings})
        pq.write_table(table, path, row_group_size=100)
    return root


#: CI sets this so that a missing engine fails the run instead of skipping.
REQUIRED = os.environ.get("UTF8_CLUSTER_TESTS") == "required"


def engine(name: str):
    if REQUIRED:
        return __import__(name)
    return pytest.importorskip(name)


def single_process(directory: Path) -> list[dict]:
    paths = sorted(str(p) for p in directory.rglob("*.parquet"))
    return files.bad_values(paths).to_pylist()


def test_the_single_process_check_finds_every_bad_value(directory: Path) -> None:
    found = [(Path(b["file"]).name, b["row"]) for b in single_process(directory)]
    assert found == [("a.parquet", 1), ("a.parquet", 2), ("c.parquet", 300), ("c.parquet", 306)]


def test_ray_data_finds_the_same(directory: Path) -> None:
    ray = engine("ray")
    import ray_check

    ray.init(num_cpus=2, include_dashboard=False, _node_ip_address="127.0.0.1")
    try:
        assert ray_check.check_directory(str(directory)).to_pylist() == single_process(directory)
    finally:
        ray.shutdown()


def test_spark_map_in_arrow_finds_the_same(directory: Path) -> None:
    engine("pyspark")
    if shutil.which("java") is None and not REQUIRED:
        pytest.skip("Spark needs Java")
    import spark_check

    spark = spark_check.session()
    try:
        assert spark_check.check_directory(spark, str(directory)).to_pylist() == single_process(directory)
    finally:
        spark.stop()
