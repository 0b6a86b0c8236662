#!/usr/bin/env bash
# How `utf8 check -r -q` walks a tree of many small files, against ripgrep
# (`rg -c zzzzqq`: a pattern found nowhere, so it reads every byte) and
# `grep -rqc zzzzqq`, in the same runs. Prints one markdown table: median
# wall times, and each tool's time ÷ the check's (above 1: the check is
# faster). The thread counts are the check's (RAYON_NUM_THREADS) and
# ripgrep's (-j); grep has one.
#
# usage: bench/small_files.sh UTF8 WORK_DIR [FILES [THREADS...]]
#
#   UTF8       a release build of `utf8`
#   WORK_DIR   where the tree is written (its `tree` folder is replaced)
#   FILES      how many files (50000 by default), 20–400 words of the
#              French corpus each, in folders of 100, the same on every run
#   THREADS    the thread counts (1 2 by default, those up to the number
#              of CPUs)
#
# RUNS (7 by default) sets how many runs of each command are taken, in
# turn, after one warm-up run each. Needs python3 to write the tree; `rg`
# is timed where it is on the PATH. Run from the repository's root: the
# corpus is read from data/corpus.
set -euo pipefail

if [[ $# -lt 2 ]]; then
    sed -n '9,22p' "$0" >&2
    exit 2
fi
utf8=$1
work=$2
files=${3:-50000}
shift $(($# < 3 ? $# : 3))
cpus=$(nproc)
threads=()
for n in "${@:-1 2}"; do
    for t in $n; do
        ((t <= cpus)) && threads+=("$t")
    done
done
runs=${RUNS:-7}
corpus=data/corpus/wikipedia_mars/french.utf8.txt
[[ -x $utf8 ]] || { echo "small_files.sh: no executable $utf8" >&2; exit 2; }
[[ -f $corpus ]] || { echo "small_files.sh: run from the repository's root (no $corpus)" >&2; exit 2; }

tree=$work/tree
rm -rf "$tree"
mkdir -p "$tree"
python3 - "$corpus" "$tree" "$files" <<'PY'
import os, random, sys
corpus, tree, files = sys.argv[1], sys.argv[2], int(sys.argv[3])
words = open(corpus, encoding="utf-8").read().split()
pick = random.Random(41)
for index in range(files):
    folder = os.path.join(tree, f"d{index // 100:04}")
    if index % 100 == 0:
        os.mkdir(folder)
    start = pick.randrange(len(words))
    text = " ".join(words[(start + i) % len(words)] for i in range(pick.randint(20, 400)))
    with open(os.path.join(folder, f"f{index % 100:02}.txt"), "w", encoding="utf-8") as out:
        out.write(text + "\n")
PY
"$utf8" check -r -q "$tree" || { echo "small_files.sh: the tree is not valid UTF-8" >&2; exit 1; }

now() { date +%s%N; }

# The wall time in milliseconds of the command line given, its output and
# exit status thrown away (rg and grep exit 1: nothing found).
timed() {
    local start
    start=$(now)
    "$@" >/dev/null || true
    echo $((($(now) - start) / 1000000))
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

have_rg=$(command -v rg || true)
cpu_field() { grep -m1 "^$1" /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'; }
echo "$(cpu_field 'model name') (family $(cpu_field 'cpu family'), model $(cpu_field 'model\s'))," \
    "$cpus CPUs, $files files of $(du -sm --apparent-size "$tree" | cut -f1) MiB in the page cache, median of $runs runs"
echo
echo '| threads | `utf8 check -r -q` | `rg -c zzzzqq` | rg ÷ check | `grep -rqc zzzzqq` | grep ÷ check |'
echo '|--:|--:|--:|--:|--:|--:|'
for n in "${threads[@]}"; do
    check=(env RAYON_NUM_THREADS="$n" "$utf8" check -r -q "$tree")
    rg=(rg -j"$n" -c zzzzqq "$tree")
    grep=(grep -rqc zzzzqq "$tree")
    c=() r=() g=()
    timed "${check[@]}" >/dev/null
    timed "${grep[@]}" >/dev/null
    [[ -n $have_rg ]] && timed "${rg[@]}" >/dev/null
    for ((i = 0; i < runs; i++)); do
        c+=("$(timed "${check[@]}")")
        g+=("$(timed "${grep[@]}")")
        [[ -n $have_rg ]] && r+=("$(timed "${rg[@]}")")
    done
    mc=$(printf '%s\n' "${c[@]}" | median)
    mg=$(printf '%s\n' "${g[@]}" | median)
    ratio() { awk -v t="$1" -v c="$mc" 'BEGIN { printf "%.2f", t / c }'; }
    if [[ -n $have_rg ]]; then
        mr=$(printf '%s\n' "${r[@]}" | median)
        rg_cells="$mr ms | $(ratio "$mr")"
    else
        rg_cells="not installed | –"
    fi
    printf '| %d | %d ms | %s | %d ms | %s |\n' "$n" "$mc" "$rg_cells" "$mg" "$(ratio "$mg")"
done
