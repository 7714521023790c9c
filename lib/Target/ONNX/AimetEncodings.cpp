//===- AimetEncodings.cpp - Read AIMET's encodings JSON -------------------===//
//
// Part of the quant-affine project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Formats 0.6.1 and 1.0.0 store offsets on AIMET's unsigned grid: the file's
// offset is o + qmin, so that q ranges over [0, 2^bw - 1]. Read literally
// that is always the same qdq; a symmetric entry whose offset is -2^(bw-1)
// is read as the signed grid with offset 0, which is the same qdq with
// signed codes. Format 2.x uses ONNX's names: y_zero_point = -o on the grid
// of output_dtype.
//
//===----------------------------------------------------------------------===//

#include "QuantAffine/Target/ONNX/AimetEncodings.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <cmath>

using namespace mlir;
using namespace mlir::quant_affine;
using namespace mlir::quant_affine::onnx_import;
namespace json = llvm::json;

namespace {

/// Reads one entry, remembering the first error (with the entry's origin).
class EntryReader {
public:
  EntryReader(const json::Object &object, std::string origin,
              std::string &error)
      : object(object), origin(std::move(origin)), error(error) {}

  bool fail(const llvm::Twine &message) {
    if (error.empty())
      error = (origin + ": " + message).str();
    return false;
  }
  bool has(llvm::StringRef key) const { return object.get(key) != nullptr; }

  std::optional<double> number(llvm::StringRef key) {
    if (const json::Value *value = object.get(key))
      if (std::optional<double> n = value->getAsNumber())
        return n;
    fail("'" + key + "' must be a number");
    return std::nullopt;
  }
  std::optional<int64_t> integer(llvm::StringRef key) {
    std::optional<double> n = number(key);
    if (!n)
      return std::nullopt;
    if (*n != std::floor(*n) || std::fabs(*n) > 0x1p62) {
      fail("'" + key + "' must be an integer");
      return std::nullopt;
    }
    return static_cast<int64_t>(*n);
  }
  /// A JSON bool, or 0.6.1's "True"/"False" (Python's str(bool)).
  std::optional<bool> boolean(llvm::StringRef key) {
    const json::Value *value = object.get(key);
    if (value) {
      if (std::optional<bool> b = value->getAsBoolean())
        return b;
      if (std::optional<llvm::StringRef> s = value->getAsString()) {
        if (s->equals_insensitive("true"))
          return true;
        if (s->equals_insensitive("false"))
          return false;
      }
    }
    fail("'" + key + "' must be true or false");
    return std::nullopt;
  }
  std::optional<std::string> string(llvm::StringRef key) {
    if (const json::Value *value = object.get(key))
      if (std::optional<llvm::StringRef> s = value->getAsString())
        return s->str();
    fail("'" + key + "' must be a string");
    return std::nullopt;
  }
  /// A number or a (nested, rectangular) array of numbers, flattened
  /// row-major; `shape` gets the array's dims (none for a number).
  bool numbers(llvm::StringRef key, std::vector<double> &values,
               std::vector<int64_t> &shape) {
    const json::Value *value = object.get(key);
    if (!value)
      return fail("'" + key + "' is missing");
    shape.clear();
    values.clear();
    if (!flatten(*value, 0, values, shape))
      return fail("'" + key +
                  "' must be a number or a rectangular array of numbers");
    return true;
  }

private:
  static bool flatten(const json::Value &value, size_t depth,
                      std::vector<double> &values,
                      std::vector<int64_t> &shape) {
    if (std::optional<double> n = value.getAsNumber()) {
      if (depth != shape.size())
        return false;
      values.push_back(*n);
      return true;
    }
    const json::Array *array = value.getAsArray();
    if (!array || array->empty())
      return false;
    if (depth == shape.size()) {
      // The first array at this depth sets its size; deeper ones follow.
      if (!values.empty())
        return false;
      shape.push_back(static_cast<int64_t>(array->size()));
    } else if (depth > shape.size() ||
               shape[depth] != static_cast<int64_t>(array->size())) {
      return false;
    }
    for (const json::Value &element : *array)
      if (!flatten(element, depth + 1, values, shape))
        return false;
    return true;
  }

