#include "tools/plot/plot_files.hh"

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>

#include "common/error.hh"
#include "common/io.hh"
#include "tools/plot/plot_gnuplot.hh"

namespace pm {
namespace {

// Less room than a chart takes: the file system counts as full.
constexpr uint64_t kFullBelow = 1 << 20;

std::string_view TrimmedEnd(std::string_view bytes) {
  while (!bytes.empty() && (bytes.back() == '\n' || bytes.back() == '\r' ||
                            bytes.back() == ' ' || bytes.back() == '\t'))
    bytes.remove_suffix(1);
  return bytes;
}

std::string ReadWhole(const std::string& path) {
  UniqueFd fd = OpenAt(AT_FDCWD, path, O_RDONLY);
  std::string out;
  char buf[65536];
  for (;;) {
    ssize_t got = read(fd.Get(), buf, sizeof buf);
    if (got == 0) return out;
    if (got > 0) out.append(buf, static_cast<size_t>(got));
    else if (errno != EINTR) throw SystemError("cannot read " + path);
  }
}

std::string Directory(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash == 0 ? 1 : slash);
}

// ": the file system holding DIR is full (N KiB free); ...", or "". DIR:
// the directory the scratch directory is in ($TMPDIR), which the user set.
std::string FullDisk(const std::string& path) {
  struct statvfs fs;
  std::string dir = Directory(Directory(path));
  if (statvfs(dir.c_str(), &fs) != 0) return "";
  uint64_t free = static_cast<uint64_t>(fs.f_bavail) * fs.f_frsize;
  if (free >= kFullBelow) return "";
  return ": the file system holding " + dir + " is full (" + std::to_string(free / 1024) +
         " KiB free); free some space, or set TMPDIR to a directory elsewhere";
}

}  // namespace

bool ChartComplete(std::string_view bytes, ChartType type) {
  switch (type) {
    case ChartType::kPng:
      return bytes.size() > 8 && bytes.starts_with("\x89PNG") &&
             bytes.ends_with(std::string_view("\0\0\0\0IEND\xae\x42\x60\x82", 12));
    case ChartType::kSvg:
      return bytes.find("<svg") != std::string_view::npos &&
             TrimmedEnd(bytes).ends_with("</svg>");
    case ChartType::kPdf:
      return bytes.starts_with("%PDF-") && TrimmedEnd(bytes).ends_with("%%EOF");
  }
  return false;
}

std::string ReadChart(const std::string& path, ChartType type) {
  std::string bytes;
  try {
    bytes = ReadWhole(path);
  } catch (const std::system_error& e) {
    if (e.code().value() != ENOENT) throw;  // not even created: as empty
  }
  if (ChartComplete(bytes, type)) return bytes;
  std::string full = FullDisk(path);
  throw ChartError("gnuplot left " + path + " incomplete (" + std::to_string(bytes.size()) +
                   " bytes)" + (full.empty() ? ": it reported no error" : full));
}

}  // namespace pm
