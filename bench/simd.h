// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one place where the benchmarks' own loops (the limits, the bounds, the
// FMA peaks, the models) meet the instruction set: one native vector of f32
// (`VecF`) or of bytes (`VecI`), and the few operations those loops use on
// it, for the widest target the file is compiled for, chosen by the
// compiler's target macros:
//   __AVX512F__          512-bit vectors (zmm), 32 registers;
//   __AVX2__ (__FMA__)   256-bit vectors (ymm), 16 registers; FMA where the
//                        target has it, else a multiply and an add;
//   otherwise            128-bit SSE2 vectors, the x86-64 baseline (no FMA;
//                        rounding through a conversion to int32, exact for
//                        |x| < 2^31).
// A loop written over `kBytes` or `kLanes` moves the same bytes in each; the
// AVX-512 definitions are the intrinsics the loops used before they were
// portable. benchTargetName() names the variant compiled, for the reports.
#pragma once

#include <immintrin.h>
#ifdef __SSE4A__
#include <ammintrin.h>
#endif

#include <cstdint>
#include <cstring>

namespace simd {

#if defined(__AVX512F__)
using VecF = __m512;
using VecI = __m512i;
constexpr int kBytes = 64;
constexpr int kRegisters = 32;
#elif defined(__AVX2__)
using VecF = __m256;
using VecI = __m256i;
constexpr int kBytes = 32;
constexpr int kRegisters = 16;
#else
using VecF = __m128;
using VecI = __m128i;
constexpr int kBytes = 16;
constexpr int kRegisters = 16;
#endif
/// f32 lanes of a vector; vectors in a 64-byte line.
constexpr int kLanes = kBytes / 4;
constexpr int kPerLine = 64 / kBytes;
/// The mask of gtMask when every lane compares true.
constexpr unsigned kAllLanes = (1u << kLanes) - 1;

//===-- Bytes ---------------------------------------------------------------//

inline VecI zeroI() {
#if defined(__AVX512F__)
  return _mm512_setzero_si512();
#elif defined(__AVX2__)
  return _mm256_setzero_si256();
#else
  return _mm_setzero_si128();
#endif
}

/// Loads a vector from `p`, aligned to kBytes.
inline VecI loadI(const void *p) {
#if defined(__AVX512F__)
  return _mm512_load_si512(p);
#elif defined(__AVX2__)
  return _mm256_load_si256(static_cast<const __m256i *>(p));
#else
  return _mm_load_si128(static_cast<const __m128i *>(p));
#endif
}

/// Stores `v` at `p`, aligned to kBytes.
inline void storeI(void *p, VecI v) {
#if defined(__AVX512F__)
  _mm512_store_si512(p, v);
#elif defined(__AVX2__)
  _mm256_store_si256(static_cast<__m256i *>(p), v);
#else
  _mm_store_si128(static_cast<__m128i *>(p), v);
#endif
}

/// Stores `v` at `p`, unaligned.
inline void storeUI(void *p, VecI v) {
#if defined(__AVX512F__)
  _mm512_storeu_si512(p, v);
#elif defined(__AVX2__)
  _mm256_storeu_si256(static_cast<__m256i *>(p), v);
#else
  _mm_storeu_si128(static_cast<__m128i *>(p), v);
#endif
}

/// Stores `v` at `p` (aligned) with a non-temporal hint.
inline void streamI(void *p, VecI v) {
#if defined(__AVX512F__)
  _mm512_stream_si512(static_cast<__m512i *>(p), v);
#elif defined(__AVX2__)
  _mm256_stream_si256(static_cast<__m256i *>(p), v);
#else
  _mm_stream_si128(static_cast<__m128i *>(p), v);
#endif
}

inline VecI xorI(VecI a, VecI b) {
#if defined(__AVX512F__)
  return _mm512_xor_si512(a, b);
#elif defined(__AVX2__)
  return _mm256_xor_si256(a, b);
#else
  return _mm_xor_si128(a, b);
#endif
}

/// a ^ b ^ c: one `vpternlogd` with AVX-512.
inline VecI xor3I(VecI a, VecI b, VecI c) {
#if defined(__AVX512F__)
  return _mm512_ternarylogic_epi32(a, b, c, 0x96);
#else
  return xorI(xorI(a, b), c);
#endif
}

inline VecI addI32(VecI a, VecI b) {
#if defined(__AVX512F__)
  return _mm512_add_epi32(a, b);
#elif defined(__AVX2__)
  return _mm256_add_epi32(a, b);
#else
  return _mm_add_epi32(a, b);
#endif
}

inline VecI addI64(VecI a, VecI b) {
#if defined(__AVX512F__)
  return _mm512_add_epi64(a, b);
#elif defined(__AVX2__)
  return _mm256_add_epi64(a, b);
#else
  return _mm_add_epi64(a, b);
#endif
}

/// The sum of the 32-bit lanes (sign-extended), or of the 64-bit lanes.
inline int64_t reduceAddI32(VecI v) {
#if defined(__AVX512F__)
  return _mm512_reduce_add_epi32(v);
#else
  int32_t lanes[kLanes];
  std::memcpy(lanes, &v, sizeof(v));
  int64_t sum = 0;
  for (int32_t lane : lanes)
    sum += lane;
  return sum;
#endif
}
inline long long reduceAddI64(VecI v) {
#if defined(__AVX512F__)
  return _mm512_reduce_add_epi64(v);
#else
  long long lanes[kBytes / 8];
  std::memcpy(lanes, &v, sizeof(v));
  long long sum = 0;
  for (long long lane : lanes)
    sum += lane;
  return sum;
#endif
}

/// 128 bits of `v`: bytes 16 Index to 16 Index + 15.
template <int Index> inline __m128i lane128(VecI v) {
  static_assert(Index >= 0 && 16 * Index < kBytes, "a lane of the vector");
#if defined(__AVX512F__)
  if constexpr (Index == 0)
    return _mm512_castsi512_si128(v);
  else
    return _mm512_extracti32x4_epi32(v, Index);
#elif defined(__AVX2__)
  if constexpr (Index == 0)
    return _mm256_castsi256_si128(v);
  else
    return _mm256_extracti128_si256(v, Index);
#else
  return v;
#endif
}

/// Loads `Bytes` (16, 32 or kBytes; at most kBytes) from `p`, unaligned, into
/// the low bytes of a vector (the others undefined).
template <int Bytes> inline VecI loadLowI(const void *p) {
  static_assert(Bytes == 16 || Bytes == 32 || Bytes == 64, "16, 32, 64");
  static_assert(Bytes <= kBytes, "at most one vector");
  if constexpr (Bytes == kBytes) {
#if defined(__AVX512F__)
    return _mm512_loadu_si512(p);
#elif defined(__AVX2__)
    return _mm256_loadu_si256(static_cast<const __m256i *>(p));
#else
    return _mm_loadu_si128(static_cast<const __m128i *>(p));
#endif
  } else if constexpr (Bytes == 32) {
#if defined(__AVX512F__)
    return _mm512_castsi256_si512(
        _mm256_loadu_si256(static_cast<const __m256i *>(p)));
#endif
  } else {
    __m128i x = _mm_loadu_si128(static_cast<const __m128i *>(p));
#if defined(__AVX512F__)
    return _mm512_castsi128_si512(x);
#elif defined(__AVX2__)
    return _mm256_castsi128_si256(x);
#else
    return x;
#endif
  }
}

/// Stores the low `Bytes` (16, 32 or kBytes; at most kBytes) of `v` at `p`,
/// aligned, in one store of that width, with a non-temporal hint when
/// `Stream`.
template <int Bytes, bool Stream> inline void storeLowI(void *p, VecI v) {
  static_assert(Bytes == 16 || Bytes == 32 || Bytes == 64, "16, 32, 64");
  static_assert(Bytes <= kBytes, "at most one vector");
  if constexpr (Bytes == kBytes) {
    if constexpr (Stream)
      streamI(p, v);
    else
      storeI(p, v);
  } else if constexpr (Bytes == 32) {
#if defined(__AVX512F__)
    __m256i y = _mm512_castsi512_si256(v);
    if constexpr (Stream)
      _mm256_stream_si256(static_cast<__m256i *>(p), y);
    else
      _mm256_store_si256(static_cast<__m256i *>(p), y);
#endif
  } else {
    __m128i x = lane128<0>(v);
    if constexpr (Stream)
      _mm_stream_si128(static_cast<__m128i *>(p), x);
    else
      _mm_store_si128(static_cast<__m128i *>(p), x);
  }
}

/// Streams 16 bytes as two 8-byte non-temporal stores: `movntsd` where the
/// CPU has SSE4a, `movnti` otherwise.
inline void streamPiece16(char *p, __m128i piece) {
#ifdef __SSE4A__
  _mm_stream_sd(reinterpret_cast<double *>(p), _mm_castsi128_pd(piece));
  _mm_stream_sd(reinterpret_cast<double *>(p + 8),
                _mm_castsi128_pd(_mm_unpackhi_epi64(piece, piece)));
#elif defined(__SSE4_1__)
  _mm_stream_si64(reinterpret_cast<long long *>(p), _mm_cvtsi128_si64(piece));
  _mm_stream_si64(reinterpret_cast<long long *>(p + 8),
                  _mm_extract_epi64(piece, 1));
#else
  _mm_stream_si64(reinterpret_cast<long long *>(p), _mm_cvtsi128_si64(piece));
  _mm_stream_si64(reinterpret_cast<long long *>(p + 8),
                  _mm_cvtsi128_si64(_mm_unpackhi_epi64(piece, piece)));
#endif
}

/// Streams the low `Bytes` (16 or 32; at most kBytes) of `v` at `p` in
/// 8-byte pieces.
template <int Bytes> inline void streamPieces8(char *p, VecI v) {
  static_assert(Bytes == 16 || Bytes == 32, "16 or 32 bytes");
  static_assert(Bytes <= kBytes, "at most one vector");
  streamPiece16(p, lane128<0>(v));
  if constexpr (Bytes == 32)
    streamPiece16(p + 16, lane128<Bytes / 16 - 1>(v));
}

/// Adds the 16 bytes at `p` (unaligned), widened to 32 bits, into the 32-bit
/// lanes of `sum`.
inline VecI addWidenedBytes16(VecI sum, const void *p) {
  __m128i x = _mm_loadu_si128(static_cast<const __m128i *>(p));
#if defined(__AVX512F__)
  return _mm512_add_epi32(sum, _mm512_cvtepu8_epi32(x));
#elif defined(__AVX2__)
  sum = _mm256_add_epi32(sum, _mm256_cvtepu8_epi32(x));
  return _mm256_add_epi32(sum, _mm256_cvtepu8_epi32(_mm_unpackhi_epi64(x, x)));
#else
  __m128i zero = _mm_setzero_si128();
  __m128i low = _mm_unpacklo_epi8(x, zero), high = _mm_unpackhi_epi8(x, zero);
  sum = _mm_add_epi32(sum, _mm_unpacklo_epi16(low, zero));
  sum = _mm_add_epi32(sum, _mm_unpackhi_epi16(low, zero));
  sum = _mm_add_epi32(sum, _mm_unpacklo_epi16(high, zero));
  return _mm_add_epi32(sum, _mm_unpackhi_epi16(high, zero));
#endif
}

/// Narrows four vectors of int32 lanes to one vector of bytes, in order (a's
/// lanes first): AVX-512 truncates (`vpmovdb`), the others saturate (`packs`).
inline VecI packI32ToI8(VecI a, VecI b, VecI c, VecI d) {
#if defined(__AVX512F__)
  return _mm512_inserti64x4(
      _mm512_castsi256_si512(
          _mm256_set_m128i(_mm512_cvtepi32_epi8(b), _mm512_cvtepi32_epi8(a))),
      _mm256_set_m128i(_mm512_cvtepi32_epi8(d), _mm512_cvtepi32_epi8(c)), 1);
#elif defined(__AVX2__)
  // Per 128-bit half: a, b, c, d's low (then high) four lanes.
  __m256i mixed =
      _mm256_packs_epi16(_mm256_packs_epi32(a, b), _mm256_packs_epi32(c, d));
  return _mm256_permutevar8x32_epi32(mixed,
                                     _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
#else
  return _mm_packs_epi16(_mm_packs_epi32(a, b), _mm_packs_epi32(c, d));
#endif
}

/// Packs 64 4-bit codes (one per byte of `codes`, only the low nibble used)
/// into 32 bytes at `dst`, two per byte, low nibble first: per 16-bit pair,
/// (first & 0xF) | (second & 0xF) << 4, then narrowed to bytes.
inline void storeNibbles64(void *dst, const int8_t *codes) {
#if defined(__AVX512BW__)
  __m512i w = _mm512_loadu_si512(codes);
  __m512i merged = _mm512_or_si512(
      _mm512_and_si512(w, _mm512_set1_epi16(0x000F)),
      _mm512_and_si512(_mm512_srli_epi16(w, 4), _mm512_set1_epi16(0x00F0)));
  _mm256_storeu_si256(static_cast<__m256i *>(dst),
                      _mm512_cvtepi16_epi8(merged));
#elif defined(__AVX2__)
  auto merge = [](const int8_t *p) {
    __m256i w = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p));
    return _mm256_or_si256(
        _mm256_and_si256(w, _mm256_set1_epi16(0x000F)),
        _mm256_and_si256(_mm256_srli_epi16(w, 4), _mm256_set1_epi16(0x00F0)));
  };
  // packus interleaves 128-bit halves; the permute puts them back in order.
  __m256i bytes = _mm256_permute4x64_epi64(
      _mm256_packus_epi16(merge(codes), merge(codes + 32)), 0xD8);
  _mm256_storeu_si256(static_cast<__m256i *>(dst), bytes);
#else
  auto merge = [](const int8_t *p) {
    __m128i w = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
    return _mm_or_si128(
        _mm_and_si128(w, _mm_set1_epi16(0x000F)),
        _mm_and_si128(_mm_srli_epi16(w, 4), _mm_set1_epi16(0x00F0)));
  };
  auto *out = static_cast<__m128i *>(dst);
  _mm_storeu_si128(out, _mm_packus_epi16(merge(codes), merge(codes + 16)));
  _mm_storeu_si128(out + 1,
                   _mm_packus_epi16(merge(codes + 32), merge(codes + 48)));
#endif
}

