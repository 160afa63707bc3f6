// RUN: seqpar-opt %s -split-input-file --seqpar-lower-collectives-to-runtime | FileCheck %s

// Tests that a blocking all-gather calls seqpar_rt_all_gather with the
// cached communicator, the f32 dtype code, the buffers' addresses, the
// input shape as a constant global, the rank and the gather dim.

shard.grid @grid(shape = 2x4) {sym_visibility = "private"}

// CHECK-DAG: llvm.mlir.global private constant @__seqpar_i64_2_8_64(dense<[2, 8, 64]> : tensor<3xi64>)
// CHECK-DAG: llvm.mlir.global private constant @__seqpar_i64_2_4(dense<[2, 4]> : tensor<2xi64>)
// CHECK-DAG: llvm.mlir.global private constant @__seqpar_i32_1(dense<1> : tensor<1xi32>)
// CHECK-DAG: llvm.mlir.global internal @__seqpar_comm_grid_a1_handle()
// CHECK-LABEL: func.func @all_gather
// CHECK-SAME: (%[[IN:.+]]: memref<2x8x64xf32>, %[[OUT:.+]]: memref<2x32x64xf32>)
func.func @all_gather(%in: memref<2x8x64xf32>, %out: memref<2x32x64xf32>) {
  // CHECK: %[[COMM:.+]] = llvm.call @__seqpar_comm_grid_a1() : () -> !llvm.ptr
  // CHECK: %[[DTYPE:.+]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK: %[[A:.+]] = memref.extract_aligned_pointer_as_index %[[IN]]
  // CHECK: %[[AI:.+]] = arith.index_cast %[[A]] : index to i64
  // CHECK: %[[PIN:.+]] = llvm.inttoptr %[[AI]] : i64 to !llvm.ptr
  // CHECK: memref.extract_aligned_pointer_as_index %[[OUT]]
  // CHECK: %[[POUT:.+]] = llvm.inttoptr
  // CHECK: %[[SHAPE:.+]] = llvm.mlir.addressof @__seqpar_i64_2_8_64 : !llvm.ptr
  // CHECK: %[[NDIMS:.+]] = llvm.mlir.constant(3 : i32) : i32
  // CHECK: %[[DIM:.+]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK: llvm.call @seqpar_rt_all_gather(%[[COMM]], %[[DTYPE]], %[[PIN]], %[[POUT]], %[[SHAPE]], %[[NDIMS]], %[[DIM]])
  // CHECK-NOT: seqpar.memref_all_gather
  seqpar.memref_all_gather %in, %out on @grid grid_axes = [1] gather_axis = 1 : memref<2x8x64xf32>, memref<2x32x64xf32>
  return
}
// The communicator getter: cached in a global, created once after the
// runtime is initialized in abort-on-error mode.
// CHECK: llvm.func internal @__seqpar_rt_ensure_init()
// CHECK: llvm.call @seqpar_rt_set_error_mode
// CHECK: llvm.call @seqpar_rt_init()
// CHECK: llvm.func @seqpar_rt_comm_get(!llvm.ptr, i32, !llvm.ptr, i32, !llvm.ptr) -> i32
// CHECK: llvm.func internal @__seqpar_comm_grid_a1() -> !llvm.ptr
// CHECK: %[[H:.+]] = llvm.mlir.addressof @__seqpar_comm_grid_a1_handle
// CHECK: llvm.cond_br
// CHECK: llvm.call @__seqpar_rt_ensure_init()
// CHECK: %[[GS:.+]] = llvm.mlir.addressof @__seqpar_i64_2_4
// CHECK: %[[AX:.+]] = llvm.mlir.addressof @__seqpar_i32_1
// CHECK: llvm.call @seqpar_rt_comm_get(%[[GS]], %{{.+}}, %[[AX]], %{{.+}}, %[[H]])
// CHECK: llvm.func @seqpar_rt_all_gather(!llvm.ptr, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, i32) -> i32

// -----

// Tests the reduction codes (sum 0, max 1, min 2), the f16/bf16 dtype codes
// (1, 2), and the all-to-all and shift operands.

shard.grid @grid(shape = 2) {sym_visibility = "private"}

