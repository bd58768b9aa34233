#include "playback/reports/play_text.hh"

namespace pm {

void AppendDoubles(std::string& out, std::span<const double> v) {
  out.push_back('[');
  for (size_t i = 0; i < v.size(); ++i) {
    char buf[1 + kFixedTextMax];
    char* p = i > 0 ? Put(buf, ',') : buf;
    AppendWritten(out, buf, WriteFixed(p, v[i], 2));
  }
  out.push_back(']');
}

}  // namespace pm
