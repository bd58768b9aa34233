// The one PATH search of the project: where execvp would find a program,
// and, when it would fail, why (a missing name, or one that cannot be run).
#pragma once

#include <string>

namespace pm {

struct ProgramLookup {
  std::string path;    // found: what to pass to execve
  int error = 0;       // not found: ENOENT, or EACCES (only a directory or a
                       // file without execute permission has that name)
  std::string reason;  // not found: "not found", "not found on PATH",
                       // "is a directory", "/usr/bin/x is not executable"
};

// `name` itself when it holds a '/', else the first executable regular file
// `name` in a $PATH directory (an empty entry is the current directory; no
// $PATH: /usr/local/bin:/usr/bin:/bin). An empty name is not found.
ProgramLookup FindProgram(const std::string& name);

}  // namespace pm
