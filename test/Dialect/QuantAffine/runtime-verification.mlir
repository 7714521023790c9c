// The ops implement upstream's RuntimeVerifiableOpInterface, so the standard
// generate-runtime-verification pass checks at run time what tensor types
// leave open: the same rules (Utils/ShapeRules.h) the verifier and the
// pipelines' runtime-checks option apply, as cf.assert.
// RUN: quant-affine-opt %s --generate-runtime-verification | FileCheck %s
// An embedder's pipeline: the checks run before the kernel and abort on 16
// elements, pass on 12. (Upstream lowers cf.assert to puts on stdout, which
// abort() discards; the pipelines' runtime-checks option reports on stderr
// with the sizes instead.)
// RUN: quant-affine-opt %s --generate-runtime-verification --quant-affine-cpu-pipeline -o %t.mlir
// RUN: not --crash mlir-runner %t.mlir -e bad -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so > /dev/null 2>&1
// RUN: mlir-runner %t.mlir -e good -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s --check-prefix=EXEC

// CHECK-LABEL: func.func @blocked
// CHECK: %[[X:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?xf32>
// CHECK: %[[REM:.*]] = arith.remui %[[X]], %{{.*}} : index
// CHECK: %[[WHOLE:.*]] = arith.cmpi eq, %[[REM]], %{{.*}} : index
// CHECK: cf.assert %[[WHOLE]], "{{.*}}input dim 0 has ? elements, not a multiple of block_size 4
// CHECK: %[[COUNT:.*]] = arith.divui %[[X]], %{{.*}} : index
// CHECK: %[[EQ:.*]] = arith.cmpi eq, %[[COUNT]], %{{.*}} : index
// CHECK: cf.assert %[[EQ]], "{{.*}}input dim 0 has ? elements but block_size 4 x scale dim 0 size 3 needs 12
// CHECK: quant_affine.qdq
func.func @blocked(%x: tensor<?xf32>, %s: tensor<3xf32>) -> tensor<?xf32> {
  %y = quant_affine.qdq %x, %s range [-128, 127] block [4] : (tensor<?xf32>, tensor<3xf32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}

// Static shapes and the scalar form need no check.
// CHECK-LABEL: func.func @static
// CHECK-NOT: cf.assert
// CHECK: quant_affine.quantize
// CHECK: quant_affine.quantize
func.func @static(%x: tensor<8xf32>, %s: tensor<2xf32>, %a: f32, %b: f32) -> (tensor<8xi8>, i8) {
  %q = quant_affine.quantize %x, %s range [-128, 127] block [4] : (tensor<8xf32>, tensor<2xf32>) -> tensor<8xi8>
  %r = quant_affine.quantize %a, %b range [-128, 127] : (f32, f32) -> i8
  return %q, %r : tensor<8xi8>, i8
}

func.func @bad() {
  %x = arith.constant dense<1.0> : tensor<16xf32>
  %xd = tensor.cast %x : tensor<16xf32> to tensor<?xf32>
  %s = arith.constant dense<0.5> : tensor<3xf32>
  %y = call @blocked(%xd, %s) : (tensor<?xf32>, tensor<3xf32>) -> tensor<?xf32>
  return
}

// EXEC: passed
func.func @good() {
  %x = arith.constant dense<1.0> : tensor<12xf32>
  %xd = tensor.cast %x : tensor<12xf32> to tensor<?xf32>
  %s = arith.constant dense<0.5> : tensor<3xf32>
  %y = call @blocked(%xd, %s) : (tensor<?xf32>, tensor<3xf32>) -> tensor<?xf32>
  vector.print str "passed\n"
  return
}
