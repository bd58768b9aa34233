#include "tools/fingerprint/fingerprint.hh"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <optional>
#include <system_error>
#include <vector>

#include "common/error.hh"
#include "common/io.hh"
#include "common/output_file.hh"
#include "common/program_path.hh"
#include "common/unique_fd.hh"
#include "proto/gzip_stream.hh"
#include "tools/fingerprint/command_output.hh"
#include "tools/fingerprint/tar_writer.hh"

namespace pm {
namespace {

constexpr size_t kFileCap = 16u << 20;
constexpr auto kCommandTimeout = std::chrono::seconds(20);

constexpr const char* kProcFiles[] = {
    "cpuinfo", "meminfo", "mdstat", "mounts", "interrupts", "diskstats",
    "partitions", "ioports", "version", "cmdline", "filesystems", "swaps"};

// The archive's file, created (0644) or truncated: each block the
// compressor hands over goes straight to the kernel. Not the recorder's
// sink: no lock, no fsync, no deletion check; a failing close() (NFS,
// quota) is an error.
class ArchiveFile final : public OutputStream {
 public:
  explicit ArchiveFile(const std::string& path)
      : path_(path), fd_(OpenOutputFile(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) {}
  void Write(std::string_view bytes) override {
    try {
      WriteAll(fd_.Get(), bytes);
    } catch (const std::system_error& e) {
      throw SystemError("writing " + path_, e.code().value());
    }
  }
  void Flush() override {}
  void Finish() override {}
  void Close() {
    if (::close(fd_.Release()) != 0) throw SystemError("closing " + path_);
  }

 private:
  std::string path_;
  UniqueFd fd_;
};

struct Command {
  const char* file;  // cmd/<file>.txt
  std::vector<std::string> argv;
};

const std::vector<Command>& Commands() {
  static const std::vector<Command> commands = {
      {"lscpu", {"lscpu"}},          {"lsblk-t", {"lsblk", "-t"}},
      {"df-h", {"df", "-h"}},        {"mount", {"mount"}},
      {"lspci-vvv", {"lspci", "-vvv"}}, {"lsmod", {"lsmod"}},
      {"sysctl-a", {"sysctl", "-a"}}, {"ip-addr", {"ip", "addr"}},
      {"ip-route", {"ip", "route"}},
      {"numactl-hardware", {"numactl", "--hardware"}}};
  return commands;
}

// A readable regular file's contents (procfs and sysfs files report size
// 0: read to EOF); nullopt for anything else or on a read error. Opened
// non-blocking, so a FIFO or a device can never stall the step.
std::optional<std::string> ReadSmallFile(const std::string& path) {
  UniqueFd fd = UniqueFd::Adopt(open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  struct stat st;
  if (!fd || fstat(fd.Get(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  std::string data;
  char buf[65536];
  while (data.size() < kFileCap) {
    ssize_t n = read(fd.Get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::nullopt;
    if (n == 0) break;
    data.append(buf, n);
  }
  return data;
}

// Names in `dir` (not . and ..), sorted; empty when it cannot be read.
std::vector<std::string> ListDir(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string name = e->d_name;
      if (name != "." && name != "..") names.push_back(name);
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

class Gatherer {
 public:
  Gatherer(TarWriter& tar, std::string top, std::string root, std::FILE* log)
      : tar_(tar), top_(std::move(top)), root_(std::move(root)), log_(log) {}

  void ProcFiles();
  void ProcSysFs();
  void SysBlock();
  void RunCommands();
  const FingerprintCounts& counts() const { return counts_; }

 private:
  void Report(const std::string& step, const char* outcome);
  // Adds every readable file directly in root/`dir`; returns how many.
  int CopyFolder(const std::string& dir);

  TarWriter& tar_;
  std::string top_, root_;
  std::FILE* log_;
  FingerprintCounts counts_;
};

void Gatherer::Report(const std::string& step, const char* outcome) {
  std::fprintf(log_, "%s ... %s\n", step.c_str(), outcome);
  std::string_view o = outcome;
  (o == "done" ? counts_.done : o == "skipped" ? counts_.skipped : counts_.failed)++;
}

void Gatherer::ProcFiles() {
  tar_.AddDirectory(top_ + "/proc");
  for (const char* name : kProcFiles) {
    std::string path = std::string("/proc/") + name;
    std::optional<std::string> data = ReadSmallFile(root_ + path);
    if (data) tar_.AddFile(top_ + path, *data);
    Report("copy " + path, data ? "done" : "skipped");
  }
}

int Gatherer::CopyFolder(const std::string& dir) {
  int copied = 0;
  for (const std::string& name : ListDir(root_ + dir)) {
    if (std::optional<std::string> data = ReadSmallFile(root_ + dir + "/" + name)) {
      tar_.AddFile(top_ + dir + "/" + name, *data);
      ++copied;
    }
  }
  return copied;
}

void Gatherer::ProcSysFs() {
  tar_.AddDirectory(top_ + "/proc/sys/fs");
  Report("copy /proc/sys/fs", CopyFolder("/proc/sys/fs") ? "done" : "skipped");
}

void Gatherer::SysBlock() {
  std::vector<std::string> devices = ListDir(root_ + "/sys/block");
  for (const std::string& dev : devices) {
    std::string dir = "/sys/block/" + dev;
    tar_.AddDirectory(top_ + dir);
    int copied = CopyFolder(dir);
    struct stat st;
    if (stat((root_ + dir + "/queue").c_str(), &st) == 0) {
      tar_.AddDirectory(top_ + dir + "/queue");
      copied += CopyFolder(dir + "/queue");
    }
    Report("copy " + dir, copied ? "done" : "skipped");
  }
  if (devices.empty()) Report("copy /sys/block", "skipped");
}

void Gatherer::RunCommands() {
  tar_.AddDirectory(top_ + "/cmd");
  for (const Command& c : Commands()) {
    std::string step = "run";
    for (const std::string& a : c.argv) step += " " + a;
    ProgramLookup program = FindProgram(c.argv[0]);
    if (program.error) {
      Report(step, "skipped");
      continue;
    }
    std::vector<std::string> argv = c.argv;
    argv[0] = program.path;
    CommandOutput out = RunForOutput(argv, kCommandTimeout);
    if (!out.out.empty() || out.ok)
      tar_.AddFile(top_ + "/cmd/" + c.file + ".txt", out.out);
    Report(step, out.ok ? "done" : "failed");
  }
}

}  // namespace

std::string FingerprintArchivePath(const std::string& name,
                                   const std::string& host) {
  if (name.empty()) return "fingerprint." + host + ".tar.gz";
  if (name.ends_with(".tar.gz") || name.ends_with(".tgz")) return name;
  return name + ".tar.gz";
}

std::string FingerprintTopFolder(const std::string& archive_path) {
  std::string base = archive_path.substr(archive_path.rfind('/') + 1);
  for (std::string_view suffix : {".tar.gz", ".tgz"})
    if (base.ends_with(suffix) && base.size() > suffix.size())
      return base.substr(0, base.size() - suffix.size());
  return base.empty() ? "fingerprint" : base;
}

FingerprintCounts WriteFingerprint(const std::string& archive_path,
                                   const std::string& root, std::FILE* log) {
  ArchiveFile file(archive_path);
  GzipOutputStream gzip(file, 6, 6);
  TarWriter tar(gzip, std::time(nullptr));
  std::string top = FingerprintTopFolder(archive_path);
  tar.AddDirectory(top);
  Gatherer gather(tar, top, root == "/" ? "" : root, log);
  gather.ProcFiles();
  gather.ProcSysFs();
  gather.SysBlock();
  gather.RunCommands();
  tar.Finish();
  file.Close();
  return gather.counts();
}

}  // namespace pm
