// Retention (`record --rotate ... --keep DURATION|SIZE`): the recorder
// deletes its own old files, and nothing else. A file is its own when all
// three hold: its name is one RotatedName() makes (daemon/rotation.hh), it
// is a regular file (lstat: a symlink is never followed nor removed), and
// it is owned by the recorder's effective uid. Files planted beside them,
// symlinks and other users' files stay, whatever their names.
//
// Age: a file's data ends where the next file's begins (the start in its
// successor's name), so a file is expired once its successor started more
// than `keep_ns` before `now_ns`. The clock is the recorder's, which a test
// can move (docs/testing.md). Size: the oldest files go until the total is
// at most `keep_bytes`. The file being written (`current`) always stays.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "daemon/rotation.hh"

namespace pm {

struct OwnFile {
  std::string name;
  RotatedFile when;
  uint64_t bytes = 0;
};

// The recorder's own files in `dir`, oldest first.
std::vector<OwnFile> ListOwnFiles(const std::string& dir);

// Deletes the expired ones; returns the names deleted. A file that cannot
// be deleted is skipped (tried again at the next rotation).
std::vector<std::string> ApplyRetention(const std::string& dir, const RotatePolicy& policy,
                                        int64_t now_ns, const std::string& current);

}  // namespace pm
