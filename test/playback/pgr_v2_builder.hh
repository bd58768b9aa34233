// Recordings in both formats from the same samples (test_pgr_v2.cc,
// test_skimmed_deltas.cc): v1 lines as written, v2 lines through the
// recorder's encoder.
#pragma once

#include <algorithm>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "playback/reading/delta_decoder.hh"
#include "proto/pgr_delta.hh"
#include "test/playback/pgr_builder.hh"

namespace pm::test {

// The lines of one recording, as v1 and as v2 (the recorder's encoder).
struct TwoVersions {
  std::vector<std::string> v1, v2;
  std::vector<size_t> keyframe_lines;  // indexes into v2 of its sample keyframes

  void Header(const Shape& shape) {
    RecordingHeader h = pm::test::Header(shape);
    v1.push_back(EncodeHeaderLine(h));
    h.version = kPgrDeltaVersion;
    v2.push_back(EncodeHeaderLine(h));
  }
  void Event(std::string_view kind, int64_t t, std::string_view label = {}) {
    v1.push_back(EncodeEventLine(kind, t, t, label));
    v2.push_back(v1.back());
    if (kind == "resume") enc.ForceKeyframe();
  }
  void Sample(const RawSample& s) {
    v1.push_back(SampleLine(s));
    v2.emplace_back(enc.Encode(v1.back(), s.mono_ns));
    if (!DeltaDecoder::IsDelta(v2.back())) keyframe_lines.push_back(v2.size() - 1);
  }
  DeltaEncoder enc;
};

// 300 samples at 100 ms: counters that reset now and then, a core offline
// for a while, a pause with a mark in the middle.
inline TwoVersions MakeRecording(uint64_t seed) {
  std::mt19937_64 rng(seed);
  Shape shape;
  TwoVersions rec;
  rec.Header(shape);
  for (uint64_t k = 0; k < 300; ++k) {
    RawSample s = MakeSample(shape, k);
    s.time_ns = 1'700'000'000'000'000'000 + static_cast<int64_t>(k) * 100'000'000;
    s.mono_ns = 5'000'000'000 + static_cast<int64_t>(k) * 100'000'000;
    // MakeSample's odd samples null some rows: here all rows are present
    // but for the offline window below.
    MemberRows &cpu = Member(s, "cpu"), &disk = Member(s, "disk");
    for (MemberRows* m : {&cpu, &disk, &Member(s, "intr")})
      std::fill(m->present.begin(), m->present.end(), 1);
    if (rng() % 30 == 0) cpu.row(0)[rng() % 10] = rng() % 7;             // a reset
    if (rng() % 30 == 0) disk.row(0)[rng() % 11] = UINT64_MAX - k;       // near wrap
    if (k >= 100 && k < 110) cpu.present[2] = 0;                          // core 1 offline
    if (k == 150) rec.Event("pause", s.time_ns);
    if (k == 155) rec.Event("mark", s.time_ns, "phase \"two\"");
    if (k == 160) rec.Event("resume", s.time_ns);
    if (k >= 150 && k < 160) continue;
    rec.Sample(s);
  }
  return rec;
}

}  // namespace pm::test
