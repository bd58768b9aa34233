#include "test/process/recording.hh"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include <doctest/doctest.h>

#include "common/io.hh"
#include "playback/reading/delta_decoder.hh"
#include "playback/reading/line_reader.hh"
#include "proto/stream.hh"

namespace pm::test {

std::string ReadFileBytes(const std::string& path) {
  UniqueFd fd = OpenAt(AT_FDCWD, path, O_RDONLY);
  std::string bytes;
  char chunk[65536];
  ssize_t n;
  while ((n = ::read(fd.Get(), chunk, sizeof chunk)) > 0)
    bytes.append(chunk, static_cast<size_t>(n));
  if (n < 0) throw std::runtime_error("reading " + path);
  return bytes;
}

Recording ReadRecording(const std::string& path) {
  return DecodeRecording(ReadFileBytes(path));
}

Recording DecodeRecording(std::string_view bytes) {
  MemoryInputStream source(bytes);
  auto input = MakeDecompressor(source);
  LineReader reader(*input);
  DeltaDecoder v2;
  Recording out;
  while (auto line = reader.Next()) {
    out.difference_lines += DeltaDecoder::IsDelta(*line);
    out.lines.emplace_back(v2.Decode(*line));
  }
  out.truncated = input->truncated();
  out.partial_tail = reader.partial_tail();
  out.compression = input->compression();
  return out;
}

size_t CountSampleLines(const Recording& recording) {
  size_t n = 0;
  for (size_t i = 1; i < recording.lines.size(); ++i) {
    Json line(recording.lines[i]);
    if (line.Has("t") && !line.Has("event")) ++n;
  }
  return n;
}

size_t WaitForSamples(const std::string& path, size_t n, Deadline deadline) {
  UniqueFd in = UniqueFd::Adopt(inotify_init1(IN_CLOEXEC | IN_NONBLOCK));
  if (!in || inotify_add_watch(in.Get(), path.c_str(), IN_MODIFY) < 0)
    throw std::system_error(errno, std::generic_category(), "inotify " + path);
  for (;;) {  // the watch exists before the first read: no write is missed
    size_t have = CountSampleLines(ReadRecording(path));
    if (have >= n) return have;
    PollUntil(in.Get(), POLLIN, deadline, "samples in the recording");
    char events[4096];
    while (::read(in.Get(), events, sizeof events) > 0) {
    }
  }
}

Recording WaitForRecording(const std::string& path,
                           const std::function<bool(const Recording&)>& done,
                           Deadline deadline) {
  UniqueFd in = UniqueFd::Adopt(inotify_init1(IN_CLOEXEC | IN_NONBLOCK));
  if (!in || inotify_add_watch(in.Get(), path.c_str(), IN_MODIFY) < 0)
    throw std::system_error(errno, std::generic_category(), "inotify " + path);
  for (;;) {  // the watch exists before the first read: no write is missed
    Recording rec = ReadRecording(path);
    if (done(rec)) return rec;
    PollUntil(in.Get(), POLLIN, deadline, "a change in the recording");
    char events[4096];
    while (::read(in.Get(), events, sizeof events) > 0) {
    }
  }
}

bool QuietUntil(const std::string& path, Deadline until) {
  UniqueFd in = UniqueFd::Adopt(inotify_init1(IN_CLOEXEC | IN_NONBLOCK));
  if (!in || inotify_add_watch(in.Get(), path.c_str(), IN_MODIFY) < 0)
    throw std::system_error(errno, std::generic_category(), "inotify " + path);
  try {
    PollUntil(in.Get(), POLLIN, until, "a quiet file");
  } catch (const DeadlineExpired&) {
    return true;
  }
  return false;
}

size_t CheckCleanRecording(const std::string& path, const std::string& reason) {
  Recording rec = ReadRecording(path);
  CHECK_FALSE(rec.truncated);
  CHECK_FALSE(rec.partial_tail);
  REQUIRE(rec.lines.size() >= 2);
  CHECK(Json(rec.lines.front()).Str("format") == "perfmonger-pgr");
  Json end(rec.lines.back());
  REQUIRE(end.Has("event"));
  CHECK(end.Str("event") == "end");
  CHECK(end.Str("reason") == reason);
  size_t samples = CountSampleLines(rec);
  CHECK(end.Int("samples") == static_cast<int64_t>(samples));
  return samples;
}

void AwaitCpuTick(Deadline deadline) {
  auto cpu_line = [] {
    std::string stat = ReadFileBytes("/proc/stat");
    return stat.substr(0, stat.find('\n'));
  };
  std::string before = cpu_line();
  while (cpu_line() == before)
    if (std::chrono::steady_clock::now() > deadline)
      throw DeadlineExpired("no CPU tick passed on /proc/stat");
}

int GzipTest(const std::string& path) {
  std::string gzip = access("/usr/bin/gzip", X_OK) == 0 ? "/usr/bin/gzip" : "/bin/gzip";
  ExitResult r = Run({"-t", path}, gzip);
  CAPTURE(r.err);
  return r.code;
}

Session::Session(std::vector<std::string> args, std::string cwd,
                 std::vector<std::string> env) {
  Pipe ready = MakePipe();
  Pipe stop = MakePipe();
  SpawnOptions options;
  options.args = std::move(args);
  for (const char* a : {"--ready-fd", "3", "--stop-fd", "4"})
    options.args.emplace_back(a);
  options.fds.emplace_back(3, std::move(ready.write_end));
  options.fds.emplace_back(4, std::move(stop.read_end));
  options.cwd = std::move(cwd);
  options.env = std::move(env);
  child_ = std::make_unique<Child>(std::move(options));
  ready_ = LineInput(std::move(ready.read_end));
  stop_ = std::move(stop.write_end);
}

std::string Session::ReadReadyLine(Deadline deadline) {
  std::optional<std::string> line = ready_.ReadLine(deadline);
  if (!line) throw std::runtime_error("the ready fd closed without a line");
  return *line;
}

CommandSession::CommandSession(std::vector<std::string> args, bool ack) {
  Pipe ready = MakePipe(), stop = MakePipe(), cmd = MakePipe(), acks = MakePipe();
  SpawnOptions options;
  options.args = std::move(args);
  for (const char* a : {"--ready-fd", "3", "--stop-fd", "4", "--cmd-fd", "5"})
    options.args.emplace_back(a);
  options.fds.emplace_back(3, std::move(ready.write_end));
  options.fds.emplace_back(4, std::move(stop.read_end));
  options.fds.emplace_back(5, std::move(cmd.read_end));
  if (ack) {
    options.args.insert(options.args.end(), {"--ack-fd", "6"});
    options.fds.emplace_back(6, std::move(acks.write_end));
    ack_ = LineInput(std::move(acks.read_end));
  }
  child_ = std::make_unique<Child>(std::move(options));
  ready_ = LineInput(std::move(ready.read_end));
  stop_ = std::move(stop.write_end);
  cmd_ = std::move(cmd.write_end);
}

std::string CommandSession::ReadReadyLine(Deadline deadline) {
  std::optional<std::string> line = ready_.ReadLine(deadline);
  if (!line) throw std::runtime_error("the ready fd closed without a line");
  return *line;
}

void CommandSession::Send(std::string_view bytes) { WriteAll(cmd_.Get(), bytes); }

Json CommandSession::Reply(Deadline deadline) {
  std::optional<std::string> line = ack_.ReadLine(deadline);
  if (!line || line->back() != '\n')
    throw std::runtime_error("the ack fd closed without a reply line");
  return Json(*line);
}

ExitResult RecordBriefly(std::vector<std::string> args, std::string cwd) {
  Session session(std::move(args), std::move(cwd));
  std::optional<std::string> line = session.ready().ReadLine(DefaultDeadline());
  session.CloseStop();
  ExitResult result = session.Wait();
  if (!line && result.code == 0)
    throw std::runtime_error("exit 0 without a ready line");
  return result;
}

ExitResult RunInTmpdir(const std::string& tmpdir, std::vector<std::string> args,
                       std::string cwd, pid_t* launcher) {
  SpawnOptions options;
  options.args = std::move(args);
  options.env = {"TMPDIR=" + tmpdir};
  options.cwd = std::move(cwd);
  Child child(std::move(options));
  if (launcher) *launcher = child.pid();
  return child.Wait(After(std::chrono::seconds(30)));
}

BackgroundLaunch::~BackgroundLaunch() {
  if (!launched_ || (pidfd_ && PidfdExited(pidfd_.Get()))) return;
  try {
    RunInTmpdir(tmpdir_, {"record", "--kill"});
    if (pidfd_ && !PidfdExited(pidfd_.Get())) {
      syscall(SYS_pidfd_send_signal, pidfd_.Get(), SIGKILL, nullptr, 0);
      PollUntil(pidfd_.Get(), POLLIN, DefaultDeadline(), "a killed session");
    }
  } catch (const std::exception&) {
  }
}

ExitResult BackgroundLaunch::Launch(std::vector<std::string> args, std::string cwd) {
  args.insert(args.begin(), {"record", "--background"});
  launched_ = true;
  ExitResult r = RunInTmpdir(tmpdir_, std::move(args), std::move(cwd), &launcher_);
  std::vector<std::string> lines = SplitLines(r.out);
  if (!lines.empty() && lines[0].rfind('{', 0) == 0) {
    line_.emplace(lines[0]);
    if (line_->Has("pid") && line_->Int("pid") > 0) {
      pid_ = static_cast<pid_t>(line_->Int("pid"));
      pidfd_ = OpenPidfd(pid_);
    }
  }
  return r;
}

const Json& BackgroundLaunch::line() const {
  if (!line_) throw std::runtime_error("the launcher printed no JSON line");
  return *line_;
}

std::string WithoutClockWarnings(const std::string& err) {
  std::string out;
  for (const std::string& line : SplitLines(err))
    if (line.find(": the clock was not synchronised ") == std::string::npos &&
        line.find(": the clock's maximum error was ") == std::string::npos)
      out.append(line).push_back('\n');
  return out;
}

std::string DiskOf(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return "";
  std::istringstream in(ReadFileBytes("/proc/diskstats"));
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    unsigned ma = 0, mi = 0;
    std::string name;
    words >> ma >> mi >> name;
    if (ma == major(st.st_dev) && mi == minor(st.st_dev)) return name;
  }
  return "";
}

}  // namespace pm::test
