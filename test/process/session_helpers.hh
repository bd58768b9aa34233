// The session files of a test's own $TMPDIR, and perfmonger run there.
#pragma once

#include <fcntl.h>
#include <pwd.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <optional>
#include <string>
#include <vector>

#include "common/io.hh"
#include "test/process/recording.hh"

namespace pm::test {

inline const char kNoSession[] = "[ERROR] No perfmonger record session is running.\n";

inline std::string User() { return getpwuid(geteuid())->pw_name; }
inline std::string PidFile(const TempDir& tmp) {
  return tmp / ("perfmonger-" + User() + "-session.pid");
}
inline std::string LockFile(const TempDir& tmp) {
  return tmp / ("perfmonger-" + User() + "-session.lock");
}
inline ExitResult Pm(const TempDir& tmp, std::vector<std::string> args) {
  return RunInTmpdir(tmp.path(), std::move(args));
}
inline void WriteFile(const std::string& path, const std::string& bytes) {
  WriteAll(OpenAt(AT_FDCWD, path, O_WRONLY | O_CREAT | O_EXCL, 0600).Get(), bytes);
}
// The note --status and --kill print when they remove a stale pidfile.
inline std::string StaleNote(const TempDir& tmp, const std::string& why) {
  return "perfmonger record: removed a stale " + PidFile(tmp) + " (" + why + ")\n";
}

// The value after "KEY: " on the line that starts with it.
inline std::optional<std::string> Field(const std::string& text, const std::string& key) {
  for (const std::string& line : SplitLines(text))
    if (line.rfind(key + ": ", 0) == 0) return line.substr(key.size() + 2);
  return std::nullopt;
}

// While it lives, orphans of our children (a background session whose
// launcher has exited) become our children: the test decides when they are
// reaped, as an init that reaps at once or late would.
class Subreaper {
 public:
  Subreaper() { prctl(PR_SET_CHILD_SUBREAPER, 1); }
  ~Subreaper() { prctl(PR_SET_CHILD_SUBREAPER, 0); }
  Subreaper(const Subreaper&) = delete;
  Subreaper& operator=(const Subreaper&) = delete;
};

}  // namespace pm::test
