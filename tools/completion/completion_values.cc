#include "tools/completion/completion_values.hh"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "common/unique_fd.hh"
#include "daemon/collect/cgroup_mount.hh"
#include "daemon/collect/parse_diskstats.hh"
#include "proto/text.hh"

namespace pm {
namespace {

namespace fs = std::filesystem;

// A small sysfs or /proc file, whole ("" when it cannot be read). Not
// through ifstream: its read of a process exiting meanwhile (ESRCH)
// throws, and completion must offer what it can, never abort.
std::string Slurp(const fs::path& path) {
  UniqueFd fd = UniqueFd::Adopt(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  std::string out;
  if (!fd) return out;
  char buf[4096];
  for (ssize_t n; (n = ::read(fd.Get(), buf, sizeof buf)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      return "";
    }
    out.append(buf, static_cast<size_t>(n));
  }
  return out;
}

std::optional<uint64_t> Number(std::string_view text) {
  uint64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end == text.data()) return std::nullopt;
  return n;
}

// 512 MiB, 1.5 GiB, 20 GiB.
std::string Size(uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double n = static_cast<double>(bytes);
  size_t unit = 0;
  while (n >= 1024 && unit + 1 < std::size(units)) n /= 1024, ++unit;
  char out[32];
  std::snprintf(out, sizeof out, n < 10 && unit > 0 ? "%.1f %s" : "%.0f %s", n, units[unit]);
  return out;
}

std::string Devices(const fs::path& root) {
  std::string text = Slurp(root / "proc/diskstats");
  DiskStats stats;
  try {
    ParseDiskstats(text, stats);
  } catch (const std::exception&) {
    return "";  // a garbled diskstats: nothing to offer
  }
  std::string out;
  for (const DiskRow& row : stats.rows) {
    std::string name(row.name);
    std::string sys_name = name;  // "cciss/c0d0" is "cciss!c0d0" in sysfs
    std::replace(sys_name.begin(), sys_name.end(), '/', '!');
    std::optional<uint64_t> sectors = Number(Slurp(root / "sys/class/block" / sys_name / "size"));
    if (sectors && *sectors == 0) continue;  // nothing behind it to record
    bool whole = fs::exists(root / "sys/block" / sys_name);
    out.append(name).append(whole ? "\tdisk" : "\tpartition");
    if (sectors) out.append(", ").append(Size(*sectors * 512));
    out.push_back('\n');
  }
  return out;
}

std::string Cgroups(const fs::path& root) {
  UniqueFd root_fd = UniqueFd::Adopt(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  std::optional<std::string> mount = root_fd ? Cgroup2Mount(root_fd.Get()) : std::nullopt;
  if (!mount) return "";
  fs::path top = root / *mount;
  std::vector<std::string> groups;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(top, fs::directory_options::skip_permission_denied, ec),
       end;
       !ec && it != end; it.increment(ec)) {
    if (it->is_directory(ec))
      groups.push_back(it->path().lexically_relative(top).string());
  }
  std::sort(groups.begin(), groups.end());
  std::string out;
  for (const std::string& g : groups) out.append(g).push_back('\n');
  return out;
}

// A command name as a one-line description the shell shows: escaped
// (Printable), so no tab, newline or escape sequence of a process's own
// choosing reaches the terminal.
std::string Description(std::string_view comm) {
  if (comm.ends_with('\n')) comm.remove_suffix(1);
  return Printable(comm);
}

std::string Pids(const fs::path& root) {
  std::vector<std::pair<uint64_t, std::string>> pids;
  std::error_code ec;
  for (fs::directory_iterator it(root / "proc", ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    std::optional<uint64_t> pid = Number(name);
    if (!pid || std::to_string(*pid) != name) continue;
    if (Slurp(it->path() / "cmdline").empty()) continue;  // a kernel thread or a zombie
    pids.emplace_back(*pid, Description(Slurp(it->path() / "comm")));
  }
  std::sort(pids.begin(), pids.end());
  std::string out;
  for (const auto& [pid, comm] : pids) out.append(std::to_string(pid)).append("\t" + comm + "\n");
  return out;
}

}  // namespace

std::optional<ValueList> ValueListNamed(std::string_view name) {
  if (name == "devices") return ValueList::kDevices;
  if (name == "cgroups") return ValueList::kCgroups;
  if (name == "pids") return ValueList::kPids;
  return std::nullopt;
}

std::string ListValues(ValueList list, const std::string& root) {
  switch (list) {
    case ValueList::kCgroups: return Cgroups(root);
    case ValueList::kPids: return Pids(root);
    case ValueList::kDevices: break;
  }
  return Devices(root);
}

}  // namespace pm
