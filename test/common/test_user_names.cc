// User names by hand from /etc/passwd text (the static binary has no NSS):
// a uid's first entry, its number without one, malformed lines skipped.
#include <doctest/doctest.h>

#include "common/user_names.hh"

TEST_CASE("user names: a uid's first entry; its number without one; bad lines skipped") {
  const pm::UserNames names(
      "root:x:0:0:root:/root:/bin/bash\n"
      "# a comment:x:7:7\n"
      "alice:x:1000:1000::/home/alice:/bin/sh\n"
      "alias:x:1000:1000::/home/alice:/bin/sh\n"
      "bob:x:10o1:1001::/home/bob:/bin/sh\n"
      ":x:1002:1002::/:/bin/sh\n"
      "carol:x\n"
      "dave:x:4294967295:1::/:/bin/sh");  // no final newline
  CHECK(names.Name(0) == "root");
  CHECK(names.Name(1000) == "alice");
  CHECK(names.Name(1001) == "1001");  // "10o1" is no uid
  CHECK(names.Name(1002) == "1002");  // no name
  CHECK(names.Name(4294967295u) == "dave");
  CHECK(names.Name(7) == "7");        // a comment is no entry
  CHECK(pm::UserNames().Name(0) == "0");
  CHECK(pm::UserNames::Local().Name(0) == "root");
}
