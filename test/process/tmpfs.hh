// A small tmpfs for the full-disk tests (root only: a test skips when
// mount(2) says EPERM), and the filler that makes it full.
#pragma once

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <string>

#include "common/io.hh"
#include "common/unique_fd.hh"

namespace pm::test {

// Unmounts (lazily: a failed test may leave a file open) on scope exit.
struct TmpfsMount {
  std::string path;
  int error = 0;
  TmpfsMount(std::string p, const char* options) : path(std::move(p)) {
    std::filesystem::create_directory(path);
    if (mount("tmpfs", path.c_str(), "tmpfs", 0, options) != 0) error = errno;
  }
  ~TmpfsMount() {
    if (!error) umount2(path.c_str(), MNT_DETACH);
  }
};

// Fills the filesystem holding `dir` until a write fails with ENOSPC.
inline void FillUp(const std::string& dir) {
  UniqueFd fd = OpenAt(AT_FDCWD, dir + "/filler", O_WRONLY | O_CREAT, 0600);
  std::string block(4096, 'x');
  while (::write(fd.Get(), block.data(), block.size()) > 0) {
  }
  REQUIRE(errno == ENOSPC);
}

}  // namespace pm::test
