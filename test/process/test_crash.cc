// Recordings that do not end cleanly: the recorder SIGKILLed, the disk
// full. Every sample flushed before the end must still be readable.
#include <doctest/doctest.h>
#include <poll.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "test/process/recording.hh"

namespace pm::test {
namespace {

// Re-reads the file at every inotify IN_MODIFY until it holds `n` samples.
void WaitForSamples(const std::string& path, size_t n, Deadline deadline) {
  UniqueFd in = UniqueFd::Adopt(inotify_init1(IN_CLOEXEC | IN_NONBLOCK));
  REQUIRE(in);
  REQUIRE(inotify_add_watch(in.Get(), path.c_str(), IN_MODIFY) >= 0);
  while (CountSampleLines(ReadRecording(path)) < n) {
    PollUntil(in.Get(), POLLIN, deadline, "samples in the recording");
    char events[4096];
    while (read(in.Get(), events, sizeof events) > 0) {
    }
  }
}

// Header first, then only complete samples: no trailer, nothing garbled.
size_t CheckUncleanRecording(const Recording& rec) {
  REQUIRE(rec.lines.size() >= 2);
  CHECK(Json(rec.lines.front()).Str("format") == "perfmonger-pgr");
  for (size_t i = 1; i < rec.lines.size(); ++i) {
    CAPTURE(i);
    Json line(rec.lines[i]);
    CHECK(line.Has("t"));
    CHECK_FALSE(line.Has("event"));
  }
  return rec.lines.size() - 1;
}

// Unmounts (lazily: a failed test may leave a file open) on scope exit.
struct TmpfsMount {
  std::string path;
  int error = 0;
  TmpfsMount(std::string p, const char* options) : path(std::move(p)) {
    std::filesystem::create_directory(path);
    if (mount("tmpfs", path.c_str(), "tmpfs", 0, options) != 0) error = errno;
  }
  ~TmpfsMount() {
    if (!error) umount2(path.c_str(), MNT_DETACH);
  }
};

TEST_SUITE("crash") {
  TEST_CASE("after SIGKILL every flushed sample decodes") {
    const char* name = "out.pgr.gz";
    Compression expected = Compression::kGzip;
    SUBCASE("gzip") {}
    SUBCASE("zstd") {
      name = "out.pgr.zst";
      expected = Compression::kZstd;
    }
    SUBCASE("plain") {
      name = "out.pgr";
      expected = Compression::kPlain;
    }
    std::string file = name;
    CAPTURE(file);
    TempDir dir;
    std::string out = dir / name;
    Session s({"record", "-l", out, "-i", "0.01"});
    s.ReadReadyLine();
    WaitForSamples(out, 3, DefaultDeadline());
    s.child().Signal(SIGKILL);
    ExitResult r = s.Wait();
    CHECK(r.signal == SIGKILL);

    Recording rec = ReadRecording(out);  // throws on garbage
    CHECK(rec.compression == expected);
    CHECK(CheckUncleanRecording(rec) >= 3);
    if (expected != Compression::kPlain) CHECK(rec.truncated);
  }

  TEST_CASE("a full disk: exit 2, one error line, the samples before it kept") {
    TempDir dir;
    TmpfsMount mnt(dir / "mnt", "size=64k");
    if (mnt.error == EPERM) {
      MESSAGE("skipped: cannot mount a tmpfs here: " << std::strerror(mnt.error));
      return;
    }
    REQUIRE(mnt.error == 0);
    std::string out = mnt.path + "/out.pgr";
    Session s({"record", "-l", out, "-i", "0.01", "--no-gzip"});
    s.ReadReadyLine();
    ExitResult r = s.Wait();  // stops by itself once the disk is full
    CAPTURE(r.err);
    CHECK(r.code == 2);
    CHECK(SplitLines(r.err).size() == 1);
    CHECK(r.err.rfind("perfmonger record: error: ", 0) == 0);
    CHECK(r.err.find("No space left on device") != std::string::npos);
    CHECK(r.err.find(out) != std::string::npos);

    Recording rec = ReadRecording(out);
    CHECK(CheckUncleanRecording(rec) >= 1);
  }
}

}  // namespace
}  // namespace pm::test
