#include "tools/recording_input.hh"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <optional>
#include <utility>
#include <system_error>

#include "common/error.hh"
#include "common/io.hh"

namespace pm {
namespace {

// The pid of a recorder still writing the file behind `fd`: FileSink holds
// a POSIX write lock on a regular output for as long as it records.
std::optional<pid_t> LiveWriter(int fd) {
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  struct flock lock = {};
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;
  if (fcntl(fd, F_GETLK, &lock) != 0 || lock.l_type == F_UNLCK || lock.l_pid <= 0)
    return std::nullopt;
  return lock.l_pid;
}

}  // namespace

// Counts the bytes read, to tell an empty input from a garbled one.
class RecordingInput::CountingStream final : public InputStream {
 public:
  explicit CountingStream(int fd) : in_(fd) {}
  size_t Read(std::span<char> buf) override {
    size_t n = in_.Read(buf);
    bytes_ += n;
    return n;
  }
  uint64_t bytes() const { return bytes_; }

 private:
  FdInputStream in_;
  uint64_t bytes_ = 0;
};

RecordingInput::RecordingInput(const std::string& path, SampleStream::Options reading)
    : reading_(std::move(reading)) {
  if (path.empty() || path == "-") {
    // A recording is never typed: waiting on a terminal would look hung.
    if (isatty(0))
      throw UsageError("no recording named and standard input is a terminal: give FILE, "
                       "or pipe a recording in");
    name_ = "stdin";
    stream_ = std::make_unique<CountingStream>(0);
    return;
  }
  name_ = path;
  try {
    fd_ = OpenAt(AT_FDCWD, path, O_RDONLY);
  } catch (const std::system_error& e) {
    throw InputError(e.what());  // "PATH: No such file or directory"
  }
  stream_ = std::make_unique<CountingStream>(fd_.Get());
}

RecordingInput::~RecordingInput() = default;

void RecordingInput::Rethrow() const {
  try {
    throw;
  } catch (const FormatError& e) {
    throw FormatError(name_ + ": " + e.what());
  } catch (const std::system_error& e) {
    throw InputError(name_ + ": " + e.what());
  }
}

bool RecordingInput::Open() {
  try {
    reader_ = std::make_unique<RecordingReader>(*stream_);
  } catch (const FormatError&) {
    if (stream_->bytes() == 0) return false;
    Rethrow();
  } catch (const std::system_error&) {
    Rethrow();
  }
  items_ = std::make_unique<SampleStream>(*reader_, reading_);
  struct stat st;
  if (fstat(fd_ ? fd_.Get() : 0, &st) == 0 && S_ISREG(st.st_mode)) reader_->ReadAhead();
  return true;
}

void RecordingInput::CheckMarksFirst() const {
  const WindowSpec& w = reading_.window;
  bool marks = w.phase || w.from.kind == WindowBound::Kind::kMark ||
               w.to.kind == WindowBound::Kind::kMark;
  struct stat st;
  if (!marks || !fd_ || fstat(fd_.Get(), &st) != 0 || !S_ISREG(st.st_mode)) return;
  RecordingInput again(name_, reading_);
  if (!again.Open()) return;
  again.SkimSamples();
  RawSample sample;
  RecordingEvent event;
  while (again.Next(sample, event) != RecordingReader::Item::kEnd) {
  }
  try {
    again.items_->Finish();
  } catch (const UsageError& e) {
    throw UsageError(name_ + ": " + e.what());
  }
}

RecordingReader::Item RecordingInput::Next(RawSample& sample, RecordingEvent& event) {
  try {
    return items_->Next(sample, event);
  } catch (const FormatError&) {
    Rethrow();
  } catch (const std::system_error&) {
    Rethrow();
  }
}

void RecordingInput::Finish() const {
  WarnIfIncomplete();
  try {
    items_->Finish();
  } catch (const UsageError& e) {
    throw UsageError(name_ + ": " + e.what());
  }
}

void RecordingInput::WarnIfIncomplete() const {
  for (const std::string& lost : reader_->warnings())  // damaged spans skipped
    std::fprintf(stderr, "warning: %s: %s\n", name_.c_str(), lost.c_str());
  bool cut = reader_->truncated();
  bool unclosed = reader_->missing_trailer();
  if (!cut && !unclosed) return;
  const char* name = name_.c_str();
  std::string samples = std::to_string(samples_read()) +
                        (samples_read() == 1 ? " sample" : " samples");
  if (std::optional<pid_t> pid = LiveWriter(fd_ ? fd_.Get() : 0)) {
    std::fprintf(stderr, "note: %s: still being recorded (pid %d): read up to its "
                 "last flushed sample, %s\n", name, static_cast<int>(*pid),
                 samples.c_str());
    return;
  }
  const char* why = "(its recorder was killed, or the file was cut)";
  if (!unclosed)  // a legacy recording, or bytes cut after the trailer
    std::fprintf(stderr, "warning: %s: recording truncated after %s\n", name,
                 samples.c_str());
  else if (cut)
    std::fprintf(stderr, "warning: %s: recording truncated after %s, not closed "
                 "cleanly %s\n", name, samples.c_str(), why);
  else
    std::fprintf(stderr, "warning: %s: not closed cleanly: no end trailer after %s "
                 "%s\n", name, samples.c_str(), why);
}

int RunReaderCommand(std::string_view command, const std::function<int()>& body) {
  auto error = [command](const char* message, int status) {
    std::fprintf(stderr, "perfmonger %.*s: error: %s\n",
                 static_cast<int>(command.size()), command.data(), message);
    return status;
  };
  try {
    return body();
  } catch (const UsageError& e) {
    return error(e.what(), 1);
  } catch (const SetupError& e) {  // an output refused (plot)
    return error(e.what(), 1);
  } catch (const InputError& e) {
    return error(e.what(), 1);
  } catch (const std::system_error& e) {
    if (e.code().value() == EPIPE) return 0;
    return error(e.what(), 1);
  } catch (const std::exception& e) {  // FormatError, and data absurd enough to exhaust memory
    return error(e.what(), 2);
  }
}

void Note(std::string_view command, const std::string& message) {
  std::fprintf(stderr, "perfmonger %.*s: %s\n", static_cast<int>(command.size()),
               command.data(), message.c_str());
}

}  // namespace pm
