// RUN: quant-affine-opt %s --pass-pipeline="builtin.module(gpu.module(quant-affine-native-rounding))" | FileCheck %s

// Rounding on f32 and f64, scalars and vectors, becomes LLVM's intrinsic
// (one PTX cvt each), which convert-gpu-to-nvvm keeps; an n-D vector is
// flattened around it. f16 and 0-D vectors (LLVM has no type for them)
// keep upstream's lowering.
// CHECK-LABEL: gpu.module @device
gpu.module @device {
  // CHECK-LABEL: func.func @scalars(
  // CHECK: llvm.call_intrinsic "llvm.roundeven"(%{{.*}}) : (f32) -> f32
  // CHECK: llvm.call_intrinsic "llvm.floor"(%{{.*}}) : (f64) -> f64
  // CHECK: llvm.call_intrinsic "llvm.ceil"(%{{.*}}) : (f32) -> f32
  // CHECK: llvm.call_intrinsic "llvm.trunc"(%{{.*}}) : (f64) -> f64
  // CHECK: math.roundeven %{{.*}} : f16
  // CHECK-NOT: math.
  // CHECK: return
  func.func @scalars(%a: f32, %b: f64, %h: f16) -> (f32, f64, f32, f64, f16) {
    %0 = math.roundeven %a : f32
    %1 = math.floor %b : f64
    %2 = math.ceil %a : f32
    %3 = math.trunc %b : f64
    %4 = math.roundeven %h : f16
    return %0, %1, %2, %3, %4 : f32, f64, f32, f64, f16
  }

  // CHECK-LABEL: func.func @vectors(
  // CHECK: llvm.call_intrinsic "llvm.roundeven"(%{{.*}}) : (vector<4xf32>) -> vector<4xf32>
  // CHECK: %[[FLAT:.*]] = vector.shape_cast %{{.*}} : vector<1x2x4xf32> to vector<8xf32>
  // CHECK: %[[ROUNDED:.*]] = llvm.call_intrinsic "llvm.roundeven"(%[[FLAT]]) : (vector<8xf32>) -> vector<8xf32>
  // CHECK: vector.shape_cast %[[ROUNDED]] : vector<8xf32> to vector<1x2x4xf32>
  // CHECK: math.floor %{{.*}} : vector<f32>
  // CHECK-NOT: math.
  // CHECK: return
  func.func @vectors(%v: vector<4xf32>, %m: vector<1x2x4xf32>, %z: vector<f32>) -> (vector<4xf32>, vector<1x2x4xf32>, vector<f32>) {
    %0 = math.roundeven %v : vector<4xf32>
    %1 = math.roundeven %m : vector<1x2x4xf32>
    %2 = math.floor %z : vector<f32>
    return %0, %1, %2 : vector<4xf32>, vector<1x2x4xf32>, vector<f32>
  }
}