//===-- f32 -----------------------------------------------------------------//

inline VecF set1F(float x) {
#if defined(__AVX512F__)
  return _mm512_set1_ps(x);
#elif defined(__AVX2__)
  return _mm256_set1_ps(x);
#else
  return _mm_set1_ps(x);
#endif
}

/// Loads from `p`, aligned to kBytes; loadUF: unaligned.
inline VecF loadF(const float *p) {
#if defined(__AVX512F__)
  return _mm512_load_ps(p);
#elif defined(__AVX2__)
  return _mm256_load_ps(p);
#else
  return _mm_load_ps(p);
#endif
}
inline VecF loadUF(const float *p) {
#if defined(__AVX512F__)
  return _mm512_loadu_ps(p);
#elif defined(__AVX2__)
  return _mm256_loadu_ps(p);
#else
  return _mm_loadu_ps(p);
#endif
}

/// Stores at `p`, unaligned; streamF: aligned, with a non-temporal hint.
inline void storeUF(float *p, VecF v) {
#if defined(__AVX512F__)
  _mm512_storeu_ps(p, v);
#elif defined(__AVX2__)
  _mm256_storeu_ps(p, v);
#else
  _mm_storeu_ps(p, v);
#endif
}
inline void streamF(float *p, VecF v) {
#if defined(__AVX512F__)
  _mm512_stream_ps(p, v);
#elif defined(__AVX2__)
  _mm256_stream_ps(p, v);
#else
  _mm_stream_ps(p, v);
#endif
}

