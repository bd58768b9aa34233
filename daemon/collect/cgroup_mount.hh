// Where the cgroup v2 hierarchy is: the recorder's --cgroup PATH and the
// completion of its values both name groups below it.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <optional>
#include <string>

namespace pm {

// "sys/fs/cgroup" on a unified host, "sys/fs/cgroup/unified" on a hybrid
// one (v1 controllers at /sys/fs/cgroup), relative to `root_dirfd`;
// nullopt without a v2 hierarchy. Its root group has cgroup.controllers.
inline std::optional<std::string> Cgroup2Mount(int root_dirfd) {
  for (const char* mount : {"sys/fs/cgroup", "sys/fs/cgroup/unified"})
    if (::faccessat(root_dirfd, (std::string(mount) + "/cgroup.controllers").c_str(), F_OK, 0) == 0)
      return mount;
  return std::nullopt;
}

}  // namespace pm
