// What CSE's merges enable around nested regions and blocks is cleaned up
// in the same clean-up too (outside tester: the follow-up on the merged
// ops alone left an scf.if, a folded constant mid-block and an unreachable
// block for a second clean-up): a second clean-up finds nothing.
// RUN: seqpar-opt %s -split-input-file --seqpar-canonicalize-cse | FileCheck %s
// RUN: seqpar-opt %s -split-input-file --seqpar-canonicalize-cse --seqpar-canonicalize-cse \
// RUN:   --mlir-print-ir-after-change --mlir-print-ir-after-all 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ONCE
// ONCE-COUNT-3: IR Dump After CanonicalizeAndCSE
// ONCE-NOT:     IR Dump After CanonicalizeAndCSE

// The branch's x * x is the outer one: the scf.if selects.
// CHECK-LABEL: func.func @branch_yields_outer(
// CHECK-SAME:    %[[X:.*]]: i32, %[[C:.*]]: i1)
// CHECK-NEXT:    %[[A:.*]] = arith.muli %[[X]], %[[X]]
// CHECK-NEXT:    %[[Y:.*]] = arith.select %[[C]], %[[A]], %[[X]]
// CHECK-NEXT:    arith.addi %[[A]], %[[Y]]
func.func @branch_yields_outer(%x: i32, %c: i1) -> i32 {
  %a = arith.muli %x, %x : i32
  %y = scf.if %c -> i32 {
    %b = arith.muli %x, %x : i32
    scf.yield %b : i32
  } else {
    scf.yield %x : i32
  }
  %s = arith.addi %a, %y : i32
  return %s : i32
}

// -----

// x*y - x*y + 2 is 2, a constant at the start of the function.
// CHECK-LABEL: func.func @folded_constant_first(
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant 2 : i32
// CHECK-NEXT:    %[[A:.*]] = arith.muli
// CHECK-NEXT:    return %[[A]], %[[TWO]]
func.func @folded_constant_first(%x: i32, %y: i32) -> (i32, i32) {
  %c2 = arith.constant 2 : i32
  %a = arith.muli %x, %y : i32
  %b = arith.muli %x, %y : i32
  %d = arith.subi %a, %b : i32
  %e = arith.addi %d, %c2 : i32
  return %a, %e : i32, i32
}

// -----

// x + y == x + y: the branch is taken, the other block is gone.
// CHECK-LABEL: func.func @branch_decided(
// CHECK-SAME:    %[[X:.*]]: i32,
// CHECK-NEXT:    %[[M:.*]] = arith.muli %[[X]], %[[X]]
// CHECK-NEXT:    return %[[M]]
// CHECK-NOT:   ^bb
func.func @branch_decided(%x: i32, %y: i32) -> i32 {
  %a = arith.addi %x, %y : i32
  %b = arith.addi %x, %y : i32
  %c = arith.cmpi eq, %a, %b : i32
  cf.cond_br %c, ^bb1(%x : i32), ^bb2(%y : i32)
^bb1(%p: i32):
  %m = arith.muli %p, %p : i32
  cf.br ^bb3(%m : i32)
^bb2(%q: i32):
  %n = arith.muli %q, %x : i32
  cf.br ^bb3(%n : i32)
^bb3(%r: i32):
  return %r : i32
}
