#include "common/program_path.hh"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string_view>

namespace pm {
namespace {

// "" when `path` can be run, else why not (and `error` says which errno).
std::string Unrunnable(const std::string& path, int* error) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    *error = ENOENT;
    return "not found";
  }
  *error = EACCES;
  if (S_ISDIR(st.st_mode)) return "is a directory";
  if (!S_ISREG(st.st_mode)) return "is not a regular file";
  if (access(path.c_str(), X_OK) != 0) return "is not executable";
  *error = 0;
  return "";
}

}  // namespace

ProgramLookup FindProgram(const std::string& name) {
  ProgramLookup found;
  if (name.empty()) return {"", ENOENT, "not found"};
  if (name.find('/') != std::string::npos) {
    found.reason = Unrunnable(name, &found.error);
    if (!found.error) found.path = name;
    return found;
  }
  const char* path = std::getenv("PATH");
  std::string_view dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  ProgramLookup denied;  // execvp's rule: EACCES if a candidate was refused
  for (;;) {
    size_t colon = dirs.find(':');
    std::string dir(dirs.substr(0, colon));
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    int error = 0;
    std::string why = Unrunnable(candidate, &error);
    if (!error) return {candidate, 0, ""};
    if (error == EACCES && !denied.error) denied = {"", EACCES, candidate + " " + why};
    if (colon == std::string_view::npos) break;
    dirs.remove_prefix(colon + 1);
  }
  if (denied.error) return denied;
  return {"", ENOENT, "not found on PATH"};
}

}  // namespace pm
