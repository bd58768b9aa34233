// Outputs in a directory every user may write (sticky and world-writable,
// as /tmp): another user can plant a symlink, or a hard link, at the path an
// output will have, so that writing it overwrites a file of ours. Whatever
// fs.protected_symlinks says, such a symlink (not ours, not the
// directory owner's) and a hard-linked file are refused with one line
// naming the path and why, and the file they name is untouched; elsewhere,
// and for a symlink of one's own, links are followed as before.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "test/process/fake_proc.hh"
#include "test/process/other_user.hh"
#include "test/process/plot_checks.hh"

namespace pm::test {
namespace {

namespace fs = std::filesystem;

struct Output {
  const char* command;
  std::string name;                             // in the shared directory
  std::vector<std::string> Args(const std::string& path) const;
};

std::vector<std::string> Output::Args(const std::string& path) const {
  std::string c = command;
  if (c == "record") return {"record", "-i", "0.1", "-t", "0.2", "--no-gzip", "-l", path};
  if (c == "fingerprint") return {"fingerprint", path};
  // plot --save writes its data files and scripts into -o DIR.
  return {"plot", "-s", "-o", fs::path(path).parent_path().string(), LegacyFile("busy100.pgr")};
}

// `perfmonger ARGS`, time for plot's gnuplot runs included.
ExitResult Perfmonger(const std::vector<std::string>& args) {
  if (args[0] == "plot") return RunPlot({args.begin() + 1, args.end()});
  SpawnOptions options;
  options.args = args;
  return Child(std::move(options)).Wait(After(std::chrono::seconds(60)));
}

std::string SharedDir(const TempDir& dir) {
  std::string shared = dir / "shared";
  fs::create_directory(shared);
  fs::permissions(shared, fs::perms::all | fs::perms::sticky_bit);
  return shared;
}

const Output kOutputs[] = {
    {"record", "out.pgr"}, {"fingerprint", "fp.tar.gz"}, {"plot", "cpu.dat"}};

}  // namespace

TEST_SUITE("shared directories") {
  TEST_CASE("another user's symlink or a hard link at an output path: refused, its file intact") {
    OtherUser user;
    if (!user.available()) {
      MESSAGE("skipped: " << user.why_not());
      return;
    }
    TempDir dir;
    std::string shared = SharedDir(dir);
    std::string ours = dir / "ours";
    WriteFile(ours, "precious\n");
    for (const Output& output : kOutputs) {
      std::string path = shared + "/" + output.name;
      CAPTURE(path);
      for (bool symlink : {true, false}) {
        CAPTURE(symlink);
        if (symlink) {
          REQUIRE(::symlink(ours.c_str(), path.c_str()) == 0);
          REQUIRE(lchown(path.c_str(), user.uid(), user.gid()) == 0);
        } else {
          REQUIRE(link(ours.c_str(), path.c_str()) == 0);
        }
        ExitResult r = Perfmonger(output.Args(path));
        CHECK(r.code == 1);
        std::string why = symlink ? "a symbolic link owned by uid " + std::to_string(user.uid())
                                  : std::string("a file with 2 hard links");
        CHECK(r.err == "perfmonger " + std::string(output.command) + ": error: refusing " +
                           path + ": " + why + " in the shared directory " + shared +
                           ", where another user may have planted it; remove it or write "
                           "elsewhere\n");
        CHECK(ReadFileBytes(ours) == "precious\n");
        CHECK(fs::is_symlink(path) == symlink);  // left where it was
        fs::remove(path);
      }
    }
  }

  TEST_CASE("a symlink of one's own in a shared directory is followed, as one elsewhere") {
    TempDir dir;
    std::string shared = SharedDir(dir);
    fs::create_directory(dir / "private");
    for (const std::string& link_dir : {shared, dir / "private"}) {
      std::string target = dir / ("target-" + fs::path(link_dir).filename().string() + ".pgr");
      std::string path = link_dir + "/out.pgr";
      REQUIRE(::symlink(target.c_str(), path.c_str()) == 0);
      ExitResult r = Perfmonger(kOutputs[0].Args(path));
      CAPTURE(r.err);
      CHECK(r.code == 0);
      CHECK(ReadFileBytes(target).starts_with("{\"format\":\"perfmonger-pgr\""));
    }
  }
}

}  // namespace pm::test
