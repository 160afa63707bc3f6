#!/usr/bin/env bash
# Randomized differential test (issue 3 item 5): for each seed, draws a small
# random TP transformer program (test/lib/random_programs.py), runs the
# sequence-parallel rewrite on it, and checks with seqpar-run on t ranks that
# the TP program and the TP+SP program compute what the single-device program
# computes (docs/semantics.md §1 error <= 1e-5). The same model, written
# without sharding in forms other frontends write (drawn per seed, each on
# its own: logits K.Q^T, P.V token-major or V^T.P^T, GQA repeats by a zero
# add, broadcast, concat, index_select, gather or tile, softmax as
# linalg.softmax, log-sum-exp, exp of log_softmax or times a reciprocal,
# key-padding masks from an integer attention mask ((1 - m) * -1e4,
# finfo.min, in the scale op's body, causal + padding in one tensor),
# sliding windows, zero inits as dense<0.0> or a fill through tensor.cast,
# bf16 linears accumulating in f32), goes through seqpar-pipeline twice:
# TP planning + SP at t ("plan:[...]": the blocks and linears planned, the
# reduce_scatters), and context parallelism on c = t ranks with a strategy
# drawn per seed ("cp:[...]": the options, the attentions distributed and
# the all_gathers); both must match the single-device program in those forms
# (f32; masked seeds on in<k>.npy inputs with a 0/1 mask that leaves every
# query a key; bf16 seeds within seqpar-run's bf16 bound, 2e-2), every
# linear must be planned (every layer's blocks split, every all_reduce of
# theirs a reduce_scatter; K/V left replicated only under a tile) and every
# attention raised and distributed with the strategy asked for (but a
# causal model's under a padding mask added to its causal select, which
# the raiser cannot prove the causal flag plus a mask: docs/semantics.md
# §4.5): an attention left unraised would match too, its keys
# all-gathered, so the error alone does not tell. "forms:[...]" says which forms were drawn.
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
    -h|--help) sed -n '2,50p' "$0"; exit 0 ;;
    *) echo "random-diff.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