/// The bits of `v` as a vector of bytes.
inline VecI castFI(VecF v) {
#if defined(__AVX512F__)
  return _mm512_castps_si512(v);
#elif defined(__AVX2__)
  return _mm256_castps_si256(v);
#else
  return _mm_castps_si128(v);
#endif
}

inline VecF addF(VecF a, VecF b) {
#if defined(__AVX512F__)
  return _mm512_add_ps(a, b);
#elif defined(__AVX2__)
  return _mm256_add_ps(a, b);
#else
  return _mm_add_ps(a, b);
#endif
}
inline VecF subF(VecF a, VecF b) {
#if defined(__AVX512F__)
  return _mm512_sub_ps(a, b);
#elif defined(__AVX2__)
  return _mm256_sub_ps(a, b);
#else
  return _mm_sub_ps(a, b);
#endif
}
inline VecF mulF(VecF a, VecF b) {
#if defined(__AVX512F__)
  return _mm512_mul_ps(a, b);
#elif defined(__AVX2__)
  return _mm256_mul_ps(a, b);
#else
  return _mm_mul_ps(a, b);
#endif
}
inline VecF divF(VecF a, VecF b) {
#if defined(__AVX512F__)
  return _mm512_div_ps(a, b);
#elif defined(__AVX2__)
  return _mm256_div_ps(a, b);
#else
  return _mm_div_ps(a, b);
#endif
}
inline VecF minF(VecF a, VecF b) {
#if defined(__AVX512F__)
  return _mm512_min_ps(a, b);
#elif defined(__AVX2__)
  return _mm256_min_ps(a, b);
#else
  return _mm_min_ps(a, b);
#endif
}
inline VecF maxF(VecF a, VecF b) {
#if defined(__AVX512F__)
  return _mm512_max_ps(a, b);
#elif defined(__AVX2__)
  return _mm256_max_ps(a, b);
#else
  return _mm_max_ps(a, b);
#endif
}

