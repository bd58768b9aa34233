#include "daemon/collect/parse_proc_table.hh"

#include "daemon/collect/process_scan.hh"

namespace pm {
namespace {

// Whether a v1 line's controller list ("cpu,cpuacct") names cpu.
bool HoldsCpu(std::string_view controllers) {
  while (!controllers.empty()) {
    size_t comma = controllers.find(',');
    if (controllers.substr(0, comma) == "cpu") return true;
    if (comma == std::string_view::npos) break;
    controllers.remove_prefix(comma + 1);
  }
  return false;
}

}  // namespace

std::string CmdlineStart(std::string_view text, size_t max_bytes) {
  while (!text.empty() && text.back() == '\0') text.remove_suffix(1);
  std::string out(text.substr(0, max_bytes));
  for (char& c : out)
    if (c == '\0') c = ' ';
  return out;
}

std::string_view CgroupPath(std::string_view text) {
  if (std::string_view v2 = CgroupV2Path(text); !v2.empty()) return v2;
  while (!text.empty()) {
    size_t eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    size_t first = line.find(':');
    size_t second = first == std::string_view::npos ? first : line.find(':', first + 1);
    if (second != std::string_view::npos && HoldsCpu(line.substr(first + 1, second - first - 1)))
      return line.substr(second + 1);
    if (eol == std::string_view::npos) break;
    text.remove_prefix(eol + 1);
  }
  return {};
}

}  // namespace pm
