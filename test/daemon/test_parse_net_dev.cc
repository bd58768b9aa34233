#include <doctest/doctest.h>

#include "common/error.hh"
#include "daemon/collect/parse_net_dev.hh"

using pm::FormatError;
using pm::NetCounters;
using pm::NetDev;
using pm::ParseNetDev;

namespace {
constexpr const char* kHeader =
    "Inter-|   Receive                                                |  Transmit\n"
    " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets "
    "errs drop fifo colls carrier compressed\n";
}

TEST_CASE("ParseNetDev: short, long and touching names") {
  // Row names view the text, so it must outlive them.
  const std::string text = std::string(kHeader) +
                  "    lo:    3267      29    0    0    0     0          0         0     3267"
                  "      29    0    0    0     0       0          0\n"
                  "  eth0:18719190     503    1    2    3     4          5         6    22793"
                  "     264    7    8    9    10      11         12\n"
                  "veth1234567890a:1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"
                  "wlp0s20f3: 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1";
  NetDev n;
  ParseNetDev(text, n);
  REQUIRE(n.rows.size() == 4);
  CHECK(n.rows[0].name == "lo");
  CHECK(n.rows[0].counters == NetCounters{3267, 29, 0, 0, 0, 0, 0, 0, 3267, 29, 0, 0, 0, 0, 0, 0});
  CHECK(n.rows[1].name == "eth0");
  CHECK(n.rows[1].counters ==
        NetCounters{18719190, 503, 1, 2, 3, 4, 5, 6, 22793, 264, 7, 8, 9, 10, 11, 12});
  CHECK(n.rows[2].name == "veth1234567890a");
  CHECK(n.rows[2].counters ==
        NetCounters{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
  CHECK(n.rows[3].name == "wlp0s20f3");
  CHECK(n.rows[3].counters[0] == UINT64_MAX);
  CHECK(n.rows[3].counters[15] == 1);
}

TEST_CASE("ParseNetDev: headers only, and reuse") {
  NetDev n;
  ParseNetDev(std::string(kHeader) + "lo: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n", n);
  CHECK(n.rows.size() == 1);
  ParseNetDev(kHeader, n);
  CHECK(n.rows.empty());
  ParseNetDev("", n);
  CHECK(n.rows.empty());
}

TEST_CASE("ParseNetDev: malformed lines are FormatErrors naming the line") {
  struct Case {
    const char* body;
    const char* error;
  };
  const Case cases[] = {
      {"lo: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n",
       "/proc/net/dev:3: interface line has 15 counters; expected 16"},
      {"lo: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\neth0 1 2 3\n",
       "/proc/net/dev:4: expected 'interface: counters'"},
      {"   : 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n", "/proc/net/dev:3: missing interface name"},
      {"lo: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 x\n",
       "/proc/net/dev:3: counters must be unsigned integers"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.body);
    NetDev n;
    CHECK_THROWS_WITH_AS(ParseNetDev(std::string(kHeader) + c.body, n), c.error, FormatError);
  }
}
