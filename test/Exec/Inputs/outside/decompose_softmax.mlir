// Transform library: decompose linalg.softmax (not handled by the exec
// lowering's convert-linalg-to-loops) into linalg.generic ops.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %sm = transform.structured.match ops{["linalg.softmax"]} in %root : (!transform.any_op) -> !transform.any_op
    %d = transform.structured.decompose_interface %sm : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
