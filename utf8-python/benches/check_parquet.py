"""check_parquet on one thread beside `utf8 check` of the same file, in one
run: both run utf8-parquet's check, so what this measures is what the
Python call adds (and the command's start and report). Also on every
core, and pyarrow's own read of the file, which checks nothing.

    cargo build --release -p utf8-cli
    python utf8-python/benches/check_parquet.py [ROWS] [UTF8_BINARY]

The file: ROWS corpus words (10 million by default) in one string column,
a bad value every 100,000 rows, written by pyarrow in row groups of a
million rows, snappy and dictionary-encoded as pyarrow writes by default,
and a second file in DELTA_LENGTH_BYTE_ARRAY without compression. Prints
the fewest seconds of several runs of each and the ratios; the CPU model
first.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

import utf8_automaton as u8

sys.path.insert(0, str(Path(__file__).resolve().parent))
from is_valid import REPO, RUNS, corpus_words, cpu_model, fewest  # noqa: E402


def write(path: Path, words: list[bytes], **options) -> None:
    words = list(words)
    for row in range(0, len(words), 100_000):
        words[row] = b"caf\xc3"
    strings = pa.array(words, type=pa.binary()).view(pa.string())
    pq.write_table(pa.table({"w": strings}), path, row_group_size=1_000_000, **options)


def main() -> None:
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
    binary = Path(sys.argv[2]) if len(sys.argv) > 2 else REPO / "target" / "release" / "utf8"
    if not binary.is_file():
        sys.exit(f"no {binary}: build it with `cargo build --release -p utf8-cli`")
    words = corpus_words(rows)
    print(f"CPU: {cpu_model()}, {os.cpu_count()} cores")
    print(f"{rows:,} words; fewest seconds of {RUNS} runs\n")
    with tempfile.TemporaryDirectory() as folder:
        files = {
            "dictionary, snappy": Path(folder) / "dictionary.parquet",
            "DELTA_LENGTH_BYTE_ARRAY, none": Path(folder) / "delta.parquet",
        }
        write(files["dictionary, snappy"], words)
        write(
            files["DELTA_LENGTH_BYTE_ARRAY, none"],
            words,
            use_dictionary=False,
            compression="none",
            column_encoding={"w": "DELTA_LENGTH_BYTE_ARRAY"},
        )
        for name, path in files.items():
            found = u8.check_parquet(path, threads=1).num_rows
            # Every error reported, as check_parquet reports them, to
            # /dev/null; the command takes its thread count from rayon's
            # variable.
            command = [str(binary), "check", "--all", str(path)]
            one_thread = {**os.environ, "RAYON_NUM_THREADS": "1"}

            def cli_run() -> int:
                return subprocess.run(command, env=one_thread, stdout=subprocess.DEVNULL, check=False).returncode

            status = cli_run()
            assert status == 1, f"utf8 check exited {status}"
            one = fewest(lambda: u8.check_parquet(path, threads=1))
            cli = fewest(cli_run)
            every = fewest(lambda: u8.check_parquet(path))
            read = fewest(lambda: pq.read_table(path))
            size = path.stat().st_size / 1e6
            print(f"{name}: {size:.0f} MB, {found} bad values")
            print(f"  {'check_parquet, 1 thread':<34} {one:8.3f} s")
            print(f"  {'utf8 check --all (1 thread)':<34} {cli:8.3f} s")
            print(f"  {'check_parquet, every core':<34} {every:8.3f} s")
            print(f"  {'pyarrow read_table (no check)':<34} {read:8.3f} s")
            print(f"  check_parquet ÷ utf8 check, 1 thread: {one / cli:.2f}\n")


if __name__ == "__main__":
    main()
