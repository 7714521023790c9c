// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="vector-width=8" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: %if libomp %{ quant-affine-opt %s --quant-affine-cpu-pipeline="vector-width=8 openmp=true" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libomp.so | FileCheck %s %}
// RUN: quant-affine-opt %s --convert-quant-affine-to-arith --quant-affine-vectorize=vector-width=8 \
// RUN: | FileCheck %s --check-prefix=MASK
// A partial vector tile (a row of 12, vector-width=8: 8 + a masked 4) whose
// body reads a rank-1 scale with tensor.extract at the column: upstream
// vectorizes that read as a contiguous load and masked it with the tile's
// 1 x 8 mask where the transfer takes an 8-lane one ("'vector.mask' op
// expects a 'vector<8xi1>' mask"). quant-affine-vectorize gives the transfer
// the mask it takes.

// MASK-LABEL: func.func @dequantize_columns
// MASK: %[[TILE:.*]] = vector.create_mask %{{.*}}, %{{.*}} : vector<1x8xi1>
// MASK: %[[ROW:.*]] = vector.shape_cast %[[TILE]] : vector<1x8xi1> to vector<8xi1>
// MASK: vector.mask %[[ROW]] { vector.transfer_read %{{.*}} : tensor<?xf32>, vector<1x8xf32> } : vector<8xi1> -> vector<1x8xf32>
func.func @dequantize_columns(%q: tensor<4x12xi32>, %s: tensor<?xf32>) -> tensor<4x12xf32> {
  %e = tensor.empty() : tensor<4x12xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%q : tensor<4x12xi32>) outs(%e : tensor<4x12xf32>) {
  ^bb0(%in: i32, %out: f32):
    %j = linalg.index 1 : index
    %scale = tensor.extract %s[%j] : tensor<?xf32>
    %d = quant_affine.dequantize %in, %scale range [0, 16777215] : (i32, f32) -> f32
    linalg.yield %d : f32
  } -> tensor<4x12xf32>
  return %y : tensor<4x12xf32>
}

func.func private @printMemrefI64(tensor<*xi64>)
func.func @main() {
  %q = arith.constant dense<[[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
                             [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 16777215],
                             [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1],
                             [3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3]]> : tensor<4x12xi32>
  %c = arith.constant dense<[0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 0.1, 3.0]> : tensor<12xf32>
  %s = tensor.cast %c : tensor<12xf32> to tensor<?xf32>
  %y = call @dequantize_columns(%q, %s) : (tensor<4x12xi32>, tensor<?xf32>) -> tensor<4x12xf32>
  %b = arith.bitcast %y : tensor<4x12xf32> to tensor<4x12xi32>
  %w = arith.extui %b : tensor<4x12xi32> to tensor<4x12xi64>
  %u = tensor.cast %w : tensor<4x12xi64> to tensor<*xi64>
  // The f32 bits of q * s (0.25 = 0x3E800000 = 1048576000, ...).
  // CHECK:      [1048576000,  1065353216,  1077936128,  1090519040,  1101004800,  1111490560,  1121976320,  1132462080,  1141899264,  1151336448,  1066192077,  1108344832],
  // CHECK-NEXT: [0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  1279262719],
  // CHECK-NEXT: [1077936128,  1085276160,  1092616192,  1099956224,  1107296256,  1113587712,  1119879168,  1126170624,  1132462080,  1136656384,  1045220557,  1077936128],
  // CHECK-NEXT: [1061158912,  1069547520,  1077936128,  1086324736,  1094713344,  1103101952,  1111490560,  1119879168,  1128267776,  1136656384,  1050253722,  1091567616]
  call @printMemrefI64(%u) : (tensor<*xi64>) -> ()
  return
}
