// A recording read in full or skimmed (summary's reading), item by item,
// for the tests that hold the two alike (test_skimmed_reading.cc,
// test_skimmed_deltas.cc).
#pragma once

#include <string>
#include <vector>

#include "common/error.hh"
#include "playback/reading/recording_reader.hh"
#include "proto/stream.hh"
#include "test/playback/pgr_builder.hh"
#include "test/playback/damage.hh"

namespace pm::test {

struct Read {
  std::vector<std::string> items;  // Dump() of each sample and event
  std::vector<bool> is_sample;
  std::vector<std::string> warnings;
  uint64_t samples = 0;
  bool truncated = false;
  std::string error = "no error";
};

inline Read ReadAll(const std::string& bytes, bool skim) {
  using Item = RecordingReader::Item;
  Read out;
  try {
    MemoryInputStream in(bytes);
    RecordingReader reader(in);
    if (skim) reader.SkimSamples();
    RawSample s;
    RecordingEvent e;
    for (Item item; (item = reader.Next(s, e)) != Item::kEnd;) {
      out.items.push_back(item == Item::kSample ? Dump(s) : Dump(e));
      out.is_sample.push_back(item == Item::kSample);
    }
    out.samples = reader.samples_read();
    out.truncated = reader.truncated();
    out.warnings.assign(reader.warnings().begin(), reader.warnings().end());
    if (reader.damaged()) out.error = FirstDamage(reader.warnings());
  } catch (const FormatError& e) {
    out.error = e.what();
  }
  return out;
}

}  // namespace pm::test
