// `perfmonger fingerprint`: the machine's configuration in one .tar.gz.
//
// The archive has one top folder, named after the archive without its
// .tar.gz/.tgz suffix, holding
//   proc/<name>          copies of /proc/{cpuinfo,meminfo,...}
//   proc/sys/fs/<name>   every readable file directly in /proc/sys/fs
//   sys/block/<dev>/...  readable attributes of each block device (its own
//                        folder and queue/)
//   cmd/<name>.txt       the output of lscpu, lsblk -t, df -h, ... where
//                        the program exists
// Each step reports `<step> ... done|skipped|failed` to `log`; a missing
// program or file is skipped, never fatal. Only failing to write the
// archive itself throws.
#pragma once

#include <cstdio>
#include <string>

namespace pm {

// "fingerprint.<host>.tar.gz" for an empty name; otherwise `name`, with
// ".tar.gz" appended unless it ends in ".tar.gz" or ".tgz".
std::string FingerprintArchivePath(const std::string& name,
                                   const std::string& host);

// "out" for "dir/out.tar.gz" or "dir/out.tgz".
std::string FingerprintTopFolder(const std::string& archive_path);

struct FingerprintCounts {
  int done = 0, skipped = 0, failed = 0;
};

// Writes the archive at `archive_path` (created or truncated), reading the
// machine through `root` ("/" normally).
FingerprintCounts WriteFingerprint(const std::string& archive_path,
                                   const std::string& root, std::FILE* log);

}  // namespace pm
