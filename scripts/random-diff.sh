#!/usr/bin/env bash
# Randomized differential test (issue 3 item 5): for each seed, draws a small
# random TP transformer program (test/lib/random_programs.py), runs the
# sequence-parallel rewrite on it, and checks with seqpar-run on t ranks that
# the TP program, the TP+SP program, and the program seqpar-pipeline plans
# from the unsharded single-device program (TP planning + SP) compute what
# the single-device program computes (docs/semantics.md §1 error <= 1e-5).
#
# Usage: scripts/random-diff.sh [--count N] [--start SEED] [--ranks "2 4"]
#                               [--seeds "S1 S2 ..."] [--build DIR]
#                               [--opt PATH] [--run PATH] [--keep]
# --seeds replaces --start/--count; --opt/--run override build/bin/seqpar-*;
# --keep keeps the files of passing seeds too.
# Environment: MPIRUN (default: mpirun, with --oversubscribe and, as root,
# --allow-run-as-root for Open MPI), PYTHON (default python3).
# Prints one line per seed and "N passed, M failed"; on a failure, the seed,
# the configuration, the commands to reproduce, and the directory holding the
# files (kept). Exits non-zero on any failure.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
count=10 start=1 ranks="2 4" build="$here/build" keep=0 seeds="" opt="" run=""
while [ $# -gt 0 ]; do
  case "$1" in
    --count) count=$2; shift 2 ;;
    --start) start=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --seeds) seeds=$2; shift 2 ;;
    --opt) opt=$2; shift 2 ;;
    --run) run=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "random-diff.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
python=${PYTHON:-python3}
PYTHON_GEN=$python
[ -n "$opt" ] || opt="$build/bin/seqpar-opt"
[ -n "$run" ] || run="$build/bin/seqpar-run"
[ -n "$seeds" ] || seeds=$(seq "$start" $((start + count - 1)))
for b in "$opt" "$run"; do
  [ -x "$b" ] || { echo "random-diff.sh: $b not found (build first or pass --build)" >&2; exit 2; }
done
if [ -z "${MPIRUN:-}" ]; then
  MPIRUN=mpirun
  if mpirun --version 2>&1 | grep -q "Open MPI"; then
    MPIRUN="$MPIRUN --oversubscribe"
    [ "$(id -u)" = 0 ] && MPIRUN="$MPIRUN --allow-run-as-root"
  fi
fi
export SEQPAR_COLLECTIVE_TIMEOUT=${SEQPAR_COLLECTIVE_TIMEOUT:-60}
work=$(mktemp -d "${TMPDIR:-/tmp}/random-diff.XXXXXX")
echo "random-diff: seeds $(echo $seeds | awk '{print $1 (NF > 1 ? ".." $NF : "")}') ($(echo $seeds | wc -w) programs), t in {$ranks}, files in $work"
pass=0 fail=0 failed_seeds=""
for seed in $seeds; do
  d="$work/seed-$seed"
  mkdir -p "$d"
  if ! "$python" "$here/test/lib/random_programs.py" --seed "$seed" --ranks "$ranks" -o "$d" >"$d/gen.log" 2>&1; then
    echo "seed $seed: FAIL (generate)"; cat "$d/gen.log"
    fail=$((fail + 1)); failed_seeds="$failed_seeds $seed"; continue
  fi
  t=$(sed -n 's/^ranks=//p' "$d/config.txt")
  gen=$(sed -n 's/^gen=//p' "$d/config.txt")
  spo=$(sed -n 's/^sp_options=//p' "$d/config.txt")
  rseed=$(sed -n 's/^run_seed=//p' "$d/config.txt")
  pipe="--seqpar-sp-pipeline"; [ -n "$spo" ] && pipe="--seqpar-sp-pipeline=$spo"
  # The planner's path: the single-device program without sharding, through
  # seqpar-pipeline (TP planning + SP) at the same t.
  seqdim=$(grep -o 'seqpar.seq_dim = [0-9]*' "$d/p1.mlir" | head -1 | grep -o '[0-9]*$')
  plan="--seqpar-pipeline=tp=$t seq-dim=$seqdim"
  case "$spo" in *pad=true*) plan="$plan pad=true" ;; esac
  stage="" errs="" t0=$SECONDS
  # shellcheck disable=SC2086
  if ! "$PYTHON_GEN" "$here/bench/gen_tp_graph.py" $gen --tp 1 --form plain -o "$d/plain.mlir" >"$d/plain.log" 2>&1 \
     || ! "$opt" "$d/plain.mlir" "$plan" -o "$d/plan.mlir" >"$d/plan.log" 2>&1; then
    stage="plan-pipeline"
  fi
  if ! "$opt" "$d/tp.mlir" "$pipe" -o "$d/sp.mlir" >"$d/sp.log" 2>&1; then
    stage="${stage:+$stage,}sp-pipeline"
  else
    progs="tp sp"; [ -f "$d/plan.mlir" ] && progs="tp sp plan"
    for prog in $progs; do
      if ! $MPIRUN -np "$t" "$run" "$d/$prog.mlir" --reference="$d/p1.mlir" --seed="$rseed" >"$d/run-$prog.log" 2>&1 \
         || ! grep -q "^reference: pass" "$d/run-$prog.log"; then
        stage="${stage:+$stage,}run-$prog"
      fi
      e=$(sed -n 's/^output [0-9]*: .* err = \([^ ]*\) .*/\1/p' "$d/run-$prog.log" | tr '\n' ' ')
      errs="$errs $prog:[${e% }]"
    done
  fi
  if [ -z "$stage" ]; then
    echo "seed $seed: ok  t=$t $gen${spo:+ ($spo)} err$errs ($((SECONDS - t0)) s)"
    pass=$((pass + 1))
    [ "$keep" = 1 ] || rm -rf "$d"
  else
    fail=$((fail + 1)); failed_seeds="$failed_seeds $seed"
    echo "seed $seed: FAIL ($stage)  t=$t $gen${spo:+ ($spo)} err$errs"
    echo "  files: $d"
    echo "  reproduce:"
    echo "    python3 bench/gen_tp_graph.py $gen --tp 1 -o p1.mlir"
    echo "    python3 bench/gen_tp_graph.py $gen --tp $t -o tp.mlir"
    echo "    build/bin/seqpar-opt tp.mlir $pipe -o sp.mlir"
    echo "    python3 bench/gen_tp_graph.py $gen --tp 1 --form plain -o plain.mlir"
    echo "    build/bin/seqpar-opt plain.mlir \"$plan\" -o plan.mlir"
    echo "    mpirun --allow-run-as-root --oversubscribe -np $t build/bin/seqpar-run tp.mlir --reference=p1.mlir --seed=$rseed"
    echo "    mpirun --allow-run-as-root --oversubscribe -np $t build/bin/seqpar-run sp.mlir --reference=p1.mlir --seed=$rseed"
    for f in "$d"/sp.log "$d"/plan.log "$d"/run-*.log; do
      [ -f "$f" ] && grep -E "error|err =|FAIL|fail|abort" "$f" | head -5 | sed "s|^|    $(basename "$f"): |"
    done
  fi
done
echo "$pass passed, $fail failed${failed_seeds:+ (seeds:$failed_seeds)}"
if [ "$fail" = 0 ] && [ "$keep" = 0 ]; then rmdir "$work" 2>/dev/null; fi
[ "$fail" = 0 ]
