#include "daemon/launcher.hh"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include "common/clock.hh"
#include "common/deadline.hh"
#include "common/error.hh"
#include "common/io.hh"
#include "common/output_file.hh"
#include "common/spawn.hh"
#include "daemon/session_files.hh"

extern char** environ;

namespace pm {
namespace {

constexpr int kChildReadyFd = 3;
constexpr char kErrorPrefix[] = "error ";

// A FIFO without a reader must not hang the launcher: OpenOutputFile
// refuses it at once.
UniqueFd OpenLog(const std::string& path) {
  try {
    return OpenOutputFile(path, O_WRONLY | O_CREAT | O_APPEND, 0600);
  } catch (const std::system_error& e) {
    throw SetupError("--log " + path + ": " + e.code().message());
  } catch (const SetupError& e) {
    throw SetupError("--log " + std::string(e.what()));
  }
}

std::vector<std::string> ChildEnvironment(const std::vector<std::string>& user_args) {
  std::string prefix = std::string(kSessionArgsEnv) + "=";
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e)
    if (!std::string_view(*e).starts_with(prefix)) env.emplace_back(*e);
  env.push_back(prefix + EncodeSessionArgs(user_args));
  return env;
}

void Judge(const std::string& line, bool eof, LaunchOutcome& out) {
  if (line.starts_with("{\"event\":\"ready\"")) {
    out.readiness = Readiness::kReady;
    return;
  }
  out.readiness = Readiness::kError;
  if (line.starts_with(kErrorPrefix)) out.reason = line.substr(sizeof kErrorPrefix - 1);
  else if (eof && line.empty()) out.reason = "the recorder exited before it was ready";
  else out.reason = "unexpected readiness line from the recorder";
}

// Reaps a child that reported an error once it has exited (by `deadline`).
void Reap(const SpawnedChild& child, int64_t deadline, LaunchOutcome& out) {
  int status = 0;
  if (!WaitForFd(child.pidfd.Get(), POLLIN, deadline) ||
      !ReapChild(child.pid, &status, nullptr))
    return;
  if (WIFEXITED(status)) out.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) out.signal = WTERMSIG(status);
}

// One line on `ready` (or its EOF), or the deadline.
void Wait(const SpawnedChild& child, int ready, int64_t deadline, LaunchOutcome& out) {
  std::string line;
  while (WaitForFd(ready, POLLIN, deadline)) {
    char buf[512];
    ssize_t got = ::read(ready, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw SystemError("reading the readiness pipe");
    line.append(buf, static_cast<size_t>(got));
    size_t nl = line.find('\n');
    if (got > 0 && nl == std::string::npos) continue;
    Judge(line.substr(0, nl), got == 0, out);
    if (out.readiness == Readiness::kError) Reap(child, deadline, out);
    return;
  }
  out.readiness = Readiness::kTimeout;
}

}  // namespace

std::string EncodeChildError(const std::string& message) {
  std::string line = kErrorPrefix;
  for (char c : message) line.push_back(c == '\n' ? ' ' : c);
  line.push_back('\n');
  return line;
}

LaunchOutcome LaunchBackground(const LaunchOptions& options) {
  int64_t t0 = NowMonoNs();
  int64_t deadline = t0 + options.start_delay_ns + options.ready_timeout_ns;
  UniqueFd null = OpenAt(AT_FDCWD, "/dev/null", O_RDWR);
  UniqueFd log = options.log_path.empty() ? UniqueFd() : OpenLog(options.log_path);
  int out_fd = log ? log.Get() : null.Get();

  std::vector<std::string> args = {"perfmonger"};
  args.insert(args.end(), options.child_args.begin(), options.child_args.end());
  args.push_back("--ready-fd=" + std::to_string(kChildReadyFd));
  std::vector<const char*> argv = NullTerminated(args);
  std::vector<std::string> env = ChildEnvironment(options.user_args);
  std::vector<const char*> envp = NullTerminated(env);

  Pipe ready = MakePipe();
  SpawnFd fds[] = {{0, null.Get()}, {1, out_fd}, {2, out_fd},
                   {kChildReadyFd, ready.write_end.Get()}};
  SpawnSpec spec{};
  spec.path = "/proc/self/exe";
  spec.argv = argv.data();
  spec.envp = envp.data();
  spec.fds = fds;
  spec.fd_count = std::size(fds);
  spec.new_session = true;
  SpawnedChild child = Spawn(spec);
  ready.write_end.Reset();

  LaunchOutcome out;
  out.pid = child.pid;
  Wait(child, ready.read_end.Get(), deadline, out);
  out.elapsed_ns = NowMonoNs() - t0;
  return out;
}

}  // namespace pm
