// A cgroup v2 group made for one test on this machine's hierarchy, when it
// has a writable one (root; /sys/fs/cgroup or a hybrid host's
// /sys/fs/cgroup/unified).
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace pm::test {

// "/sys/fs/cgroup" or "/sys/fs/cgroup/unified", or "" without cgroup v2.
inline std::string V2Mount() {
  for (const char* m : {"/sys/fs/cgroup", "/sys/fs/cgroup/unified"})
    if (std::filesystem::exists(std::string(m) + "/cgroup.controllers")) return m;
  return "";
}

// perfmonger-test-PID below the mount; its children a and b (made by the
// test) are removed with it.
struct TestGroup {
  std::string mount, name, path;
  bool made = false;
  TestGroup() : mount(V2Mount()) {
    name = "perfmonger-test-" + std::to_string(getpid());
    path = mount + "/" + name;
    made = !mount.empty() && ::mkdir(path.c_str(), 0755) == 0;
  }
  ~TestGroup() {
    for (const char* child : {"/a", "/b"}) ::rmdir((path + child).c_str());
    if (made) ::rmdir(path.c_str());
  }
  TestGroup(const TestGroup&) = delete;
  TestGroup& operator=(const TestGroup&) = delete;
};

}  // namespace pm::test
