#include "daemon/lock_holder.hh"

#include <unistd.h>

#include <string_view>
#include <vector>

#include "daemon/process_info.hh"

namespace pm {
namespace {

std::string_view BaseName(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// "perfmonger", or "perfmonger (deleted)" once a rebuild replaced it.
bool NamesPerfmonger(std::string_view program) {
  std::string_view name = BaseName(program);
  return name == "perfmonger" || name == "perfmonger (deleted)";
}

// "pid N (uid U, PROGRAM)", as much of it as is known.
std::string Who(const LockHolder& h) {
  std::string details;
  if (h.uid) details = "uid " + std::to_string(*h.uid);
  if (!h.program.empty()) details += (details.empty() ? "" : ", ") + h.program;
  return "pid " + std::to_string(h.pid) + (details.empty() ? "" : " (" + details + ")");
}

}  // namespace

LockHolder FindLockHolder(const struct flock& lock) {
  LockHolder h;
  h.write = lock.l_type == F_WRLCK;
  if (lock.l_pid <= 0) return h;
  h.pid = lock.l_pid;
  h.uid = ProcessRealUid(h.pid);
  h.program = ProcessExecutable(h.pid);  // another user's: only root may read it
  if (h.program.empty()) {
    std::vector<std::string> args = ProcessArgs(h.pid);
    if (!args.empty()) h.program = args[0];
  }
  h.perfmonger = RunsOurExecutable(h.pid) || NamesPerfmonger(h.program);
  return h;
}

std::string LockRefusal(const std::string& path, const LockHolder& holder) {
  if (IsRecorder(holder)) {
    bool theirs = holder.uid && *holder.uid != getuid();
    return path + " is being written by another perfmonger record (pid " +
           std::to_string(holder.pid) + (theirs ? ", uid " + std::to_string(*holder.uid) : "") +
           "); pass another -l PATH";
  }
  if (holder.pid <= 0)  // an open file description lock, or another pid namespace's
    return path + " is locked by a process whose pid is not visible here (a " +
           (holder.write ? "write" : "read") + " lock); pass another -l PATH";
  return path + " is locked by " + Who(holder) + ", which holds a " +
         (holder.write ? "write" : "read") + " lock on it and is not a perfmonger record; "
         "record needs the file to itself: stop that process or pass another -l PATH";
}

}  // namespace pm