/// a * b + c: one FMA where the target has FMA, else a multiply and an add.
inline VecF fmaF(VecF a, VecF b, VecF c) {
#if defined(__AVX512F__)
  return _mm512_fmadd_ps(a, b, c);
#elif defined(__FMA__)
  return _mm256_fmadd_ps(a, b, c);
#else
  return addF(mulF(a, b), c);
#endif
}

inline VecF absF(VecF v) {
#if defined(__AVX512F__)
  return _mm512_abs_ps(v);
#elif defined(__AVX2__)
  return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), v);
#else
  return _mm_andnot_ps(_mm_set1_ps(-0.0f), v);
#endif
}

/// Rounds to the nearest integer, ties to even.
inline VecF roundF(VecF v) {
#if defined(__AVX512F__)
  return _mm512_roundscale_ps(v, _MM_FROUND_TO_NEAREST_INT);
#elif defined(__AVX2__)
  return _mm256_round_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
#else
  return _mm_cvtepi32_ps(_mm_cvtps_epi32(v));
#endif
}

/// Rounds towards minus infinity.
inline VecF floorF(VecF v) {
#if defined(__AVX512F__)
  return _mm512_roundscale_ps(v, _MM_FROUND_TO_NEG_INF);
#elif defined(__AVX2__)
  return _mm256_round_ps(v, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
#else
  __m128 t = _mm_cvtepi32_ps(_mm_cvttps_epi32(v));
  return _mm_sub_ps(t, _mm_and_ps(_mm_cmpgt_ps(t, v), _mm_set1_ps(1.0f)));
#endif
}

/// Converts to int32 lanes, rounding as MXCSR says (to nearest even).
inline VecI cvtFI(VecF v) {
#if defined(__AVX512F__)
  return _mm512_cvtps_epi32(v);
#elif defined(__AVX2__)
  return _mm256_cvtps_epi32(v);
#else
  return _mm_cvtps_epi32(v);
#endif
}

/// Bit i set where lane i of `a` > lane i of `b` (ordered, quiet).
inline unsigned gtMask(VecF a, VecF b) {
#if defined(__AVX512F__)
  return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ);
#elif defined(__AVX2__)
  return unsigned(_mm256_movemask_ps(_mm256_cmp_ps(a, b, _CMP_GT_OQ)));
#else
  return unsigned(_mm_movemask_ps(_mm_cmpgt_ps(a, b)));
#endif
}

