//===- packed-harness.cpp - packed i1/i2/i4 buffers across the C ABI ------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Links against the object compiled from packed-storage.mlir and calls its
// C interface wrappers. Packed i1/i2/i4 buffers are rank-1 byte descriptors
// (docs/Packing.md). The program computes the reference codes itself (true
// division in f32, round half to even, clamp, conversion toward zero), packs
// them with its own packer (8 / N values a byte, the lower index in the lower
// bits, padding bits of the last byte zero) and compares the kernels' bytes
// with them; it packs random codes for the dequantize kernels and compares
// their floats bit for bit with (q + offset) * scale in f32.
//
//===----------------------------------------------------------------------===//

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

/// A strided memref descriptor of rank 0 to 2: {allocated, aligned, offset,
/// sizes[rank], strides[rank]}, which is how the C interface lays out each.
struct Desc {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizesAndStrides[4];
};

/// A row-major descriptor of `data` with the given sizes (0 to 2 of them).
static Desc desc(void *data, std::vector<int64_t> sizes) {
  Desc d = {data, data, 0, {0, 0, 0, 0}};
  int64_t rank = static_cast<int64_t>(sizes.size()), stride = 1;
  for (int64_t i = rank - 1; i >= 0; --i) {
    d.sizesAndStrides[i] = sizes[i];
    d.sizesAndStrides[rank + i] = stride;
    stride *= sizes[i];
  }
  return d;
}

using Kernel = void (*)(Desc *, Desc *, Desc *, Desc *);

// The case lists, one per line (clang-format reflows them differently on
// every run).
// clang-format off
#define STATIC_CASES(X) \
  X(i4s_tensor)         \
  X(i4u_rows)           \
  X(i4s_block5)         \
  X(i4s_block3)         \
  X(i4u_block3)         \
  X(i4s_block3x5)       \
  X(i4s_block32)        \
  X(i4u_cols)           \
  X(i4s_block5_tall)    \
  X(i2s_rows)           \
  X(i2u_rows_tall)      \
  X(i2u_block3)         \
  X(i2s_block5)         \
  X(i2u_block32)        \
  X(i1u_tensor)         \
  X(i1u_cols)           \
  X(i1u_block3)         \
  X(i1u_block64)
#define DYNAMIC_CASES(X) \
  X(i4s_dyn_block32)     \
  X(i4u_dyn_rows)        \
  X(i2s_dyn_tensor)      \
  X(i1u_dyn_cols)
// clang-format on

extern "C" {
#define DECLARE_QUANTIZE(name)                                                 \
  void _mlir_ciface_q_##name(Desc *, Desc *, Desc *, Desc *);
#define DECLARE_BOTH(name)                                                     \
  DECLARE_QUANTIZE(name)                                                       \
  void _mlir_ciface_d_##name(Desc *, Desc *, Desc *, Desc *);
STATIC_CASES(DECLARE_BOTH)
DYNAMIC_CASES(DECLARE_BOTH)
}

enum class Encoding { Tensor, Rows, Cols, Block };

struct Case {
  const char *name;
  int64_t rows, cols;
  int bits;
  int64_t qmin, qmax;
  Encoding encoding;
  int64_t blockRows, blockCols;
  bool dynamicRows;
  Kernel quantize, dequantize; // dequantize may be null

  int64_t count() const { return rows * cols; }
  int64_t bytes() const { return (count() * bits + 7) / 8; }
  std::vector<int64_t> scaleShape() const {
    switch (encoding) {
    case Encoding::Tensor:
      return {};
    case Encoding::Rows:
      return {rows, 1};
    case Encoding::Cols:
      return {cols};
    case Encoding::Block:
      return {rows / blockRows, cols / blockCols};
    }
    return {};
  }
  int64_t scaleCount() const {
    int64_t n = 1;
    for (int64_t size : scaleShape())
      n *= size;
    return n;
  }
  /// The scale and offset element that value (r, c) uses.
  int64_t encodingIndex(int64_t r, int64_t c) const {
    switch (encoding) {
    case Encoding::Tensor:
      return 0;
    case Encoding::Rows:
      return r;
    case Encoding::Cols:
      return c;
    case Encoding::Block:
      return r / blockRows * (cols / blockCols) + c / blockCols;
    }
    return 0;
  }
};

//===----------------------------------------------------------------------===//
// The reference: the formula in scalar f32, and an independent packer.
//===----------------------------------------------------------------------===//

/// round half to even (the default rounding mode) of the true quotient,
/// minus the offset, clamped with std::max/min semantics (NaN stays NaN).
static float quantizeRef(float x, float s, float o, float lo, float hi) {
  float q = std::nearbyint(x / s) - o;
  q = q < lo ? lo : q;
  return hi < q ? hi : q;
}

