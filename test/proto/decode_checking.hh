// Decoding with the decompressor's checks made by the reader
// (DecompressingInput::DeferChecks: gzip's CRC-32, zstd's checksum), as
// playback/reading/prefetched_input.hh makes them: the oracle of test_codec.cc,
// test_prefetched_input.cc and fuzz_checks.cc.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "common/error.hh"
#include "proto/codec.hh"
#include "test/proto/one_byte_input.hh"

namespace pm::test {

// `bytes` decoded in reads of up to 7 bytes from a source that gives one
// byte at a time (a trailer straddles the decoder's input chunks), or all
// at once (`whole`: the decoder meets several frames in one call), with
// the checks made by the reader as PrefetchedInput makes them, from
// output byte `from` on (npos: by the decompressor throughout): the check
// points of a read are passed before its bytes after them, and before its
// failure. The text, then "|end" or "|" and the error.
inline std::string DecodeChecking(const std::string& bytes, size_t from, bool whole = false) {
  OneByteInput byte_by_byte(bytes);
  MemoryInputStream all(bytes);
  std::unique_ptr<DecompressingInput> in =
      MakeDecompressor(whole ? static_cast<InputStream&>(all) : byte_by_byte);
  std::unique_ptr<DeferredCheck> check;
  std::string out;
  uint64_t since = 0;  // bytes read since DeferChecks
  char buf[7];
  size_t n = 0, done = 0;
  auto take = [&](size_t upto) {
    if (check) check->Add({buf + done, upto - done});
    out.append(buf + done, upto - done);
    done = upto;
  };
  auto pass_points = [&] {
    for (CheckPoint point; in->TakeCheckPoint(point);) {
      take(static_cast<size_t>(point.at - since));
      check->At(point);
    }
  };
  try {
    for (;;) {
      if (!check && out.size() >= from && !(check = in->DeferChecks()))
        return out + "|no deferred check";
      n = done = 0;
      try {
        n = in->Read(buf);
      } catch (const FormatError&) {
        pass_points();
        throw;
      }
      pass_points();
      take(n);
      if (check) since += n;
      if (n == 0) return out + "|end";
    }
  } catch (const FormatError& e) {
    return out + "|" + e.what();
  }
}

}  // namespace pm::test
