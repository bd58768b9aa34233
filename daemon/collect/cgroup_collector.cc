// "cgroups": cgroup v2 groups named by --cgroup PATH (rows: PATH as
// given). PATH is below the cgroup2 mount (/sys/fs/cgroup, or
// /sys/fs/cgroup/unified on a hybrid host; "/" is the mount's root group)
// or absolute. Each group's files
// are opened once: cpu.stat must exist (it is in every v2 group); io.stat,
// memory.* and the pressure files exist only where their controller (or
// PSI) is on, and a missing one reads 0 and is named in the header. A group
// removed while recorded (its files then read ENODEV) is null from then on,
// noted once on stderr. io.stat is also recorded per whole disk of
// /sys/block (member "cgroup_io", rows "PATH:DEV"), fixed at the start.
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <optional>
#include <system_error>
#include <utility>
#include <vector>

#include "common/error.hh"
#include "daemon/collect/cgroup_mount.hh"
#include "daemon/collect/collector.hh"
#include "daemon/collect/parse_cgroup.hh"
#include "daemon/collect/parse_pressure.hh"
#include "proto/columns/cgroup.hh"

namespace pm {
namespace {

enum File { kCpuStat, kIoStat, kMemCurrent, kMemStat, kCpuPsi, kIoPsi, kMemPsi, kFileCount };
constexpr std::array<std::string_view, kFileCount> kFileNames = {
    "cpu.stat", "io.stat", "memory.current", "memory.stat",
    "cpu.pressure", "io.pressure", "memory.pressure"};
constexpr std::string_view kCpuKeys[] = {"usage_usec", "user_usec", "system_usec",
                                         "nr_throttled", "throttled_usec"};
constexpr std::string_view kMemKeys[] = {"pgmajfault", "anon", "file"};

using Values = std::array<uint64_t, kCgroupFields.size()>;

bool Exists(int root_dirfd, const std::string& path) {
  return ::faccessat(root_dirfd, path.c_str(), F_OK, 0) == 0;
}

// The group's directory below the root: "sys/fs/cgroup[/unified]/PATH",
// or PATH when absolute. "/" is the cgroup2 mount's root group, as in
// /proc/PID/cgroup ("0::/"), not the file system's root.
std::string GroupDir(int root_dirfd, const std::string& path) {
  size_t start = path.find_first_not_of('/');
  if (start != 0 && start != std::string::npos) return path.substr(start);
  std::string below = start == 0 ? "/" + path : "";
  if (std::optional<std::string> mount = Cgroup2Mount(root_dirfd)) return *mount + below;
  throw UsageError("--cgroup " + path +
                   ": no cgroup v2 hierarchy at /sys/fs/cgroup or /sys/fs/cgroup/unified");
}

bool IsGoneError(int err) { return err == ENODEV || err == ENOENT || err == ESRCH; }

// A whole disk, for the per-device rows of io.stat.
struct Disk {
  std::string name;     // "vda"
  std::string maj_min;  // "253:0", as io.stat names it
};

// /sys/block's devices but loop and ram devices, each with its "dev".
std::vector<Disk> WholeDisks(int root_dirfd) {
  std::vector<Disk> disks;
  int fd = ::openat(root_dirfd, "sys/block", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR* dir = fd < 0 ? nullptr : ::fdopendir(fd);
  if (dir == nullptr) {
    if (fd >= 0) ::close(fd);
    return disks;
  }
  while (const dirent* e = ::readdir(dir)) {
    std::string name = e->d_name;
    if (name.starts_with('.') || name.starts_with("loop") || name.starts_with("ram")) continue;
    std::string dev = "sys/block/" + name + "/dev";
    if (!Exists(root_dirfd, dev)) continue;
    ProcFile file(root_dirfd, dev, 64, ProcFile::Delivery::kWhole);
    std::string_view text = file.Read();
    std::replace(name.begin(), name.end(), '!', '/');
    disks.push_back({name, std::string(text.substr(0, text.find('\n')))});
  }
  ::closedir(dir);
  std::sort(disks.begin(), disks.end(), [](const Disk& a, const Disk& b) { return a.name < b.name; });
  return disks;
}

struct Group {
  std::string name;
  std::array<std::optional<ProcFile>, kFileCount> files;
  bool gone = false;
  Values values{};
  std::vector<std::array<uint64_t, kCgroupIoFields.size()>> devices;  // per Disk
};

class CgroupCollector final : public Collector {
 public:
  CgroupCollector(const PgrMember& groups, const PgrMember& io, int root_dirfd)
      : member_(groups), io_member_(io), root_dirfd_(root_dirfd), disks_(WholeDisks(root_dirfd)) {}

  void Add(const std::string& path) {
    std::string dir = GroupDir(root_dirfd_, path);
    if (!Exists(root_dirfd_, dir + "/cpu.stat"))
      throw UsageError("--cgroup " + path + ": no cgroup v2 group at /" + dir +
                       " (no cpu.stat); give a path below the cgroup2 mount, or absolute");
    Group& g = groups_.emplace_back();
    g.name = path;
    g.devices.resize(disks_.size());
    for (size_t f = 0; f < kFileCount; ++f) {
      std::string file = dir + "/" + std::string(kFileNames[f]);
      if (Exists(root_dirfd_, file))
        g.files[f].emplace(root_dirfd_, file, 64 * 1024, ProcFile::Delivery::kWhole);
    }
  }

  void Describe(std::string& out) const override {
    AppendMember(out, member_.key);
    out.append("{\"fields\":");
    AppendStringArray(out, member_.fields);
    out.append(",\"rows\":");
    AppendStringArray(out, groups_, [](const Group& g) -> const std::string& { return g.name; });
    out.append(",\"absent\":[");  // per row, the files it lacks
    for (const Group& g : groups_) {
      if (out.back() != '[') out.push_back(',');
      std::vector<std::string_view> absent;
      for (size_t f = 0; f < kFileCount; ++f)
        if (!g.files[f]) absent.push_back(kFileNames[f]);
      AppendStringArray(out, absent);
    }
    out.append("]}");
    AppendMember(out, io_member_.key);  // io.stat per group and disk
    out.append("{\"fields\":");
    AppendStringArray(out, io_member_.fields);
    out.append(",\"rows\":[");
    for (const Group& g : groups_)
      for (const Disk& d : disks_) {
        if (out.back() != '[') out.push_back(',');
        AppendJsonString(out, g.name + ":" + d.name);
      }
    out.append("]}");
  }

  void Read() override {
    for (Group& g : groups_)
      if (!g.gone && !ReadGroup(g)) Gone(g);
  }

  bool fine_grained() const override { return true; }  // cpu.stat in µs

  void Append(std::string& out) const override {
    AppendMember(out, member_.key);
    out.push_back('[');
    for (size_t i = 0; i < groups_.size(); ++i) {
      if (i != 0) out.push_back(',');
      if (groups_[i].gone) out.append("null");
      else AppendCounters(out, groups_[i].values);
    }
    out.push_back(']');
    AppendMember(out, io_member_.key);
    out.push_back('[');
    for (const Group& g : groups_)
      for (const auto& device : g.devices) {
        if (out.back() != '[') out.push_back(',');
        if (g.gone) out.append("null");
        else AppendCounters(out, device);
      }
    out.push_back(']');
  }

 private:
  // False when the group is gone. Every file is read before any value is
  // set, so a group that vanishes halfway keeps its last complete values.
  bool ReadGroup(Group& g) {
    std::array<std::string_view, kFileCount> text{};
    try {
      for (size_t f = 0; f < kFileCount; ++f)
        if (g.files[f]) text[f] = g.files[f]->Read();
    } catch (const std::system_error& e) {
      if (IsGoneError(e.code().value())) return false;
      throw;
    }
    if (text[kCpuStat].empty()) return false;  // a removed group's file
    Parse(g, text);
    return true;
  }

  // A file the group lacks leaves its values 0.
  void Parse(Group& g, const std::array<std::string_view, kFileCount>& text) {
    namespace cf = cgroup_field;
    Values& v = g.values;
    auto src = [&](File f) -> std::string_view { return g.files[f]->name(); };
    // cpu.stat's keys are the first five fields, in order.
    ParseFlatKeyed(text[kCpuStat], kCpuKeys, std::span(v).subspan(cf::kUsage, 5), src(kCpuStat));
    IoStatTotals io;
    if (g.files[kIoStat]) ParseIoStat(text[kIoStat], io, src(kIoStat), &io_rows_);
    else io_rows_.clear();
    FillDevices(g);
    v[cf::kRbytes] = io.rbytes, v[cf::kWbytes] = io.wbytes;
    v[cf::kRios] = io.rios, v[cf::kWios] = io.wios;
    std::array<uint64_t, 3> mem{};  // kMemKeys
    if (g.files[kMemStat]) ParseFlatKeyed(text[kMemStat], kMemKeys, mem, src(kMemStat));
    v[cf::kMajflt] = mem[0], v[cf::kAnon] = mem[1], v[cf::kFile] = mem[2];
    struct Psi { File file; size_t some, full; };
    for (Psi p : {Psi{kCpuPsi, cf::kCpuSome, cf::kCpuFull}, Psi{kIoPsi, cf::kIoSome, cf::kIoFull},
                  Psi{kMemPsi, cf::kMemSome, cf::kMemFull}}) {
      PressureLines lines;
      if (g.files[p.file]) ParsePressure(text[p.file], lines, src(p.file));
      v[p.some] = lines.some_us, v[p.full] = lines.full_us;
    }
    v[cf::kMemCurrent] =
        g.files[kMemCurrent] ? ParseSingleValue(text[kMemCurrent], src(kMemCurrent)) : 0;
  }

  // A disk without a line in io.stat has had no I/O from the group: 0.
  void FillDevices(Group& g) const {
    for (size_t i = 0; i < disks_.size(); ++i) {
      g.devices[i] = {};
      for (const IoStatRow& row : io_rows_)
        if (row.device == disks_[i].maj_min)
          g.devices[i] = {row.values.rbytes, row.values.wbytes, row.values.rios, row.values.wios};
    }
  }

  static void Gone(Group& g) {
    g.gone = true;
    for (auto& f : g.files) f.reset();
    std::fprintf(stderr, "perfmonger record: note: cgroup %s is gone; recorded as null from now on\n",
                 g.name.c_str());
  }

  const PgrMember& member_;     // "cgroups"
  const PgrMember& io_member_;  // "cgroup_io"
  int root_dirfd_;  // valid during set-up only
  std::vector<Disk> disks_;
  std::vector<Group> groups_;
  std::vector<IoStatRow> io_rows_;  // scratch, views into the last io.stat read
};

}  // namespace

std::unique_ptr<Collector> MakeCgroupCollector(CollectorContext& context) {
  auto collector = std::make_unique<CgroupCollector>(context.members[0], context.members[1],
                                                     context.root_dirfd);
  for (const std::string& path : context.values) collector->Add(path);
  collector->Read();  // a malformed file is a setup error, not a sampling one
  return collector;
}

}  // namespace pm
