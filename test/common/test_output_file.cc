// OpenOutputFile and WriteOutputFile outside shared directories (those,
// with a second user, are test/process/test_shared_dirs.cc's): a FIFO is
// never waited on, and a failed write leaves no file.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "common/error.hh"
#include "common/io.hh"
#include "common/output_file.hh"

namespace pm {
namespace {

struct Dir {
  std::string path;
  Dir() {
    char pattern[] = "/tmp/pm-output-file.XXXXXX";
    REQUIRE(mkdtemp(pattern) != nullptr);
    path = pattern;
  }
  ~Dir() { std::filesystem::remove_all(path); }
};

}  // namespace

TEST_SUITE("output file") {
  TEST_CASE("a FIFO nobody reads: refused at once; one with a reader: opened, blocking") {
    Dir dir;
    std::string fifo = dir.path + "/fifo";
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    CHECK_THROWS_WITH_AS(OpenOutputFile(fifo, O_WRONLY | O_CREAT | O_TRUNC, 0644),
                         (fifo + " is a FIFO that nobody reads; start its reader first").c_str(),
                         SetupError);
    UniqueFd reader = OpenAt(AT_FDCWD, fifo, O_RDONLY | O_NONBLOCK);
    UniqueFd writer = OpenOutputFile(fifo, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    CHECK((fcntl(writer.Get(), F_GETFL) & O_NONBLOCK) == 0);
    UniqueFd asked = OpenOutputFile(fifo, O_WRONLY | O_NONBLOCK, 0644);
    CHECK((fcntl(asked.Get(), F_GETFL) & O_NONBLOCK) != 0);
  }

  TEST_CASE("WriteOutputFile: the whole file, or on a failed write none and the reason") {
    Dir dir;
    std::string path = dir.path + "/out";
    WriteOutputFile(path, "first, longer\n", 0640);
    WriteOutputFile(path, "second\n", 0640);
    std::string bytes(64, '\0');
    UniqueFd fd = OpenAt(AT_FDCWD, path, O_RDONLY);
    bytes.resize(static_cast<size_t>(read(fd.Get(), bytes.data(), bytes.size())));
    CHECK(bytes == "second\n");
    // /dev/full: every write fails as on a full disk; a device is not removed.
    CHECK_THROWS_WITH(WriteOutputFile("/dev/full", "x", 0644),
                      "writing /dev/full (the file system holding /dev is full): No space "
                      "left on device");
    CHECK(access("/dev/full", F_OK) == 0);
  }
}

}  // namespace pm
