// A decompressor's checks made by the reader instead of the decompressor
// (DecompressingInput::DeferChecks: gzip's CRC-32 and length, zstd's
// content checksum; as playback/reading/prefetched_input.hh makes them for
// summary) on arbitrary bytes: the same text, then the same end or the
// same error, as the decompressor's own checks give, whether the reader
// takes them over from the start or at an output byte the input chooses
// (its first byte; the rest is the gzip or zstd stream).
#include <cstddef>
#include <cstdint>
#include <string>

#include "proto/codec.hh"
#include "test/fuzz/fuzz_check.hh"
#include "test/proto/decode_checking.hh"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const size_t from = data[0];
  const std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (pm::DetectCompression(std::string_view(bytes).substr(0, pm::kMagicLength)) ==
      pm::Compression::kPlain)
    return 0;
  for (bool whole : {false, true}) {
    const std::string own = pm::test::DecodeChecking(bytes, std::string::npos, whole);
    pm::fuzz::Require(pm::test::DecodeChecking(bytes, 0, whole) == own,
                      "checks taken over at the start read as the decompressor's");
    pm::fuzz::Require(pm::test::DecodeChecking(bytes, from, whole) == own,
                      "checks taken over mid-stream read as the decompressor's");
  }
  return 0;
}
