// `meson install` as a user runs it: into a scratch DESTDIR, every file in
// the place its reader looks, the installed perfmonger naming its build,
// and a new login shell of each kind completing perfmonger from the
// installed script alone.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "test/process/shells.hh"

namespace pm::test {
namespace {

namespace fs = std::filesystem;

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  REQUIRE_MESSAGE(value, "$" << name << " is not set (run the tests through meson test)");
  return value;
}

std::string Slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The build installed below a scratch DESTDIR: `root()` is DESTDIR/PREFIX.
class Installed {
 public:
  Installed() {
    SpawnOptions install;
    install.program = Env("PM_MESON");
    install.args = {"install", "-C", Env("PM_BUILD_ROOT"), "--no-rebuild", "--quiet",
                    "--destdir", dir_.path()};
    ExitResult r = Child(std::move(install)).Wait(After(std::chrono::seconds(120)));
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
  }
  fs::path root() const { return fs::path(dir_.path()) / fs::path(Env("PM_PREFIX")).relative_path(); }

 private:
  TempDir dir_;
};

constexpr char kBash[] = "share/bash-completion/completions/perfmonger.bash";
constexpr char kZsh[] = "share/zsh/site-functions/_perfmonger";
constexpr char kFish[] = "share/fish/vendor_completions.d/perfmonger.fish";

// Types `show` after the login shell is up and checks that what it
// prints names `script` (the file the shell's completion came from).
void CheckLoginShell(Terminal& t, const std::string& show, const fs::path& script) {
  Complete(t, "perfmonger rec\t", "record");
  Complete(t, "perfmonger play --format=op\t", "=openmetrics");
  Complete(t, "perfmonger stat -- perfmonger --ver\t", "--version");
  t.Type(show + "\r");
  t.WaitFor(script.string());
}

TEST_SUITE("install") {
  TEST_CASE("meson install --destdir: each file where its reader looks") {
    Installed installed;
    fs::path root = installed.root();
    CHECK((fs::status(root / "bin/perfmonger").permissions() & fs::perms::owner_exec) !=
          fs::perms::none);
    for (const auto& page : fs::directory_iterator(Env("PM_SOURCE_ROOT") + "/man")) {
      std::string name = page.path().filename().string();
      CAPTURE(name);
      CHECK(Slurp(root / "share/man" / ("man" + name.substr(name.size() - 1)) / name) ==
            Slurp(page.path()));
    }
    CHECK(fs::exists(root / "include/perfmonger/embed.h"));
    bool pc = false, so = false;
    for (const auto& f : fs::recursive_directory_iterator(root / "lib")) {
      pc |= f.path().filename() == "perfmonger-embed.pc";
      so |= f.path().filename() == "libperfmonger-embed.so";
    }
    CHECK(pc);
    CHECK(so);
    for (const auto& script : {std::pair{"bash", kBash}, {"zsh", kZsh}, {"fish", kFish}}) {
      CAPTURE(script.second);  // not a structured binding: CAPTURE takes it in a lambda
      CHECK(Slurp(root / script.second) == Run({"completion", script.first}).out);
    }
    // The bash script's header names the file it is installed as.
    CHECK(Slurp(root / kBash).find("completions/" + fs::path(kBash).filename().string() + ",") !=
          std::string::npos);
  }

  TEST_CASE("the installed perfmonger --version names the version and the build's commit") {
    Installed installed;
    ExitResult r = Run({"--version"}, (installed.root() / "bin/perfmonger").string());
    REQUIRE(r.code == 0);
    std::string head = "PerfMonger version " + Env("PM_VERSION");
    if (!fs::exists(Env("PM_SOURCE_ROOT") + "/.git")) {
      CHECK(r.out == head + "\n");
      return;
    }
    REQUIRE(r.out.starts_with(head + " (git "));
    REQUIRE(r.out.ends_with(")\n"));
    std::string describe = r.out.substr(head.size() + 6, r.out.size() - head.size() - 8);
    if (describe.ends_with("-dirty")) describe.resize(describe.size() - 6);
    ExitResult commit = Run({"-C", Env("PM_SOURCE_ROOT"), "rev-parse", "--verify", "--quiet",
                             describe + "^{commit}"},
                            "/usr/bin/git");
    CAPTURE(describe);
    CHECK(commit.code == 0);
  }

  TEST_CASE("a new login shell completes perfmonger from the installed script") {
    Installed installed;
    fs::path root = installed.root();
    std::string path = "PATH=" + (root / "bin").string() + ":$PATH";
    // Where the installed prefix's share/ would be searched anyway.
    std::string data_dirs = "XDG_DATA_DIRS=" + (root / "share").string() + ":/usr/share";
    SUBCASE("bash") {
      TempDir home;
      StartedShell bash = StartShell({ShellPath("bash"), "-l", "-i"},
                                     UserEnv(home.path(), {data_dirs}), "PS1='$ '; " + path);
      CheckLoginShell(*bash.terminal, "shopt -s extdebug; declare -F _perfmonger", root / kBash);
    }
    SUBCASE("zsh") {
      TempDir home;  // a user's ~/.zshrc for a prefix outside zsh's own fpath
      std::ofstream(home / ".zshrc") << "fpath=(" << (root / kZsh).parent_path().string()
                                     << " $fpath)\nautoload -Uz compinit && compinit -u -D\n";
      StartedShell zsh = StartShell({ShellPath("zsh"), "-l", "-i"}, UserEnv(home.path()),
                                    "PS1='$ '; " + path);
      CheckLoginShell(*zsh.terminal, "whence -v _perfmonger", root / kZsh);
    }
    SUBCASE("fish") {
      TempDir home;
      StartedShell fish = StartShell({ShellPath("fish"), "-l", "-i"},
                                     UserEnv(home.path(), {data_dirs}),
                                     "set -g fish_autosuggestion_enabled 0; set -gx PATH " +
                                         (root / "bin").string() + " $PATH");
      CheckLoginShell(*fish.terminal, "functions -D __perfmonger_recordings", root / kFish);
    }
  }
}

}  // namespace
}  // namespace pm::test
