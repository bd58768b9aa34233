#include "daemon/process_info.hh"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <string_view>
#include <system_error>

#include "common/io.hh"

namespace pm {
namespace {

std::string ProcPath(pid_t pid, const char* file) {
  return "/proc/" + std::to_string(pid) + "/" + file;
}

// The fields of /proc/PID/stat after "(comm)", field 3 first: the command
// name may hold spaces and ')', so the split starts after the last ')'.
std::vector<std::string_view> StatFields(const std::string& text) {
  std::vector<std::string_view> fields;
  size_t paren = text.rfind(')');
  if (paren == std::string::npos) return fields;
  std::string_view rest = std::string_view(text).substr(paren + 1);
  while (!rest.empty()) {
    size_t start = rest.find_first_not_of(" \n");
    if (start == std::string_view::npos) break;
    rest.remove_prefix(start);
    size_t end = std::min(rest.find(' '), rest.size());
    fields.push_back(rest.substr(0, end));
    rest.remove_prefix(end);
  }
  return fields;
}

// Field `n` (1-based, as in proc(5)) of /proc/PID/stat, n >= 3.
std::optional<std::string> StatField(pid_t pid, size_t n) {
  std::string text = ReadSmallFile(ProcPath(pid, "stat"));
  std::vector<std::string_view> fields = StatFields(text);
  if (n < 3 || fields.size() < n - 2) return std::nullopt;
  return std::string(fields[n - 3]);
}

template <typename T>
std::optional<T> Number(std::string_view text) {
  T value{};
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
  return value;
}

std::string_view BaseName(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::optional<uint64_t> ProcessStartTime(pid_t pid) {
  std::optional<std::string> field = StatField(pid, 22);
  return field ? Number<uint64_t>(*field) : std::nullopt;
}

std::optional<pid_t> ParentPid(pid_t pid) {
  std::optional<std::string> field = StatField(pid, 4);
  return field ? Number<pid_t>(*field) : std::nullopt;
}

std::optional<uid_t> ProcessRealUid(pid_t pid) {
  std::string status = ReadSmallFile(ProcPath(pid, "status"));
  size_t at = status.find("\nUid:");
  if (at == std::string::npos) return std::nullopt;
  std::string_view rest = std::string_view(status).substr(at + 5);
  size_t begin = rest.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return std::nullopt;
  rest.remove_prefix(begin);
  return Number<uid_t>(rest.substr(0, rest.find_first_of(" \t\n")));
}

bool IsZombie(pid_t pid) { return StatField(pid, 3) == "Z"; }

std::vector<std::string> ProcessArgs(pid_t pid) {
  std::string cmdline = ReadSmallFile(ProcPath(pid, "cmdline"));
  std::vector<std::string> args;
  for (size_t at = 0; at < cmdline.size();) {
    size_t end = std::min(cmdline.find('\0', at), cmdline.size());
    args.push_back(cmdline.substr(at, end - at));
    at = end + 1;
  }
  return args;
}

std::string ProcessExecutable(pid_t pid) {
  char exe[4096];
  ssize_t n = readlink(ProcPath(pid, "exe").c_str(), exe, sizeof exe);
  return n > 0 ? std::string(exe, static_cast<size_t>(n)) : std::string();
}

bool RunsOurExecutable(pid_t pid) {
  struct stat theirs, ours;
  return stat(ProcPath(pid, "exe").c_str(), &theirs) == 0 &&
         stat("/proc/self/exe", &ours) == 0 && theirs.st_dev == ours.st_dev &&
         theirs.st_ino == ours.st_ino;
}

std::optional<int64_t> StartTimeRealtimeNs(uint64_t start_ticks) {
  std::string stat = ReadSmallFile("/proc/stat");
  size_t at = stat.find("\nbtime ");
  long ticks_per_sec = sysconf(_SC_CLK_TCK);
  if (at == std::string::npos || ticks_per_sec <= 0) return std::nullopt;
  std::string_view rest = std::string_view(stat).substr(at + 7);
  std::optional<int64_t> boot = Number<int64_t>(rest.substr(0, rest.find('\n')));
  if (!boot) return std::nullopt;
  return *boot * 1'000'000'000 +
         static_cast<int64_t>(start_ticks) * (1'000'000'000 / ticks_per_sec);
}

std::optional<size_t> PerfmongerRecorderProgram(const std::vector<std::string>& argv) {
  // At most one interpreter in front (ruby, sh): the script is then argv[1].
  for (size_t i = 0; i < argv.size() && i < 2; ++i) {
    std::string_view name = BaseName(argv[i]);
    if (name == "perfmonger-recorder") return i;
    if (!name.starts_with("perfmonger")) continue;
    if (i + 1 < argv.size() && argv[i + 1] == "record") return i;
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace pm
