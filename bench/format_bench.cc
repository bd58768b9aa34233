// perfmonger-bench-format FILE: a native recording (any version, any
// compression) re-encoded offline as the recorder writes it, v1 and v2
// side by side: bytes per sample with gzip and zstd flushed per line, the
// CPU per sample of encoding + compressing, and the CPU per sample the v2
// reader spends rebuilding v1 lines. Record the input at the interval of
// interest, e.g.  perfmonger record -i 100ms -t 20s -l in.pgr
#include <time.h>

#include <cstdio>
#include <fcntl.h>
#include <string>
#include <vector>

#include "common/io.hh"
#include "proto/codec.hh"
#include "proto/line_reader.hh"
#include "proto/pgr_delta.hh"
#include "proto/stream.hh"

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

struct Result {
  double bytes_per_sample = 0;
  double cpu_ns_per_sample = 0;
};

// Encodes (v2) and compresses every sample, flushed per line, `rounds`
// times; the last round's size.
Result Encode(const Input& in, Compression c, bool v2, int rounds) {
  Result r;
  double start = CpuNs();
  for (int round = 0; round < rounds; ++round) {
    StringOutputStream sink;
    auto compressor = MakeCompressor(c, sink);
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

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: perfmonger-bench-format RECORDING\n");
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
  std::printf("%-6s %-8s %14s %18s\n", "codec", "version", "bytes/sample",
              "cpu ns/sample");
  const int rounds = 20;
  for (Compression c : {Compression::kPlain, Compression::kGzip, Compression::kZstd}) {
    for (bool v2 : {false, true}) {
      Result r = Encode(in, c, v2, rounds);
      std::printf("%-6s %-8s %14.1f %18.0f\n", std::string(CompressionName(c)).c_str(),
                  v2 ? "v2" : "v1", r.bytes_per_sample, r.cpu_ns_per_sample);
    }
  }
  std::printf("v2 reader: rebuilding a v1 line costs %.0f ns/sample\n",
              DecodeNsPerSample(in, rounds));
  return 0;
}
