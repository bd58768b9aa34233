#include "tools/fingerprint/tar_writer.hh"

#include <cstring>
#include <stdexcept>

namespace pm {
namespace {

constexpr size_t kBlock = 512;

// A zero-padded octal number filling `width` bytes, the last one NUL.
// Values that do not fit are refused (no entry is near 8 GiB here).
void PutOctal(char* field, size_t width, uint64_t value) {
  field[width - 1] = '\0';
  for (size_t i = width - 1; i-- > 0; value >>= 3)
    field[i] = static_cast<char>('0' + (value & 7));
  if (value != 0) throw std::invalid_argument("tar: value too large for its field");
}

// Splits `name` into ustar's prefix (155) and name (100) fields at a '/'.
void PutName(char* header, std::string_view name) {
  if (name.empty()) throw std::invalid_argument("tar: empty entry name");
  if (name.size() <= 100) {
    std::memcpy(header, name.data(), name.size());
    return;
  }
  size_t split = name.rfind('/', 155);
  if (split == std::string_view::npos || name.size() - split - 1 > 100 ||
      split == 0)
    throw std::invalid_argument("tar: name too long: " + std::string(name));
  std::memcpy(header + 345, name.data(), split);
  std::memcpy(header, name.data() + split + 1, name.size() - split - 1);
}

}  // namespace

std::string TarHeader(std::string_view name, uint64_t size, unsigned mode,
                      char type, int64_t mtime) {
  std::string block(kBlock, '\0');
  char* h = block.data();
  PutName(h, name);
  PutOctal(h + 100, 8, mode);
  PutOctal(h + 108, 8, 0);  // uid
  PutOctal(h + 116, 8, 0);  // gid
  PutOctal(h + 124, 12, size);
  PutOctal(h + 136, 12, static_cast<uint64_t>(mtime < 0 ? 0 : mtime));
  h[156] = type;
  std::memcpy(h + 257, "ustar", 6);  // magic with its NUL
  std::memcpy(h + 263, "00", 2);     // version
  std::memcpy(h + 265, "root", 4);   // uname
  std::memcpy(h + 297, "root", 4);   // gname
  // The checksum is computed with its own field read as eight spaces.
  std::memset(h + 148, ' ', 8);
  unsigned sum = 0;
  for (unsigned char c : block) sum += c;
  PutOctal(h + 148, 7, sum);  // six digits and a NUL, then a space
  h[155] = ' ';
  return block;
}

void TarWriter::WriteHeader(std::string_view name, uint64_t size,
                            unsigned mode, char type) {
  out_.Write(TarHeader(name, size, mode, type, mtime_));
}

void TarWriter::AddDirectory(std::string_view name) {
  std::string dir(name);
  if (!dir.ends_with('/')) dir += '/';
  WriteHeader(dir, 0, 0755, '5');
}

void TarWriter::AddFile(std::string_view name, std::string_view contents,
                        unsigned mode) {
  WriteHeader(name, contents.size(), mode, '0');
  out_.Write(contents);
  size_t pad = (kBlock - contents.size() % kBlock) % kBlock;
  if (pad) out_.Write(std::string(pad, '\0'));
}

void TarWriter::Finish() {
  out_.Write(std::string(2 * kBlock, '\0'));
  out_.Finish();
}

}  // namespace pm
