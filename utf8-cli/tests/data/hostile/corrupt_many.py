"""Corrupts Parquet files of every encoding, codec and page version and
runs `utf8 check FILE good.txt` on each, as an adversary would: a file is
untrusted input, so each must end with exit 0, 1 or 2, at most one line on
standard error, no panic, within 20 s and a 4 GiB address space.

usage: python corrupt_many.py UTF8 WORK_DIR COUNT

Prints the exit statuses counted, the runs that broke a rule, and the
largest peak resident memory of a run. Needs pyarrow and prlimit.
"""
import io, os, random, subprocess, sys
import pyarrow as pa, pyarrow.parquet as pq
from concurrent.futures import ThreadPoolExecutor
UTF8 = sys.argv[1]; OUT = sys.argv[2]; COUNT = int(sys.argv[3])
os.makedirs(OUT, exist_ok=True)
rng = random.Random(41)
def table(n):
    vals = []
    for i in range(n):
        v = ("mot %d café été 😀 " % i * (1 + i % 5)).encode()
        if i % 97 == 0: v = v[:-2]  # cut character
        vals.append(None if i % 13 == 0 else v)
    b = pa.array(vals, pa.binary())
    s = pa.Array.from_buffers(pa.string(), n, b.buffers(), null_count=b.null_count)
    lst = pa.array([[x, x] if x is not None else None for x in vals[:n]], pa.list_(pa.binary()))
    return pa.table({"s": s, "b": b, "l": lst})
bases = []
t = table(3000)
for enc in ["PLAIN", "DICT", "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY"]:
    for codec in ["none", "snappy", "zstd", "gzip", "lz4", "brotli"]:
        for version in ["1.0", "2.0"]:
            sink = io.BytesIO()
            opts = dict(compression=codec, data_page_version=version, row_group_size=1000, data_page_size=4096)
            if enc == "DICT": opts["use_dictionary"] = True
            else:
                opts["use_dictionary"] = False
                opts["column_encoding"] = {c: enc for c in ["s", "b", "l"]}
            pq.write_table(t, sink, **opts)
            bases.append((f"{enc}-{codec}-v{version}", sink.getvalue()))
good = os.path.join(OUT, "good.txt"); open(good, "w").write("valid\n")
def corrupt(data):
    d = bytearray(data); kind = rng.randrange(5)
    if kind == 0:
        for _ in range(rng.randint(1, 3)): d[rng.randrange(len(d))] ^= 1 << rng.randrange(8)
    elif kind == 1:
        d[rng.randrange(len(d))] = rng.randrange(256)
    elif kind == 2:
        at = rng.randrange(len(d)); d[at:at + rng.randint(2, 12)] = b"\xff" * rng.randint(2, 12)
    elif kind == 3:
        cut = rng.randrange(8, len(d) - 8); d = d[:cut] + d[-8:] if rng.random() < .5 else d[:cut]
    else:
        # inside the footer
        flen = int.from_bytes(d[-8:-4], "little"); start = max(0, len(d) - 8 - flen)
        for _ in range(rng.randint(1, 2)): d[rng.randrange(start, len(d) - 8)] = rng.randrange(256)
    return bytes(d)
jobs = []
for i in range(COUNT):
    name, data = bases[i % len(bases)]
    path = os.path.join(OUT, f"{i:05}-{name}.parquet")
    open(path, "wb").write(corrupt(data)); jobs.append(path)
def run(path):
    # The peak is measured by time(1), whose own child is forked from a
    # small process: one forked from Python would count Python's memory.
    peak = path + ".peak"
    command = ["/usr/bin/time", "-f", "%M", "-o", peak,
               "prlimit", f"--as={4 << 30}", UTF8, "check", path, good]
    try:
        p = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=20)
    except subprocess.TimeoutExpired:
        return path, "timeout", "", 0
    kib = int(open(peak).read().split()[-1])
    return path, p.returncode, p.stderr.decode(errors="replace"), kib
from collections import Counter
codes = Counter(); bad = []; largest = (0, "")
with ThreadPoolExecutor(2) as ex:
    for path, rc, err, kib in ex.map(run, jobs):
        codes[rc] += 1
        largest = max(largest, (kib, path))
        lines = [l for l in err.splitlines() if l.strip()]
        if rc not in (0, 1, 2) or "panicked" in err or len(lines) > 1:
            bad.append((path, rc, err[:300]))
print("bases", len(bases), "files", COUNT, "exit codes", dict(codes))
print("bad", len(bad))
for b in bad[:20]: print(b)
print("largest peak resident memory: %d KiB (%s)" % largest)
