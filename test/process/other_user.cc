#include "test/process/other_user.hh"

#include <pwd.h>
#include <unistd.h>

namespace pm::test {

OtherUser::OtherUser() : name_("pmtest" + std::to_string(getpid())) {
  if (geteuid() != 0) {
    why_not_ = "not root: cannot create a second user";
    return;
  }
  ExitResult added = Run({"--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
                          name_}, "/usr/sbin/useradd");
  struct passwd* pw = added.code == 0 ? getpwnam(name_.c_str()) : nullptr;
  if (!pw) {
    why_not_ = "useradd " + name_ + " failed: " + added.err;
    return;
  }
  uid_ = pw->pw_uid;
  gid_ = pw->pw_gid;
}

OtherUser::~OtherUser() {
  if (available()) Run({name_}, "/usr/sbin/userdel");
}

SpawnOptions OtherUser::Spawn(const std::string& program, std::vector<std::string> args) const {
  SpawnOptions options;
  options.program = "/usr/bin/setpriv";
  options.args = {"--reuid=" + std::to_string(uid_), "--regid=" + std::to_string(gid_),
                  "--clear-groups", "--", program};
  options.args.insert(options.args.end(), args.begin(), args.end());
  return options;
}

}  // namespace pm::test
