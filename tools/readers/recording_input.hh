// What the readers (play, summary, cat, plot, stat) share: FILE (or stdin)
// opened and read through one RecordingReader and its SampleStream (the
// time window), every failure renamed after the
// input, and the end-of-input report (damage, truncation or an unclean
// close, a window that found nothing).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "common/unique_fd.hh"
#include "playback/reading/joined_input.hh"
#include "playback/reading/recording_reader.hh"
#include "playback/reading/sample_stream.hh"
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
  // `path` as the user gave it; "" or "-" is stdin, refused when it is a
  // terminal (UsageError). Opens it now (throws InputError). `reading`: the window, and whether samples are paired.
  explicit RecordingInput(const std::string& path, SampleStream::Options reading = {},
                          bool joined = false);
  // A directory or several files: one timeline (playback/reading/joined_input.hh),
  // its gaps warned of at Finish(); one file: as above.
  explicit RecordingInput(const std::vector<std::string>& paths,
                          SampleStream::Options reading = {});
  ~RecordingInput();

  // For messages: the path (escaped: Printable), or "stdin".
  const std::string& name() const { return name_; }

  // Reads the header. False for an input without a single byte: nothing to
  // read, not an error. Garbage throws FormatError naming the input. A
  // compressed regular file is decompressed on a second thread from then
  // on (RecordingReader::ReadAhead); stdin that is a pipe or a terminal,
  // whose reads may block, is read on this one.
  bool Open();

  // For a reader whose output streams (play, cat): when the window waits
  // for a mark and the input is a regular file, reads it once through the
  // window first (skimmed), so that a mark that is not there is an error
  // before anything is printed. On stdin that error comes at the end.
  void CheckMarksFirst() const;

  const RecordingInfo& info() const { return reader_->info(); }
  // After Open(): RecordingReader::SkimSamples(), cut at the window.
  void SkimSamples() { reader_->SkimSamples(items_->cuts()); }
  RecordingReader::Item Next(RawSample& sample, RecordingEvent& event);
  bool truncated() const { return reader_->truncated(); }
  // Lines were lost to damage: the command's exit status is 2 (DESIGN §9),
  // once everything recoverable is written.
  bool damaged() const { return reader_->damaged(); }
  int ExitStatus() const { return damaged() ? 2 : 0; }
  // The recording's samples, read or skimmed (window or not).
  uint64_t samples_read() const { return reader_->samples_read(); }
  // The samples Next() gave (inside the window, none of zero width).
  uint64_t samples() const { return items_->samples(); }
  // Elapsed time 0 for every reader, window or not (SampleStream::origin):
  // known once Next() has given an item.
  const std::optional<ItemTime>& origin() const { return items_->origin(); }
  // For cat: the line behind the item Next() returned, as version 1 text.
  std::string_view line_text() { return items_->line_text(); }
  std::string_view header_text() const { return reader_->header_text(); }
  void KeepUnknownEvents() { reader_->KeepUnknownEvents(); }

  // After the last item, once: one warning per span of lines lost to
  // damage, then a warning when the recording was cut short
  // or not closed cleanly (a native one without its end trailer), or a
  // note instead when a live recorder still holds the file's write lock
  // (what was read is everything flushed so far: nothing is wrong).
  // Then a warning naming how many samples of zero width were left out.
  // Then, for a window, throws UsageError (named after the input) when a
  // mark it names is not there or it holds no sample.
  void Finish() const;

 private:
  class CountingStream;
  [[noreturn]] void Rethrow() const;  // the current exception, renamed
  void WarnIfIncomplete() const;

  std::string path_;  // as given
  std::vector<std::string> paths_;        // joined: as given
  std::unique_ptr<JoinedInput> joined_;   // joined: what stream_ reads
  std::string name_;
  UniqueFd fd_;  // invalid for stdin
  std::unique_ptr<CountingStream> stream_;
  SampleStream::Options reading_;
  std::unique_ptr<RecordingReader> reader_;
  std::unique_ptr<SampleStream> items_;
};

// Several FILEs (or a DIR) join into one timeline; stdin is read alone:
// UsageError naming `command`'s --help.
void CheckJoinable(const std::vector<std::string>& files, std::string_view command);

// Runs a reader subcommand and maps what it throws to DESIGN §9's exit
// codes, with one line `perfmonger CMD: error: ...` on stderr: UsageError
// and InputError 1, FormatError (and anything else) 2. EPIPE on stdout (a
// reader like `head` went away) ends the command quietly with 0.
int RunReaderCommand(std::string_view command, const std::function<int()>& body);

// `perfmonger CMD: MESSAGE` on stderr: why there is no output.
void Note(std::string_view command, const std::string& message);

}  // namespace pm
