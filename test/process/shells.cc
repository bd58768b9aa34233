#include "test/process/shells.hh"

#include <unistd.h>

#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>

namespace pm::test {

std::string ShellPath(const std::string& name) {
  for (const char* dir : {"/usr/bin/", "/bin/"})
    if (access((dir + name).c_str(), X_OK) == 0) return dir + name;
  FAIL(name << " is not installed: apt-get install " << name << " (scripts/setup does)");
  return "";
}

std::vector<std::string> UserEnv(const std::string& home, const std::vector<std::string>& extra) {
  std::string bin = std::filesystem::path(PerfmongerPath()).parent_path().string();
  std::vector<std::string> env = {"HOME=" + home, "ZDOTDIR=" + home,
                                  "PATH=" + bin + ":/usr/bin:/bin", "TERM=xterm",
                                  "LANG=C.UTF-8", "SHELL=/bin/sh"};
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

StartedShell StartShell(std::vector<std::string> argv, std::vector<std::string> env,
                        const std::string& setup) {
  StartedShell s{std::make_unique<Terminal>(std::move(argv), std::move(env)), ""};
  // RE""ADY as typed, READY once run.
  s.terminal->Type(setup + "; echo RE\"\"ADY\r");
  s.shown = s.terminal->WaitFor("READY");
  return s;
}

std::string Complete(Terminal& t, const std::string& keys, const std::string& expected) {
  t.Type(keys);
  std::string shown = t.WaitFor(expected);
  return shown + t.Settle();
}

bool HasWord(const std::string& text, const std::string& word) {
  std::istringstream words(text);
  for (std::string w; words >> w;)
    if (w == word) return true;
  return false;
}

}  // namespace pm::test
