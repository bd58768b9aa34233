#include "bench/readers_files.hh"

#include <fcntl.h>
#include <sys/wait.h>

#include <cstdint>
#include <fstream>
#include <stdexcept>

#include "common/io.hh"
#include "common/spawn.hh"
#include "proto/codec.hh"
#include "proto/pgr_delta.hh"
#include "proto/stream.hh"

namespace pm::bench {
namespace {

struct FdSink final : OutputStream {
  int fd;
  explicit FdSink(int f) : fd(f) {}
  void Write(std::string_view b) override { WriteAll(fd, b); }
  void Flush() override {}
  void Finish() override {}
};

int64_t MonoOf(const std::string& line) {
  size_t at = line.find("\"mono\":");
  return at == std::string::npos ? 0 : std::stoll(line.substr(at + 7, 24));
}

// The header with its "version" set to `version`.
std::string HeaderOf(std::string header, int version) {
  const std::string v1 = "\"version\":1,";
  size_t at = header.find(v1);
  if (at == std::string::npos) throw std::runtime_error("not a v1 header: " + header);
  return header.replace(at, v1.size(), "\"version\":" + std::to_string(version) + ",");
}

}  // namespace

void RecordReal(const std::string& perfmonger, const std::string& path, const char* seconds) {
  std::vector<std::string> argv = {perfmonger, "record", "--format-version", "1",
                                   "-i", "1ms", "-t", seconds, "-l", path};
  std::vector<const char*> args = NullTerminated(argv);
  SpawnSpec spec{};
  spec.path = args[0];
  spec.argv = args.data();
  SpawnedChild child = Spawn(spec);
  int status = 0;
  if (!ReapChild(child.pid, &status, nullptr) || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("recording " + path + " failed");
}

RecordingLines LoadLines(const std::string& path) {
  std::ifstream in(path);
  RecordingLines rec;
  if (!std::getline(in, rec.header)) throw std::runtime_error("cannot read " + path);
  rec.header += "\n";
  for (std::string line; std::getline(in, line);) {
    if (in.eof()) break;  // no "\n": a cut last line
    rec.samples += line.starts_with("{\"t\":");
    rec.lines.push_back(line + "\n");
  }
  return rec;
}

void WriteRecording(const std::string& path, const RecordingLines& rec, int version) {
  UniqueFd fd = OpenAt(AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  FdSink sink(fd.Get());
  auto out = MakeCompressor(CompressionForPath(path), sink);
  out->Write(HeaderOf(rec.header, version));
  out->Flush();
  DeltaEncoder delta;
  for (const std::string& line : rec.lines) {
    std::string_view text = line;
    if (version == 2 && line.starts_with("{\"t\":")) {
      out->Write(delta.Encode(text.substr(0, text.size() - 1), MonoOf(line)));
      out->Write("\n");
    } else {
      out->Write(text);
      if (line.find("\"event\":\"resume\"") != std::string::npos) delta.ForceKeyframe();
    }
    out->Flush();  // as the recorder does: a sync point per line
  }
  out->Finish();
}

}  // namespace pm::bench
