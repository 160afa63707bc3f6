// RUN: seqpar-opt %s -split-input-file --seqpar-index-switch-to-if | FileCheck %s

// Tests that a switch becomes a chain of scf.if comparing its argument with
// each case in order, each case's region moved as it is, the default last.

// CHECK-LABEL: func.func @two_cases
// CHECK-SAME: (%[[I:.+]]: index, %[[A:.+]]: tensor<8xf32>, %[[B:.+]]: tensor<8xf32>, %[[C:.+]]: tensor<8xf32>)
// CHECK:      %[[ONE:.+]] = arith.constant 1 : index
// CHECK:      %[[IS1:.+]] = arith.cmpi eq, %[[I]], %[[ONE]] : index
// CHECK:      %[[R:.+]]:2 = scf.if %[[IS1]] -> (tensor<8xf32>, f32) {
// CHECK:        scf.yield %[[A]], %{{.+}} : tensor<8xf32>, f32
// CHECK:      } else {
// CHECK:        %[[FIVE:.+]] = arith.constant 5 : index
// CHECK:        %[[IS5:.+]] = arith.cmpi eq, %[[I]], %[[FIVE]] : index
// CHECK:        %[[S:.+]]:2 = scf.if %[[IS5]] -> (tensor<8xf32>, f32) {
// CHECK:          scf.yield %[[B]], %{{.+}} : tensor<8xf32>, f32
// CHECK:        } else {
// CHECK:          scf.yield %[[C]], %{{.+}} : tensor<8xf32>, f32
// CHECK:        }
// CHECK:        scf.yield %[[S]]#0, %[[S]]#1 : tensor<8xf32>, f32
// CHECK:      }
// CHECK-NOT:  scf.index_switch
// CHECK:      return %[[R]]#0, %[[R]]#1
func.func @two_cases(%i: index, %a: tensor<8xf32>, %b: tensor<8xf32>, %c: tensor<8xf32>) -> (tensor<8xf32>, f32) {
  %r:2 = scf.index_switch %i -> tensor<8xf32>, f32
  case 1 {
    %x = arith.constant 1.0 : f32
    scf.yield %a, %x : tensor<8xf32>, f32
  }
  case 5 {
    %y = arith.constant 5.0 : f32
    scf.yield %b, %y : tensor<8xf32>, f32
  }
  default {
    %z = arith.constant 0.0 : f32
    scf.yield %c, %z : tensor<8xf32>, f32
  }
  return %r#0, %r#1 : tensor<8xf32>, f32
}

// -----

// Tests a switch without results, one nested in another's case, and one
// without cases (an scf.execute_region of its default).

// CHECK-LABEL: func.func @nested_and_empty
// CHECK-NOT: scf.index_switch
// CHECK: scf.if
// CHECK: scf.if
// CHECK: scf.execute_region -> tensor<4xf32>
func.func @nested_and_empty(%i: index, %j: index, %t: tensor<4xf32>, %m: memref<4xf32>) -> tensor<4xf32> {
  scf.index_switch %i
  case 0 {
    scf.index_switch %j
    case 2 {
      %c0 = arith.constant 0 : index
      %f = arith.constant 2.0 : f32
      memref.store %f, %m[%c0] : memref<4xf32>
      scf.yield
    }
    default {
      scf.yield
    }
    scf.yield
  }
  default {
    scf.yield
  }
  %r = scf.index_switch %j -> tensor<4xf32>
  default {
    scf.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
