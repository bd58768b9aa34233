#include "common/user_names.hh"

#include <algorithm>
#include <charconv>

#include "common/small_file.hh"

namespace pm {

// name:password:uid:...; the first entry of a uid wins, as getpwuid's,
// and a line starting with '#' is a comment, as glibc's files source reads.
UserNames::UserNames(std::string_view passwd) {
  while (!passwd.empty()) {
    std::string_view line = passwd.substr(0, passwd.find('\n'));
    passwd.remove_prefix(std::min(passwd.size(), line.size() + 1));
    size_t c1 = line.find(':'), c2 = line.find(':', c1 + 1), c3 = line.find(':', c2 + 1);
    if (c3 == std::string_view::npos || c1 == 0 || line[0] == '#') continue;
    std::string_view id = line.substr(c2 + 1, c3 - c2 - 1);
    uint32_t uid = 0;
    auto [ptr, ec] = std::from_chars(id.data(), id.data() + id.size(), uid);
    if (ec == std::errc() && ptr == id.data() + id.size())
      names_.emplace(uid, std::string(line.substr(0, c1)));
  }
}

UserNames UserNames::Local() { return UserNames(ReadSmallFile("/etc/passwd")); }

std::string UserNames::Name(uint32_t uid) const {
  auto it = names_.find(uid);
  return it != names_.end() ? it->second : std::to_string(uid);
}

}  // namespace pm
