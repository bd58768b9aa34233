// Who holds the lock that keeps `record` from its output file. A recorder
// write-locks its file; but any process that can open the file can lock it
// too (another user's, with a read lock on a file it may read), and
// calling that "another perfmonger record" would send the user after the
// wrong process. The lock's type and the holder's executable tell the two
// apart; /proc names the holder's owner and program.
#pragma once

#include <fcntl.h>
#include <sys/types.h>

#include <optional>
#include <string>

namespace pm {

struct LockHolder {
  pid_t pid = 0;              // 0: unknown (an open file description lock)
  bool write = false;         // F_WRLCK, as a recorder holds
  std::optional<uid_t> uid;   // its real uid, when /proc shows it
  std::string program;        // its executable (else argv[0]); "" unknown
  bool perfmonger = false;    // it runs perfmonger
};

// The holder of `lock`, as F_GETLK returned it, looked up in /proc.
LockHolder FindLockHolder(const struct flock& lock);

// A perfmonger process holding a write lock: another recorder.
inline bool IsRecorder(const LockHolder& h) { return h.write && h.perfmonger; }

// One line for `record` refusing `path`, naming the holder and the fix.
std::string LockRefusal(const std::string& path, const LockHolder& holder);

}  // namespace pm