/// Packs the low `bits` bits of each code, value i at bit (i * bits) % 8 of
/// byte (i * bits) / 8. The bits after the last value stay zero.
static std::vector<uint8_t> pack(const std::vector<int64_t> &codes, int bits) {
  std::vector<uint8_t> bytes((codes.size() * bits + 7) / 8, 0);
  const uint64_t mask = (1u << bits) - 1;
  for (size_t i = 0; i < codes.size(); ++i) {
    uint64_t bit = i * bits;
    bytes[bit / 8] |= static_cast<uint8_t>(
        (static_cast<uint64_t>(codes[i]) & mask) << (bit % 8));
  }
  return bytes;
}

/// Value i of a packed buffer, read as signed (two's complement) or not.
static int64_t unpack(const uint8_t *bytes, int64_t i, int bits,
                      bool isSigned) {
  int64_t bit = i * bits;
  int64_t v = (bytes[bit / 8] >> (bit % 8)) & ((1 << bits) - 1);
  return isSigned && v >= (int64_t(1) << (bits - 1)) ? v - (int64_t(1) << bits)
                                                     : v;
}

static bool sameBits(float a, float b) {
  uint32_t ua, ub;
  std::memcpy(&ua, &a, 4);
  std::memcpy(&ub, &b, 4);
  return ua == ub || (std::isnan(a) && std::isnan(b));
}

static uint64_t lcgState = 12345;
static uint32_t nextRandom() {
  lcgState = lcgState * 6364136223846793005ull + 1442695040888963407ull;
  return static_cast<uint32_t>(lcgState >> 33);
}

/// A buffer whose data starts `shift` bytes past a 64-byte boundary and is
/// followed by 16 guard bytes.
struct Buffer {
  std::vector<uint8_t> storage;
  uint8_t *data;
  int64_t size;
  static constexpr uint8_t kGuard = 0xA5;
  Buffer(int64_t size, int64_t shift, uint8_t fill)
      : storage(size + 64 + shift + 16), size(size) {
    auto address = reinterpret_cast<uintptr_t>(storage.data());
    data = reinterpret_cast<uint8_t *>((address + 63) / 64 * 64) + shift;
    std::memset(data, fill, size);
    std::memset(data + size, kGuard, 16);
  }
  bool guardIntact() const {
    for (int64_t i = 0; i < 16; ++i)
      if (data[size + i] != kGuard)
        return false;
    return true;
  }
};

//===----------------------------------------------------------------------===//
// The cases
//===----------------------------------------------------------------------===//

/// Inputs on every side of the grid: exact ties (x / s = k + 0.5 for the
/// power-of-two scales), values that clamp, NaN, +-Inf, -0, huge and
/// subnormal values.
static std::vector<float> makeInput(const Case &c) {
  int64_t span = c.qmax - c.qmin + 1;
  std::vector<float> x(c.count());
  for (int64_t i = 0; i < c.count(); ++i) {
    int64_t t = (i * 7919 + 13) % (8 * span + 1) - 4 * span;
    x[i] = static_cast<float>(t) * 0.125f;
    switch (i % 37) {
    case 5:
      x[i] = NAN;
      break;
    case 6:
      x[i] = INFINITY;
      break;
    case 7:
      x[i] = -INFINITY;
      break;
    case 8:
      x[i] = -0.0f;
      break;
    case 9:
      x[i] = 3e38f;
      break;
    case 10:
      x[i] = -3e38f;
      break;
    case 11:
      x[i] = 1e-40f;
      break;
    default:
      break;
    }
  }
  return x;
}

/// Scales of a power of two (exact ties) and not (0.1, 1/3, 2/7); integer
/// offsets around the grid, and half-integer ones for the per-row encodings
/// (an integer result then takes the value toward zero).
static void makeEncodings(const Case &c, std::vector<float> &s,
                          std::vector<float> &o) {
  static const float scales[] = {0.25f,       0.5f,   0.1f,
                                 1.0f / 3.0f, 0.125f, 2.0f / 7.0f};
  int64_t n = c.scaleCount(), span = c.qmax - c.qmin + 1;
  s.resize(n);
  o.resize(n);
  for (int64_t e = 0; e < n; ++e) {
    s[e] = scales[e % 6];
    o[e] = static_cast<float>(e % 3 - 1) - (c.qmin < 0 ? 0 : span / 4);
    if (c.encoding == Encoding::Rows && e % 2 == 1)
      o[e] += 0.5f;
  }
}

