// RUN: quant-affine-opt %s --quant-affine-mark-nontemporal | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="nontemporal-stores=true vector-width=64" \
// RUN: | FileCheck %s --check-prefix=PIPE
// RUN: quant-affine-opt %s --quant-affine-mark-nontemporal="large-op-bytes=4096" \
// RUN: | FileCheck %s --check-prefix=LARGE
// RUN: not quant-affine-opt %s --quant-affine-mark-nontemporal="large-op-bytes=-1" 2>&1 \
// RUN: | FileCheck %s --check-prefix=NEG
// Stores whose size is not a power of two: a vector that covers a row of
// 12 x i32 (48 bytes) once got `alignment = 48`, which vector.store rejects.
// The buffer is checked for its store size rounded up to a power of two, and
// each store carries the largest power of two that this and its offset prove.

// CHECK-LABEL: func.func @row
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: arith.remui %{{.*}}, %[[C64]] : index
// CHECK: vector.store {{.*}} {alignment = 64 : i64, nontemporal = true} : memref<1x12xi32>, vector<12xi32>
// CHECK: } else {
// CHECK-NOT: alignment
// CHECK: return
func.func @row(%v: vector<12xi32>, %out: memref<1x12xi32>) {
  %c0 = arith.constant 0 : index
  vector.transfer_write %v, %out[%c0, %c0] {in_bounds = [true]} : vector<12xi32>, memref<1x12xi32>
  return
}

// 12 x i8 rows: the buffer is checked for 16 bytes; the second row starts 12
// bytes in, which proves 4.
// CHECK-LABEL: func.func @bytes
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: arith.remui %{{.*}}, %[[C16]] : index
// CHECK: vector.store {{.*}} {alignment = 16 : i64, nontemporal = true} : memref<2x12xi8>, vector<12xi8>
// CHECK: vector.store {{.*}} {alignment = 4 : i64, nontemporal = true} : memref<2x12xi8>, vector<12xi8>
func.func @bytes(%v: vector<12xi8>, %out: memref<2x12xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  vector.transfer_write %v, %out[%c0, %c0] {in_bounds = [true]} : vector<12xi8>, memref<2x12xi8>
  vector.transfer_write %v, %out[%c1, %c0] {in_bounds = [true]} : vector<12xi8>, memref<2x12xi8>
  return
}

// Packed codes (two f4 a byte): the byte index is the element index, a
// multiple of 256 here, divided by 2 (divsi, as the narrow-type emulation
// writes it), so each 128-byte store is known aligned to 128; divided by 3
// nothing is known.
// CHECK-LABEL: func.func @packed_bytes
// CHECK: vector.store {{.*}} {alignment = 128 : i64, nontemporal = true} : memref<8192xi8>, vector<128xi8>
// CHECK: vector.store {{.*}} {nontemporal = true} : memref<8192xi8>, vector<128xi8>
func.func @packed_bytes(%v: vector<128xi8>, %out: memref<8192xi8>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c256 = arith.constant 256 : index
  %c8192 = arith.constant 8192 : index
  scf.for %j = %c0 to %c8192 step %c256 {
    %b = arith.divsi %j, %c2 : index
    vector.store %v, %out[%b] : memref<8192xi8>, vector<128xi8>
    %t = arith.divsi %j, %c3 : index
    vector.store %v, %out[%t] : memref<8192xi8>, vector<128xi8>
  }
  return
}

// A truncated value narrower than a line keeps no alignment, though its
// offset proves 16: LLVM would fold the aligned store into a truncating one
// (vpmovdb to memory), which is not non-temporal; unaligned it streams
// (movnti). A truncated line (64 bytes) is aligned as usual.
// CHECK-LABEL: func.func @truncated_bytes
// CHECK: vector.store {{.*}} {nontemporal = true} : memref<4096xi8>, vector<16xi8>
// CHECK: vector.store {{.*}} {alignment = 64 : i64, nontemporal = true} : memref<4096xi8>, vector<64xi8>
func.func @truncated_bytes(%v: vector<16xi32>, %w: vector<64xi32>, %out: memref<4096xi8>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c4096 = arith.constant 4096 : index
  %t = arith.trunci %v : vector<16xi32> to vector<16xi8>
  %u = arith.trunci %w : vector<64xi32> to vector<64xi8>
  scf.for %j = %c0 to %c4096 step %c64 {
    vector.store %t, %out[%j] : memref<4096xi8>, vector<16xi8>
    vector.store %u, %out[%j] : memref<4096xi8>, vector<64xi8>
  }
  return
}

// The progtest case: one 64-lane tile covers the 12-element row.
// PIPE-LABEL: llvm.func @quantize_row
// PIPE: llvm.store {{.*}} {alignment = 64 : i64, nontemporal} : vector<12xi32>, !llvm.ptr
func.func @quantize_row(%x: tensor<1x12xf32>, %s: tensor<12xf32>, %out: memref<1x12xi32>) {
  %q = quant_affine.quantize %x, %s range [0, 65535] : (tensor<1x12xf32>, tensor<12xf32>) -> tensor<1x12xi32>
  bufferization.materialize_in_destination %q in restrict writable %out : (tensor<1x12xi32>, memref<1x12xi32>) -> ()
  return
}

// With large-op-bytes, only stores of loop nests that move more than that
// many bytes (buffers referenced in the outermost loop, each counted once at
// its static size) into a static buffer stream. @row and @bytes move a few
// bytes: nothing is marked or versioned.
// LARGE-LABEL: func.func @row
// LARGE-NOT: arith.remui
// LARGE-NOT: nontemporal
// LARGE: return
// LARGE-LABEL: func.func @bytes
// LARGE-NOT: nontemporal
// LARGE: return

