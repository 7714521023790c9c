// The CPU pipeline's defaults follow the size of each op: an op that moves
// more than llc-bytes (the static sizes of the tensors it reads and writes)
// gets 64-lane tiles and non-temporal stores; a smaller one, or one with a
// dynamic result, 16 lanes and plain stores. @big moves 256 x 256 x (4 + 1)
// bytes plus its scales (about 328 KB), @small 16 x 64 x 5 (5 KB).
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=sapphirerapids llc-bytes=65536" \
// RUN: | FileCheck %s --check-prefix=ABOVE
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=sapphirerapids llc-bytes=1048576" \
// RUN: | FileCheck %s --check-prefix=BELOW
// Explicit values win, for every op.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=sapphirerapids llc-bytes=65536 nontemporal-stores=false" \
// RUN: | FileCheck %s --check-prefix=NONT
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=sapphirerapids llc-bytes=1048576 nontemporal-stores=true vector-width=32" \
// RUN: | FileCheck %s --check-prefix=FORCE
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=sapphirerapids llc-bytes=65536 nontemporal-stores=auto vector-width=8" \
// RUN: | FileCheck %s --check-prefix=W8
// Without llc-bytes the host's last-level cache decides; @small is below any.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=sapphirerapids" | FileCheck %s --check-prefix=HOST

// ABOVE-LABEL: llvm.func @big(
// ABOVE: llvm.store {{.*}} {alignment = 64 : i64, nontemporal} : vector<64xi8>, !llvm.ptr
// ABOVE: llvm.store {{.*}} {alignment = 1 : i64} : vector<64xi8>, !llvm.ptr
// ABOVE-NOT: vector<16xi8>
// ABOVE: llvm.return
// BELOW-LABEL: llvm.func @big(
// BELOW-NOT: nontemporal
// BELOW: llvm.store {{.*}} {alignment = 1 : i64} : vector<16xi8>, !llvm.ptr
// BELOW-NOT: nontemporal
// BELOW: llvm.return
// NONT-LABEL: llvm.func @big(
// NONT-NOT: nontemporal
// NONT: llvm.store {{.*}} {alignment = 1 : i64} : vector<64xi8>, !llvm.ptr
// NONT-NOT: nontemporal
// NONT: llvm.return
// FORCE-LABEL: llvm.func @big(
// FORCE: llvm.store {{.*}} nontemporal} : vector<32xi8>, !llvm.ptr
// W8-LABEL: llvm.func @big(
// W8: llvm.store {{.*}} nontemporal} : vector<8xi8>, !llvm.ptr
func.func @big(%x: tensor<256x256xf32>, %s: tensor<256x8xf32>, %out: memref<256x256xi8>) {
  %q = quant_affine.quantize %x, %s range [-128, 127] block [1, 32]
      : (tensor<256x256xf32>, tensor<256x8xf32>) -> tensor<256x256xi8>
  bufferization.materialize_in_destination %q in restrict writable %out
      : (tensor<256x256xi8>, memref<256x256xi8>) -> ()
  return
}

// ABOVE-LABEL: llvm.func @small(
// ABOVE-NOT: nontemporal
// ABOVE: llvm.store {{.*}} : vector<16xi8>, !llvm.ptr
// ABOVE-NOT: nontemporal
// ABOVE: llvm.return
// FORCE-LABEL: llvm.func @small(
// FORCE: llvm.store {{.*}} nontemporal} : vector<32xi8>, !llvm.ptr
// HOST-LABEL: llvm.func @small(
// HOST-NOT: nontemporal
// HOST: llvm.store {{.*}} : vector<16xi8>, !llvm.ptr
// HOST-NOT: nontemporal
// HOST: llvm.return
func.func @small(%x: tensor<16x64xf32>, %s: tensor<f32>, %out: memref<16x64xi8>) {
  %q = quant_affine.quantize %x, %s range [-128, 127]
      : (tensor<16x64xf32>, tensor<f32>) -> tensor<16x64xi8>
  bufferization.materialize_in_destination %q in restrict writable %out
      : (tensor<16x64xi8>, memref<16x64xi8>) -> ()
  return
}

// A dynamic result keeps today's choices, however large it may be at run time.
// ABOVE-LABEL: llvm.func @dynamic(
// ABOVE-NOT: nontemporal
// ABOVE-NOT: vector<64x
// ABOVE: llvm.return
// FORCE-LABEL: llvm.func @dynamic(
// FORCE: nontemporal
func.func @dynamic(%x: tensor<?x4096xf32>, %s: tensor<f32>, %out: memref<?x4096xi8>) {
  %q = quant_affine.quantize %x, %s range [-128, 127]
      : (tensor<?x4096xf32>, tensor<f32>) -> tensor<?x4096xi8>
  bufferization.materialize_in_destination %q in restrict writable %out
      : (tensor<?x4096xi8>, memref<?x4096xi8>) -> ()
  return
}
