// Sees the recording's lines as they are written, before compression:
// `live` turns them into play lines (tools/live/live_cli.cc). The daemon only
// hands the text on; the readers that make sense of it stay in playback/.
#pragma once

#include <string_view>

namespace pm {

class RecordingObserver {
 public:
  // One or more complete lines ("\n" included): the header, a sample, an
  // event, as they are handed to the file (if any). Must not throw nor call
  // back into the recorder, except Recorder::RequestStop().
  virtual void OnLines(std::string_view lines) noexcept = 0;

 protected:
  ~RecordingObserver() = default;
};

}  // namespace pm
