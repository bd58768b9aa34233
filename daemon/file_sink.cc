#include "daemon/file_sink.hh"

#include <fcntl.h>
#include <unistd.h>

#include "common/error.hh"
#include "common/io.hh"

namespace pm {

FileSink::FileSink(const std::string& path)
    : path_(path), fd_(OpenAt(AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) {}

void FileSink::Write(std::string_view bytes) {
  try {
    WriteAll(fd_.Get(), bytes);
  } catch (const std::system_error& e) {
    throw SystemError("writing " + path_, e.code().value());
  }
  bytes_written_ += bytes.size();
}

void FileSink::Finish() {
  if (fsync(fd_.Get()) != 0) throw SystemError("fsync " + path_);
}

void FileSink::Close() {
  if (::close(fd_.Release()) != 0) throw SystemError("closing " + path_);
}

}  // namespace pm
