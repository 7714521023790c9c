// RUN: quant-affine-opt %s --convert-quant-to-quant-affine -split-input-file -verify-diagnostics -allow-unregistered-dialect

// What quant_affine cannot express is an error at the op that carries it.

func.func @any(%x: tensor<4xf32>) -> tensor<4x!quant.any<i8:f32>> {
  // expected-error @below {{'quant.qcast' op cannot convert 'tensor<4x!quant.any<i8:f32>>' to quant_affine: !quant.any has no scale or zero point to quantize with}}
  %q = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.any<i8:f32>>
  return %q : tensor<4x!quant.any<i8:f32>>
}

// -----

// expected-error @below {{'func.func' op cannot convert 'tensor<4x!quant.calibrated<f32<-1.000000e+00:1.000000e+00>>>' to quant_affine: !quant.calibrated holds a calibration range, not a scale and zero point: choose them (a !quant.uniform type) first}}
func.func private @calibrated(tensor<4x!quant.calibrated<f32<-1.0:1.0>>>)

// -----

func.func @unranked(%x: tensor<*xf32>) -> tensor<*xi8> {
  // expected-error @below {{'quant.qcast' op cannot convert 'tensor<*x!quant.uniform<i8:f32, 5.000000e-01>>' to quant_affine: quant_affine ops take scalars and ranked tensors, not tensor<*x!quant.uniform<i8:f32, 5.000000e-01>>}}
  %q = quant.qcast %x : tensor<*xf32> to tensor<*x!quant.uniform<i8:f32, 0.5>>
  %i = quant.scast %q : tensor<*x!quant.uniform<i8:f32, 0.5>> to tensor<*xi8>
  return %i : tensor<*xi8>
}

// -----

// A zero point beyond 2^53 has no exact float offset.
func.func @huge_zero_point(%x: tensor<4xf32>) -> tensor<4xi32> {
  // expected-error @below {{a zero point has no exact float value (|zero point| > 2^53)}}
  %q = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<i32:f32, 0.5:9007199254740993>>
  %i = quant.scast %q : tensor<4x!quant.uniform<i32:f32, 0.5:9007199254740993>> to tensor<4xi32>
  return %i : tensor<4xi32>
}

// -----

// Ops other than casts, function boundaries, control flow and tensor ops
// cannot be retyped: they may look at the values.
func.func @unknown_op(%x: tensor<4x!quant.uniform<i8:f32, 0.5>>) {
  // expected-error @below {{'test.consume' op carries 'tensor<4x!quant.uniform<i8:f32, 5.000000e-01>>', which this conversion cannot retype: only quant casts, functions, calls, returns, branches, scf control flow and tensor ops are converted}}
  "test.consume"(%x) : (tensor<4x!quant.uniform<i8:f32, 0.5>>) -> ()
  return
}

// -----

// Storage wider than 32 bits, the most quant_affine's integers hold, is
// already refused by the quant dialect's parser.
// expected-error @below {{illegal storage type size: 64}}
func.func private @wide(tensor<4x!quant.uniform<i64:f32, 0.5>>)
