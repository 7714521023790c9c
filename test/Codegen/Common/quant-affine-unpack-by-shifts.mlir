// RUN: quant-affine-opt %s --quant-affine-emulate-narrow-types="shift-unpack=true" --canonicalize --cse | FileCheck %s
// Packed f4E2M1FN codes extended to f32 are unpacked like unsigned int4 (a
// broadcast word, per-lane left then logical right shifts) and decoded in
// the i32 lanes by the same decoding quant-affine-expand-narrow-floats gives
// arith.extf (decodeNarrowFloat): no round trip through <8 x i4>. Every one
// of the 16 codes is checked through the pipelines by
// test/Integration/CPU/narrow-float-storage-exhaustive.mlir,
// test/Conformance/mx-vectors.test and the MXFP4 cases of bench/matmul
// (one-hot rows bit for bit).

// CHECK-LABEL: func.func @float4_codes
// CHECK: %[[WORD:.*]] = vector.broadcast %{{.*}} : i32 to vector<8xi32>
// CHECK: %[[TOP:.*]] = arith.shli %[[WORD]], %{{.*}} : vector<8xi32>
// CHECK: %[[CODE:.*]] = arith.shrui %[[TOP]], %{{.*}} : vector<8xi32>
// CHECK: %[[MANTISSA:.*]] = arith.andi %[[CODE]], %{{.*}} : vector<8xi32>
// CHECK: arith.uitofp %[[MANTISSA]] : vector<8xi32> to vector<8xf32>
// CHECK: %[[BITS:.*]] = arith.select
// CHECK: arith.bitcast %[[BITS]] : vector<8xi32> to vector<8xf32>
// CHECK-NOT: arith.extf
// CHECK-NOT: vector<8xi4>
func.func @float4_codes(%m: memref<64xf4E2M1FN>) -> vector<8xf32> {
  %c8 = arith.constant 8 : index
  %v = vector.load %m[%c8] : memref<64xf4E2M1FN>, vector<8xf4E2M1FN>
  %f = arith.extf %v : vector<8xf4E2M1FN> to vector<8xf32>
  return %f : vector<8xf32>
}