// 64 x 16 f32 read and written: 8,192 bytes, streamed (and versioned); the
// store to the small buffer @large_nest also writes, outside the loop,
// stays plain in both versions.
// LARGE-LABEL: func.func @large_nest
// LARGE: arith.remui
// LARGE: scf.if
// LARGE: scf.for
// LARGE: vector.store {{.*}} {alignment = 64 : i64, nontemporal = true} : memref<64x16xf32>, vector<16xf32>
// LARGE: vector.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<16xf32>, vector<16xf32>
// LARGE: } else {
// LARGE-NOT: nontemporal
// LARGE: return
func.func @large_nest(%x: memref<64x16xf32>, %out: memref<64x16xf32>, %last: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    %v = vector.transfer_read %x[%i, %c0], %zero {in_bounds = [true]} : memref<64x16xf32>, vector<16xf32>
    vector.transfer_write %v, %out[%i, %c0] {in_bounds = [true]} : vector<16xf32>, memref<64x16xf32>
  }
  %w = vector.transfer_read %x[%c0, %c0], %zero {in_bounds = [true]} : memref<64x16xf32>, vector<16xf32>
  vector.transfer_write %w, %last[%c0] {in_bounds = [true]} : vector<16xf32>, memref<16xf32>
  return
}

// 16 x 16 f32 in and out: 2,048 bytes, not above 4,096.
// LARGE-LABEL: func.func @small_nest
// LARGE-NOT: nontemporal
// LARGE: return
func.func @small_nest(%x: memref<16x16xf32>, %out: memref<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c16 step %c1 {
    %v = vector.transfer_read %x[%i, %c0], %zero {in_bounds = [true]} : memref<16x16xf32>, vector<16xf32>
    vector.transfer_write %v, %out[%i, %c0] {in_bounds = [true]} : vector<16xf32>, memref<16x16xf32>
  }
  return
}

// A large input, but the written buffer has a dynamic shape: plain stores.
// LARGE-LABEL: func.func @dynamic_out
// LARGE-NOT: nontemporal
// LARGE: return
func.func @dynamic_out(%x: memref<256x16xf32>, %out: memref<?x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c256 step %c1 {
    %v = vector.transfer_read %x[%i, %c0], %zero {in_bounds = [true]} : memref<256x16xf32>, vector<16xf32>
    vector.transfer_write %v, %out[%i, %c0] {in_bounds = [true]} : vector<16xf32>, memref<?x16xf32>
  }
  return
}

// NEG: error: large-op-bytes must be at least 0, got -1

// Stores into a buffer the function allocates and does not return (a
// temporary, read again later: float_qdq's per-channel factors) stay plain,
// and do not keep the output's stores from being versioned and aligned:
// an unaligned non-temporal vector store becomes 8-byte movnti's on x86.
// A returned allocation is an output and streams.
// CHECK-LABEL: func.func @temporary
// CHECK: arith.remui
// CHECK: scf.if
// CHECK: vector.store %{{.*}}, %[[TMP:.*]][%{{.*}}] : memref<16xf32>, vector<16xf32>
// CHECK: vector.store {{.*}} {alignment = 64 : i64, nontemporal = true} : memref<4x16xf32>, vector<16xf32>
// CHECK: } else {
// CHECK-LABEL: func.func @returned
// CHECK: vector.store {{.*}} {nontemporal = true} : memref<16xf32>, vector<16xf32>
func.func @temporary(%v: vector<16xf32>, %out: memref<4x16xf32>) {
  %c0 = arith.constant 0 : index
  %tmp = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  vector.transfer_write %v, %tmp[%c0] {in_bounds = [true]} : vector<16xf32>, memref<16xf32>
  %pad = arith.constant 0.0 : f32
  %w = vector.transfer_read %tmp[%c0], %pad {in_bounds = [true]} : memref<16xf32>, vector<16xf32>
  vector.transfer_write %w, %out[%c0, %c0] {in_bounds = [true]} : vector<16xf32>, memref<4x16xf32>
  return
}
func.func @returned(%v: vector<16xf32>) -> memref<16xf32> {
  %c0 = arith.constant 0 : index
  %buf = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  vector.transfer_write %v, %buf[%c0] {in_bounds = [true]} : vector<16xf32>, memref<16xf32>
  return %buf : memref<16xf32>
}

// Through the pipeline: float_qdq with a per-channel maxval computes its
// factors into a temporary first; the output's 64-lane stores still stream
// aligned, and the factors' stores stay plain.
// PIPE-LABEL: llvm.func @float_qdq_channel
// PIPE-NOT: nontemporal} : vector<1xf32>
// PIPE: llvm.store {{.*}} {alignment = 256 : i64, nontemporal} : vector<64xf32>, !llvm.ptr
// PIPE-NOT: nontemporal} : vector<1xf32>
// PIPE: llvm.return
func.func @float_qdq_channel(%x: tensor<8x64xf32>, %m: tensor<8x1xf32>, %out: memref<8x64xf32>) {
  %y = quant_affine.float_qdq %x, %m format [5, 2] : (tensor<8x64xf32>, tensor<8x1xf32>) -> tensor<8x64xf32>
  bufferization.materialize_in_destination %y in restrict writable %out : (tensor<8x64xf32>, memref<8x64xf32>) -> ()
  return
}
