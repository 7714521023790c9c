// torchao's rewrites executed: each program runs unfolded (first RUN line)
// and canonicalized (second: the rewrites of torchao-canonicalize.mlir fire,
// as the FOLDED lines check), with the same bits, which are ref.py's
// (torchao 0.10's fake_quantize_affine and dequantize_affine).
// RUN: quant-affine-opt %s --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s
// RUN: quant-affine-opt %s -canonicalize --quant-affine-cpu-pipeline \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s
// RUN: quant-affine-opt %s -canonicalize | FileCheck %s --check-prefix=FOLDED

func.func private @printMemrefI32(tensor<*xi32> {bufferization.access = "read"})

func.func @print(%t: tensor<64xf32>) {
  %b = arith.bitcast %t : tensor<64xf32> to tensor<64xi32>
  %u = tensor.cast %b : tensor<64xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// FOLDED-LABEL: func.func @qdq_twice
// FOLDED: quant_affine.qdq
// FOLDED-NEXT: return
func.func @qdq_twice(%x: tensor<64xf32>) -> tensor<64xf32> {
  %s = arith.constant dense<0.0173> : tensor<f32>
  %o = arith.constant dense<0.0> : tensor<f32>
  %a = quant_affine.qdq %x, %s, %o range [-128, 127] reciprocal : (tensor<64xf32>, tensor<f32>, tensor<f32>) -> tensor<64xf32>
  %b = quant_affine.qdq %a, %s, %o range [-128, 127] reciprocal : (tensor<64xf32>, tensor<f32>, tensor<f32>) -> tensor<64xf32>
  return %b : tensor<64xf32>
}

// FOLDED-LABEL: func.func @dequantize_of_quantize
// FOLDED: quant_affine.qdq {{.*}} reciprocal
// FOLDED-NEXT: return
func.func @dequantize_of_quantize(%x: tensor<64xf32>) -> tensor<64xf32> {
  %s = arith.constant dense<0.0173> : tensor<f32>
  %o = arith.constant dense<3.0> : tensor<f32>
  %q = quant_affine.quantize %x, %s, %o range [-128, 127] reciprocal : (tensor<64xf32>, tensor<f32>, tensor<f32>) -> tensor<64xi8>
  %y = quant_affine.dequantize %q, %s, %o range [-128, 127] : (tensor<64xi8>, tensor<f32>, tensor<f32>) -> tensor<64xf32>
  return %y : tensor<64xf32>
}

// FOLDED-LABEL: func.func @quantize_of_dequantize
// FOLDED-NEXT: return %arg0
func.func @quantize_of_dequantize(%q: tensor<256xi8>) -> tensor<256xi8> {
  %s = arith.constant dense<0.0173> : tensor<f32>
  %y = quant_affine.dequantize %q, %s range [-128, 127] : (tensor<256xi8>, tensor<f32>) -> tensor<256xf32>
  %r = quant_affine.quantize %y, %s range [-128, 127] reciprocal : (tensor<256xf32>, tensor<f32>) -> tensor<256xi8>
  return %r : tensor<256xi8>
}

// FOLDED-LABEL: func.func @float_zero_point_dequantize
// FOLDED: quant_affine.dequantize %arg0, %{{.*}} range [0, 15] float_zero_point :
func.func @float_zero_point_dequantize(%q: tensor<16xi8>) -> tensor<16xf32> {
  %s = arith.constant dense<0.25> : tensor<f32>
  %z = arith.constant dense<0.0> : tensor<f32>
  %y = quant_affine.dequantize %q, %s, %z range [0, 15] float_zero_point : (tensor<16xi8>, tensor<f32>, tensor<f32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
}

// CHECK-LABEL: qdq_twice
// CHECK-NEXT: Unranked
// CHECK-NEXT: [0,  1052377717,  -1096266914,  -1081521419,  -1089619781,  -1080505558,  1032698043,  1070461040,  -1089039289,  -1086427077,  1058444359,  1054699684,  1039663943,  -1081086050,  -1123174213,  1062507800,  -1077022608,  -1089619781,  -1072842565,  -1077603100,  -1072842565,  -1098008389,  -1077748223,  1051216734,  1044569601,  -1100592080,  -1072842565,  -1088168552,  -1118530280,  1041086651,  -1075136010,  -1089329535,  -1080650681,  -1082653881,  1067703704,  -1082653881,  -1123174213,  1065817106,  -1087297814,  -1106396997,  1041086651,  1032698043,  -1078183592,  1035020010,  1070606163,  -1074990887,  1065671983,  1041086651,  0,  0,  1074568522,  -1072842565,  1074568522,  -1072842565,  1074568522,  -1072915126,  0,  0,  1032698043,  0,  1074568522,  -1072842565,  1056993129,  1065381737]
// CHECK-LABEL: dequantize_of_quantize
// CHECK-NEXT: Unranked
// CHECK-NEXT: [0,  1052377717,  -1096266914,  -1081521419,  -1089619781,  -1080505558,  1032698043,  1070461040,  -1089039289,  -1086427077,  1058444359,  1054699684,  1039663943,  -1081086050,  -1123174213,  1062507800,  -1077022608,  -1089619781,  -1073060249,  -1077603100,  -1073060249,  -1098008389,  -1077748223,  1051216734,  1044569601,  -1100592080,  -1073060249,  -1088168552,  -1118530280,  1041086651,  -1075136010,  -1089329535,  -1080650681,  -1082653881,  1067703704,  -1082653881,  -1123174213,  1065817106,  -1087297814,  -1106396997,  1041086651,  1032698043,  -1078183592,  1035020010,  1070606163,  -1074990887,  1065671983,  1041086651,  0,  0,  1074786206,  -1073060249,  1074786206,  -1073060249,  1074568522,  -1073060249,  0,  0,  1032698043,  0,  1074786206,  -1073060249,  1056993129,  1065381737]
// CHECK-LABEL: quantize_of_dequantize
// CHECK-NEXT: Unranked
// CHECK-NEXT: [-128,  -127,  -126,  -125,  -124,  -123,  -122,  -121,  -120,  -119,  -118,  -117,  -116,  -115,  -114,  -113,  -112,  -111,  -110,  -109,  -108,  -107,  -106,  -105,  -104,  -103,  -102,  -101,  -100,  -99,  -98,  -97,  -96,  -95,  -94,  -93,  -92,  -91,  -90,  -89,  -88,  -87,  -86,  -85,  -84,  -83,  -82,  -81,  -80,  -79,  -78,  -77,  -76,  -75,  -74,  -73,  -72,  -71,  -70,  -69,  -68,  -67,  -66,  -65,  -64,  -63,  -62,  -61,  -60,  -59,  -58,  -57,  -56,  -55,  -54,  -53,  -52,  -51,  -50,  -49,  -48,  -47,  -46,  -45,  -44,  -43,  -42,  -41,  -40,  -39,  -38,  -37,  -36,  -35,  -34,  -33,  -32,  -31,  -30,  -29,  -28,  -27,  -26,  -25,  -24,  -23,  -22,  -21,  -20,  -19,  -18,  -17,  -16,  -15,  -14,  -13,  -12,  -11,  -10,  -9,  -8,  -7,  -6,  -5,  -4,  -3,  -2,  -1,  0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31,  32,  33,  34,  35,  36,  37,  38,  39,  40,  41,  42,  43,  44,  45,  46,  47,  48,  49,  50,  51,  52,  53,  54,  55,  56,  57,  58,  59,  60,  61,  62,  63,  64,  65,  66,  67,  68,  69,  70,  71,  72,  73,  74,  75,  76,  77,  78,  79,  80,  81,  82,  83,  84,  85,  86,  87,  88,  89,  90,  91,  92,  93,  94,  95,  96,  97,  98,  99,  100,  101,  102,  103,  104,  105,  106,  107,  108,  109,  110,  111,  112,  113,  114,  115,  116,  117,  118,  119,  120,  121,  122,  123,  124,  125,  126,  127]
// CHECK-LABEL: float_zero_point_dequantize
// CHECK-NEXT: Unranked
// CHECK-NEXT: [-1073741824,  -1075838976,  -1077936128,  -1080033280,  -1082130432,  -1086324736,  -1090519040,  -1098907648,  0,  1048576000,  1056964608,  1061158912,  1065353216,  1067450368,  1069547520,  1071644672]
func.func @main() {
  %x = arith.constant dense<[0.0014761839993298054, 0.3584946393966675, -0.328965425491333, -1.068710207939148, -0.545604944229126, -1.1899758577346802, 0.07217232137918472, 1.6082582473754883, -0.59064781665802, -0.7445698976516724, 0.5878104567527771, 0.42826440930366516, 0.12649710476398468, -1.1165616512298584, -0.03510218858718872, 0.8343638181686401, -1.6130574941635132, -0.5491389036178589, -2.2814671993255615, -1.547445297241211, -2.2100820541381836, -0.2821093499660492, -1.5209357738494873, 0.3255172371864319, 0.18810130655765533, -0.22431713342666626, -3.020111560821533, -0.6464314460754395, -0.0582011342048645, 0.13597078621387482, -1.8361629247665405, -0.5733039379119873, -1.1742229461669922, -0.970604658126831, 1.2730783224105835, -0.9690415859222412, -0.03902604430913925, 1.0612678527832031, -0.7003205418586731, -0.13404233753681183, 0.1325569748878479, 0.07653813064098358, -1.470067024230957, 0.09136827290058136, 1.6305880546569824, -1.8565735816955566, 1.0312591791152954, 0.143224835395813, 0.0, -0.0, 0x7F800000, 0xFF800000, 5.0, -5.0, 2.200000047683716, -2.200000047683716, 0.00865000020712614, -0.00865000020712614, 0.06055000051856041, 1.0000000031710769e-30, 100.0, -100.0, 0.5, 1.0]> : tensor<64xf32>
  %a = call @qdq_twice(%x) : (tensor<64xf32>) -> tensor<64xf32>
  vector.print str "qdq_twice\n"
  call @print(%a) : (tensor<64xf32>) -> ()
  %b = call @dequantize_of_quantize(%x) : (tensor<64xf32>) -> tensor<64xf32>
  vector.print str "dequantize_of_quantize\n"
  call @print(%b) : (tensor<64xf32>) -> ()
  %codes = arith.constant dense<[-128, -127, -126, -125, -124, -123, -122, -121, -120, -119, -118, -117, -116, -115, -114, -113, -112, -111, -110, -109, -108, -107, -106, -105, -104, -103, -102, -101, -100, -99, -98, -97, -96, -95, -94, -93, -92, -91, -90, -89, -88, -87, -86, -85, -84, -83, -82, -81, -80, -79, -78, -77, -76, -75, -74, -73, -72, -71, -70, -69, -68, -67, -66, -65, -64, -63, -62, -61, -60, -59, -58, -57, -56, -55, -54, -53, -52, -51, -50, -49, -48, -47, -46, -45, -44, -43, -42, -41, -40, -39, -38, -37, -36, -35, -34, -33, -32, -31, -30, -29, -28, -27, -26, -25, -24, -23, -22, -21, -20, -19, -18, -17, -16, -15, -14, -13, -12, -11, -10, -9, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127]> : tensor<256xi8>
  %c = call @quantize_of_dequantize(%codes) : (tensor<256xi8>) -> tensor<256xi8>
  %cw = arith.extsi %c : tensor<256xi8> to tensor<256xi32>
  %cu = tensor.cast %cw : tensor<256xi32> to tensor<*xi32>
  vector.print str "quantize_of_dequantize\n"
  call @printMemrefI32(%cu) : (tensor<*xi32>) -> ()
  %c16 = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xi8>
  %d = call @float_zero_point_dequantize(%c16) : (tensor<16xi8>) -> tensor<16xf32>
  %db = arith.bitcast %d : tensor<16xf32> to tensor<16xi32>
  %du = tensor.cast %db : tensor<16xi32> to tensor<*xi32>
  vector.print str "float_zero_point_dequantize\n"
  call @printMemrefI32(%du) : (tensor<*xi32>) -> ()
  return
}
