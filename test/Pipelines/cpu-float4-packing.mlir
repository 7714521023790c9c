// f4E2M1FN codes packed two a byte from whole registers: quant-affine-emulate-
// narrow-types' byte packing (PackByBytes.cpp) takes the arith.truncf to
// f4E2M1FN before quant-affine-expand-narrow-floats has expanded it, encodes
// it the same way (encodeNarrowFloat) and combines the nibbles in 32-bit
// lanes, then truncates once (vpackusdw, vpackuswb); upstream's packing of
// the bitcast extracted every byte (vpextrb) and assembled the nibbles in
// scalar registers. NVFP4's element quantization of bench/mxquant (16 codes
// a vector at this size); the bench checks its codes bit for bit.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=znver3" \
// RUN: | mlir-translate --mlir-to-llvmir | llc -O3 -mcpu=znver3 -o - \
// RUN: | FileCheck %s --implicit-check-not=vpextrb
// The same on AVX-512 (16 lanes: vpmovdb truncates), where the i4 codes were
// packed with a vpextrb per code before byte packing ran there too.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="target-triple=x86_64-unknown-linux-gnu cpu=znver4" \
// RUN: | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: llc -O3 -mcpu=znver4 %t.ll -o - \
// RUN: | FileCheck %s --check-prefix=AVX512 --implicit-check-not=vpextrb
// And the blocks' largest magnitudes (blocks of 16, as long as a vector
// there) are one integer maximum of the bits without the sign, 16 blocks
// reduced together by a shuffle tree into one vector: no horizontal
// reduction per block, no minimum, and not scalar loops that clang -O3
// vectorized across blocks with gathers.
// RUN: FileCheck %s --check-prefix=AVX512IR --implicit-check-not=llvm.vector.reduce --implicit-check-not=llvm.smin.v16i32 < %t.ll
// CHECK-LABEL: nvfp4:
// CHECK: vpackusdw
// CHECK: vpackuswb
// AVX512-LABEL: nvfp4:
// AVX512: vpmovdb
// AVX512IR: and <16 x i32> %{{.*}}, splat (i32 2147483647)
// AVX512IR: shufflevector <16 x i32>
// AVX512IR: call <16 x i32> @llvm.smax.v16i32
func.func @nvfp4(%x: tensor<4096x4096xf32>, %ts: tensor<f32>, %q: memref<4096x4096xf4E2M1FN>, %s: memref<4096x256xf8E4M3FN>) {
  %e = quant_affine.block_scale %x, %ts element f4E2M1FN block [1, 16] : (tensor<4096x4096xf32>, tensor<f32>) -> tensor<4096x256xf8E4M3FN>
  %sf = arith.extf %e : tensor<4096x256xf8E4M3FN> to tensor<4096x256xf32>
  %init = tensor.empty() : tensor<4096x256xf32>
  %bs = linalg.generic {indexing_maps = [affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ts, %sf : tensor<f32>, tensor<4096x256xf32>) outs(%init : tensor<4096x256xf32>) {
  ^bb0(%t: f32, %v: f32, %o: f32):
    %m = arith.mulf %t, %v : f32
    linalg.yield %m : f32
  } -> tensor<4096x256xf32>
  %y = quant_affine.quantize %x, %bs range [-6, 6] block [1, 16] : (tensor<4096x4096xf32>, tensor<4096x256xf32>) -> tensor<4096x4096xf4E2M1FN>
  bufferization.materialize_in_destination %y in restrict writable %q : (tensor<4096x4096xf4E2M1FN>, memref<4096x4096xf4E2M1FN>) -> ()
  bufferization.materialize_in_destination %e in restrict writable %s : (tensor<4096x256xf8E4M3FN>, memref<4096x256xf8E4M3FN>) -> ()
  return
}
