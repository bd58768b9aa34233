#include "daemon/retention.hh"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <memory>

namespace pm {
namespace {

bool IsOwn(int dirfd, const char* name, uint64_t& bytes) {
  struct stat st;
  if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return false;
  if (!S_ISREG(st.st_mode) || st.st_uid != geteuid()) return false;
  bytes = static_cast<uint64_t>(st.st_size);
  return true;
}

bool Older(const OwnFile& a, const OwnFile& b) {
  if (a.when.start_ns != b.when.start_ns) return a.when.start_ns < b.when.start_ns;
  return a.when.suffix < b.when.suffix;
}

// The files to delete, oldest first: never `current`, never the newest.
std::vector<const OwnFile*> Expired(const std::vector<OwnFile>& files,
                                    const RotatePolicy& policy, int64_t now_ns,
                                    const std::string& current) {
  std::vector<const OwnFile*> out;
  uint64_t total = 0;
  for (const OwnFile& f : files) total += f.bytes;
  for (size_t i = 0; i + 1 < files.size(); ++i) {
    const OwnFile& f = files[i];
    if (f.name == current) continue;
    bool too_old = policy.keep_ns > 0 && files[i + 1].when.start_ns < now_ns - policy.keep_ns;
    bool too_big = policy.keep_bytes > 0 && total > policy.keep_bytes;
    if (!too_old && !too_big) continue;
    out.push_back(&f);
    total -= f.bytes;
  }
  return out;
}

}  // namespace

std::vector<OwnFile> ListOwnFiles(const std::string& dir) {
  std::vector<OwnFile> files;
  std::unique_ptr<DIR, int (*)(DIR*)> d(opendir(dir.c_str()), closedir);
  if (!d) return files;
  while (struct dirent* e = readdir(d.get())) {
    auto when = ParseRotatedName(e->d_name);
    uint64_t bytes = 0;
    if (when && IsOwn(dirfd(d.get()), e->d_name, bytes))
      files.push_back({e->d_name, *when, bytes});
  }
  std::sort(files.begin(), files.end(), Older);
  return files;
}

std::vector<std::string> ApplyRetention(const std::string& dir, const RotatePolicy& policy,
                                        int64_t now_ns, const std::string& current) {
  std::vector<std::string> deleted;
  if (policy.keep_ns == 0 && policy.keep_bytes == 0) return deleted;
  std::vector<OwnFile> files = ListOwnFiles(dir);
  for (const OwnFile* f : Expired(files, policy, now_ns, current))
    if (unlink((dir + "/" + f->name).c_str()) == 0) deleted.push_back(f->name);
  return deleted;
}

}  // namespace pm
