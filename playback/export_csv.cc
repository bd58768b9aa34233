#include "playback/export_csv.hh"

#include <array>
#include <string_view>

namespace pm {
namespace {

constexpr std::array<std::string_view, 10> kCpuKeys = {
    "usr", "nice", "sys", "idle", "iowait", "hardirq", "softirq", "steal", "guest", "guestnice"};
constexpr std::array<std::string_view, 9> kDiskKeys = {
    "riops", "wiops", "rkbyteps", "wkbyteps", "rlatency", "wlatency", "rsize", "wsize", "qlen"};
constexpr std::array<std::string_view, 8> kNetKeys = {
    "rxkbyteps", "rxpktps", "rxerrps", "rxdropps", "txkbyteps", "txpktps", "txerrps", "txdropps"};

std::array<double, 10> CpuValues(const CpuUsage& u) {
  return {u.usr, u.nice, u.sys, u.idle, u.iowait, u.hardirq, u.softirq, u.steal, u.guest,
          u.guestnice};
}
std::array<double, 9> DiskValues(const DiskRates& d) {
  return {d.riops, d.wiops, d.rkbyteps, d.wkbyteps, d.rlatency, d.wlatency, d.rsize, d.wsize,
          d.qlen};
}
std::array<double, 8> NetValues(const NetRates& n) {
  return {n.rxkbyteps, n.rxpktps, n.rxerrps, n.rxdropps, n.txkbyteps, n.txpktps, n.txerrps,
          n.txdropps};
}

// `,prefix.key` for every key.
template <size_t N>
void Names(std::string& out, const std::string& prefix,
           const std::array<std::string_view, N>& keys) {
  for (std::string_view k : keys) {
    out.push_back(',');
    AppendCsvField(out, prefix + "." + std::string(k));
  }
}

// `,v` per value (precision 3 where `latency` says so), or empty cells.
template <size_t N>
void Cells(std::string& out, const std::array<double, N>* values, int latency_from = -1,
           int latency_to = -1) {
  char buf[N * (1 + kFixedTextMax)];  // one append per device
  char* p = buf;
  for (size_t i = 0; i < N; ++i) {
    p = Put(p, ',');
    if (values == nullptr) continue;
    int digits = static_cast<int>(i) >= latency_from && static_cast<int>(i) < latency_to ? 3 : 2;
    p = WriteFixed(p, (*values)[i], digits);
  }
  AppendWritten(out, buf, p);
}

// The rates of each named device (header order), matched by name in the
// sorted `have`; true when `have` holds one the header lacks.
template <typename T, typename F>
bool DeviceCells(std::string& out, const std::vector<std::string>& names,
                 const std::vector<std::pair<std::string, T>>& have, F cells) {
  size_t j = 0, matched = 0;
  for (const std::string& name : names) {
    while (j < have.size() && have[j].first < name) ++j;
    bool found = j < have.size() && have[j].first == name;
    cells(out, found ? &have[j].second : nullptr);
    matched += found ? 1 : 0;
  }
  return matched < have.size();
}

}  // namespace

void AppendCsvField(std::string& out, std::string_view field) {
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) {
    out.append(field);
    return;
  }
  out.push_back('"');
  for (char c : field) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
}

void CsvExport::SetColumns(const PairRates& r) {
  has_cpu_ = r.has_cpu;
  cores_ = r.cpu.cores.size();
  has_intr_ = r.has_intr;
  intr_dev_ = r.intr.core_dev_intr.size();
  intr_sys_ = r.intr.core_sys_intr.size();
  has_disk_ = r.has_disk;
  for (const auto& d : r.disks) disks_.push_back(d.first);
  has_net_ = r.has_net;
  for (const auto& n : r.nets) nets_.push_back(n.first);
  has_mem_ = r.has_mem;
}