python=${PYTHON:-python3}
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
# pipeline_stage NAME OPTIONS (inside check_training): compiles plain.mlir
# with the seqpar-opt OPTIONS into NAME.mlir (log NAME.log), runs it on t
# ranks against p1.mlir (run-NAME.log) and adds a failed step to $stage;
# sets $e to the largest err. True when the program ran.
pipeline_stage() {
  local name=$1 options=$2
  e=
  if ! "$opt" "$d/plain.mlir" "$options" -o "$d/$name.mlir" >"$d/$name.log" 2>&1; then
    stage="${stage:+$stage,}$name-pipeline"
  elif ! $MPIRUN -np "$t" "$run" "$d/$name.mlir" --reference="$d/p1.mlir" --seed="$rseed" >"$d/run-$name.log" 2>&1 \
       || ! grep -q "^reference: pass" "$d/run-$name.log"; then
    stage="${stage:+$stage,}run-$name"
  fi
  [ -f "$d/run-$name.log" ] || return 1
  e=$(sed -n 's/^output [0-9]*: .* err = \([^ ]*\) .*/\1/p' "$d/run-$name.log" | sort -g | tail -1)
}

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
  if pipeline_stage plan "$plan"; then
    planned=$(sed -n 's/.*tensor parallelism (tp=[0-9]*): \(.*\) linears left replicated\(.*\)/\1 repl\2/p' "$d/plan.log" | sed 's/ blocks, / blocks /; s/ column-parallel and / col /; s/ row-parallel linears, / row /; s/; \([0-9]*\) reductions over split dims and gathers along them ([^)]*)/ \1 red/; s/; \([0-9]*\) embedding tables split on their rows/ \1 tables/')
    scatters=$(sed -n 's/.*-> \([0-9]*\) reduce_scatter.*/\1/p' "$d/plan.log")
    errs="$errs plan:[max ${e:-?}; ${planned:-?}; ${scatters:-0} reduce_scatter]"
  fi
  local cpo cp
  cpo=$(sed -n 's/^cp_options=//p' "$d/config.txt")
  cp="--seqpar-pipeline=$cpo seq-dim=$seqdim"
  if pipeline_stage cp "$cp"; then
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
  forms=$(sed -n 's/^forms=//p' "$d/config.txt")
  forms_desc=$(sed -n 's/^forms_desc=//p' "$d/config.txt")
  ref=$(sed -n 's/^ref=//p' "$d/config.txt")
  inputs=$(sed -n 's/^inputs=//p' "$d/config.txt")
  cpo=$(sed -n 's/^cp_options=//p' "$d/config.txt")
  read -r x_blocks x_col x_row x_repl x_rs x_att <<<"$(sed -n 's/^expect=//p' "$d/config.txt")"
  pipe="--seqpar-sp-pipeline"; [ -n "$spo" ] && pipe="--seqpar-sp-pipeline=$spo"
  # The planner's path: the single-device program without sharding, in the
  # forms drawn for the seed, through seqpar-pipeline (TP planning + SP) at
  # the same t, and through context parallelism on c = t ranks.
  seqdim=$(grep -o 'seqpar.seq_dim = [0-9]*' "$d/p1.mlir" | head -1 | grep -o '[0-9]*$')
  plan="--seqpar-pipeline=tp=$t seq-dim=$seqdim"
  case "$spo" in *pad=true*) plan="$plan pad=true" ;; esac
  cp="--seqpar-pipeline=$cpo seq-dim=$seqdim"
  # Masked seeds take their inputs from in<k>.npy (the 0/1 mask); the
  # others the inputs seqpar-run generates from the run seed.
  in_opt="--seed=$rseed"
  [ -n "$inputs" ] && in_opt="--inputs=$(echo "$inputs" | sed "s|\([^,]*\)|$d/\1|g")"
  stage="" errs="" t0=$SECONDS
  progs=""
  if ! "$opt" "$d/tp.mlir" "$pipe" -o "$d/sp.mlir" >"$d/sp.log" 2>&1; then
    stage="sp-pipeline"
  else
    progs="tp sp"
  fi
  if ! "$opt" "$d/plain.mlir" "$plan" -o "$d/plan.mlir" >"$d/plan.log" 2>&1; then
    stage="${stage:+$stage,}plan-pipeline"
  else
    progs="$progs plan"
  fi
  if ! "$opt" "$d/plain.mlir" "$cp" -o "$d/cp.mlir" >"$d/cp.log" 2>&1; then
    stage="${stage:+$stage,}cp-pipeline"
  else
    progs="$progs cp"
  fi
  for prog in $progs; do
    case $prog in
      tp|sp) reference=p1.mlir opts="--seed=$rseed" ;;
      *) reference=$ref opts=$in_opt ;;
    esac
    if ! $MPIRUN -np "$t" "$run" "$d/$prog.mlir" --reference="$d/$reference" "$opts" >"$d/run-$prog.log" 2>&1 \
       || ! grep -q "^reference: pass" "$d/run-$prog.log"; then
      stage="${stage:+$stage,}run-$prog"
    fi
    e=$(sed -n 's/^output [0-9]*: .* err = \([^ ]*\) .*/\1/p' "$d/run-$prog.log" | tr '\n' ' ')
    case $prog in
      tp|sp) errs="$errs $prog:[${e% }]" ;;
      plan)
        # Every linear planned as the configuration says (expect= in
        # config.txt), every row-parallel all_reduce a reduce_scatter.
        tpr=$(sed -n 's/.*tensor parallelism (tp=[0-9]*): \([0-9]*\) blocks, \([0-9]*\) column-parallel and \([0-9]*\) row-parallel linears, \([0-9]*\) linears left replicated.*/\1 \2 \3 \4/p' "$d/plan.log" | head -1)
        rs=$(sed -n 's/.*-> \([0-9]*\) reduce_scatter.*/\1/p' "$d/plan.log" | head -1)
        read -r blocks col row repl <<<"${tpr:-? ? ? ?}"
        if [ "$blocks $col $row $repl" != "$x_blocks $x_col $x_row $x_repl" ]; then
          stage="${stage:+$stage,}plan-linears(expected $x_blocks blocks $x_col col $x_row row $x_repl repl)"
        fi
        [ "${rs:-0}" = "$x_rs" ] || stage="${stage:+$stage,}plan-reduce-scatter(expected $x_rs)"
        errs="$errs plan:[${e% }; $blocks blocks $col col $row row $repl repl; ${rs:-0} reduce_scatter]" ;;
      cp)
        # Every attention raised and distributed with the strategy asked
        # for: an attention left unraised still matches (its keys are
        # all-gathered), so the err alone would not tell.
        att=$(sed -n 's/.*context-parallel over .*: \([0-9]*\) attention -> \([a-z-]*\) .*, \([0-9]*\) all_gather .*/\1 \2 \3/p' "$d/cp.log" | head -1)
        read -r natt how ngather <<<"${att:-0 none ?}"
        want=$(echo "$cpo" | sed -n 's/.*cp-strategy=\([a-z-]*\).*/\1/p')
        if [ "$natt" != "$x_att" ] || [ "$how" != "$want" ]; then
          stage="${stage:+$stage,}cp-attention(expected $x_att -> $want)"
        fi
        errs="$errs cp:[${e% }; $cpo; $natt attention -> $how, $ngather all_gather]" ;;
    esac
  done
  reproduce() {
    echo "  reproduce:"
    echo "    python3 bench/gen_tp_graph.py $gen --tp 1 -o p1.mlir"
    echo "    python3 bench/gen_tp_graph.py $gen --tp $t -o tp.mlir"
    echo "    build/bin/seqpar-opt tp.mlir $pipe -o sp.mlir"
    echo "    mpirun --allow-run-as-root --oversubscribe -np $t build/bin/seqpar-run tp.mlir --reference=p1.mlir --seed=$rseed"
    echo "    mpirun --allow-run-as-root --oversubscribe -np $t build/bin/seqpar-run sp.mlir --reference=p1.mlir --seed=$rseed"
    echo "    python3 bench/gen_tp_graph.py $gen --tp 1 $forms --form plain -o plain.mlir"
    echo "    python3 bench/gen_tp_graph.py $gen --tp 1 $(sed -n 's/^forms=//p' "$d/config.txt" | sed 's/ *--mixed-bf16//') -o $ref"
    [ -n "$inputs" ] && echo "    python3 test/lib/random_programs.py --seed $seed --ranks \"$ranks\" -o .   # writes the inputs $inputs"
    echo "    build/bin/seqpar-opt plain.mlir \"$plan\" -o plan.mlir"
    echo "    mpirun --allow-run-as-root --oversubscribe -np $t build/bin/seqpar-run plan.mlir --reference=$ref ${in_opt//$d\//}"
    echo "    build/bin/seqpar-opt plain.mlir \"$cp\" -o cp.mlir"
    echo "    mpirun --allow-run-as-root --oversubscribe -np $t build/bin/seqpar-run cp.mlir --reference=$ref ${in_opt//$d\//}"
  }
  if [ -z "$stage" ]; then
    echo "seed $seed: ok  t=$t $gen${spo:+ ($spo)} err$errs forms:[$forms_desc] ($((SECONDS - t0)) s)"
    pass=$((pass + 1))
    [ "$keep" = 1 ] || rm -rf "$d"
  else
    fail=$((fail + 1)); failed_seeds="$failed_seeds $seed"
    echo "seed $seed: FAIL ($stage)  t=$t $gen${spo:+ ($spo)} err$errs forms:[$forms_desc]"
    echo "  files: $d"
    reproduce
    for f in "$d"/sp.log "$d"/plan.log "$d"/cp.log "$d"/run-*.log; do
      [ -f "$f" ] && grep -E "error|err =|FAIL|fail|abort|not raised|attention ->" "$f" | head -5 | sed "s|^|    $(basename "$f"): |"
    done
  fi
done
echo "$pass passed, $fail failed${failed_seeds:+ (seeds:$failed_seeds)}"
if [ "$fail" = 0 ] && [ "$keep" = 0 ]; then rmdir "$work" 2>/dev/null; fi
[ "$fail" = 0 ]
