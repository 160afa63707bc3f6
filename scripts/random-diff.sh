#!/usr/bin/env bash
# Randomized differential test (issue 3 item 5): for each seed, draws a small
# random TP transformer program (test/lib/random_programs.py), runs the
# sequence-parallel rewrite on it, and checks with seqpar-run on t ranks that
# the TP program, the TP+SP program, and the program seqpar-pipeline plans
# from the unsharded single-device program (TP planning + SP) compute what
# the single-device program computes (docs/semantics.md §1 error <= 1e-5).
#
# With --training, each seed draws a training program instead
# (bench/gen_train_graph.py: forward + hand-written backward, the loss and
# every gradient) and checks (1) its backward against finite differences
# (test/lib/check_train_grad.py, f64, rel <= 1e-6), (2) that the
# single-device program runs (the baseline), (3) that the hand-written
# per-rank TP training program and its seqpar-sp-pipeline rewrite compute
# the loss and every gradient of the single-device program on t ranks, and
# (4) that the program seqpar-pipeline plans from the single-device one
# (TP planning of forward and backward + SP) matches it; "plan:[...]" also
# gives the planned blocks' linears and the SP rewrite's reduce_scatters;
# (5) that the program context parallelism makes of it on c = t ranks
# (a strategy drawn per seed, the attention backward distributed) matches it;
# "cp:[...]" gives the options and the attention backwards distributed.
#
# Usage: scripts/random-diff.sh [--count N] [--start SEED] [--ranks "2 4"]
#                               [--seeds "S1 S2 ..."] [--build DIR]
#                               [--opt PATH] [--run PATH] [--keep] [--training]
# --seeds replaces --start/--count; --opt/--run override build/bin/seqpar-*;
# --keep keeps the files of passing seeds too.
# Environment: MPIRUN (default: mpirun, with --oversubscribe and, as root,
# --allow-run-as-root for Open MPI), PYTHON (default python3).
# Prints one line per seed and "N passed, M failed"; on a failure, the seed,
# the configuration, the commands to reproduce, and the directory holding the
# files (kept). Exits non-zero on any failure.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
count=10 start=1 ranks="2 4" build="$here/build" keep=0 seeds="" opt="" run="" training=0
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
    --training) training=1; shift ;;
    -h|--help) sed -n '2,31p' "$0"; exit 0 ;;
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
kind=""; [ "$training" = 1 ] && kind="training "
echo "random-diff: ${kind}seeds $(echo $seeds | awk '{print $1 (NF > 1 ? ".." $NF : "")}') ($(echo $seeds | wc -w) programs), t in {$ranks}, files in $work"
pass=0 fail=0 failed_seeds=""
# One training seed: the finite-difference check, the single-device baseline,
# and the planned program against it. Sets stage (failed stages) and errs.
check_training() {
  local d=$1 t rseed gen seqdim e spo pipe progs prog
  t=$(sed -n 's/^ranks=//p' "$d/config.txt")
  gen=$(sed -n 's/^gen=//p' "$d/config.txt")
  rseed=$(sed -n 's/^run_seed=//p' "$d/config.txt")
  if ! "$python" "$here/test/lib/check_train_grad.py" "$d/fd.mlir" --seqpar-run "$run" >"$d/fd.log" 2>&1; then
    stage="${stage:+$stage,}fd"
  fi
  e=$(sed -n 's/.*max rel = \([^ ]*\) .*/\1/p' "$d/fd.log" | tr '\n' ' ')
  errs="$errs fd:[${e% }]"
  if ! "$run" "$d/p1.mlir" --seed="$rseed" >"$d/run-p1.log" 2>&1; then
    stage="${stage:+$stage,}run-p1"
  fi
  spo=$(sed -n 's/^sp_options=//p' "$d/config.txt")
  pipe="--seqpar-sp-pipeline"; [ -n "$spo" ] && pipe="--seqpar-sp-pipeline=$spo"
  progs="tp"
  if ! "$opt" "$d/tp.mlir" "$pipe" -o "$d/sp.mlir" >"$d/sp.log" 2>&1; then
    stage="${stage:+$stage,}sp-pipeline"
  else
    progs="tp sp"
  fi
  for prog in $progs; do
    if ! $MPIRUN -np "$t" "$run" "$d/$prog.mlir" --reference="$d/p1.mlir" --seed="$rseed" >"$d/run-$prog.log" 2>&1 \
       || ! grep -q "^reference: pass" "$d/run-$prog.log"; then
      stage="${stage:+$stage,}run-$prog"
    fi
    e=$(sed -n 's/^output [0-9]*: .* err = \([^ ]*\) .*/\1/p' "$d/run-$prog.log" | sort -g | tail -1)
    errs="$errs $prog:[max ${e:-?}]"
  done
  seqdim=$(grep -o 'seqpar.seq_dim = [0-9]*' "$d/p1.mlir" | head -1 | grep -o '[0-9]*$')
  plan="--seqpar-pipeline=tp=$t seq-dim=$seqdim"
  case "$spo" in *pad=true*) plan="$plan pad=true" ;; esac
  if ! "$opt" "$d/plain.mlir" "$plan" -o "$d/plan.mlir" >"$d/plan.log" 2>&1; then
    stage="${stage:+$stage,}plan-pipeline"
  elif ! $MPIRUN -np "$t" "$run" "$d/plan.mlir" --reference="$d/p1.mlir" --seed="$rseed" >"$d/run-plan.log" 2>&1 \
       || ! grep -q "^reference: pass" "$d/run-plan.log"; then
    stage="${stage:+$stage,}run-plan"
  fi
  if [ -f "$d/run-plan.log" ]; then
    e=$(sed -n 's/^output [0-9]*: .* err = \([^ ]*\) .*/\1/p' "$d/run-plan.log" | sort -g | tail -1)
    planned=$(sed -n 's/.*tensor parallelism (tp=[0-9]*): \(.*\) linears left replicated\(.*\)/\1 repl\2/p' "$d/plan.log" | sed 's/ blocks, / blocks /; s/ column-parallel and / col /; s/ row-parallel linears, / row /; s/; \([0-9]*\) reductions over split dims and gathers along them ([^)]*)/ \1 red/; s/; \([0-9]*\) embedding tables split on their rows/ \1 tables/')
    scatters=$(sed -n 's/.*-> \([0-9]*\) reduce_scatter.*/\1/p' "$d/plan.log")
    errs="$errs plan:[max ${e:-?}; ${planned:-?}; ${scatters:-0} reduce_scatter]"
  fi
  local cpo cp
  cpo=$(sed -n 's/^cp_options=//p' "$d/config.txt")
  cp="--seqpar-pipeline=$cpo seq-dim=$seqdim"
  if ! "$opt" "$d/plain.mlir" "$cp" -o "$d/cp.mlir" >"$d/cp.log" 2>&1; then
    stage="${stage:+$stage,}cp-pipeline"
  elif ! $MPIRUN -np "$t" "$run" "$d/cp.mlir" --reference="$d/p1.mlir" --seed="$rseed" >"$d/run-cp.log" 2>&1 \
       || ! grep -q "^reference: pass" "$d/run-cp.log"; then
    stage="${stage:+$stage,}run-cp"
  fi
  if [ -f "$d/run-cp.log" ]; then
    e=$(sed -n 's/^output [0-9]*: .* err = \([^ ]*\) .*/\1/p' "$d/run-cp.log" | sort -g | tail -1)
    backward=$(sed -n 's/.* \([0-9]*\) attention backward -> .*/\1/p' "$d/cp.log")
    errs="$errs cp:[max ${e:-?}; $cpo; ${backward:-0} backward]"
  fi
  gen_line="$gen"
  repro=("python3 bench/gen_train_graph.py $gen --form fdcheck -o fd.mlir"
         "python3 test/lib/check_train_grad.py fd.mlir"
         "python3 bench/gen_train_graph.py $gen -o p1.mlir"
         "python3 bench/gen_train_graph.py $gen --tp $t -o tp.mlir"
         "build/bin/seqpar-opt tp.mlir $pipe -o sp.mlir"
         "mpirun --allow-run-as-root --oversubscribe -np $t build/bin/seqpar-run sp.mlir --reference=p1.mlir --seed=$rseed"
         "python3 bench/gen_train_graph.py $gen --form plain -o plain.mlir"
         "build/bin/seqpar-opt plain.mlir \"$plan\" -o plan.mlir"
         "mpirun --allow-run-as-root --oversubscribe -np $t build/bin/seqpar-run plan.mlir --reference=p1.mlir --seed=$rseed"
         "build/bin/seqpar-opt plain.mlir \"$cp\" -o cp.mlir"
         "mpirun --allow-run-as-root --oversubscribe -np $t build/bin/seqpar-run cp.mlir --reference=p1.mlir --seed=$rseed")
  ranks_used=$t
}

