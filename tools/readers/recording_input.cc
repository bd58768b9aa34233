#include "tools/readers/recording_input.hh"

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
#include "proto/text.hh"

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
  explicit CountingStream(int fd) : fd_in_(fd), in_(fd_in_) {}
  explicit CountingStream(InputStream& in) : fd_in_(-1), in_(in) {}
  size_t Read(std::span<char> buf) override {
    size_t n = in_.Read(buf);
    bytes_ += n;
    return n;
  }
  uint64_t bytes() const { return bytes_; }

 private:
  FdInputStream fd_in_;
  InputStream& in_;
  uint64_t bytes_ = 0;
};

// A directory, or more than one file: one timeline (playback/reading/joined_input.hh).
bool Joins(const std::vector<std::string>& paths) {
  struct stat st;
  return paths.size() > 1 ||
         (paths.size() == 1 && stat(paths[0].c_str(), &st) == 0 && S_ISDIR(st.st_mode));
}

std::string JoinedName(const std::vector<std::string>& paths) {
  std::string name;
  for (const std::string& p : paths) {
    if (!name.empty()) name += ' ';
    name += Printable(p);
  }
  return name;
}

RecordingInput::RecordingInput(const std::vector<std::string>& paths,
                               SampleStream::Options reading)
    : RecordingInput(Joins(paths) ? std::string("-") : paths.empty() ? "" : paths[0],
                     std::move(reading), Joins(paths)) {
  if (!Joins(paths)) return;
  paths_ = paths;
  name_ = JoinedName(paths);
  std::vector<std::string> ordered;
  try {
    ordered = OrderRecordings(paths);
  } catch (const std::system_error& e) {  // unreadable: exit 1 (garbage: FormatError, 2)
    throw InputError(name_ + ": " + e.what());
  }
  if (ordered.empty())
    throw InputError(name_ + ": no recording there (*.pgr, *.pgr.gz, *.pgr.zst)");
  joined_ = std::make_unique<JoinedInput>(std::move(ordered));
  stream_ = std::make_unique<CountingStream>(*joined_);
}

RecordingInput::RecordingInput(const std::string& path, SampleStream::Options reading,
                               bool joined)
    : reading_(std::move(reading)) {
  if (joined) return;
  if (path.empty() || path == "-") {
    // A recording is never typed: waiting on a terminal would look hung.
    if (isatty(0))
      throw UsageError("no recording named and standard input is a terminal: give FILE, "
                       "or pipe a recording in");
    name_ = "stdin";
    stream_ = std::make_unique<CountingStream>(0);
    return;
  }
  path_ = path;
  name_ = Printable(path);
  try {
    fd_ = OpenAt(AT_FDCWD, path, O_RDONLY);
  } catch (const std::system_error& e) {
    throw InputError(name_ + ": " + e.code().message());  // "PATH: No such file or directory"
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
  if (!joined_ && fstat(fd_ ? fd_.Get() : 0, &st) == 0 && S_ISREG(st.st_mode))
    reader_->ReadAhead();
  return true;
}

void RecordingInput::CheckMarksFirst() const {
  const WindowSpec& w = reading_.window;
  bool marks = w.phase || w.from.kind == WindowBound::Kind::kMark ||
               w.to.kind == WindowBound::Kind::kMark;
  struct stat st;
  if (!marks) return;
  if (!joined_ && (!fd_ || fstat(fd_.Get(), &st) != 0 || !S_ISREG(st.st_mode))) return;
  RecordingInput again = joined_ ? RecordingInput(paths_, reading_)
                                 : RecordingInput(path_, reading_);
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
  if (joined_)
    for (const std::string& gap : joined_->gaps())
      std::fprintf(stderr, "warning: %s: %s\n", name_.c_str(), Printable(gap).c_str());
  bool cut = reader_->truncated();
  bool unclosed = reader_->missing_trailer();
  if (!cut && !unclosed) return;
  const char* name = name_.c_str();
  std::string samples = std::to_string(samples_read()) +
                        (samples_read() == 1 ? " sample" : " samples");
  int last_fd = joined_ ? joined_->last_fd() : fd_ ? fd_.Get() : 0;
  if (std::optional<pid_t> pid = LiveWriter(last_fd)) {
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

void CheckJoinable(const std::vector<std::string>& files, std::string_view command) {
  if (files.size() < 2) return;
  for (const std::string& f : files)
    if (f == "-" || f.empty())
      throw UsageError("standard input ('-') is read alone, not joined with other files "
                       "(see perfmonger " + std::string(command) + " --help)");
}

int RunReaderCommand(std::string_view command, const std::function<int()>& body) {
  // Escaped whole (idempotent): a message may quote a recording's string.
  auto error = [command](const char* message, int status) {
    std::fprintf(stderr, "perfmonger %.*s: error: %s\n",
                 static_cast<int>(command.size()), command.data(), Printable(message).c_str());
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
               command.data(), Printable(message).c_str());
}

}  // namespace pm
