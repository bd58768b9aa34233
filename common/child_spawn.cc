#include "common/child_spawn.hh"

#include <fcntl.h>

#include <algorithm>
#include <string_view>
#include <system_error>

#include "common/error.hh"
#include "common/io.hh"
#include "common/program_path.hh"

extern char** environ;

namespace pm {
namespace {

std::string ProgramPath(const std::string& name) {
  ProgramLookup found = FindProgram(name);
  if (found.error == ENOENT) throw SystemError("cannot run '" + name + "'", ENOENT);
  if (found.error) throw SystemError("cannot run '" + name + "' (" + found.reason + ")", found.error);
  return found.path;
}

SpawnedChild Start(const ChildCommand& c, const std::vector<SpawnFd>& fds) {
  if (c.argv.empty()) throw SystemError("cannot run an empty command", EINVAL);
  std::string path = ProgramPath(c.argv[0]);
  std::vector<const char*> argv = NullTerminated(c.argv);
  std::vector<std::string> env;
  if (!c.env.empty()) env = MergedEnvironment(c.env);
  std::vector<const char*> envp = NullTerminated(env);
  SpawnSpec spec{};
  spec.path = path.c_str();
  spec.argv = argv.data();
  spec.envp = c.env.empty() ? nullptr : envp.data();
  spec.fds = fds.data();
  spec.fd_count = fds.size();
  spec.cwd = c.cwd.empty() ? nullptr : c.cwd.c_str();
  spec.keep_other_fds = c.keep_other_fds;
  return Spawn(spec);
}

std::string_view NameOf(std::string_view kv) { return kv.substr(0, kv.find('=') + 1); }

}  // namespace

SpawnedChild ChildSpawn0(const ChildCommand& command) { return Start(command, {}); }

PipedChild ChildSpawn1Pipe(const ChildCommand& command, PipeTo to) {
  Pipe pipe = MakePipe();
  if (to == PipeTo::kStdin)
    return {Start(command, {{0, pipe.read_end.Get()}}), std::move(pipe.write_end)};
  UniqueFd null = OpenAt(AT_FDCWD, "/dev/null", O_RDWR);
  int err = to == PipeTo::kStdoutAndStderr ? pipe.write_end.Get() : null.Get();
  return {Start(command, {{0, null.Get()}, {1, pipe.write_end.Get()}, {2, err}}),
          std::move(pipe.read_end)};
}

std::vector<std::string> MergedEnvironment(const std::vector<std::string>& extra) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    std::string_view kv = *e;
    bool replaced = std::any_of(extra.begin(), extra.end(),
                                [&](const std::string& x) { return NameOf(x) == NameOf(kv); });
    if (!replaced) env.emplace_back(kv);
  }
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

}  // namespace pm
