// Tests the passes the named pipelines run around the sequence-parallel
// rewrite. Each pass that changes the IR costs a verification of the whole
// module (docs/benchmarks.md, section 1), so a clean-up runs as one
// seqpar-canonicalize-cse and nothing runs that the rewrite does not need:
// the fold of all_reduce + all_slice reads cleaned-up IR and makes no
// duplicates, so no CSE comes between it and the rewrite.

// RUN: seqpar-opt %s --seqpar-pipeline="tp=2 seq-dim=1" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,PLAN
// RUN: seqpar-opt %s --seqpar-sp-pipeline --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s
// With CP before SP, CP's rewrite is cleaned up before the fold (the empty
// module has nothing for CP to shard: an error after the pipeline is
// printed).
// RUN: echo "" | not seqpar-opt --seqpar-pipeline="tp=2 cp=2 seq-dim=1" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=CP

// PLAN:       seqpar-plan-tensor-parallel
// CHECK:      seqpar-canonicalize-cse,
// CHECK-NEXT: seqpar-fold-reduce-scatter,
// CHECK-NEXT: seqpar-sequence-parallel
// CHECK-NEXT: seqpar-canonicalize-cse,
// CHECK-NOT:  {{^ *(cse|canonicalize)(,|$)}}

// CP:      seqpar-context-parallel
// CP-NEXT: seqpar-canonicalize-cse,
// CP-NEXT: seqpar-fold-reduce-scatter,
// CP-NEXT: seqpar-sequence-parallel
// CP-NEXT: seqpar-canonicalize-cse,

shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @empty() {
  return
}
