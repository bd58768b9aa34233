// User names by uid, by hand from /etc/passwd: the static binary has no
// NSS (tools/no_nss.cc). A uid without an entry is shown as its number.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

namespace pm {

class UserNames {
 public:
  UserNames() = default;  // none: every uid its number
  // `passwd`: the text of an /etc/passwd; malformed lines are skipped.
  explicit UserNames(std::string_view passwd);
  // This machine's (/etc/passwd; none if unreadable).
  static UserNames Local();

  std::string Name(uint32_t uid) const;

 private:
  std::unordered_map<uint32_t, std::string> names_;
};

}  // namespace pm
