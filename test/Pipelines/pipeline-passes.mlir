// Tests the passes the named pipelines run around the sequence-parallel
// rewrite. Each pass that changes the IR costs a verification of the whole
// module (docs/benchmarks.md, section 1), and a clean-up that changes
// nothing still costs its patterns and CSE's hashing, so a clean-up runs
// as one seqpar-canonicalize-cse and nothing runs that the rewrites do not
// need: the fold of all_reduce + all_slice reads cleaned-up IR and makes
// no duplicates, so no CSE comes between it and the rewrite; SP reads the
// raised program as the raiser leaves it (the clean-up after SP cleans
// both), while CP needs the raiser's Q, K and V made one by CSE.

// RUN: seqpar-opt %s --seqpar-pipeline="tp=2 seq-dim=1" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: seqpar-opt %s --seqpar-pipeline="tp=2 sp=false" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOSP
// RUN: seqpar-opt %s --seqpar-sp-pipeline --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s
// With CP before SP, CP's rewrite is cleaned up before the fold (the empty
// module has nothing for CP to shard: an error after the pipeline is
// printed).
// RUN: echo "" | not seqpar-opt --seqpar-pipeline="tp=2 cp=2 seq-dim=1" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=CP
// Without TP, the grid maker runs the frontend's clean-up.
// RUN: echo "" | not seqpar-opt --seqpar-pipeline="cp=2 seq-dim=1" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=CPONLY
// A decode step raises no backward, with the planner or without.
// RUN: echo "" | seqpar-opt --seqpar-pipeline="tp=2 dcp=2" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=DECODE
// RUN: echo "" | seqpar-opt --seqpar-pipeline="dcp=2" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=DECODE1

// The frontend's closing clean-up is the TP planner's first step, and
// raising attention (with its backward) its last.
// PLAN:      seqpar-inline-calls
// PLAN-NOT:  seqpar-canonicalize-cse
// PLAN:      seqpar-fold-logit-masks
// PLAN-NEXT: ),
// PLAN-NEXT: seqpar-plan-tensor-parallel{canonicalize-first=true
// PLAN-SAME: raise-attention=true raise-backward=true
// PLAN-NEXT: seqpar-combine-all-reduces,
// PLAN-NEXT: seqpar-fold-reduce-scatter,
// PLAN-NEXT: seqpar-sequence-parallel
// PLAN-NEXT: seqpar-canonicalize-cse,
// PLAN-NOT:  {{^ *(cse|canonicalize)(,|$)}}
// PLAN-NOT:  seqpar-raise-attention

// NOSP:      seqpar-plan-tensor-parallel{canonicalize-first=true
// NOSP-SAME: raise-attention=true
// NOSP-NEXT: seqpar-combine-all-reduces,
// NOSP-NEXT: seqpar-canonicalize-cse
// NOSP-NEXT: {{^\)$}}

// CHECK:      seqpar-canonicalize-cse,
// CHECK-NEXT: seqpar-fold-reduce-scatter,
// CHECK-NEXT: seqpar-sequence-parallel
// CHECK-NEXT: seqpar-canonicalize-cse,
// CHECK-NOT:  {{^ *(cse|canonicalize)(,|$)}}

// Without a planner, the raiser runs as a pass of its own.
// CPONLY:      seqpar-inline-calls
// CPONLY-NOT:  seqpar-canonicalize-cse
// CPONLY:      seqpar-fold-logit-masks
// CPONLY-NEXT: ),
// CPONLY-NEXT: seqpar-create-grid{canonicalize-first=true
// CPONLY:      seqpar-raise-attention{backward=true}
// CPONLY-NEXT: ),
// CPONLY-NEXT: seqpar-combine-all-reduces,
// CPONLY-NEXT: seqpar-canonicalize-cse,
// CPONLY-NEXT: seqpar-context-parallel

// DECODE:      seqpar-plan-tensor-parallel{
// DECODE-SAME: raise-attention=true raise-backward=false
// DECODE-NEXT: seqpar-combine-all-reduces,
// DECODE-NEXT: seqpar-canonicalize-cse,
// DECODE-NEXT: seqpar-decode-context-parallel
// DECODE1:      seqpar-raise-attention{backward=false}
// DECODE1-NEXT: ),
// DECODE1-NEXT: seqpar-combine-all-reduces,

// CP:      raise-attention=true raise-backward=true
// CP-NEXT: seqpar-combine-all-reduces,
// CP-NEXT: seqpar-canonicalize-cse,
// CP-NEXT: seqpar-context-parallel
// CP-NEXT: seqpar-canonicalize-cse,
// CP-NEXT: seqpar-fold-reduce-scatter,
// CP-NEXT: seqpar-sequence-parallel
// CP-NEXT: seqpar-canonicalize-cse,

shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @empty() {
  return
}
