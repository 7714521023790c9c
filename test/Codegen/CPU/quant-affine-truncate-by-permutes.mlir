// RUN: quant-affine-opt %s -split-input-file \
// RUN:   --pass-pipeline="builtin.module(func.func(quant-affine-truncate-by-permutes{register-bytes=64}))" \
// RUN: | FileCheck %s
// RUN: quant-affine-opt %s -split-input-file \
// RUN:   --pass-pipeline="builtin.module(func.func(quant-affine-truncate-by-permutes))" \
// RUN: | FileCheck %s --check-prefix=OFF

// Two registers of i32: their low bytes picked by one two-source shuffle.
// CHECK-LABEL: func.func @pair
// CHECK-SAME: (%[[X:.*]]: vector<32xi32>)
// CHECK-NOT: ub.poison
// CHECK: %[[LO:.*]] = vector.extract_strided_slice %[[X]] {offsets = [0], sizes = [16], strides = [1]} : vector<32xi32> to vector<16xi32>
// CHECK: %[[LOB:.*]] = vector.bitcast %[[LO]] : vector<16xi32> to vector<64xi8>
// CHECK: %[[HI:.*]] = vector.extract_strided_slice %[[X]] {offsets = [16], sizes = [16], strides = [1]} : vector<32xi32> to vector<16xi32>
// CHECK: %[[HIB:.*]] = vector.bitcast %[[HI]] : vector<16xi32> to vector<64xi8>
// CHECK: %[[R:.*]] = vector.shuffle %[[LOB]], %[[HIB]] [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64, 68, 72, 76, 80, 84, 88, 92, 96, 100, 104, 108, 112, 116, 120, 124] : vector<64xi8>, vector<64xi8>
// CHECK-NOT: arith.trunci
// CHECK: return %[[R]]
// OFF-LABEL: func.func @pair
// OFF: arith.trunci
func.func @pair(%x: vector<32xi32>) -> vector<32xi8> {
  %0 = arith.trunci %x : vector<32xi32> to vector<32xi8>
  return %0 : vector<32xi8>
}

// -----

// Three pairs: the pieces joined pairwise, the odd one last.
// CHECK-LABEL: func.func @three_pairs
// CHECK-COUNT-3: vector.shuffle %{{.*}}, %{{.*}} [0, 4, 8,
// CHECK: %[[AB:.*]] = vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, {{.*}}, 63] : vector<32xi8>, vector<32xi8>
// CHECK: %[[ABC:.*]] = vector.shuffle %[[AB]], %{{.*}} [0, 1, 2, {{.*}}, 95] : vector<64xi8>, vector<32xi8>
// CHECK-NOT: arith.trunci
// CHECK: return %[[ABC]]
func.func @three_pairs(%x: vector<96xi32>) -> vector<96xi8> {
  %0 = arith.trunci %x : vector<96xi32> to vector<96xi8>
  return %0 : vector<96xi8>
}

// -----

// i16: every second byte, a whole register of results per pair.
// CHECK-LABEL: func.func @from_i16
// CHECK: vector.bitcast %{{.*}} : vector<32xi16> to vector<64xi8>
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 2, 4, {{.*}}, 124, 126] : vector<64xi8>, vector<64xi8>
// CHECK-NOT: arith.trunci
func.func @from_i16(%x: vector<64xi16>) -> vector<64xi8> {
  %0 = arith.trunci %x : vector<64xi16> to vector<64xi8>
  return %0 : vector<64xi8>
}

// -----

// Rows of a 2-D vector (MX blocks of 32), one at a time into the result.
// CHECK-LABEL: func.func @rows
// CHECK: %[[R0:.*]] = vector.extract %{{.*}}[0] : vector<32xi32> from vector<2x32xi32>
// CHECK: %[[S0:.*]] = vector.shuffle
// CHECK: %[[A:.*]] = vector.insert %[[S0]], %{{.*}} [0] : vector<32xi8> into vector<2x32xi8>
// CHECK: %[[R1:.*]] = vector.extract %{{.*}}[1] : vector<32xi32> from vector<2x32xi32>
// CHECK: %[[S1:.*]] = vector.shuffle
// CHECK: %[[B:.*]] = vector.insert %[[S1]], %[[A]] [1] : vector<32xi8> into vector<2x32xi8>
// CHECK-NOT: arith.trunci
// CHECK: return %[[B]]
func.func @rows(%x: vector<2x32xi32>) -> vector<2x32xi8> {
  %0 = arith.trunci %x : vector<2x32xi32> to vector<2x32xi8>
  return %0 : vector<2x32xi8>
}

// -----

// Left to LLVM: less than a register pair per row, i64 lanes, a truncation
// to another width, scalars, scalable vectors, 0-D vectors.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-7: arith.trunci
// CHECK-NOT: vector.shuffle
func.func @kept(%a: vector<16xi32>, %b: vector<48xi32>, %c: vector<32xi64>,
                %d: vector<32xi32>, %e: i32, %f: vector<[32]xi32>,
                %g: vector<i32>)
    -> (vector<16xi8>, vector<48xi8>, vector<32xi8>, vector<32xi16>, i8,
        vector<[32]xi8>, vector<i8>) {
  %0 = arith.trunci %a : vector<16xi32> to vector<16xi8>
  %1 = arith.trunci %b : vector<48xi32> to vector<48xi8>
  %2 = arith.trunci %c : vector<32xi64> to vector<32xi8>
  %3 = arith.trunci %d : vector<32xi32> to vector<32xi16>
  %4 = arith.trunci %e : i32 to i8
  %5 = arith.trunci %f : vector<[32]xi32> to vector<[32]xi8>
  %6 = arith.trunci %g : vector<i32> to vector<i8>
  return %0, %1, %2, %3, %4, %5, %6 : vector<16xi8>, vector<48xi8>, vector<32xi8>, vector<32xi16>, i8, vector<[32]xi8>, vector<i8>
}
