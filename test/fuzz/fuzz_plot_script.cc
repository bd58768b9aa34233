// The gnuplot script writer of `plot` (tools/plot/plot_scripts.hh) on arbitrary
// strings in every field a recording provides (host, metadata keys and
// values, disk and interface names, mark labels, the rows of pressure,
// process and cgroup tables) and in the -p and -o file names. gnuplot runs
// commands from anything outside a '...' string, so, for the scripts of
// every chart:
//   - outside strings, each script is exactly the script written for the
//     same recording with plain names ("n0", "n1", ...): no byte of a field
//     reaches it;
//   - a string is '...' pieces on one line, or the writer's two constants
//     "'" and "\n", joined by '.';
//   - read back as gnuplot reads it, each field's string is the field,
//     control bytes and bytes that are not UTF-8 shown as '?'; a file name
//     is exact, or refused (UsageError) for a control byte.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "common/error.hh"
#include "proto/pgr_collector_spec.hh"
#include "tools/plot/plot_scripts.hh"
#include "test/fuzz/fuzz_check.hh"

using pm::fuzz::Require;

namespace {

struct Fields {
  std::string host;
  pm::MetaList meta;
  std::vector<std::string> disks, nets, marks;
  std::vector<std::vector<std::string>> rows;  // per member of named rows
  std::string data_prefix, output_prefix;
  pm::ChartType type = pm::ChartType::kPdf;
};

std::vector<std::string> Strings(FuzzedDataProvider& in, size_t min, size_t max) {
  std::vector<std::string> out(in.ConsumeIntegralInRange<size_t>(min, max));
  for (std::string& s : out) s = in.ConsumeRandomLengthString(300);
  return out;
}

Fields Consume(FuzzedDataProvider& in) {
  Fields f;
  f.host = in.ConsumeRandomLengthString(300);
  for (const std::string& key : Strings(in, 0, 3))
    f.meta.emplace_back(key, in.ConsumeRandomLengthString(300));
  f.disks = Strings(in, 1, 3);
  f.nets = Strings(in, 0, 2);
  f.marks = Strings(in, 0, 3);
  for (size_t m = 0; m < pm::MemberCount(); ++m)
    if (pm::MemberAt(m).rows == pm::PgrRows::kNamed) f.rows.push_back(Strings(in, 0, 2));
  f.data_prefix = in.ConsumeRandomLengthString(100);
  f.output_prefix = in.ConsumeRandomLengthString(100);
  f.type = in.PickValueInArray({pm::ChartType::kPdf, pm::ChartType::kPng, pm::ChartType::kSvg});
  return f;
}

// The same shape with plain strings: equal names stay equal (a recording's
// devices are keyed by name) and "total" stays (a device of that name adds
// to the total and is not listed, as in PerfMonger).
std::vector<std::string> Plain(const std::vector<std::string>& names, const char* tag) {
  std::map<std::string, std::string> seen = {{"total", "total"}};
  std::vector<std::string> out;
  for (const std::string& n : names) {
    auto [it, added] = seen.emplace(n, std::string(tag) + std::to_string(seen.size()));
    out.push_back(it->second);
  }
  return out;
}

Fields Neutral(const Fields& f) {
  Fields plain = f;
  plain.host = "h";
  for (auto& [key, value] : plain.meta) key = "k", value = "v";
  plain.disks = Plain(f.disks, "n");
  plain.nets = Plain(f.nets, "n");
  plain.marks = Plain(f.marks, "m");
  for (auto& rows : plain.rows) rows = Plain(rows, "r");
  plain.data_prefix = plain.output_prefix = "p";
  return plain;
}

// Member `m`'s row names: cpu's aggregate and one core, the fuzzed disk
// and interface names, the fuzzed names of the named rows (pressure
// resources, process ids, cgroup paths) in member order.
std::vector<std::string> RowNames(const Fields& f, const pm::PgrMember& member, size_t& named) {
  switch (member.rows) {
    case pm::PgrRows::kOne: return {""};
    case pm::PgrRows::kCores: return {"all", "0"};
    case pm::PgrRows::kDevices: return member.key == "disk" ? f.disks : f.nets;
    case pm::PgrRows::kNamed: return f.rows[named++];
    case pm::PgrRows::kPerCpu: return {"0"};
  }
  return {};
}

// Every member carried, every counter growing with `k` (the CPUs busy a
// third of the time); intr has one CPU.
pm::RawSample Sample(const Fields& f, uint64_t k) {
  pm::RawSample s;
  s.time_ns = static_cast<int64_t>(k) * 1'000'000'000;
  s.mono_ns = s.time_ns;
  size_t named = 0;
  for (size_t m = 0; m < pm::MemberCount(); ++m) {
    const pm::PgrMember& member = pm::MemberAt(m);
    pm::MemberRows& rows = s.members[m];
    rows.has = true;
    rows.names = RowNames(f, member, named);
    rows.width = member.rows == pm::PgrRows::kPerCpu ? 1 : member.fields.size();
    rows.present.assign(rows.rows(), 1);
    rows.values.assign(rows.rows() * rows.width, 7 * k);
    if (member.rows != pm::PgrRows::kCores) continue;
    for (size_t r = 0; r < rows.rows(); ++r) {
      std::span<uint64_t> v = rows.row(r);
      std::fill(v.begin(), v.end(), 0);
      v[0] = v[2] = 5 * k;  // user, system
      v[3] = 20 * k;        // idle
    }
  }
  return s;
}

std::vector<pm::ChartScript> Scripts(const Fields& f) {
  pm::PlotData data;
  for (uint64_t k = 0; k < 4; ++k) data.OnSample(Sample(f, k));
  for (size_t i = 0; i < f.marks.size(); ++i) {
    pm::RecordingEvent mark;
    mark.kind = "mark";
    mark.time_ns = 1'000'000'000 + static_cast<int64_t>(i) * 500'000'000;
    mark.label = f.marks[i];
    data.OnEvent(mark);
  }
  pm::RecordingInfo info;
  info.host = f.host;
  info.start_ns = 1'700'000'000'000'000'000;
  info.meta = f.meta;
  pm::ChartSetup setup;
  setup.type = f.type;
  setup.subtitle = pm::Subtitle(info);
  setup.data_prefix = f.data_prefix;
  setup.output_prefix = f.output_prefix;
  return pm::MakeChartScripts(data, setup);
}

// A script with each string expression (pieces joined by " . ") as "S",
// and the strings' values as gnuplot reads them, in order.
struct Skeleton {
  std::string text;
  std::vector<std::string> strings;
};

Skeleton Skeletonize(const std::string& script) {
  Skeleton out;
  bool joining = false;  // the last thing written was a string: " . " joins
  for (size_t i = 0; i < script.size();) {
    char c = script[i];
    if (c == '\'' || c == '"') {
      size_t end = script.find(c, i + 1);
      Require(end != std::string::npos, "every string is closed");
      std::string body = script.substr(i + 1, end - i - 1);
      Require(body.find('\n') == std::string::npos, "a string stays on its line");
      if (c == '"') {
        Require(body == "'" || body == "\\n", "a \"...\" is one of the writer's constants");
        body = body == "'" ? "'" : "\n";
      }
      if (joining) out.strings.back() += body;
      else out.text += "S", out.strings.push_back(body);
      i = end + 1;
      joining = script.compare(i, 3, " . ") == 0;
      if (joining) i += 3;
      continue;
    }
    Require(!joining, "a ' . ' is followed by a string");
    if (c == '#') {  // a comment, to the end of the line
      size_t end = std::min(script.find('\n', i), script.size());
      out.text.append(script, i, end - i);
      i = end;
      continue;
    }
    out.text.push_back(c);
    ++i;
  }
  return out;
}

// What gp::Quote shows for `text`: each byte of a sequence that is not
// UTF-8, and each control byte, as '?'.
std::string Shown(const std::string& text) {
  Skeleton s = Skeletonize(pm::gp::Quote(text));
  Require(s.text == "S" && s.strings.size() == 1, "Quote writes one string expression");
  const std::string& shown = s.strings[0];
  Require(shown.size() == text.size(), "Quote shows each byte");
  for (size_t i = 0; i < shown.size(); ++i) {
    auto c = static_cast<unsigned char>(shown[i]);
    Require(c >= 0x20 && c != 0x7f, "Quote shows no control byte");
    Require(shown[i] == text[i] || c == '?', "Quote only replaces bytes, with '?'");
  }
  return shown;
}

bool Has(const std::vector<std::string>& strings, const std::string& s) {
  for (const std::string& x : strings)
    if (x.find(s) != std::string::npos) return true;
  return false;
}

void CheckValues(const Fields& f, const std::vector<std::string>& strings) {
  for (const std::string& m : f.marks) Require(Has(strings, Shown(m)), "a mark's label is shown");
  for (const std::string& d : f.disks)
    if (d != "total") Require(Has(strings, Shown(d + " read")), "a disk's name is shown");
  size_t named = 0;  // f.rows: pressure, procs, cgroups, cgroup_io (not plotted)
  for (size_t m = 0; m < pm::MemberCount(); ++m) {
    const pm::PgrMember& member = pm::MemberAt(m);
    if (member.rows != pm::PgrRows::kNamed) continue;
    const std::vector<std::string>& rows = f.rows[named++];
    if (member.key == "cgroup_io") continue;
    for (const std::string& r : rows)
      if (r != "total") Require(Has(strings, Shown(r)), "a pressure, process or cgroup name is shown");
  }
  if (f.host.size() < 100) Require(Has(strings, Shown("host " + f.host)), "the host is shown");
  std::string data = f.data_prefix.starts_with('/') ? f.data_prefix : "./" + f.data_prefix;
  Require(Has(strings, data + "cpu.dat"), "a data file is named exactly");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  FuzzedDataProvider in(bytes, size);
  Fields fields = Consume(in);
  std::vector<pm::ChartScript> scripts;
  try {
    scripts = Scripts(fields);
  } catch (const pm::UsageError&) {
    bool control = false;
    for (unsigned char c : fields.data_prefix + fields.output_prefix)
      control = control || c < 0x20 || c == 0x7f;
    Require(control, "only a file name with a control byte is refused");
    return 0;
  }
  std::vector<pm::ChartScript> plain = Scripts(Neutral(fields));
  Require(scripts.size() == plain.size(), "the same charts whatever the names");
  std::vector<std::string> strings;
  for (size_t i = 0; i < scripts.size(); ++i) {
    Skeleton s = Skeletonize(scripts[i].script);
    Require(s.text == Skeletonize(plain[i].script).text,
            "outside strings, the script does not depend on the names");
    strings.insert(strings.end(), s.strings.begin(), s.strings.end());
  }
  CheckValues(fields, strings);
  return 0;
}