void CsvExport::AppendHeader(std::string& out) const {
  out.append("time,elapsed_time");
  if (has_cpu_) {
    Names(out, "cpu.all", kCpuKeys);
    for (size_t i = 0; i < cores_; ++i) Names(out, "cpu.cores." + std::to_string(i), kCpuKeys);
  }
  if (has_intr_) {
    for (size_t i = 0; i < intr_dev_; ++i) out.append(",intr.core_dev_intr." + std::to_string(i));
    for (size_t i = 0; i < intr_sys_; ++i) out.append(",intr.core_sys_intr." + std::to_string(i));
  }
  if (has_disk_) {
    for (const std::string& d : disks_) Names(out, "disk." + d, kDiskKeys);
    Names(out, "disk.total", kDiskKeys);
  }
  if (has_net_) {
    for (const std::string& n : nets_) Names(out, "net." + n, kNetKeys);
    Names(out, "net.total", kNetKeys);
  }
  if (has_mem_)
    for (const PlayMemKey& k : PlayMemKeys()) out.append(",mem.").append(k.key);
  out.append("\r\n");
}

void CsvExport::AppendRow(std::string& out, const PairRates& r) {
  if (!started_) {
    SetColumns(r);
    AppendHeader(out);
    started_ = true;
  }
  char times[2 * kFixedTextMax + 1];
  char* end = WriteFixed(Put(WriteFixed(times, r.time, 3), ','), r.elapsed_time, 3);
  AppendWritten(out, times, end);
  if (has_cpu_) {
    auto all = CpuValues(r.cpu.all);
    Cells(out, r.has_cpu ? &all : nullptr);
    for (size_t i = 0; i < cores_; ++i) {
      bool have = r.has_cpu && i < r.cpu.cores.size();
      auto core = have ? CpuValues(r.cpu.cores[i]) : std::array<double, 10>{};
      Cells(out, have ? &core : nullptr);
    }
  }
  if (has_intr_) {
    auto cells = [&](const std::vector<double>& v, size_t n) {
      for (size_t i = 0; i < n; ++i) {
        out.push_back(',');
        if (r.has_intr && i < v.size()) AppendFixed(out, v[i], 2);
      }
    };
    cells(r.intr.core_dev_intr, intr_dev_);
    cells(r.intr.core_sys_intr, intr_sys_);
  }
  if (has_disk_) {
    auto disk = [](std::string& o, const DiskRates* d) {
      auto v = d != nullptr ? DiskValues(*d) : std::array<double, 9>{};
      Cells(o, d != nullptr ? &v : nullptr, 4, 6);
    };
    left_out_ |= r.has_disk && DeviceCells(out, disks_, r.disks, disk);
    if (!r.has_disk) for (size_t i = 0; i < disks_.size(); ++i) disk(out, nullptr);
    disk(out, r.has_disk ? &r.disk_total : nullptr);
  }
  if (has_net_) {
    auto net = [](std::string& o, const NetRates* n) {
      auto v = n != nullptr ? NetValues(*n) : std::array<double, 8>{};
      Cells(o, n != nullptr ? &v : nullptr);
    };
    left_out_ |= r.has_net && DeviceCells(out, nets_, r.nets, net);
    if (!r.has_net) for (size_t i = 0; i < nets_.size(); ++i) net(out, nullptr);
    net(out, r.has_net ? &r.net_total : nullptr);
  }
  if (has_mem_) {
    char buf[std::tuple_size_v<MemCounters> * (1 + kUintTextMax)];
    char* p = buf;
    for (const PlayMemKey& k : PlayMemKeys()) {
      p = Put(p, ',');
      if (!r.has_mem) continue;
      if (k.index < 0) p = WriteInt(p, MemUsed(r.mem));
      else p = WriteInt(p, static_cast<int64_t>(r.mem[static_cast<size_t>(k.index)]));
    }
    AppendWritten(out, buf, p);
  }
  out.append("\r\n");
}

}  // namespace pm
