// The Recorder's rotation (daemon/rotation.hh, retention.hh): a file per
// period, the boundary sample in both files, SIGHUP's reopen and the full
// disk that suspends writing until there is space again.
//
// A new file is created only once the old one is closed (trailer, fsync):
// a SIGKILL at any moment leaves every flushed sample in a file, and at
// worst a new file with nothing flushed yet (empty: the readers pass it).
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>

#include "common/error.hh"
#include "common/io.hh"
#include "daemon/recorder.hh"
#include "daemon/retention.hh"
#include "proto/text.hh"

namespace pm {
namespace {

bool IsDiskFull(const std::system_error& e) {
  int err = e.code().value();
  return err == ENOSPC || err == EDQUOT;
}

std::string DirectoryOf(const std::string& output) {
  std::string dir = AbsolutePath(output);
  while (dir.size() > 1 && dir.ends_with('/')) dir.pop_back();
  return dir;
}

// The directory, created if missing (its parent must exist).
void MakeDirectory(const std::string& dir) {
  if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
    throw SetupError("cannot create " + dir + ": " + std::strerror(errno) +
                     " (create its parent, or pass another -l DIR/)");
  struct stat st;
  if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw SetupError("-l " + dir + " is not a directory: --rotate writes one file per "
                     "period into -l DIR/");
}

}  // namespace

void Recorder::SetupRotation(const RecordConfig& config) {
  rotate_ = config.rotate;
  output_dir_ = DirectoryOf(config.output);
  MakeDirectory(output_dir_);
  compression_ = config.no_gzip ? Compression::kPlain : Compression::kZstd;
  try {
    OpenFile(FreePath(clock_.RealtimeNs()));
  } catch (const std::system_error& e) {
    throw SetupError("cannot create " + output_path_ + ": " + e.code().message() +
                     " (free space or pass another -l DIR/)");
  }
}

std::string Recorder::FreePath(int64_t t_ns) const {
  bool plain = compression_ == Compression::kPlain;
  for (int suffix = 0;; ++suffix) {
    std::string path = output_dir_ + "/" + RotatedName(rotate_.every, t_ns, plain, suffix);
    struct stat st;
    if (lstat(path.c_str(), &st) != 0 && errno == ENOENT) return path;
  }
}

// The writer changes only once the file exists.
void Recorder::OpenFile(const std::string& path) {
  output_path_ = path;
  auto writer = std::make_unique<RecordingWriter>(path, compression_);
  writer->SetObserver(observer_);
  writer_ = std::move(writer);
  file_samples_ = 0;
}

void Recorder::StartPeriod(const Instant& at) {
  period_end_ns_ = NextPeriodStart(rotate_.every, at.t);
  std::string current = output_path_.substr(output_dir_.size() + 1);
  ApplyRetention(output_dir_, rotate_, at.t, current);
}

bool Recorder::RotationDue(const Instant& at) const {
  if (reopen_ || at.t >= period_end_ns_) return true;
  return rotate_.every == RotateEvery::kSize && writer_->bytes_written() >= rotate_.size_bytes;
}

void Recorder::RotatingTick(const Instant& at) {
  BuildSample(at.t, at.mono);
  try {
    if (suspended_) return TryResume(at);
    WriteSample(at.mono);
    if (RotationDue(at)) Rotate(at);
  } catch (const std::system_error& e) {
    if (!IsDiskFull(e)) throw;
    Suspend(e);
  }
}

// The old file's trailer says why it ended; the new one starts at the
// same sample.
void Recorder::Rotate(const Instant& at) {
  ClockState clock = clock_probe_->Read();
  writer_->Write(EncodeEndLine({.t_ns = at.t, .mono_ns = at.mono,
                                .reason = reopen_ ? "reopen" : "rotate",
                                .samples = file_samples_, .missed_ticks = missed_ticks_,
                                .clock = &clock}));
  writer_->Finish();
  reopen_ = false;
  OpenFile(FreePath(at.t));
  StartFile(at);
}

// A header at the instant of the sample in line_, then that sample as a
// keyframe: readable alone, and no interval lost or counted twice.
void Recorder::StartFile(const Instant& at) {
  header_.start_ns = at.t;
  header_.clock = clock_probe_->Read();
  writer_->Write(EncodeHeaderLine(header_));
  if (delta_) delta_->ForceKeyframe();
  WriteSample(at.mono);
  StartPeriod(at);
}

// What was flushed stays; until a file can be written again the samples
// reach nothing but the observer.
void Recorder::Suspend(const std::system_error& error) {
  DropFile();
  suspended_ = true;
  std::fprintf(stderr,
               "perfmonger record: error: %s; the recording goes on and writes a new file "
               "in %s once there is space\n",
               Printable(error.what()).c_str(), Printable(output_dir_).c_str());
}

void Recorder::DropFile() noexcept {
  writer_->AbandonAtLastFlush();
  writer_ = std::make_unique<RecordingWriter>();
  writer_->SetObserver(observer_);
}

void Recorder::TryResume(const Instant& at) {
  try {
    OpenFile(FreePath(at.t));
    StartFile(at);
  } catch (const std::system_error& e) {
    if (!IsDiskFull(e)) throw;
    return DropFile();
  }
  suspended_ = false;
  reopen_ = false;
  std::fprintf(stderr, "perfmonger record: note: writing again, to %s\n",
               Printable(output_path_).c_str());
}

}  // namespace pm