  const json::Object &object;
  std::string origin;
  std::string &error;
};

/// A float fake-cast by bit width (AIMET's qtype.from_legacy_repr): 16 is
/// IEEE half (E5M10), 8 is E4M3 with infinities (max 240). Returns false
/// for 32, which is no fake-cast at all.
bool setFloatFormat(EntryReader &reader, AimetEncoding &encoding,
                    int64_t bitwidth, bool &keep) {
  encoding.isFloat = true;
  keep = bitwidth != 32;
  if (bitwidth == 16) {
    encoding.exponentBits = 5;
    encoding.mantissaBits = 10;
  } else if (bitwidth == 8) {
    encoding.exponentBits = 4;
    encoding.mantissaBits = 3;
  } else if (bitwidth != 32) {
    return reader.fail(llvm::formatv(
        "a float encoding of {0} bits is not supported (16, 8 or 32)",
        bitwidth));
  }
  return true;
}

/// The grid and AIMET offsets of a 0.6.1 or 1.0.0 integer entry, from the
/// file's unsigned-grid offsets.
bool setUnsignedGridEncoding(EntryReader &reader, AimetEncoding &encoding,
                             int64_t bitwidth, bool symmetric,
                             std::vector<double> fileOffsets) {
  if (bitwidth < 1 || bitwidth > 32)
    return reader.fail(llvm::formatv(
        "a bit width of {0} is not supported (1 to 32)", bitwidth));
  for (double offset : fileOffsets) {
    if (offset != std::floor(offset))
      return reader.fail("offsets must be integers");
    // AIMET clamps offsets into [-(2^bw - 1), 0] on this grid; a positive
    // one is another convention (TensorFlow-era files).
    if (offset > 0 || offset < -std::ldexp(1.0, bitwidth))
      return reader.fail(llvm::formatv(
          "offset {0} is not on AIMET's unsigned grid [-(2^{1} - 1), 0]",
          static_cast<int64_t>(offset), bitwidth));
  }
  double half = std::ldexp(1.0, bitwidth - 1);
  auto all = [&](double value) {
    return llvm::all_of(fileOffsets, [&](double o) { return o == value; });
  };
  if (symmetric && bitwidth > 1 && all(-half)) {
    // Signed symmetric: [-2^(bw-1), 2^(bw-1) - 1] with offset 0.
    encoding.range = *QuantRange::fromBitwidth(bitwidth, /*isSigned=*/true);
    encoding.offsets.assign(fileOffsets.size(), 0.0);
  } else if (symmetric && bitwidth > 1 && all(1 - half)) {
    // Strict symmetric: AIMET calibrated it on [-(2^(bw-1) - 1),
    // 2^(bw-1) - 1]; the file's max is (2^(bw-1) - 1) * scale.
    auto top = static_cast<int64_t>(half) - 1;
    encoding.range = QuantRange(-top, top);
    encoding.offsets.assign(fileOffsets.size(), 0.0);
  } else {
    encoding.range = *QuantRange::fromBitwidth(bitwidth, /*isSigned=*/false);
    encoding.offsets = std::move(fileOffsets);
  }
  return true;
}

/// One channel's dict of a 0.6.1 entry.
struct LegacyChannel {
  bool isFloat = false;
  int64_t bitwidth = 0;
  bool symmetric = false;
  double scale = 0, offset = 0;
};

bool readLegacyEntry(llvm::StringRef name, const json::Value &value,
                     llvm::StringRef section, AimetEncodingFile &file,
                     std::string &error) {
  std::string origin =
      llvm::formatv("format {0}, {1}['{2}']", file.version, section, name);
  const json::Array *channels = value.getAsArray();
  if (!channels || channels->empty()) {
    error = origin + ": must be a non-empty list of encodings";
    return false;
  }
  std::vector<LegacyChannel> read;
  for (const json::Value &channelValue : *channels) {
    const json::Object *object = channelValue.getAsObject();
    if (!object) {
      error = origin + ": each channel's encoding must be an object";
      return false;
    }
    EntryReader reader(*object, origin, error);
    LegacyChannel channel;
    std::string dtype = "int";
    if (reader.has("dtype")) {
      std::optional<std::string> d = reader.string("dtype");
      if (!d)
        return false;
      dtype = llvm::StringRef(*d).lower();
    }
    if (dtype != "int" && dtype != "float")
      return reader.fail("dtype '" + dtype + "' is not int or float");
    channel.isFloat = dtype == "float";
    std::optional<int64_t> bitwidth = reader.integer("bitwidth");
    if (!bitwidth)
      return false;
    channel.bitwidth = *bitwidth;
    if (!channel.isFloat) {
      std::optional<bool> symmetric = reader.boolean("is_symmetric");
      std::optional<double> scale = reader.number("scale");
      std::optional<double> offset = reader.number("offset");
      if (!symmetric || !scale || !offset)
        return false;
      channel.symmetric = *symmetric;
      channel.scale = *scale;
      channel.offset = *offset;
    }
    read.push_back(channel);
  }
  json::Object none;
  EntryReader reader(none, origin, error);
  const LegacyChannel &first = read.front();
  for (const LegacyChannel &channel : read)
    if (channel.isFloat != first.isFloat ||
        channel.bitwidth != first.bitwidth ||
        channel.symmetric != first.symmetric)
      return reader.fail("channels differ in dtype, bitwidth or symmetry");
  AimetEncoding encoding;
  encoding.name = name.str();
  encoding.origin = origin;
  if (first.isFloat) {
    bool keep = false;
    if (!setFloatFormat(reader, encoding, first.bitwidth, keep))
      return false;
    if (keep)
      file.encodings.push_back(std::move(encoding));
    return true;
  }
  std::vector<double> offsets;
  for (const LegacyChannel &channel : read) {
    encoding.scales.push_back(channel.scale);
    offsets.push_back(channel.offset);
  }
  encoding.layout = read.size() > 1 ? AimetEncoding::Layout::PerChannel
                                    : AimetEncoding::Layout::PerTensor;
  if (!setUnsignedGridEncoding(reader, encoding, first.bitwidth,
                               first.symmetric, std::move(offsets)))
    return false;
  file.encodings.push_back(std::move(encoding));
  return true;
}

/// A 1.0.0 or 2.x entry: an object with a "name", which `origin` then
/// names too. Nothing (and `error` set) otherwise.
const json::Object *namedEntry(const json::Value &value, std::string &origin,
                               std::string &name, std::string &error) {
  const json::Object *object = value.getAsObject();
  if (!object) {
    error = origin + ": must be an object";
    return nullptr;
  }
  EntryReader reader(*object, origin, error);
  std::optional<std::string> read = reader.string("name");
  if (!read)
    return nullptr;
  name = *read;
  origin += " ('" + name + "')";
  return object;
}

bool readVersion1Entry(const json::Value &value, std::string origin,
                       AimetEncodingFile &file, std::string &error) {
  std::string name;
  const json::Object *object = namedEntry(value, origin, name, error);
  if (!object)
    return false;
  EntryReader named(*object, origin, error);
  std::optional<std::string> dtype = named.string("dtype");
  std::optional<int64_t> bitwidth = named.integer("bw");
  if (!dtype || !bitwidth)
    return false;
  AimetEncoding encoding;
  encoding.name = name;
  encoding.origin = origin;
  std::string kind = llvm::StringRef(*dtype).upper();
  if (kind == "FLOAT") {
    bool keep = false;
    if (!setFloatFormat(named, encoding, *bitwidth, keep))
      return false;
    if (keep)
      file.encodings.push_back(std::move(encoding));
    return true;
  }
  if (kind != "INT")
    return named.fail("dtype '" + *dtype + "' is not INT or FLOAT");
  if (named.has("zero_point_shift"))
    return named.fail("'zero_point_shift' is not supported");
  std::string encType = "PER_TENSOR";
  if (named.has("enc_type")) {
    std::optional<std::string> e = named.string("enc_type");
    if (!e)
      return false;
    encType = *e;
  }
  std::optional<bool> symmetric = named.boolean("is_sym");
  if (!symmetric)
    return false;
  std::vector<int64_t> shape;
  std::vector<double> offsets;
  if (!named.numbers("scale", encoding.scales, shape) ||
      !named.numbers("offset", offsets, shape))
    return false;
  if (offsets.size() != encoding.scales.size())
    return named.fail("'scale' and 'offset' differ in length");
  if (encType == "PER_TENSOR") {
    if (encoding.scales.size() != 1)
      return named.fail("a PER_TENSOR encoding has one scale");
  } else if (encType == "PER_CHANNEL") {
    encoding.layout = AimetEncoding::Layout::PerChannel;
  } else if (encType == "PER_BLOCK" || encType == "LPBQ") {
    encoding.layout = AimetEncoding::Layout::PerBlock;
    std::optional<int64_t> blockSize = named.integer("block_size");
    if (!blockSize)
      return false;
    if (*blockSize <= 0)
      return named.fail("'block_size' must be positive");
    encoding.blockSize = *blockSize;
  } else {
    return named.fail("enc_type '" + encType + "' is not supported");
  }
  if (encType == "LPBQ") {
    // The stored offsets follow the decompressed width `bw`; the grid is
    // signed symmetric `compressed_bw` bits with offset 0 (AIMET's loader
    // overwrites them the same way).
    std::optional<int64_t> compressed = named.integer("compressed_bw");
    if (!compressed)
      return false;
    if (*compressed < 2 || *compressed > *bitwidth)
      return named.fail("'compressed_bw' must be in [2, bw]");
    std::vector<int64_t> intShape;
    if (!named.numbers("per_block_int_scale", encoding.lpbqIntScales, intShape))
      return false;
    if (encoding.lpbqIntScales.empty() ||
        encoding.lpbqIntScales.size() % encoding.scales.size() != 0)
      return named.fail("'per_block_int_scale' must hold a whole number of "
                        "blocks per channel");
    encoding.range = *QuantRange::fromBitwidth(*compressed, true);
    encoding.offsets.assign(encoding.scales.size(), 0.0);
    file.encodings.push_back(std::move(encoding));
    return true;
  }
  if (!setUnsignedGridEncoding(named, encoding, *bitwidth, *symmetric,
                               std::move(offsets)))
    return false;
  file.encodings.push_back(std::move(encoding));
  return true;
}

/// `intN` or `uintN` (N in 1..32) as a grid.
std::optional<QuantRange> gridOfDtype(llvm::StringRef dtype) {
  bool isSigned = dtype.consume_front("int");
  if (!isSigned && !dtype.consume_front("uint"))
    return std::nullopt;
  unsigned bits = 0;
  if (dtype.getAsInteger(10, bits) || bits < 1 || bits > 32 ||
      (isSigned && bits < 2))
    return std::nullopt;
  FailureOr<QuantRange> range = QuantRange::fromBitwidth(bits, isSigned);
  return succeeded(range) ? std::optional<QuantRange>(*range) : std::nullopt;
}

/// Row-major strides of `shape`.
std::vector<int64_t> stridesOf(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

bool readVersion2Entry(const json::Value &value, std::string origin,
                       AimetEncodingFile &file, std::string &error) {
  std::string name;
  const json::Object *object = namedEntry(value, origin, name, error);
  if (!object)
    return false;
  EntryReader named(*object, origin, error);
  std::optional<std::string> dtype = named.string("output_dtype");
  if (!dtype)
    return false;
  std::optional<QuantRange> grid = gridOfDtype(*dtype);
  if (!grid)
    return named.fail("output_dtype '" + *dtype +
                      "' is not supported (int2 to int32, uint1 to uint32)");
  AimetEncoding encoding;
  encoding.name = name;
  encoding.origin = origin;
  encoding.range = *grid;
  if (named.has("axis")) {
    std::optional<int64_t> axis = named.integer("axis");
    if (!axis)
      return false;
    encoding.axis = axis;
  }
  if (named.has("block_size")) {
    std::optional<int64_t> blockSize = named.integer("block_size");
    if (!blockSize)
      return false;
    if (*blockSize <= 0)
      return named.fail("'block_size' must be positive");
    encoding.blockSize = *blockSize;
  }
  std::vector<int64_t> shape;
  if (named.has("per_block_int_scale")) {
    // LPBQ: the block scale is per_channel_float_scale (broadcast along the
    // block axis) times the integer, in f32 as AIMET computes it.
    std::vector<double> ints, perChannel;
    std::vector<int64_t> channelShape;
    if (!named.numbers("per_block_int_scale", ints, shape) ||
        !named.numbers("per_channel_float_scale", perChannel, channelShape))
      return false;
    if (!encoding.axis || encoding.blockSize == 0)
      return named.fail("an LPBQ encoding needs 'axis' and 'block_size'");
    if (channelShape.size() != shape.size())
      return named.fail("'per_channel_float_scale' and "
                        "'per_block_int_scale' differ in rank");
    std::vector<int64_t> strides = stridesOf(shape),
                         channelStrides = stridesOf(channelShape);
    for (size_t d = 0; d < shape.size(); ++d)
      if (channelShape[d] != shape[d] && channelShape[d] != 1)
        return named.fail("'per_channel_float_scale' does not broadcast to "
                          "'per_block_int_scale'");
    for (size_t i = 0; i < ints.size(); ++i) {
      int64_t index = 0;
      for (size_t d = 0; d < shape.size(); ++d) {
        int64_t coordinate = (static_cast<int64_t>(i) / strides[d]) % shape[d];
        if (channelShape[d] != 1)
          index += coordinate * channelStrides[d];
      }
      float product =
          static_cast<float>(perChannel[index]) * static_cast<float>(ints[i]);
      encoding.scales.push_back(product);
    }
    encoding.offsets.assign(encoding.scales.size(), 0.0);
    encoding.layout = AimetEncoding::Layout::PerBlock;
    encoding.scaleShape = shape;
    file.encodings.push_back(std::move(encoding));
    return true;
  }
  if (!named.numbers("y_scale", encoding.scales, shape))
    return false;
  if (named.has("y_zero_point")) {
    std::vector<int64_t> zeroPointShape;
    std::vector<double> zeroPoints;
    if (!named.numbers("y_zero_point", zeroPoints, zeroPointShape))
      return false;
    if (zeroPointShape != shape)
      return named.fail("'y_zero_point' and 'y_scale' differ in shape");
    for (double zeroPoint : zeroPoints) {
      if (zeroPoint != std::floor(zeroPoint))
        return named.fail("'y_zero_point' must hold integers");
      if (zeroPoint < static_cast<double>(grid->qmin) ||
          zeroPoint > static_cast<double>(grid->qmax))
        return named.fail(
            llvm::formatv("y_zero_point {0} is not an integer of {1}",
                          static_cast<int64_t>(zeroPoint), *dtype));
      encoding.offsets.push_back(zeroPoint == 0 ? 0.0 : -zeroPoint);
    }
  } else {
    encoding.offsets.assign(encoding.scales.size(), 0.0);
  }
  if (encoding.blockSize != 0) {
    if (!encoding.axis)
      return named.fail("a blocked encoding needs 'axis'");
    encoding.layout = AimetEncoding::Layout::PerBlock;
    encoding.scaleShape = shape;
  } else if (!shape.empty() && encoding.axis) {
    if (shape.size() != 1)
      return named.fail("a per-channel 'y_scale' must be a flat list");
    encoding.layout = AimetEncoding::Layout::PerChannel;
  } else if (encoding.scales.size() != 1) {
    return named.fail("several scales need 'axis'");
  }
  file.encodings.push_back(std::move(encoding));
  return true;
}

} // namespace

std::optional<AimetEncodingFile>
mlir::quant_affine::onnx_import::parseAimetEncodings(llvm::StringRef text,
                                                     std::string &error) {
  llvm::Expected<json::Value> parsed = json::parse(text);
  if (!parsed) {
    error = "not valid JSON: " + llvm::toString(parsed.takeError());
    return std::nullopt;
  }
  const json::Object *root = parsed->getAsObject();
  if (!root) {
    error = "the top level must be an object";
    return std::nullopt;
  }
  AimetEncodingFile file;
  if (const json::Value *version = root->get("version")) {
    std::optional<llvm::StringRef> v = version->getAsString();
    if (!v) {
      error = "'version' must be a string";
      return std::nullopt;
    }
    file.version = v->str();
  } else {
    // Files before 0.6.1 carry no version; their layout is 0.6.1's.
    file.version = root->get("encodings") ? "2.0.0" : "0.6.1";
  }
  llvm::StringRef version = file.version;
  if (version.starts_with("2.")) {
    const json::Array *entries =
        root->get("encodings") ? root->get("encodings")->getAsArray() : nullptr;
    if (!entries) {
      error = "format " + file.version + ": 'encodings' must be a list";
      return std::nullopt;
    }
    for (auto [index, entry] : llvm::enumerate(*entries))
      if (!readVersion2Entry(
              entry,
              llvm::formatv("format {0}, encodings[{1}]", version, index), file,
              error))
        return std::nullopt;
    return file;
  }
  bool legacy = version == "0.6.1" || version == "0.5.0" || version == "0.4.0";
  if (!legacy && version != "1.0.0") {
    error =
        "version '" + file.version + "' is not supported (0.6.1, 1.0.0 or 2.x)";
    return std::nullopt;
  }
  for (llvm::StringRef section : {"activation_encodings", "param_encodings"}) {
    const json::Value *value = root->get(section);
    if (!value)
      continue;
    if (legacy) {
      const json::Object *entries = value->getAsObject();
      if (!entries) {
        error = llvm::formatv("format {0}: '{1}' must be an object", version,
                              section);
        return std::nullopt;
      }
      // JSON objects are unordered; read them by name, for stable output.
      std::vector<llvm::StringRef> names;
      for (const auto &entry : *entries)
        names.push_back(entry.first);
      llvm::sort(names);
      for (llvm::StringRef name : names)
        if (!readLegacyEntry(name, *entries->get(name), section, file, error))
          return std::nullopt;
      continue;
    }
    const json::Array *entries = value->getAsArray();
    if (!entries) {
      error =
          llvm::formatv("format {0}: '{1}' must be a list", version, section);
      return std::nullopt;
    }
    for (auto [index, entry] : llvm::enumerate(*entries))
      if (!readVersion1Entry(
              entry,
              llvm::formatv("format {0}, {1}[{2}]", version, section, index),
              file, error))
        return std::nullopt;
  }
  return file;
}
