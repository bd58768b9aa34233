// What completion offers for -d, --cgroup and --pid, read from a fake
// root laid out as /proc and /sys are.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tools/completion/completion_values.hh"

namespace pm {
namespace {

namespace fs = std::filesystem;

class FakeRoot {
 public:
  FakeRoot() {
    static int made = 0;
    path_ = fs::temp_directory_path() /
            ("pm-values-" + std::to_string(::getpid()) + "-" + std::to_string(++made));
    fs::remove_all(path_);
  }
  ~FakeRoot() { fs::remove_all(path_); }
  void Write(const std::string& name, const std::string& text) const {
    fs::create_directories((path_ / name).parent_path());
    std::ofstream(path_ / name) << text;
  }
  void Directory(const std::string& name) const { fs::create_directories(path_ / name); }
  std::string path() const { return path_.string(); }

 private:
  fs::path path_;
};

constexpr char kDiskstats[] =
    " 253       0 vda 10 0 20 30 40 0 50 60 0 70 80\n"
    " 253       1 vda1 1 0 2 3 4 0 5 6 0 7 8\n"
    "   7       0 loop0 0 0 0 0 0 0 0 0 0 0 0\n"
    " 104       0 cciss/c0d0 1 0 2 3 4 0 5 6 0 7 8\n";

TEST_SUITE("completion values") {
  TEST_CASE("devices: diskstats' names, disk or partition and size; empty ones left out") {
    FakeRoot root;
    root.Write("proc/diskstats", kDiskstats);
    root.Write("sys/class/block/vda/size", "536870912\n");    // 256 GiB in sectors
    root.Write("sys/class/block/vda1/size", "1048576\n");     // 512 MiB
    root.Write("sys/class/block/loop0/size", "0\n");          // nothing behind it
    root.Directory("sys/block/vda");
    root.Directory("sys/block/loop0");
    root.Directory("sys/block/cciss!c0d0");  // no size file: listed without one
    CHECK(ListValues(ValueList::kDevices, root.path()) ==
          "vda\tdisk, 256 GiB\nvda1\tpartition, 512 MiB\ncciss/c0d0\tdisk\n");
  }

  TEST_CASE("cgroups: every group below the v2 mount, a hybrid host's unified one too") {
    FakeRoot root;
    root.Directory("sys/fs/cgroup/cpu");  // v1 controllers here
    root.Write("sys/fs/cgroup/unified/cgroup.controllers", "cpu io memory\n");
    root.Directory("sys/fs/cgroup/unified/system.slice/postgresql.service");
    root.Directory("sys/fs/cgroup/unified/user.slice");
    CHECK(ListValues(ValueList::kCgroups, root.path()) ==
          "system.slice\nsystem.slice/postgresql.service\nuser.slice\n");
    FakeRoot v1;
    v1.Directory("sys/fs/cgroup/cpu");
    CHECK(ListValues(ValueList::kCgroups, v1.path()).empty());
  }

  TEST_CASE("pids: processes with a command line, by number, described by their name") {
    FakeRoot root;
    root.Write("proc/1/cmdline", std::string("/sbin/init\0", 11));
    root.Write("proc/1/comm", "systemd\n");
    root.Write("proc/2/cmdline", "");  // kthreadd: a kernel thread
    root.Write("proc/2/comm", "kthreadd\n");
    root.Write("proc/1234/cmdline", std::string("postgres\0-D\0/db\0", 16));
    root.Write("proc/1234/comm", "post\tgres\n");  // a name may hold any byte
    root.Write("proc/1235/cmdline", std::string("x\0", 2));
    root.Write("proc/1235/comm", "\x1b]0;title\x07\n");  // an escape sequence
    root.Write("proc/99/cmdline", std::string("sh\0", 3));
    root.Write("proc/99/comm", "sh\n");
    root.Directory("proc/sys");
    root.Directory("proc/0099");  // not a pid's spelling
    CHECK(ListValues(ValueList::kPids, root.path()) ==
          "1\tsystemd\n99\tsh\n1234\tpost\\tgres\n1235\t\\x1b]0;title\\x07\n");
  }

  TEST_CASE("pids: a file that fails to read (a process exiting meanwhile) is left out") {
    FakeRoot root;
    root.Write("proc/1/cmdline", std::string("/sbin/init\0", 11));
    root.Write("proc/1/comm", "systemd\n");
    root.Directory("proc/77/cmdline");  // read(2) fails, as ESRCH would
    CHECK(ListValues(ValueList::kPids, root.path()) == "1\tsystemd\n");
  }

  TEST_CASE("what cannot be read lists nothing") {
    for (ValueList list : {ValueList::kDevices, ValueList::kCgroups, ValueList::kPids})
      CHECK(ListValues(list, "/nonexistent/root").empty());
  }
}

}  // namespace
}  // namespace pm
