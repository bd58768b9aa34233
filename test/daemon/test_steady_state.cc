// Sampling must not allocate once the buffers have grown: the recorder may
// tick every 10 ms. Counted by replacing the global operator new in this
// test program.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>

#include "daemon/collect/collector_set.hh"
#include "test/daemon/test_util.hh"

namespace {
std::atomic<long> g_allocations{0};
}

void* operator new(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

TEST_CASE("CollectorSet: a steady-state sample allocates nothing") {
  {
    // The counter itself works (the replacement is linked in).
    long before = g_allocations.load();
    auto probe = std::make_unique<std::string>(100, 'x');
    CHECK(g_allocations.load() - before == 2);
  }
  for (const char* tree : {"proc-small", "proc-old"}) {
    CAPTURE(tree);
    pm::CollectorOptions opts;
    opts.on("intr") = true;
    auto root = pm::test::OpenDir(pm::test::DataDir() / tree);
    pm::CollectorSet set(root.Get(), opts);
    std::string line;
    line.reserve(1 << 16);
    set.AppendSample(line);  // grows the parsers' vectors
    line.clear();
    long before = g_allocations.load();
    set.AppendSample(line);
    long during = g_allocations.load() - before;
    CHECK(during == 0);
    CHECK(line.size() > 100);
  }
}
