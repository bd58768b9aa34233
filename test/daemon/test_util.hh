// Helpers for the collector tests: the fake /proc trees under test/data and
// scratch copies of them.
#pragma once

#include <fcntl.h>
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "common/io.hh"
#include "common/unique_fd.hh"

namespace pm::test {

// test/data, passed by meson as PM_TESTDATA.
inline std::filesystem::path DataDir() {
  const char* dir = std::getenv("PM_TESTDATA");
  if (dir == nullptr) throw std::runtime_error("PM_TESTDATA is not set");
  return dir;
}

inline UniqueFd OpenDir(const std::filesystem::path& dir) {
  return OpenAt(AT_FDCWD, dir.string(), O_RDONLY | O_DIRECTORY);
}

inline void WriteFile(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out.flush()) throw std::runtime_error("cannot write " + path.string());
}

inline std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A scratch directory, removed with its contents at scope exit.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "pm-collect-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  // A copy of the fake tree test/data/<name>.
  explicit TempDir(const std::string& tree) : TempDir() {
    std::filesystem::copy(DataDir() / tree, path_, std::filesystem::copy_options::recursive);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace pm::test
