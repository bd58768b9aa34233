#include "playback/outputs/series_spool.hh"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>

#include "common/error.hh"
#include "playback/outputs/column_spool.hh"

namespace pm {
namespace {

void Check(bool ok) {
  if (!ok) throw SystemError("the export's point spool", errno != 0 ? errno : EIO);
}

FILE* OpenPointSpool(const std::string& dir) {
  UniqueFd fd = OpenSpoolFile(dir);
  FILE* f = fdopen(fd.Get(), "w+b");
  if (f == nullptr) throw SystemError("spool file in " + dir);
  fd.Release();
  return f;
}

}  // namespace

MappedSpool::MappedSpool(const std::string& dir, size_t bytes)
    : fd_(OpenSpoolFile(dir)), bytes_(bytes) {
  Check(ftruncate(fd_.Get(), static_cast<off_t>(bytes)) == 0);
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_.Get(), 0);
  Check(p != MAP_FAILED);
  data_ = p;
}

MappedSpool::~MappedSpool() { munmap(data_, bytes_); }

PointFile::PointFile(const std::string& dir) : f_(OpenPointSpool(dir), fclose) {}

void PointFile::Write(const void* p, size_t size) { Check(fwrite(p, size, 1, f_.get()) == 1); }

void PointFile::Rewind() {
  Check(fflush(f_.get()) == 0);
  rewind(f_.get());
}

size_t PointFile::Read(void* buf, size_t size, size_t count) {
  size_t got = fread(buf, size, count, f_.get());
  Check(ferror(f_.get()) == 0);
  return got;
}

}  // namespace pm
