// perfmonger-bench-format FILE [--sweep]: a native recording (any
// version, any compression) re-encoded offline as the recorder writes it,
// v1 and v2 side by side: bytes per sample with gzip and zstd flushed per
// line, the CPU per sample of encoding + compressing, and the CPU per
// sample the v2 reader spends rebuilding v1 lines. --sweep adds the same
// figures for gzip and zstd parameters other than the recorder's. Record the
// input at the interval of interest, e.g.
//   perfmonger record -i 100ms -t 20s -l in.pgr
#include <time.h>

#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <string>
#include <vector>

#include "common/io.hh"
#include "playback/reading/delta_decoder.hh"
#include "playback/reading/line_reader.hh"
#include "proto/codec.hh"
#include "proto/gzip_stream.hh"
#include "proto/pgr_delta.hh"
#include "proto/stream.hh"
#include "proto/zstd_stream.hh"

namespace {

using namespace pm;

double CpuNs() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

struct Input {
  std::vector<std::string> samples;  // v1 sample lines, "\n" included
  std::vector<int64_t> mono;
};

// Every sample line of FILE as v1 text (events and header dropped: they
// cost the same in both versions).
Input ReadSamples(const char* path) {
  UniqueFd fd = OpenAt(AT_FDCWD, path, O_RDONLY);
  FdInputStream raw(fd.Get());
  auto in = MakeDecompressor(raw);
  LineReader lines(*in);
  DeltaDecoder delta;
  Input out;
  while (std::optional<std::string_view> line = lines.Next()) {
    std::string_view v1 = delta.Decode(*line);
    if (!v1.starts_with("{\"t\":")) continue;
    out.samples.emplace_back(v1).push_back('\n');
    size_t mono = v1.find("\"mono\":");
    out.mono.push_back(std::stoll(std::string(v1.substr(mono + 7, 20))));
  }
  return out;
}

using MakeStream = std::function<std::unique_ptr<OutputStream>(OutputStream&)>;

struct Result {
  double bytes_per_sample = 0;
  double cpu_ns_per_sample = 0;
};

// Encodes (v2) and compresses every sample, flushed per line, `rounds`
// times; the last round's size.
Result Encode(const Input& in, const MakeStream& make, bool v2, int rounds) {
  Result r;
  double start = CpuNs();
  for (int round = 0; round < rounds; ++round) {
    StringOutputStream sink;
    auto compressor = make(sink);
    DeltaEncoder enc;
    for (size_t i = 0; i < in.samples.size(); ++i) {
      compressor->Write(v2 ? enc.Encode(in.samples[i], in.mono[i]) : in.samples[i]);
      compressor->Flush();
    }
    r.bytes_per_sample = static_cast<double>(sink.data().size()) /
                         static_cast<double>(in.samples.size());
  }
  r.cpu_ns_per_sample = (CpuNs() - start) / rounds / static_cast<double>(in.samples.size());
  return r;
}

// The reader's extra work for v2: rebuilding each v1 line.
double DecodeNsPerSample(const Input& in, int rounds) {
  std::vector<std::string> v2;
  DeltaEncoder enc;
  for (size_t i = 0; i < in.samples.size(); ++i)
    v2.emplace_back(enc.Encode(in.samples[i], in.mono[i]));
  double start = CpuNs();
  size_t check = 0;
  for (int round = 0; round < rounds; ++round) {
    DeltaDecoder dec;
    for (const std::string& line : v2) check += dec.Decode(line).size();
  }
  double ns = (CpuNs() - start) / rounds / static_cast<double>(v2.size());
  if (check == 0) std::fprintf(stderr, "nothing decoded\n");
  return ns;
}

void PrintRow(const Input& in, const std::string& name, const MakeStream& make, int rounds) {
  Result v1 = Encode(in, make, false, rounds), v2 = Encode(in, make, true, rounds);
  std::printf("%-34s %8.1f %8.1f %9.0f %9.0f\n", name.c_str(), v1.bytes_per_sample,
              v2.bytes_per_sample, v1.cpu_ns_per_sample, v2.cpu_ns_per_sample);
}

std::string Describe(const ZstdTuning& t) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "zstd l%d w%d h%d c%d s%d m%d t%d st%d lit%d", t.level,
                t.window_log, t.hash_log, t.chain_log, t.search_log, t.min_match,
                t.target_length, t.strategy, t.literals);
  return buf;
}

// The recorder's zstd tuning beside others: levels (each its strategy),
// minimum match lengths, literals raw or Huffman-coded.
void ZstdSweep(const Input& in, int rounds) {
  for (int level : {1, 3, 5, 9, 16, 19}) {
    for (int min_match : {0, 3, 5, 7}) {
      for (int literals : {0, 2}) {
        ZstdTuning t;
        t.level = level;
        t.min_match = min_match;
        t.literals = literals;
        PrintRow(in, Describe(t),
                 [t](OutputStream& sink) { return std::make_unique<ZstdOutputStream>(sink, t); },
                 rounds);
      }
    }
  }
}

// gzip levels (1-3 deflate_fast, 4+ lazy matching), each flushed the
// recorder's way (partial) and the sync way.
void GzipSweep(const Input& in, int rounds) {
  for (int level : {1, 2, 3, 4, 5, 6, 9}) {
    for (int flush : {Z_PARTIAL_FLUSH, Z_SYNC_FLUSH}) {
      PrintRow(in,
               "gzip l" + std::to_string(level) +
                   (flush == Z_SYNC_FLUSH ? " sync flush" : " partial flush"),
               [level, flush](OutputStream& sink) {
                 return std::make_unique<GzipOutputStream>(sink, level, level, flush);
               },
               rounds);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool sweep = argc == 3 && std::strcmp(argv[2], "--sweep") == 0;
  if (argc != 2 && !sweep) {
    std::fprintf(stderr, "usage: perfmonger-bench-format RECORDING [--sweep]\n");
    return 1;
  }
  Input in = ReadSamples(argv[1]);
  if (in.samples.size() < 2) {
    std::fprintf(stderr, "perfmonger-bench-format: fewer than 2 samples in %s\n", argv[1]);
    return 1;
  }
  size_t raw = 0;
  for (const std::string& s : in.samples) raw += s.size();
  std::printf("%zu samples, v1 line %.0f bytes raw\n", in.samples.size(),
              static_cast<double>(raw) / static_cast<double>(in.samples.size()));
  std::printf("%-34s %8s %8s %9s %9s\n", "codec (flushed per sample)", "v1 B/s", "v2 B/s",
              "v1 ns/s", "v2 ns/s");
  const int rounds = 20;
  for (Compression c : {Compression::kPlain, Compression::kGzip, Compression::kZstd})
    PrintRow(in, std::string(CompressionName(c)),
             [c](OutputStream& sink) { return MakeCompressor(c, sink); }, rounds);
  std::printf("v2 reader: rebuilding a v1 line costs %.0f ns/sample\n",
              DecodeNsPerSample(in, rounds));
  if (sweep) {
    GzipSweep(in, 5);
    ZstdSweep(in, 5);
  }
  return 0;
}
