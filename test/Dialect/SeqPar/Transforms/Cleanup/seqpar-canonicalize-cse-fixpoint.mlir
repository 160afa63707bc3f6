// What CSE's merges make foldable (x - x once both operands are one value)
// is folded in the same clean-up, which `canonicalize; cse` leaves for a
// second round: a second clean-up finds nothing, so the named pipelines
// clean up once between rewrites (docs/benchmarks.md §1).
// RUN: seqpar-opt %s --seqpar-canonicalize-cse | FileCheck %s
// RUN: seqpar-opt %s --seqpar-canonicalize-cse --seqpar-canonicalize-cse \
// RUN:   --mlir-print-ir-after-change --mlir-print-ir-after-all 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ONCE
// Upstream's two passes leave the subtraction.
// RUN: seqpar-opt %s --canonicalize --cse | FileCheck %s --check-prefix=UPSTREAM
// The pipeline's clean-ups (outside tester: before the fix, without the
// second clean-up it had run after raising, the pipeline left x - x).
// RUN: seqpar-opt %s --seqpar-pipeline=tp=2 2>/dev/null | FileCheck %s
// RUN: seqpar-opt %s --seqpar-pipeline="tp=2 sp=false" 2>/dev/null | FileCheck %s

// a*a - a*a is 0, then a * (2 + 0) - a * 2 is a*2 - a*2 once CSE merges
// the two products, then 0.
// CHECK-LABEL: func.func @merge_then_fold(
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    return %[[Z]]
// ONCE-COUNT-1: IR Dump After CanonicalizeAndCSE
// ONCE-NOT:     IR Dump After CanonicalizeAndCSE
// UPSTREAM:     arith.subi
func.func @merge_then_fold(%a: i64) -> i64 {
  %c2 = arith.constant 2 : i64
  %x0 = arith.muli %a, %a : i64
  %x1 = arith.muli %a, %a : i64
  %d = arith.subi %x0, %x1 : i64
  %k = arith.addi %c2, %d : i64
  %p = arith.muli %a, %k : i64
  %q = arith.muli %a, %c2 : i64
  %r = arith.subi %p, %q : i64
  return %r : i64
}
