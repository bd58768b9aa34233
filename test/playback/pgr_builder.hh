// Native .pgr recordings built in memory as the recorder writes them: the
// header from EncodeHeaderLine with a "collectors" object shaped like the
// collectors' Describe() (the field lists of proto/pgr_columns.hh), sample
// lines from BeginSampleLine, the arrays in the collectors' exact shape
// (`null` rows included), EndLine; one Flush per line.
#pragma once

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "proto/codec.hh"
#include "proto/json.hh"
#include "proto/pgr_columns.hh"
#include "proto/pgr_format.hh"
#include "playback/raw_sample.hh"

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
  AppendNames(out, kCpuFields);
  out.append(",\"cores\":[");
  for (size_t i = 0; i < shape.core_ids.size(); ++i) {
    if (i != 0) out.push_back(',');
    AppendInt(out, shape.core_ids[i]);
  }
  out.append("]},\"proc\":{\"fields\":[\"ctxt\",\"processes\"]},\"disk\":{\"fields\":");
  AppendNames(out, kDiskFields);
  out.append(",\"devices\":");
  AppendNames(out, shape.disks);
  out.append("},\"net\":{\"fields\":");
  AppendNames(out, kNetFields);
  out.append(",\"devices\":");
  AppendNames(out, shape.nets);
  out.append("},\"mem\":{\"fields\":");
  AppendNames(out, kMemFields);
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

template <class Rows, class Fn>
void AppendTable(std::string& out, const char* key, const Rows& rows, Fn row) {
  out.append(",\"").append(key).append("\":[");
  for (size_t i = 0; i < rows.size(); ++i) {
    if (i != 0) out.push_back(',');
    row(rows[i]);
  }
  out.push_back(']');
}

// Every collector's member, as the recorder writes a sample line.
inline std::string SampleLine(const RawSample& s) {
  std::string out;
  BeginSampleLine(out, s.time_ns, s.mono_ns);
  out.append(",\"cpu\":[");
  AppendRow(out, s.cpu_total_present, s.cpu_total);
  for (const CoreSample& c : s.cores) AppendRow(out.append(","), c.present, c.counters);
  out.append("],\"proc\":");
  AppendRow(out, true, std::vector<uint64_t>{s.ctxt, s.processes});
  AppendTable(out, "disk", s.disks, [&](auto& d) { AppendRow(out, d.present, d.counters); });
  AppendTable(out, "net", s.nets, [&](auto& n) { AppendRow(out, n.present, n.counters); });
  out.append(",\"mem\":");
  AppendRow(out, true, s.mem);
  AppendTable(out, "intr", s.intr, [&](auto& r) { AppendRow(out, r.present, r.counts); });
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
  auto fill = [&v](auto& counters) {
    for (auto& c : counters) c = ++v;
  };
  bool odd = k % 2 == 1;
  s.has_cpu = s.has_proc = s.has_disk = s.has_net = s.has_mem = s.has_intr = true;
  s.cpu_total_present = true;
  fill(s.cpu_total);
  for (size_t i = 0; i < shape.core_ids.size(); ++i) {
    CoreSample& c = s.cores.emplace_back();
    c.present = !(odd && i == 1);
    if (c.present) fill(c.counters);
  }
  s.ctxt = ++v;
  s.processes = ++v;
  for (size_t i = 0; i < shape.disks.size(); ++i) {
    DiskSample& d = s.disks.emplace_back();
    d.name = shape.disks[i];
    d.present = !(odd && i == 1);
    if (d.present) fill(d.counters);
  }
  for (const std::string& name : shape.nets) {
    NetSample& n = s.nets.emplace_back();
    n.name = name;
    n.present = true;
    fill(n.counters);
  }
  fill(s.mem);
  for (const auto& [irq, descr] : shape.intr) {
    IntrSample& r = s.intr.emplace_back();
    r.irq = irq;
    r.numbered = irq.find_first_not_of("0123456789") == std::string::npos;
    r.present = !(odd && irq == "NMI");
    r.counts.assign(shape.intr_cpus, 0);
    if (r.present) fill(r.counts);
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

// Every field as text: comparisons that print what differs.
inline std::string Dump(const RawSample& s) {
  std::string out = "t=" + std::to_string(s.time_ns) + " mono=" + std::to_string(s.mono_ns);
  auto row = [&out](bool present, const auto& values) {
    out.append(present ? " [" : " null[");
    for (uint64_t v : values) out.append(std::to_string(v)).push_back(' ');
    out.push_back(']');
  };
  out.append(s.has_cpu ? "\ncpu" : "\nno cpu");
  row(s.cpu_total_present, s.cpu_total);
  for (const CoreSample& c : s.cores) row(c.present, c.counters);
  out.append(s.has_proc ? "\nproc " : "\nno proc ");
  out.append(std::to_string(s.ctxt) + " " + std::to_string(s.processes));
  out.append(s.has_disk ? "\ndisk" : "\nno disk");
  for (const DiskSample& d : s.disks) row(d.present, d.counters), out.append(d.name);
  out.append(s.has_net ? "\nnet" : "\nno net");
  for (const NetSample& n : s.nets) row(n.present, n.counters), out.append(n.name);
  out.append(s.has_mem ? "\nmem" : "\nno mem");
  row(true, s.mem);
  out.append(s.has_intr ? "\nintr" : "\nno intr");
  for (const IntrSample& r : s.intr)
    row(r.present, r.counts), out.append(r.irq + (r.numbered ? "#" : ""));
  return out;
}

inline std::string Dump(const RecordingEvent& e) {
  return "event " + e.kind + " t=" + std::to_string(e.time_ns) + " label=" + e.label +
         " reason=" + e.reason;
}

}  // namespace pm::test
