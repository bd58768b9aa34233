// A second local user, for the tests of what another user can plant or
// run: created (useradd --system, no home, no login shell) for the test's
// lifetime and removed after. Only root can create one; elsewhere, or when
// useradd fails, available() is false and why_not() says why, for the test
// to skip with that message.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "test/process/spawn.hh"

namespace pm::test {

class OtherUser {
 public:
  OtherUser();
  ~OtherUser();
  OtherUser(const OtherUser&) = delete;
  OtherUser& operator=(const OtherUser&) = delete;

  bool available() const { return why_not_.empty(); }
  const std::string& why_not() const { return why_not_; }
  uid_t uid() const { return uid_; }
  gid_t gid() const { return gid_; }

  // `program args...` run as this user (setpriv: real and effective ids,
  // no supplementary groups).
  SpawnOptions Spawn(const std::string& program, std::vector<std::string> args) const;

 private:
  std::string name_;
  std::string why_not_;
  uid_t uid_ = 0;
  gid_t gid_ = 0;
};

}  // namespace pm::test
