#!/usr/bin/env bash
# How `utf8 check -q` scales over cores, against the bound that readers
# of the same bytes set: for a text file, N concurrent `dd` readers of
# disjoint slices; for a Parquet file, `parquet_corpus read FILE N` (the
# parquet crate's reader over the same row groups, nothing checked).
# Prints one markdown table: median wall times and check ÷ bound, where 1
# would be as fast as the readers (bench/README.md, "Scaling over cores").
#
# usage: bench/scaling.sh BIN_DIR WORK_DIR [MEGABYTES [THREADS...]]
#
#   BIN_DIR    holds release builds of `utf8` and `parquet_corpus`; built
#              with RUSTFLAGS="-C target-feature=+crt-static" they run on a
#              machine without a Rust toolchain
#   WORK_DIR   where the text and Parquet files are written: a tmpfs
#              (/dev/shm), so that every reader is served from memory
#   MEGABYTES  the text file's size in MiB (4096 by default); the Parquet
#              files hold a quarter of it each, in row groups of 2^20 rows
#   THREADS    the thread counts (1 2 4 8 16 by default, those up to the
#              number of CPUs)
#
# RUNS (7 by default) sets how many runs of each command are taken, in
# turn. Run from the repository's root: the corpus is read from data/corpus.
# Paths with spaces are not supported.
set -euo pipefail

if [[ $# -lt 2 ]]; then
    sed -n '9,22p' "$0" >&2
    exit 2
fi
bin=$1
work=$2
megabytes=${3:-4096}
shift $(($# < 3 ? $# : 3))
cpus=$(nproc)
threads=()
for n in "${@:-1 2 4 8 16}"; do
    for t in $n; do
        ((t <= cpus)) && threads+=("$t")
    done
done
runs=${RUNS:-7}
corpus=data/corpus
for tool in "$bin/utf8" "$bin/parquet_corpus"; do
    [[ -x $tool ]] || { echo "scaling.sh: no executable $tool" >&2; exit 2; }
done
[[ -d $corpus ]] || { echo "scaling.sh: run from the repository's root (no $corpus)" >&2; exit 2; }
mkdir -p "$work"

# The valid corpus over and over, in blocks of a dozen copies, until the
# file holds MEGABYTES: every copy ends where a corpus file ends, so the
# whole stays valid UTF-8.
text=$work/corpus.txt
want=$((megabytes << 20))
for ((i = 0; i < 12; i++)); do cat "$corpus"/*/*.utf8.txt; done >"$work/block.txt"
: >"$text"
while (($(stat -c %s "$text") < want)); do
    cat "$work/block.txt" >>"$text"
done
rm "$work/block.txt"
text_bytes=$(stat -c %s "$text")
"$bin/utf8" check -q "$text" || { echo "scaling.sh: the text file is not valid UTF-8" >&2; exit 1; }
UTF8_CORPUS="$PWD/$corpus" "$bin/parquet_corpus" write "$work" $((megabytes / 4)) >/dev/null

now() { date +%s%N; }

# The wall time in milliseconds of the command line given, run as is.
timed() {
    local start
    start=$(now)
    "$@" >/dev/null
    echo $((($(now) - start) / 1000000))
}

# N `dd` readers of disjoint slices of FILE, side by side, 1 MiB a read.
readers() {
    local n=$1 file=$2 blocks each
    blocks=$((($(stat -c %s "$file") + (1 << 20) - 1) >> 20))
    each=$(((blocks + n - 1) / n))
    for ((i = 0; i < n; i++)); do
        dd if="$file" of=/dev/null bs=1M skip=$((i * each)) count="$each" status=none &
    done
    wait
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# One table row: the check and its bound, RUNS times each, in turn.
row() {
    local what=$1 n=$2 check=$3 bound=$4 c=() b=() mc mb
    for ((r = 0; r < runs; r++)); do
        c+=("$(timed env RAYON_NUM_THREADS="$n" $check)")
        b+=("$(timed $bound)")
    done
    mc=$(printf '%s\n' "${c[@]}" | median)
    mb=$(printf '%s\n' "${b[@]}" | median)
    printf '| %s | %d | %d ms | %d ms | %s |\n' "$what" "$n" "$mc" "$mb" \
        "$(awk -v c="$mc" -v b="$mb" 'BEGIN { printf "%.2f", b / c }')"
}

cpu_field() { grep -m1 "^$1" /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'; }
echo "$(cpu_field 'model name') (family $(cpu_field 'cpu family'), model $(cpu_field 'model\s'))," \
    "$cpus CPUs," \
    "$(grep -m1 -o -w 'avx512bw' /proc/cpuinfo || echo 'no AVX-512')," \
    "text $((text_bytes >> 20)) MiB, median of $runs runs"
echo
echo '| input | threads | `utf8 check -q` | bound | bound ÷ check |'
echo '|---|--:|--:|--:|--:|'
for n in "${threads[@]}"; do
    row "text" "$n" "$bin/utf8 check -q $text" "readers $n $text"
done
for n in "${threads[@]}"; do
    row "text, --no-mmap" "$n" "$bin/utf8 check -q --no-mmap $text" "readers $n $text"
done
for file in lines words; do
    for n in "${threads[@]}"; do
        row "$file.parquet" "$n" "$bin/utf8 check -q $work/$file.parquet" \
            "$bin/parquet_corpus read $work/$file.parquet $n"
    done
done