// CHECK-LABEL: func.func @others
func.func @others(%a: memref<4x8xf16>, %b: memref<2x8xf16>, %c: memref<4x8xbf16>, %d: memref<8x4xf32>, %e: memref<4x8xf32>) {
  // CHECK: %[[F16:.+]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK: %[[SUM:.+]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK: llvm.call @seqpar_rt_reduce_scatter(%{{.+}}, %[[F16]], %[[SUM]], {{.*}}) : (!llvm.ptr, i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, i32) -> i32
  seqpar.memref_reduce_scatter %a, %b on @grid grid_axes = [0] scatter_axis = 0 : memref<4x8xf16>, memref<2x8xf16>
  // CHECK: %[[BF16:.+]] = llvm.mlir.constant(2 : i32) : i32
  // CHECK: %[[MAX:.+]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK: llvm.call @seqpar_rt_all_reduce(%{{.+}}, %[[BF16]], %[[MAX]], {{.*}}) : (!llvm.ptr, i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32) -> i32
  seqpar.memref_all_reduce %c, %c on @grid grid_axes = [0] reduction = max : memref<4x8xbf16>, memref<4x8xbf16>
  // CHECK: %[[MIN:.+]] = llvm.mlir.constant(2 : i32) : i32
  // CHECK: llvm.call @seqpar_rt_all_reduce(%{{.+}}, %{{.+}}, %[[MIN]],
  seqpar.memref_all_reduce %e, %e on @grid grid_axes = [0] reduction = min : memref<4x8xf32>, memref<4x8xf32>
  // CHECK: %[[SPLIT:.+]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK: %[[CONCAT:.+]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK: llvm.call @seqpar_rt_all_to_all({{.*}}, %[[SPLIT]], %[[CONCAT]]) : (!llvm.ptr, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, i32, i32) -> i32
  seqpar.memref_all_to_all %e, %d on @grid grid_axes = [0] split_axis = 1 concat_axis = 0 : memref<4x8xf32>, memref<8x4xf32>
  // CHECK: %[[OFF:.+]] = llvm.mlir.constant(-1 : i64) : i64
  // CHECK: llvm.call @seqpar_rt_shift({{.*}}, %[[OFF]]) : (!llvm.ptr, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, i64) -> i32
  seqpar.memref_shift %e, %e on @grid grid_axes = [0] offset = -1 : memref<4x8xf32>, memref<4x8xf32>
  return
}

// -----

// Tests the integer dtype codes (i32 3, i64 4): token ids and labels are
// all-gathered for a label shift under CP, counts all-reduced exactly.
// Before, both were "unsupported element type" errors.

shard.grid @grid(shape = 2) {sym_visibility = "private"}

// CHECK-LABEL: func.func @integers
func.func @integers(%a: memref<2x4xi64>, %b: memref<2x8xi64>, %c: memref<4xi32>) {
  // CHECK: %[[I64:.+]] = llvm.mlir.constant(4 : i32) : i32
  // CHECK: llvm.call @seqpar_rt_all_gather(%{{.+}}, %[[I64]],
  seqpar.memref_all_gather %a, %b on @grid grid_axes = [0] gather_axis = 1 : memref<2x4xi64>, memref<2x8xi64>
  // CHECK: %[[I32:.+]] = llvm.mlir.constant(3 : i32) : i32
  // CHECK: llvm.call @seqpar_rt_all_reduce(%{{.+}}, %[[I32]],
  seqpar.memref_all_reduce %c, %c on @grid grid_axes = [0] : memref<4xi32>, memref<4xi32>
  return
}

// CHECK-LABEL: func.func @bytes
// i1 (one byte per element in memory) and i8 move as SEQPAR_RT_I8 (5).
func.func @bytes(%a: memref<2x4xi1>, %b: memref<2x8xi1>, %c: memref<4xi8>) {
  // CHECK: %[[I8:.+]] = llvm.mlir.constant(5 : i32) : i32
  // CHECK: llvm.call @seqpar_rt_all_gather(%{{.+}}, %[[I8]],
  seqpar.memref_all_gather %a, %b on @grid grid_axes = [0] gather_axis = 1 : memref<2x4xi1>, memref<2x8xi1>
  // CHECK: %[[I8R:.+]] = llvm.mlir.constant(5 : i32) : i32
  // CHECK: llvm.call @seqpar_rt_all_reduce(%{{.+}}, %[[I8R]],
  seqpar.memref_all_reduce %c, %c on @grid grid_axes = [0] : memref<4xi8>, memref<4xi8>
  return
}

// -----

// Tests that an asynchronous collective calls the _start entry point with
// the request slot, and that memref_wait waits on the loaded request.

shard.grid @grid(shape = 2) {sym_visibility = "private"}

// CHECK-LABEL: func.func @async
func.func @async(%in: memref<8x16xf32>, %out: memref<8x16xf32>) {
  // CHECK: %[[SLOT:.+]] = llvm.mlir.addressof @__seqpar_request_slot : !llvm.ptr
  // CHECK: llvm.call @seqpar_rt_shift_start({{.*}}, %[[SLOT]]) : (!llvm.ptr, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, i64, !llvm.ptr) -> i32
  // CHECK: %[[REQ:.+]] = llvm.load %[[SLOT]] : !llvm.ptr -> !llvm.ptr
  // CHECK: arith.addf
  // CHECK: llvm.call @__seqpar_wait(%[[REQ]]) : (!llvm.ptr) -> ()
  %r = seqpar.memref_shift %in, %out on @grid grid_axes = [0] offset = 1 : memref<8x16xf32>, memref<8x16xf32> -> !seqpar.request<memref<8x16xf32>>
  %c = arith.constant 1.0 : f32
  %s = arith.addf %c, %c : f32
  seqpar.memref_wait %r, %in, %out : !seqpar.request<memref<8x16xf32>>, memref<8x16xf32>, memref<8x16xf32>
  return
}
// CHECK: llvm.func internal @__seqpar_wait(%[[ARG:.+]]: !llvm.ptr)
// CHECK: llvm.icmp "eq" %[[ARG]]
// CHECK: llvm.call @seqpar_rt_wait(%[[ARG]])

