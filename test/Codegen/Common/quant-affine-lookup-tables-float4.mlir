// f4E2M1FN codes in summed products by table (LookupTables.h): the chain
// (extf, times the broadcast scale) computed on the codes themselves.
// With float4-table-lanes=8 (AVX2): two tables of 8, the chain on codes 0-7
// and 8-15; per 32-bit word of 8 codes, the word broadcast and shifted so
// that each code is its lane's top nibble, the low 3 bits as the index, the
// sign bit choosing the table; the codes keep their order (no shuffle).
// With 16 (AVX-512): one table of the 16 codes, as for int4 (low nibbles,
// then high ones, the activation shuffled alike). Without the option the
// extf stays; other lane counts are refused.
// RUN: quant-affine-opt %s --quant-affine-emulate-narrow-types=float4-table-lanes=8 --canonicalize --cse | FileCheck %s --check-prefix=HALVES
// RUN: quant-affine-opt %s --quant-affine-emulate-narrow-types=float4-table-lanes=16 --canonicalize --cse | FileCheck %s --check-prefix=FULL
// RUN: quant-affine-opt %s --quant-affine-emulate-narrow-types=table-lookup --canonicalize --cse | FileCheck %s --check-prefix=OFF
// RUN: not quant-affine-opt %s --quant-affine-emulate-narrow-types=float4-table-lanes=4 2>&1 | FileCheck %s --check-prefix=BAD

// HALVES-LABEL: func.func @mxfp4(
// HALVES-SAME: %[[CODES:.*]]: memref<1024xi8>
// HALVES-DAG: %[[POS:.*]] = arith.constant dense<[0.000000e+00, 5.000000e-01, 1.000000e+00, 1.500000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 6.000000e+00]> : vector<8xf32>
// HALVES-DAG: %[[NEG:.*]] = arith.constant dense<[-0.000000e+00, -5.000000e-01, -1.000000e+00, -1.500000e+00, -2.000000e+00, -3.000000e+00, -4.000000e+00, -6.000000e+00]> : vector<8xf32>
// HALVES-DAG: %[[TOP:.*]] = arith.constant dense<[28, 24, 20, 16, 12, 8, 4, 0]> : vector<8xi32>
// HALVES-DAG: %[[SCALE:.*]] = vector.broadcast %{{.*}} : f32 to vector<8xf32>
// HALVES-DAG: %[[TPOS:.*]] = arith.mulf %[[SCALE]], %[[POS]] : vector<8xf32>
// HALVES-DAG: %[[TNEG:.*]] = arith.mulf %[[SCALE]], %[[NEG]] : vector<8xf32>
// HALVES: %[[WORD:.*]] = vector.load %[[CODES]][%{{.*}}] : memref<1024xi8>, vector<4xi8>
// HALVES: %[[BITS:.*]] = vector.bitcast %[[WORD]] : vector<4xi8> to vector<1xi32>
// HALVES: %[[SPREAD:.*]] = vector.broadcast %{{.*}} : i32 to vector<8xi32>
// HALVES: %[[SHIFTED:.*]] = arith.shli %[[SPREAD]], %[[TOP]] : vector<8xi32>
// HALVES: %[[DOWN:.*]] = arith.shrui %[[SHIFTED]], %{{.*}} : vector<8xi32>
// HALVES: %[[INDEX:.*]] = arith.andi %[[DOWN]], %{{.*}} : vector<8xi32>
// HALVES: %[[SIGN:.*]] = arith.cmpi slt, %[[SHIFTED]], %{{.*}} : vector<8xi32>
// HALVES: %[[IFCLEAR:.*]] = quant_affine_vector.lookup %[[TPOS]][%[[INDEX]]] : vector<8xf32>, vector<8xi32>
// HALVES: %[[IFSET:.*]] = quant_affine_vector.lookup %[[TNEG]][%[[INDEX]]] : vector<8xf32>, vector<8xi32>
// HALVES: arith.select %[[SIGN]], %[[IFSET]], %[[IFCLEAR]] : vector<8xi1>, vector<8xf32>
// HALVES-COUNT-3: arith.select
// HALVES-NOT: vector.shuffle {{.*}} : vector<32xf32>
// HALVES: arith.mulf %{{.*}}, %{{.*}} {quant_affine.lanes_summed} : vector<32xf32>
// HALVES-NOT: arith.extf
// FULL-LABEL: func.func @mxfp4(
// FULL-DAG: %[[DOMAIN:.*]] = arith.constant dense<[0.000000e+00, 5.000000e-01, 1.000000e+00, 1.500000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 6.000000e+00, -0.000000e+00, -5.000000e-01, -1.000000e+00, -1.500000e+00, -2.000000e+00, -3.000000e+00, -4.000000e+00, -6.000000e+00]> : vector<16xf32>
// FULL: %[[TABLE:.*]] = arith.mulf %{{.*}}, %[[DOMAIN]] : vector<16xf32>
// FULL-COUNT-2: quant_affine_vector.lookup %[[TABLE]][%{{.*}}] : vector<16xf32>, vector<16xi32>
// FULL: vector.shuffle %{{.*}}, %{{.*}} [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31] : vector<32xf32>, vector<32xf32>
// FULL-NOT: arith.extf
// OFF-LABEL: func.func @mxfp4(
// OFF-NOT: quant_affine_vector.lookup
// OFF: arith.extf
// BAD: float4-table-lanes must be 0, 8 or 16, got 4
func.func @mxfp4(%codes: memref<64x32xf4E2M1FN>, %x: memref<32xf32>, %s: memref<64xf32>, %acc: vector<32xf32>, %row: index) -> vector<32xf32> {
  %c0 = arith.constant 0 : index
  %pi = arith.constant 0.0 : f4E2M1FN
  %pf = arith.constant 0.0 : f32
  %q = vector.transfer_read %codes[%row, %c0], %pi {in_bounds = [true]} : memref<64x32xf4E2M1FN>, vector<32xf4E2M1FN>
  %f = arith.extf %q : vector<32xf4E2M1FN> to vector<32xf32>
  %sc = memref.load %s[%row] : memref<64xf32>
  %sv = vector.broadcast %sc : f32 to vector<32xf32>
  %w = arith.mulf %f, %sv : vector<32xf32>
  %xv = vector.transfer_read %x[%c0], %pf {in_bounds = [true]} : memref<32xf32>, vector<32xf32>
  %p = arith.mulf %xv, %w fastmath<contract> {quant_affine.lanes_summed} : vector<32xf32>
  %r = arith.addf %acc, %p fastmath<contract> : vector<32xf32>
  return %r : vector<32xf32>
}
