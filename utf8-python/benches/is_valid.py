"""is_valid on a column of 10 million corpus words, beside what it is held
to, in one run: utf8-arrow's check in Rust alone on the same buffers, and
the casts pyarrow and Polars offer (`pc.cast(binary, string)`,
`cast(pl.String)`), which validate the column as they go.

    python utf8-python/benches/is_valid.py [ROWS]

Prints the fewest seconds of several runs of each, the GB/s of the
column's bytes, and the ratios; the CPU model first.
"""

from __future__ import annotations

import platform
import sys
import time
from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.compute as pc

import utf8_automaton as u8
from utf8_automaton import _native

REPO = Path(__file__).resolve().parents[2]
RUNS = 7


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def corpus_words(rows: int) -> list[bytes]:
    words: list[bytes] = []
    for path in sorted((REPO / "data" / "corpus").rglob("*.txt")):
        text = path.read_bytes()
        try:
            text.decode()
        except UnicodeDecodeError:
            continue  # a file in another encoding: the casts would refuse it
        words.extend(text.split())
    repeated = words * (rows // len(words) + 1)
    return repeated[:rows]


def fewest(run) -> float:
    best = float("inf")
    for _ in range(RUNS):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
    words = corpus_words(rows)
    binary = pa.array(words, type=pa.binary())
    views = binary.cast(pa.binary_view())
    series = pl.Series("w", words, dtype=pl.Binary)
    size = sum(map(len, words))
    print(f"CPU: {cpu_model()}")
    print(f"{rows:,} words, {size / 1e6:.0f} MB of values; fewest seconds of {RUNS} runs\n")

    figures = {
        "utf8-arrow is_valid_utf8, Rust alone (binary)": _native._rust_is_valid_seconds(binary, RUNS),
        "utf8_automaton.is_valid (pyarrow binary)": fewest(lambda: u8.is_valid(binary)),
        "pyarrow pc.cast(binary, string)": fewest(lambda: pc.cast(binary, pa.string())),
        "utf8-arrow is_valid_utf8, Rust alone (binary_view)": _native._rust_is_valid_seconds(views, RUNS),
        "utf8_automaton.is_valid (pyarrow binary_view)": fewest(lambda: u8.is_valid(views)),
        "utf8_automaton.is_valid (Polars Binary)": fewest(lambda: u8.is_valid(series)),
        "Polars cast(pl.String)": fewest(lambda: series.cast(pl.String)),
    }
    for name, seconds in figures.items():
        print(f"{name:55} {seconds * 1e3:8.1f} ms {size / seconds / 1e9:6.2f} GB/s")
    print()
    ours = figures["utf8_automaton.is_valid (pyarrow binary)"]
    print(f"is_valid / Rust alone (binary):      {ours / figures['utf8-arrow is_valid_utf8, Rust alone (binary)']:.2f}x")
    views_ours = figures["utf8_automaton.is_valid (pyarrow binary_view)"]
    print(f"is_valid / Rust alone (binary_view): {views_ours / figures['utf8-arrow is_valid_utf8, Rust alone (binary_view)']:.2f}x")
    print(f"pyarrow cast / is_valid:             {figures['pyarrow pc.cast(binary, string)'] / ours:.2f}x")
    polars_ours = figures["utf8_automaton.is_valid (Polars Binary)"]
    print(f"Polars cast / is_valid (Polars):     {figures['Polars cast(pl.String)'] / polars_ours:.2f}x")


if __name__ == "__main__":
    main()
