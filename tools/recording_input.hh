// What `play` and `summary` share: FILE (or stdin) opened and read through
// one RecordingReader, every failure renamed after the input, and the
// end-of-input report (a truncation or unclean-close warning, a note when there was too
// little to work with).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "common/unique_fd.hh"
#include "playback/recording_reader.hh"
#include "proto/stream.hh"

namespace pm {

// An input that cannot be read (open or read failed): exit 1. The message
// names the input.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class RecordingInput {
 public:
  // `path` as the user gave it; "" or "-" is stdin. Opens it now (throws
  // InputError).
  explicit RecordingInput(const std::string& path);
  ~RecordingInput();

  const std::string& name() const { return name_; }  // path, or "stdin"

  // Reads the header. False for an input without a single byte: nothing to
  // read, not an error. Garbage throws FormatError naming the input. A
  // compressed regular file is decompressed on a second thread from then
  // on (RecordingReader::ReadAhead); stdin that is a pipe or a terminal,
  // whose reads may block, is read on this one.
  bool Open();

  const RecordingInfo& info() const { return reader_->info(); }
  // After Open(): RecordingReader::SkimSamples().
  void SkimSamples() { reader_->SkimSamples(); }
  RecordingReader::Item Next(RawSample& sample, RecordingEvent& event);
  bool truncated() const { return reader_->truncated(); }
  uint64_t samples_read() const { return reader_->samples_read(); }

  // After the last item, once: one warning per span of a v2 recording lost
  // to a corrupt line, then a warning when the recording was cut short
  // or not closed cleanly (a native one without its end trailer), or a
  // note instead when a live recorder still holds the file's write lock
  // (what was read is everything flushed so far: nothing is wrong).
  void WarnIfIncomplete() const;

 private:
  class CountingStream;
  [[noreturn]] void Rethrow() const;  // the current exception, renamed

  std::string name_;
  UniqueFd fd_;  // invalid for stdin
  std::unique_ptr<CountingStream> stream_;
  std::unique_ptr<RecordingReader> reader_;
};

// Runs a reader subcommand and maps what it throws to DESIGN §9's exit
// codes, with one line `perfmonger CMD: error: ...` on stderr: UsageError
// and InputError 1, FormatError (and anything else) 2. EPIPE on stdout (a
// reader like `head` went away) ends the command quietly with 0.
int RunReaderCommand(std::string_view command, const std::function<int()>& body);

// `perfmonger CMD: MESSAGE` on stderr: why there is no output.
void Note(std::string_view command, const std::string& message);

}  // namespace pm