// -----

// Tests that a collective over a group of one rank is a copy and a request
// over it is null: no runtime call.

shard.grid @grid(shape = 1x2) {sym_visibility = "private"}

// CHECK-LABEL: func.func @group_of_one
// CHECK-SAME: (%[[IN:.+]]: memref<4xf32>, %[[OUT:.+]]: memref<4xf32>)
func.func @group_of_one(%in: memref<4xf32>, %out: memref<4xf32>) {
  // CHECK: memref.copy %[[IN]], %[[OUT]]
  // CHECK-NOT: seqpar_rt_all_reduce
  seqpar.memref_all_reduce %in, %out on @grid grid_axes = [0] : memref<4xf32>, memref<4xf32>
  // CHECK: memref.copy %[[IN]], %[[OUT]]
  // CHECK: %[[NULL:.+]] = llvm.mlir.zero : !llvm.ptr
  // CHECK: llvm.call @__seqpar_wait(%[[NULL]])
  %r = seqpar.memref_all_gather %in, %out on @grid gather_axis = 0 : memref<4xf32>, memref<4xf32> -> !seqpar.request<memref<4xf32>>
  seqpar.memref_wait %r, %in, %out : !seqpar.request<memref<4xf32>>, memref<4xf32>, memref<4xf32>
  return
}

// -----

// Tests that a buffer at an offset in a contiguous block is passed at
// aligned pointer + offset * element size.

shard.grid @grid(shape = 2) {sym_visibility = "private"}

// CHECK-LABEL: func.func @offset
func.func @offset(%in: memref<2x8xf32, strided<[8, 1], offset: 16>>, %out: memref<4x8xf32>) {
  // CHECK: %[[A:.+]] = memref.extract_aligned_pointer_as_index
  // CHECK: %[[B:.+]] = arith.constant 64 : index
  // CHECK: %[[P:.+]] = arith.addi %[[A]], %[[B]] : index
  // CHECK: arith.index_cast %[[P]] : index to i64
  seqpar.memref_all_gather %in, %out on @grid grid_axes = [0] gather_axis = 0 : memref<2x8xf32, strided<[8, 1], offset: 16>>, memref<4x8xf32>
  return
}

// -----

// Tests that process indices come from seqpar_rt_process_multi_index (one
// coordinate per axis), the linear index is their row-major combination,
// and grid_shape is constant.

shard.grid @grid(shape = 2x3) {sym_visibility = "private"}

// CHECK-LABEL: func.func @indices
func.func @indices() -> (index, index, index, index) {
  // CHECK: %[[AX1:.+]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK: %[[C1:.+]] = llvm.call @__seqpar_process_index_grid(%[[AX1]]) : (i32) -> i64
  // CHECK: %[[I1:.+]] = arith.index_cast %[[C1]] : i64 to index
  %i = shard.process_multi_index on @grid axes = [1] : index
  // CHECK: %[[AX0:.+]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK: llvm.call @__seqpar_process_index_grid(%[[AX0]])
  // CHECK: arith.muli
  // CHECK: arith.addi
  %l = shard.process_linear_index on @grid : index
  // CHECK-DAG: %[[TWO:.+]] = arith.constant 2 : index
  // CHECK-DAG: %[[THREE:.+]] = arith.constant 3 : index
  %s:2 = shard.grid_shape @grid : index, index
  return %i, %l, %s#0, %s#1 : index, index, index, index
}
// CHECK: llvm.func internal @__seqpar_process_index_grid(%[[AXIS:.+]]: i32) -> i64
// CHECK: llvm.call @__seqpar_rt_ensure_init()
// CHECK: %[[BUF:.+]] = llvm.alloca %{{.+}} x !llvm.array<2 x i64>
// CHECK: llvm.call @seqpar_rt_process_multi_index(%{{.+}}, %{{.+}}, %[[BUF]])
// CHECK: llvm.getelementptr %[[BUF]][0, %[[AXIS]]]

// -----

// Tests that on a grid of one process the indices are constants.

shard.grid @single(shape = 1) {sym_visibility = "private"}

// CHECK-LABEL: func.func @single_process
func.func @single_process() -> index {
  // CHECK: %[[Z:.+]] = arith.constant 0 : index
  // CHECK-NOT: llvm.call
  // CHECK: return %[[Z]]
  %i = shard.process_multi_index on @single axes = [0] : index
  return %i : index
}
