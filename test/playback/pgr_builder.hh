// Native .pgr recordings built in memory as the recorder writes them: the
// header from EncodeHeaderLine with a "collectors" object shaped like the
// collectors' Describe() (the field lists of proto/columns/), sample
// lines from BeginSampleLine, the arrays in the collectors' exact shape
// (`null` rows included), EndLine; one Flush per line.
#pragma once

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "proto/codec.hh"
#include "proto/json.hh"
#include "proto/pgr_collector_spec.hh"
#include "proto/pgr_format.hh"
#include "playback/reading/raw_sample.hh"
#include "test/playback/sample_rows.hh"

namespace pm::test {

struct Shape {
  std::vector<int> core_ids{0, 1};
  std::vector<std::string> disks{"sda", "nvme0n1"};
  std::vector<std::string> nets{"eth0"};
  std::vector<std::pair<std::string, std::string>> intr{{"24", "PCI-MSI eth0"},
                                                        {"NMI", "Non-maskable"}};
  size_t intr_cpus = 2;
};

template <class Strings>
void AppendNames(std::string& out, const Strings& names) {
  out.push_back('[');
  for (const auto& name : names) {
    if (out.back() != '[') out.push_back(',');
    AppendJsonString(out, name);
  }
  out.push_back(']');
}

inline std::string CollectorsJson(const Shape& shape) {
  std::string out = "{\"cpu\":{\"fields\":";
  AppendNames(out, MemberAt(MemberIndexOf("cpu")).fields);
  out.append(",\"cores\":[");
  for (size_t i = 0; i < shape.core_ids.size(); ++i) {
    if (i != 0) out.push_back(',');
    AppendInt(out, shape.core_ids[i]);
  }
  out.append("]},\"proc\":{\"fields\":[\"ctxt\",\"processes\"]},\"disk\":{\"fields\":");
  AppendNames(out, MemberAt(MemberIndexOf("disk")).fields);
  out.append(",\"devices\":");
  AppendNames(out, shape.disks);
  out.append("},\"net\":{\"fields\":");
  AppendNames(out, MemberAt(MemberIndexOf("net")).fields);
  out.append(",\"devices\":");
  AppendNames(out, shape.nets);
  out.append("},\"mem\":{\"fields\":");
  AppendNames(out, MemberAt(MemberIndexOf("mem")).fields);
  out.append("},\"intr\":{\"cpus\":");
  AppendUint(out, shape.intr_cpus);
  out.append(",\"rows\":[");
  for (size_t i = 0; i < shape.intr.size(); ++i) {
    if (i != 0) out.push_back(',');
    out.append("{\"irq\":");
    AppendJsonString(out, shape.intr[i].first);
    out.append(",\"descr\":");
    AppendJsonString(out, shape.intr[i].second);
    out.push_back('}');
  }
  out.append("]}}");
  return out;
}

inline RecordingHeader Header(const Shape& shape, MetaList meta = {}) {
  RecordingHeader h;
  h.host = "host-1";
  h.kernel = "6.1.0";
  h.start_ns = 1'700'000'000'000'000'000;
  h.interval_ns = 1'000'000'000;
  h.num_core = static_cast<int>(shape.core_ids.size());
  h.pid = 4242;
  h.collectors_json = CollectorsJson(shape);
  h.meta = std::move(meta);
  return h;
}

inline void AppendRow(std::string& out, bool present, std::span<const uint64_t> v) {
  if (!present) return out.append("null"), void();
  out.push_back('[');
  for (size_t i = 0; i < v.size(); ++i) {
    if (i != 0) out.push_back(',');
    AppendUint(out, v[i]);
  }
  out.push_back(']');
}

// Every member the sample carries, as the recorder writes a sample line.
inline std::string SampleLine(const RawSample& s) {
  std::string out;
  BeginSampleLine(out, s.time_ns, s.mono_ns);
  for (size_t i = 0; i < s.members.size(); ++i) {
    const MemberRows& m = s.members[i];
    if (!m.has) continue;
    out.append(",\"").append(MemberAt(i).key).append("\":");
    if (MemberAt(i).rows == PgrRows::kOne) {
      AppendRow(out, true, m.row(0));
      continue;
    }
    out.push_back('[');
    for (size_t r = 0; r < m.rows(); ++r) {
      if (r != 0) out.push_back(',');
      AppendRow(out, m.live(r), m.row(r));
    }
    out.push_back(']');
  }
  EndLine(out);
  return out;
}

// A full sample of `shape` with distinct values derived from `k`; odd k
// has core 1, the second disk and the NMI row absent.
inline RawSample MakeSample(const Shape& shape, uint64_t k) {
  RawSample s;
  s.time_ns = 1'700'000'000'000'000'000 + static_cast<int64_t>(k) * 1'000'000'000;
  s.mono_ns = 5'000'000'000 + static_cast<int64_t>(k) * 1'000'000'000;
  uint64_t v = k * 1000 + (k == 3 ? UINT64_MAX - 5000 : 0);  // one huge counter set
  auto row = [&v](size_t width, bool present) {
    Values values(width, 0);
    if (present)
      for (uint64_t& c : values) c = ++v;
    return values;
  };
  bool odd = k % 2 == 1;
  AddRow(s, "cpu", "all", row(10, true));
  for (size_t i = 0; i < shape.core_ids.size(); ++i) {
    bool present = !(odd && i == 1);
    AddRow(s, "cpu", std::to_string(i), row(10, present), present);
  }
  AddRow(s, "proc", "", row(2, true));
  for (size_t i = 0; i < shape.disks.size(); ++i) {
    bool present = !(odd && i == 1);
    AddRow(s, "disk", shape.disks[i], row(MemberAt(MemberIndexOf("disk")).fields.size(), present), present);
  }
  for (const std::string& name : shape.nets) AddRow(s, "net", name, row(16, true));
  AddRow(s, "mem", "", row(30, true));
  for (const auto& [irq, descr] : shape.intr) {
    bool present = !(odd && irq == "NMI");
    AddRow(s, "intr", irq, row(shape.intr_cpus, present), present);
  }
  return s;
}

// Each line written and flushed as the recorder does; Finish at the end.
inline std::string Compress(Compression c, const std::vector<std::string>& lines) {
  StringOutputStream sink;
  auto compressor = MakeCompressor(c, sink);
  for (const std::string& line : lines) {
    compressor->Write(line);
    compressor->Flush();
  }
  compressor->Finish();
  return sink.data();
}

// Every member as text: comparisons that print what differs.
inline std::string Dump(const RawSample& s) {
  std::string out = "t=" + std::to_string(s.time_ns) + " mono=" + std::to_string(s.mono_ns);
  for (size_t i = 0; i < s.members.size(); ++i) {
    const MemberRows& m = s.members[i];
    if (!m.has) continue;  // whatever rows a reader keeps for it
    out.append("\n").append(MemberAt(i).key);
    for (size_t r = 0; r < m.rows(); ++r) {
      out.append(m.live(r) ? " [" : " null[");
      for (uint64_t v : m.row(r)) out.append(std::to_string(v)).push_back(' ');
      out.append("]").append(m.names[r]);
    }
  }
  return out;
}

inline std::string Dump(const RecordingEvent& e) {
  return "event " + e.kind + " t=" + std::to_string(e.time_ns) + " label=" + e.label +
         " reason=" + e.reason;
}

}  // namespace pm::test
