// Three decode steps in one program (T = 1 each, GQA 4/2, caches of 16
// slots): step k writes its token's K/V at L + k into the cache the step
// before returned and attends over it, its query the previous step's
// output. seqpar-decode-context-parallel shards the caches once and carries
// the rank's slots from step to step (test/Run/decode-context-parallel.test).
func.func @steps(%q: tensor<1x4x1x8xf32>, %kn1: tensor<1x2x1x8xf32>, %vn1: tensor<1x2x1x8xf32>, %kn2: tensor<1x2x1x8xf32>, %vn2: tensor<1x2x1x8xf32>, %kn3: tensor<1x2x1x8xf32>, %vn3: tensor<1x2x1x8xf32>, %kc: tensor<1x2x16x8xf32>, %vc: tensor<1x2x16x8xf32>, %len: tensor<i64>)
    -> (tensor<1x4x1x8xf32>, tensor<1x4x1x8xf32>, tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>) {
  %l64 = tensor.extract %len[] : tensor<i64>
  %l = arith.index_cast %l64 : i64 to index
  %pos = tensor.generate {
  ^bb0(%i: index):
    tensor.yield %i : index
  } : tensor<16xindex>
  %c1 = arith.constant 0 : index
  %l1 = arith.addi %l, %c1 : index
  %k1 = tensor.insert_slice %kn1 into %kc[0, 0, %l1, 0] [1, 2, 1, 8] [1, 1, 1, 1] : tensor<1x2x1x8xf32> into tensor<1x2x16x8xf32>
  %v1 = tensor.insert_slice %vn1 into %vc[0, 0, %l1, 0] [1, 2, 1, 8] [1, 1, 1, 1] : tensor<1x2x1x8xf32> into tensor<1x2x16x8xf32>
  %qpos1 = tensor.generate {
  ^bb0(%j: index):
    %p = arith.addi %l1, %j : index
    tensor.yield %p : index
  } : tensor<1xindex>
  %o1, %m1, %s1 = seqpar.attention_block %q, %k1, %v1 positions(%qpos1, %pos) {causal, scale = 0.35 : f32}
      : tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>, tensor<1xindex>, tensor<16xindex> -> tensor<1x4x1x8xf32>, tensor<1x4x1xf32>
  %c2 = arith.constant 1 : index
  %l2 = arith.addi %l, %c2 : index
  %k2 = tensor.insert_slice %kn2 into %k1[0, 0, %l2, 0] [1, 2, 1, 8] [1, 1, 1, 1] : tensor<1x2x1x8xf32> into tensor<1x2x16x8xf32>
  %v2 = tensor.insert_slice %vn2 into %v1[0, 0, %l2, 0] [1, 2, 1, 8] [1, 1, 1, 1] : tensor<1x2x1x8xf32> into tensor<1x2x16x8xf32>
  %qpos2 = tensor.generate {
  ^bb0(%j: index):
    %p = arith.addi %l2, %j : index
    tensor.yield %p : index
  } : tensor<1xindex>
  %o2, %m2, %s2 = seqpar.attention_block %o1, %k2, %v2 positions(%qpos2, %pos) {causal, scale = 0.35 : f32}
      : tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>, tensor<1xindex>, tensor<16xindex> -> tensor<1x4x1x8xf32>, tensor<1x4x1xf32>
  %c3 = arith.constant 2 : index
  %l3 = arith.addi %l, %c3 : index
  %k3 = tensor.insert_slice %kn3 into %k2[0, 0, %l3, 0] [1, 2, 1, 8] [1, 1, 1, 1] : tensor<1x2x1x8xf32> into tensor<1x2x16x8xf32>
  %v3 = tensor.insert_slice %vn3 into %v2[0, 0, %l3, 0] [1, 2, 1, 8] [1, 1, 1, 1] : tensor<1x2x1x8xf32> into tensor<1x2x16x8xf32>
  %qpos3 = tensor.generate {
  ^bb0(%j: index):
    %p = arith.addi %l3, %j : index
    tensor.yield %p : index
  } : tensor<1xindex>
  %o3, %m3, %s3 = seqpar.attention_block %o2, %k3, %v3 positions(%qpos3, %pos) {causal, scale = 0.35 : f32}
      : tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>, tensor<1xindex>, tensor<16xindex> -> tensor<1x4x1x8xf32>, tensor<1x4x1xf32>
  return %o1, %o2, %o3, %k3, %v3 : tensor<1x4x1x8xf32>, tensor<1x4x1x8xf32>, tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>
}