for seed in $seeds; do
  d="$work/seed-$seed"
  mkdir -p "$d"
  if [ "$training" = 1 ]; then
    stage="" errs="" t0=$SECONDS
    if ! "$python" "$here/test/lib/random_programs.py" --training --seed "$seed" --ranks "$ranks" -o "$d" >"$d/gen.log" 2>&1; then
      echo "seed $seed: FAIL (generate)"; cat "$d/gen.log"
      fail=$((fail + 1)); failed_seeds="$failed_seeds $seed"; continue
    fi
    check_training "$d"
    if [ -z "$stage" ]; then
      echo "seed $seed: ok  t=$ranks_used $gen_line err$errs ($((SECONDS - t0)) s)"
      pass=$((pass + 1))
      [ "$keep" = 1 ] || rm -rf "$d"
    else
      fail=$((fail + 1)); failed_seeds="$failed_seeds $seed"
      echo "seed $seed: FAIL ($stage)  t=$ranks_used $gen_line err$errs"
      echo "  files: $d"
      echo "  reproduce:"
      printf '    %s\n' "${repro[@]}"
      for f in "$d"/fd.log "$d"/plan.log "$d"/run-*.log; do
        [ -f "$f" ] && grep -E "error|err =|FAIL|fail|abort" "$f" | head -5 | sed "s|^|    $(basename "$f"): |"
      done
    fi
    continue
  fi
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
