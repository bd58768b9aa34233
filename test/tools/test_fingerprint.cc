// The fingerprint archive's names and the ustar writer beneath it.
#include <doctest/doctest.h>

#include <string>

#include "proto/stream.hh"
#include "tools/fingerprint/fingerprint.hh"
#include "tools/fingerprint/tar_writer.hh"

namespace pm {
namespace {

TEST_SUITE("fingerprint") {
  TEST_CASE("archive names follow PerfMonger's rules") {
    struct Row { const char* given; const char* path; const char* top; };
    for (const Row& row : {Row{"", "fingerprint.db1.tar.gz", "fingerprint.db1"},
                           Row{"out", "out.tar.gz", "out"},
                           Row{"out.tgz", "out.tgz", "out"},
                           Row{"dir/x.tar.gz", "dir/x.tar.gz", "x"},
                           Row{"x.tar", "x.tar.tar.gz", "x.tar"},
                           Row{"a.gz", "a.gz.tar.gz", "a.gz"}}) {
      CAPTURE(row.given);
      std::string path = FingerprintArchivePath(row.given, "db1");
      CHECK(path == row.path);
      CHECK(FingerprintTopFolder(path) == row.top);
    }
  }

  TEST_CASE("a ustar header carries its checksum and fields") {
    std::string h = TarHeader("top/proc/cpuinfo", 1234, 0644, '0', 1700000000);
    REQUIRE(h.size() == 512);
    CHECK(h.substr(0, 17) == std::string("top/proc/cpuinfo\0", 17));
    CHECK(h.substr(124, 12) == std::string("00000002322\0", 12));  // 1234
    CHECK(h[156] == '0');
    CHECK(h.substr(257, 8) == std::string("ustar\0" "00", 8));
    unsigned sum = 0;
    for (size_t i = 0; i < h.size(); ++i)
      sum += (i >= 148 && i < 156) ? ' ' : static_cast<unsigned char>(h[i]);
    CHECK(std::stoul(h.substr(148, 6), nullptr, 8) == sum);
  }

  TEST_CASE("long names go into the prefix field; impossible ones throw") {
    std::string dir(120, 'd');
    std::string h = TarHeader(dir + "/file", 0, 0644, '0', 0);
    CHECK(h.substr(345, 120) == dir);
    CHECK(h.substr(0, 5) == std::string("file\0", 5));
    CHECK_THROWS(TarHeader(std::string(300, 'x'), 0, 0644, '0', 0));
    CHECK_THROWS(TarHeader("", 0, 0644, '0', 0));
  }

  TEST_CASE("entries are padded to blocks and the archive ends in two zero blocks") {
    StringOutputStream out;
    TarWriter tar(out, 0);
    tar.AddDirectory("top");
    tar.AddFile("top/a", "hello");
    tar.Finish();
    CHECK(out.finished());
    REQUIRE(out.data().size() == 512 * 5);  // dir, header, data, 2 zero blocks
    CHECK(out.data().substr(0, 4) == "top/");
    CHECK(out.data().substr(1024, 5) == "hello");
    CHECK(out.data().find_first_not_of('\0', 1024 + 5) == std::string::npos);
  }
}

}  // namespace
}  // namespace pm