/// Returns the number of mismatches over all runs: outputs shifted 0 and 1
/// bytes off a 64-byte boundary, filled with 0x00 and with 0xFF beforehand.
static int checkQuantize(const Case &c) {
  std::vector<float> x = makeInput(c), s, o;
  makeEncodings(c, s, o);
  std::vector<int64_t> codes(c.count()), known(c.count());
  for (int64_t r = 0; r < c.rows; ++r)
    for (int64_t col = 0; col < c.cols; ++col) {
      int64_t i = r * c.cols + col, e = c.encodingIndex(r, col);
      float q = quantizeRef(x[i], s[e], o[e], static_cast<float>(c.qmin),
                            static_cast<float>(c.qmax));
      // NaN into an integer is poison: its bits are not compared.
      known[i] = std::isnan(q) ? 0 : -1;
      codes[i] = std::isnan(q) ? 0 : static_cast<int64_t>(q);
    }
  std::vector<uint8_t> expected = pack(codes, c.bits);
  std::vector<uint8_t> valueBits = pack(known, c.bits);
  // The padding bits: all bits after the last value.
  std::vector<uint8_t> padding(c.bytes(), 0);
  if (int64_t used = c.count() * c.bits % 8)
    padding.back() = static_cast<uint8_t>(0xFF << used);

  int bad = 0;
  int zeroed = 0, kept = 0;
  for (int64_t shift = 0; shift < 2; ++shift)
    for (int fill : {0x00, 0xFF}) {
      Buffer out(c.bytes(), shift, static_cast<uint8_t>(fill));
      Desc X = desc(x.data(), {c.rows, c.cols});
      Desc S = desc(s.data(), c.scaleShape()),
           O = desc(o.data(), c.scaleShape());
      Desc Q = desc(out.data, {c.bytes()});
      c.quantize(&X, &S, &O, &Q);
      for (int64_t b = 0; b < c.bytes(); ++b) {
        // Zero-filled: whole bytes, padding included, must be the reference.
        // 0xFF-filled: the values' bits only.
        uint8_t care = fill == 0 ? valueBits[b] | padding[b] : valueBits[b];
        if ((out.data[b] ^ expected[b]) & care) {
          if (bad < 8)
            std::printf("  %s: byte %lld is 0x%02x, expected 0x%02x "
                        "(compared bits 0x%02x, shift %lld, fill 0x%02x)\n",
                        c.name, (long long)b, out.data[b], expected[b], care,
                        (long long)shift, fill);
          ++bad;
        }
      }
      if (!out.guardIntact()) {
        std::printf("  %s: wrote past the end (shift %lld, fill 0x%02x)\n",
                    c.name, (long long)shift, fill);
        ++bad;
      }
      if (fill == 0xFF && padding.back()) {
        uint8_t pad = out.data[c.bytes() - 1] & padding.back();
        zeroed += pad == 0;
        kept += pad == padding.back();
      }
    }
  const char *paddingState = !padding.back() ? "none"
                             : zeroed == 2   ? "zeroed"
                             : kept == 2     ? "kept"
                                             : "mixed";
  std::printf("quantize %s: %lldx%lld i%d, %lld bytes, %d mismatches, "
              "padding after 0xFF: %s\n",
              c.name, (long long)c.rows, (long long)c.cols, c.bits,
              (long long)c.bytes(), bad, paddingState);
  return bad;
}

/// Feeds independently packed random codes (every bit pattern, and ones in
/// the padding bits, which must be ignored) and compares the floats.
static int checkDequantize(const Case &c) {
  std::vector<float> s, o;
  makeEncodings(c, s, o);
  std::vector<int64_t> codes(c.count());
  bool isSigned = c.qmin < 0;
  for (int64_t i = 0; i < c.count(); ++i) {
    int64_t v = nextRandom() % (int64_t(1) << c.bits);
    codes[i] = isSigned && v >= (int64_t(1) << (c.bits - 1))
                   ? v - (int64_t(1) << c.bits)
                   : v;
  }
  std::vector<uint8_t> packed = pack(codes, c.bits);
  // The unpacker reads back what the packer wrote.
  for (int64_t i = 0; i < c.count(); ++i)
    if (unpack(packed.data(), i, c.bits, isSigned) != codes[i]) {
      std::printf("  harness: pack/unpack disagree at %lld\n", (long long)i);
      return 1;
    }
  if (int64_t used = c.count() * c.bits % 8)
    packed.back() |= static_cast<uint8_t>(0xFF << used);

  int bad = 0;
  for (int64_t shift = 0; shift < 2; ++shift) {
    Buffer in(c.bytes(), shift, 0);
    std::memcpy(in.data, packed.data(), c.bytes());
    Buffer out(c.count() * 4, shift * 4, 0xFF);
    Desc Q = desc(in.data, {c.bytes()});
    Desc S = desc(s.data(), c.scaleShape()), O = desc(o.data(), c.scaleShape());
    Desc Y = desc(out.data, {c.rows, c.cols});
    c.dequantize(&Q, &S, &O, &Y);
    for (int64_t r = 0; r < c.rows; ++r)
      for (int64_t col = 0; col < c.cols; ++col) {
        int64_t i = r * c.cols + col, e = c.encodingIndex(r, col);
        float ref = (static_cast<float>(codes[i]) + o[e]) * s[e];
        float got;
        std::memcpy(&got, out.data + 4 * i, 4);
        if (!sameBits(ref, got)) {
          if (bad < 8)
            std::printf("  %s: value %lld (code %lld) is %a, expected %a "
                        "(shift %lld)\n",
                        c.name, (long long)i, (long long)codes[i], got, ref,
                        (long long)shift);
          ++bad;
        }
      }
    if (!out.guardIntact() || std::memcmp(in.data, packed.data(), c.bytes())) {
      std::printf("  %s: wrote past the end or into its input\n", c.name);
      ++bad;
    }
  }
  std::printf("dequantize %s: %lldx%lld i%d, %lld values, %d mismatches\n",
              c.name, (long long)c.rows, (long long)c.cols, c.bits,
              (long long)c.count(), bad);
  return bad;
}