/// Truncates the lanes of `v` (within int8 range) to int8 and stores the
/// kLanes bytes at `q`, unaligned.
inline void storeTruncI8(int8_t *q, VecF v) {
#if defined(__AVX512F__)
  _mm_storeu_si128(reinterpret_cast<__m128i *>(q),
                   _mm512_cvtepi32_epi8(_mm512_cvttps_epi32(v)));
#elif defined(__AVX2__)
  __m256i i = _mm256_cvttps_epi32(v);
  __m128i words = _mm_packs_epi32(_mm256_castsi256_si128(i),
                                  _mm256_extracti128_si256(i, 1));
  _mm_storel_epi64(reinterpret_cast<__m128i *>(q),
                   _mm_packs_epi16(words, words));
#else
  __m128i words = _mm_packs_epi32(_mm_cvttps_epi32(v), _mm_cvttps_epi32(v));
  int32_t bytes = _mm_cvtsi128_si32(_mm_packs_epi16(words, words));
  std::memcpy(q, &bytes, 4);
#endif
}

/// The sum, or the largest, of the lanes.
inline float reduceAddF(VecF v) {
#if defined(__AVX512F__)
  return _mm512_reduce_add_ps(v);
#else
  float lanes[kLanes];
  std::memcpy(lanes, &v, sizeof(v));
  float sum = 0;
  for (float lane : lanes)
    sum += lane;
  return sum;
#endif
}
inline float reduceMaxF(VecF v) {
#if defined(__AVX512F__)
  return _mm512_reduce_max_ps(v);
#else
  float lanes[kLanes];
  std::memcpy(lanes, &v, sizeof(v));
  float best = lanes[0];
  for (float lane : lanes)
    best = lane > best ? lane : best;
  return best;
#endif
}

} // namespace simd

/// The target the including file was compiled for, which chose the
/// definitions above; each benchmark prints it as `# target: ...`.
inline const char *benchTargetName() {
#if defined(__AVX512F__)
  return "x86-64 AVX-512F (512-bit vectors)";
#elif defined(__AVX2__) && defined(__FMA__)
  return "x86-64 AVX2+FMA (256-bit vectors)";
#elif defined(__AVX2__)
  return "x86-64 AVX2, no FMA (256-bit vectors)";
#else
  return "x86-64 SSE2 (128-bit vectors)";
#endif
}
