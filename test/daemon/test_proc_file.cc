#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>
#include <system_error>

#include "common/error.hh"
#include "common/io.hh"
#include "daemon/collect/parse_interrupts.hh"
#include "daemon/collect/proc_file.hh"
#include "test/daemon/test_util.hh"

using pm::ProcFile;
using pm::test::TempDir;
using pm::test::WriteFile;

namespace {

// A /proc/interrupts of a big machine: `rows` sources x `cpus` columns.
std::string BigInterrupts(int rows, int cpus) {
  // Appended piecewise: "literal" + std::to_string() trips GCC 12's -Wrestrict.
  std::string text = "     ";
  for (int c = 0; c < cpus; ++c) text.append("      CPU").append(std::to_string(c));
  text += "\n";
  for (int r = 0; r < rows; ++r) {
    text.append(std::to_string(r)).append(":");
    for (int c = 0; c < cpus; ++c) text.append(" ").append(std::to_string(r * 1000 + c));
    text.append("   IR-PCI-MSI  ").append(std::to_string(r)).append("-edge      dev");
    text.append(std::to_string(r)).append("\n");
  }
  return text;
}

}  // namespace

TEST_CASE("ProcFile: a FIFO or a directory is refused, a FIFO without waiting for a writer") {
  TempDir root_dir;
  std::string root_path = root_dir.path().string();
  std::filesystem::create_directories(root_path + "/proc/dir");
  REQUIRE(mkfifo((root_path + "/proc/fifo").c_str(), 0600) == 0);
  pm::UniqueFd root = pm::OpenAt(AT_FDCWD, root_path, O_PATH | O_DIRECTORY);
  std::string refused =
      root_path + "/proc/fifo is not a regular file; /proc and /sys files are (check --root)";
  CHECK_THROWS_WITH_AS(ProcFile(root.Get(), "proc/fifo"), refused.c_str(), pm::SetupError);
  CHECK_THROWS_AS(ProcFile(root.Get(), "proc/dir"), pm::SetupError);
}

TEST_CASE("ProcFile: re-reads the same open file from the start") {
  TempDir dir;
  WriteFile(dir.path() / "proc/x", "first\n");
  auto root = pm::test::OpenDir(dir.path());
  ProcFile file(root.Get(), "proc/x");
  // Named below its root, as the user would look for it (--root DIR).
  CHECK(file.name() == (std::filesystem::canonical(dir.path()) / "proc/x").string());
  CHECK(file.Read() == "first\n");
  CHECK(file.Read() == "first\n");
  WriteFile(dir.path() / "proc/x", "second, longer\n");  // same inode, truncated
  CHECK(file.Read() == "second, longer\n");
  WriteFile(dir.path() / "proc/x", "");
  CHECK(file.Read().empty());
}

TEST_CASE("ProcFile: a file longer than many reads, read to EOF") {
  TempDir dir;
  std::string text = BigInterrupts(600, 32);
  REQUIRE(text.size() > 64 * 1024);
  WriteFile(dir.path() / "proc/interrupts", text);
  auto root = pm::test::OpenDir(dir.path());
  ProcFile file(root.Get(), "proc/interrupts");
  CHECK(file.Read() == text);
  CHECK(file.Read() == text);

  pm::Interrupts intr;
  pm::ParseInterrupts(file.Read(), intr, file.name());
  REQUIRE(intr.cpus.size() == 32);
  REQUIRE(intr.rows.size() == 600);
  CHECK(intr.rows[599].name == "599");
  CHECK(intr.RowCounts(599)[31] == 599031);
  CHECK(pm::CollapseBlanks(intr.rows[599].descr) == "IR-PCI-MSI 599-edge dev599");
}

TEST_CASE("ProcFile: the size cap") {
  TempDir dir;
  auto root = pm::test::OpenDir(dir.path());
  WriteFile(dir.path() / "proc/at", std::string(10000, 'a'));
  ProcFile at_cap(root.Get(), "proc/at", 10000);
  CHECK(at_cap.Read().size() == 10000);

  WriteFile(dir.path() / "proc/over", std::string(10001, 'a'));
  ProcFile over(root.Get(), "proc/over", 10000);
  std::string name = (std::filesystem::canonical(dir.path()) / "proc/over").string();
  CHECK_THROWS_WITH_AS(over.Read(),
                       (name + ": longer than 10000 bytes; refusing to read more").c_str(),
                       pm::FormatError);
  CHECK(ProcFile::kDefaultMaxBytes == 16u << 20);
}

TEST_CASE("ProcFile: a missing file is a system error naming it") {
  TempDir dir;
  auto root = pm::test::OpenDir(dir.path());
  // Below a fake root (--root DIR), DIR/proc/nope, not /proc/nope.
  std::string name = (std::filesystem::canonical(dir.path()) / "proc/nope").string();
  CHECK_THROWS_WITH_AS(ProcFile(root.Get(), "proc/nope"),
                       ("cannot open " + name + ": No such file or directory").c_str(),
                       std::system_error);
}

TEST_CASE("ProcFile: the real /proc/stat") {
  auto root = pm::test::OpenDir("/");
  ProcFile file(root.Get(), "proc/stat");
  CHECK(file.name() == "/proc/stat");
  std::string_view text = file.Read();
  CHECK(text.starts_with("cpu "));
  CHECK(text.ends_with("\n"));
}

TEST_CASE("ProcFile: whole-delivery files are read to the end too") {
  TempDir dir;
  auto root = pm::test::OpenDir(dir.path());
  std::string text(3 * ProcFile::kInitialBytes + 7, 'x');
  WriteFile(dir.path() / "proc/stat", text);
  ProcFile file(root.Get(), "proc/stat", ProcFile::kDefaultMaxBytes,
                ProcFile::Delivery::kWhole);
  CHECK(file.Read() == text);
  CHECK(file.Read() == text);
}