int main() {
  using E = Encoding;
  const Case cases[] = {
#define BOTH(name) _mlir_ciface_q_##name, _mlir_ciface_d_##name
#define QUANTIZE(name) _mlir_ciface_q_##name, nullptr
      {"i4s_tensor", 3, 125, 4, -8, 7, E::Tensor, 0, 0, false,
       BOTH(i4s_tensor)},
      {"i4u_rows", 3, 125, 4, 0, 15, E::Rows, 0, 0, false, BOTH(i4u_rows)},
      {"i4s_block5", 3, 125, 4, -8, 7, E::Block, 1, 5, false, BOTH(i4s_block5)},
      {"i4s_block3", 4, 126, 4, -8, 7, E::Block, 1, 3, false, BOTH(i4s_block3)},
      {"i4u_block3", 5, 63, 4, 0, 15, E::Block, 1, 3, false, BOTH(i4u_block3)},
      {"i4s_block3x5", 6, 25, 4, -8, 7, E::Block, 3, 5, false,
       BOTH(i4s_block3x5)},
      {"i4s_block32", 64, 128, 4, -8, 7, E::Block, 1, 32, false,
       BOTH(i4s_block32)},
      {"i4u_cols", 64, 128, 4, 0, 15, E::Cols, 0, 0, false, BOTH(i4u_cols)},
      // Rows that share bytes, on many rows (threads with openmp=true).
      {"i4s_block5_tall", 64, 125, 4, -8, 7, E::Block, 1, 5, false,
       BOTH(i4s_block5_tall)},
      {"i2s_rows", 7, 13, 2, -2, 1, E::Rows, 0, 0, false, BOTH(i2s_rows)},
      {"i2u_block3", 7, 15, 2, 0, 3, E::Block, 1, 3, false, BOTH(i2u_block3)},
      {"i2s_block5", 7, 15, 2, -2, 1, E::Block, 1, 5, false, BOTH(i2s_block5)},
      {"i2u_block32", 64, 128, 2, 0, 3, E::Block, 1, 32, false,
       BOTH(i2u_block32)},
      {"i2u_rows_tall", 64, 13, 2, 0, 3, E::Rows, 0, 0, false,
       BOTH(i2u_rows_tall)},
      {"i1u_tensor", 5, 11, 1, 0, 1, E::Tensor, 0, 0, false, BOTH(i1u_tensor)},
      {"i1u_cols", 5, 11, 1, 0, 1, E::Cols, 0, 0, false, BOTH(i1u_cols)},
      {"i1u_block3", 5, 12, 1, 0, 1, E::Block, 1, 3, false, BOTH(i1u_block3)},
      {"i1u_block64", 16, 128, 1, 0, 1, E::Block, 1, 64, false,
       BOTH(i1u_block64)},
      // The outer dim is dynamic: its size comes from the float input
      // (quantize), the scale or the destination (dequantize).
      {"i4s_dyn_block32", 5, 128, 4, -8, 7, E::Block, 1, 32, true,
       BOTH(i4s_dyn_block32)},
      {"i4u_dyn_rows", 3, 125, 4, 0, 15, E::Rows, 0, 0, true,
       BOTH(i4u_dyn_rows)},
      {"i2s_dyn_tensor", 7, 13, 2, -2, 1, E::Tensor, 0, 0, true,
       BOTH(i2s_dyn_tensor)},
      {"i1u_dyn_cols", 5, 11, 1, 0, 1, E::Cols, 0, 0, true, BOTH(i1u_dyn_cols)},
  };
  int failed = 0;
  for (const Case &c : cases) {
    failed |= checkQuantize(c);
    if (c.dequantize)
      failed |= checkDequantize(c);
  }
  return failed != 0;
}
