"""Writes the parquet fuzz target's seeds: small files of every byte array
encoding (dictionary, PLAIN, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY),
codec and data page version, flat and nested (list, map, struct), with
valid values, invalid ones and a character cut across two rows, written by
pyarrow as a foreign writer would. Each stays under the 4,096 bytes that
`.ci/fuzz` lets libFuzzer keep.

    python3 -m venv venv && venv/bin/pip install pyarrow
    venv/bin/python make_seeds.py
"""

import os
import random

import pyarrow as pa
import pyarrow.parquet as pq

HERE = os.path.dirname(os.path.abspath(__file__))
WORDS = [b"caf\xc3\xa9", b"lait", b"\xe6\x97\xa5", b"\xf0\x9f\x98\x80", b"a\xffb\xfe",
         b"caf\xc3", b"\xa9lait", b"", b"x" * 13]
ROWS = 24


def values(rng):
    return [rng.choice(WORDS) if rng.random() > 0.15 else None for _ in range(ROWS)]


def as_string(array):
    """A string array over bytes pyarrow would refuse to hold as strings."""
    return pa.Array.from_buffers(pa.string(), len(array), array.buffers(), array.null_count)


def tables(rng):
    flat = pa.table({
        "s": as_string(pa.array(values(rng), pa.binary())),
        "b": pa.array(values(rng), pa.binary()),
    })
    nested = pa.table({
        "l": pa.array([[rng.choice(WORDS) for _ in range(rng.randint(0, 2))]
                       for _ in range(ROWS)], pa.list_(pa.binary())),
        "m": pa.array([[(b"k", rng.choice(WORDS))] for _ in range(ROWS)],
                      pa.map_(pa.binary(), pa.binary())),
        "st": pa.array([{"x": rng.choice(WORDS)} for _ in range(ROWS)],
                       pa.struct([("x", pa.binary())])),
    })
    return {"flat": (flat, ["s", "b"]),
            "nested": (nested, ["l.list.element", "m.key_value.key", "m.key_value.value", "st.x"])}


def main():
    rng = random.Random(7)
    for name, (table, columns) in tables(rng).items():
        for codec in ["none", "snappy", "zstd", "gzip", "lz4", "brotli"]:
            for version in ["1.0", "2.0"]:
                for encoding in ["dictionary", "PLAIN", "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY"]:
                    options = dict(compression=codec, data_page_version=version,
                                   data_page_size=96, row_group_size=12,
                                   write_statistics=False, write_page_checksum=codec == "gzip")
                    if encoding == "dictionary":
                        options["use_dictionary"] = True
                    else:
                        options["use_dictionary"] = False
                        options["column_encoding"] = {column: encoding for column in columns}
                    path = os.path.join(HERE, f"{name}-{encoding}-{codec}-v{version[0]}.parquet")
                    pq.write_table(table, path, **options)
                    assert os.path.getsize(path) <= 4096, path


main()
