"""Every bad value of a directory of Parquet files, found on a Ray cluster:
the files spread over the workers with Ray Data's `map_batches`, each
batch of paths checked by `files.bad_values`.

    python ray_check.py DIRECTORY

On a cluster, the workers need the wheel: build it once
(`pip wheel ./utf8-python -w dist`) and give it to the job's runtime
environment, `ray.init(runtime_env={"pip": ["dist/utf8_automaton-….whl"]})`,
or install it on every node's image. Here `ray.init` starts a local
cluster of 2 CPUs on the loopback interface.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pyarrow as pa
import ray

sys.path.insert(0, str(Path(__file__).resolve().parent))
import files  # noqa: E402

# The workers import nothing from this folder: the module goes by value.
ray.cloudpickle.register_pickle_by_value(files)


def check_directory(directory: str) -> pa.Table:
    paths = sorted(str(p) for p in Path(directory).rglob("*.parquet"))
    dataset = ray.data.from_items([{"path": p} for p in paths], override_num_blocks=len(paths) or 1)
    found = dataset.map_batches(files.bad_values_of_batch, batch_format="pyarrow", batch_size=1)
    tables = [pa.Table.from_batches([batch]) if isinstance(batch, pa.RecordBatch) else batch
              for batch in found.iter_batches(batch_format="pyarrow", batch_size=None)]
    if not tables:
        return files.SCHEMA.empty_table()
    return pa.concat_tables(tables).cast(files.SCHEMA).sort_by([("file", "ascending"), ("row", "ascending")])


def main() -> None:
    ray.init(num_cpus=2, include_dashboard=False, _node_ip_address="127.0.0.1")
    try:
        for bad in check_directory(sys.argv[1]).to_pylist():
            print(f"{bad['file']}: column {bad['column']}: row {bad['row']}: "
                  f"bytes {bad['bytes'].hex(' ')} after {bad['valid_up_to']} valid bytes")
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
