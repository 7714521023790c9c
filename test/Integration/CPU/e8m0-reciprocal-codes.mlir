// The reciprocal of every E8M0 scale, 1 / extf(e) in f32, which
// quant-affine-expand-narrow-floats computes as the E8M0 code 254 - c (NaN,
// 255, stays NaN) instead of dividing: its bits against f64 division (exact
// here) rounded to f32, for all 256 codes, on the CPU (at two vector widths)
// and through the GPU mapping; NaN equal to NaN. Prints the number of
// differing codes. The f32 function lowers with no division left.
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline="vector-width=8" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: quant-affine-opt %s --quant-affine-test-gpu-on-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// CHECK: mismatches: 0
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline | FileCheck %s --check-prefix=IR
// IR-LABEL: llvm.func @reciprocals(
// IR-NOT: llvm.fdiv
// IR: llvm.return

#id = affine_map<(i) -> (i)>

func.func @reciprocals(%e: tensor<256xf8E8M0FNU>) -> tensor<256xf32> {
  %init = tensor.empty() : tensor<256xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%e : tensor<256xf8E8M0FNU>) outs(%init : tensor<256xf32>) {
  ^bb0(%c: f8E8M0FNU, %o: f32):
    %one = arith.constant 1.0 : f32
    %s = arith.extf %c : f8E8M0FNU to f32
    %q = arith.divf %one, %s : f32
    linalg.yield %q : f32
  } -> tensor<256xf32>
  return %r : tensor<256xf32>
}

// The reference: 1 / 2^(c - 127) in f64 (exact), then to f32 (exact: 2^-127
// is an f32 subnormal).
func.func @reference(%e: tensor<256xf8E8M0FNU>) -> tensor<256xf32> {
  %init = tensor.empty() : tensor<256xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%e : tensor<256xf8E8M0FNU>) outs(%init : tensor<256xf32>) {
  ^bb0(%c: f8E8M0FNU, %o: f32):
    %one = arith.constant 1.0 : f64
    %s = arith.extf %c : f8E8M0FNU to f64
    %q = arith.divf %one, %s : f64
    %f = arith.truncf %q : f64 to f32
    linalg.yield %f : f32
  } -> tensor<256xf32>
  return %r : tensor<256xf32>
}

func.func @main() {
  %codes = arith.constant dense<[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80,81,82,83,84,85,86,87,88,89,90,91,92,93,94,95,96,97,98,99,100,101,102,103,104,105,106,107,108,109,110,111,112,113,114,115,116,117,118,119,120,121,122,123,124,125,126,127,-128,-127,-126,-125,-124,-123,-122,-121,-120,-119,-118,-117,-116,-115,-114,-113,-112,-111,-110,-109,-108,-107,-106,-105,-104,-103,-102,-101,-100,-99,-98,-97,-96,-95,-94,-93,-92,-91,-90,-89,-88,-87,-86,-85,-84,-83,-82,-81,-80,-79,-78,-77,-76,-75,-74,-73,-72,-71,-70,-69,-68,-67,-66,-65,-64,-63,-62,-61,-60,-59,-58,-57,-56,-55,-54,-53,-52,-51,-50,-49,-48,-47,-46,-45,-44,-43,-42,-41,-40,-39,-38,-37,-36,-35,-34,-33,-32,-31,-30,-29,-28,-27,-26,-25,-24,-23,-22,-21,-20,-19,-18,-17,-16,-15,-14,-13,-12,-11,-10,-9,-8,-7,-6,-5,-4,-3,-2,-1]> : tensor<256xi8>
  %e = arith.bitcast %codes : tensor<256xi8> to tensor<256xf8E8M0FNU>
  %got = call @reciprocals(%e) : (tensor<256xf8E8M0FNU>) -> tensor<256xf32>
  %want = call @reference(%e) : (tensor<256xf8E8M0FNU>) -> tensor<256xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0 : i32
  %n = scf.for %i = %c0 to %c256 step %c1 iter_args(%acc = %zero) -> (i32) {
    %g = tensor.extract %got[%i] : tensor<256xf32>
    %w = tensor.extract %want[%i] : tensor<256xf32>
    %gb = arith.bitcast %g : f32 to i32
    %wb = arith.bitcast %w : f32 to i32
    %same = arith.cmpi eq, %gb, %wb : i32
    %gn = arith.cmpf uno, %g, %g : f32
    %wn = arith.cmpf uno, %w, %w : f32
    %bothNaN = arith.andi %gn, %wn : i1
    %ok = arith.ori %same, %bothNaN : i1
    %one = arith.constant 1 : i32
    %inc = arith.select %ok, %zero, %one : i32
    %next = arith.addi %acc, %inc : i32
    scf.yield %next : i32
  }
  vector.print str "mismatches: "
  vector.print %n : i32
  return
}
