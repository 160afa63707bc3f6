#!/usr/bin/env bash
# Per-rank time and peak memory of one GPT-2-sized layer (h=768, a=12,
# s=1024, b=1, t=2; f32) as the TP program and after the sequence-parallel
# pipeline (TP+SP), both executed by seqpar-run on 2 MPI ranks.
#
# Steps: bench/gen_tp_graph.py --model gpt --layers 1 ... --tp 2 -> tp.mlir;
# seqpar-opt tp.mlir --seqpar-sp-pipeline -> sp.mlir; then, REPEAT times
# each, mpirun -np 2 seqpar-run <prog> (it warms up once, then times one call
# of @forward). Prints the median wall time per rank, the peak program
# allocation per rank, and each collective's calls and bytes sent per rank
# (docs/semantics.md §5 ring convention) from rank 0's counters.
#
# Builds nothing. Environment: SEQPAR_OPT, SEQPAR_RUN (default build/bin/...),
# PYTHON, MPIRUN, REPEAT (default 3), LAYERS (default 1), KEEP=1 keeps the
# work directory. Extra arguments go to seqpar-run (e.g. --blas-threads=1).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
SEQPAR_OPT="${SEQPAR_OPT:-build/bin/seqpar-opt}"
SEQPAR_RUN="${SEQPAR_RUN:-build/bin/seqpar-run}"
PYTHON="${PYTHON:-python3}"
MPIRUN="${MPIRUN:-mpirun}"
REPEAT="${REPEAT:-3}"
LAYERS="${LAYERS:-1}"
for tool in "$SEQPAR_OPT" "$SEQPAR_RUN"; do
  [[ -x "$tool" ]] || { echo "run_layer_bench.sh: $tool not found (ninja -C build)" >&2; exit 2; }
done
command -v "$MPIRUN" >/dev/null || { echo "run_layer_bench.sh: $MPIRUN not found" >&2; exit 2; }
FLAGS=()
if "$MPIRUN" --version 2>&1 | grep -q "Open MPI\|OpenRTE"; then
  FLAGS+=(--oversubscribe)
  [[ "$(id -u)" == 0 ]] && FLAGS+=(--allow-run-as-root)
fi
WORK="$(mktemp -d)"
[[ "${KEEP:-0}" == 1 ]] && echo "work directory: $WORK" || trap 'rm -rf "$WORK"' EXIT

"$PYTHON" bench/gen_tp_graph.py --model gpt --layers "$LAYERS" --batch 1 --seq 1024 \
  --hidden 768 --heads 12 --tp 2 -o "$WORK/tp.mlir"
"$SEQPAR_OPT" "$WORK/tp.mlir" --seqpar-sp-pipeline -o "$WORK/sp.mlir" 2>"$WORK/sp.remarks"
# Control: the TP program through the same clean-up the SP pipeline runs
# around its rewrite (inline, canonicalize, CSE) but without the rewrite, so
# TP-cleaned vs TP+SP isolates what sequence parallelism itself changes.
"$SEQPAR_OPT" "$WORK/tp.mlir" --pass-pipeline='builtin.module(inline,canonicalize,cse)' \
  -o "$WORK/tpc.mlir"

for v in tp tpc sp; do
  for ((i = 0; i < REPEAT; ++i)); do
    if ! "$MPIRUN" "${FLAGS[@]}" -np 2 "$SEQPAR_RUN" "$WORK/$v.mlir" --opt-level=3 "$@" \
         >"$WORK/$v.$i.out" 2>&1; then
      echo "run_layer_bench.sh: seqpar-run failed on $v.mlir:" >&2
      tail -20 "$WORK/$v.$i.out" >&2
      exit 2
    fi
  done
done

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

echo "GPT-2-sized layer x$LAYERS: h=768, a=12, s=1024, b=1, t=2, f32; 2 MPI ranks; median of $REPEAT runs"
printf '%-9s %-5s %12s %14s %10s\n' version rank wall_s peak_bytes peak_MiB
declare -A WALL PEAK
label() { case $1 in tp) echo TP;; tpc) echo TP-clean;; sp) echo TP+SP;; esac; }
for v in tp tpc sp; do
  for r in 0 1; do
    w=$(for ((i = 0; i < REPEAT; ++i)); do
          sed -n "s/^rank $r: wall \([0-9.e+-]*\) s.*/\1/p" "$WORK/$v.$i.out"; done | median)
    p=$(sed -n "s/^rank $r: wall .* peak \([0-9]*\) bytes.*/\1/p" "$WORK/$v.0.out")
    WALL[$v$r]=$w; PEAK[$v$r]=$p
    name=$(label $v)
    printf '%-9s %-5s %12.6f %14s %10.2f\n' "$name" "$r" "$w" "$p" "$(awk -v p="$p" 'BEGIN{print p/1048576}')"
  done
done
awk -v a="${WALL[tp0]}" -v b="${WALL[sp0]}" -v c="${PEAK[tp0]}" -v d="${PEAK[sp0]}" \
    -v e="${WALL[tpc0]}" -v f="${PEAK[tpc0]}" \
  'BEGIN{printf "rank 0: TP+SP / TP wall = %.3f, peak = %.3f; TP+SP / TP-clean wall = %.3f, peak = %.3f\n", b/a, d/c, b/e, d/f}'
echo "(TP-clean = TP after inline+canonicalize+cse, the clean-up --seqpar-sp-pipeline also runs;"
echo " peaks count the program's own allocations, not the arguments seqpar-run allocates)"

echo
echo "collectives per rank (rank 0 counters; bytes sent, docs/semantics.md §5)"
printf '%-9s %-15s %6s %14s %14s\n' version collective calls bytes_sent bytes_per_call
for v in tp sp; do
  name=$(label $v)
  awk -v name="$name" '
    /^seqpar runtime counters: rank 0/ {on=1; next}
    /^seqpar runtime counters:/ {on=0}
    on && $1 ~ /^(all_gather|reduce_scatter|all_reduce|all_to_all|send|shift)$/ {
      printf "%-9s %-15s %6d %14d %14d\n", name, $1, $4, $5, $5/$4 }' "$WORK/$v.0.out"
done
grep -h "remark:" "$WORK/sp.remarks" | sed 's/^.*remark: /sp pipeline: /' || true
