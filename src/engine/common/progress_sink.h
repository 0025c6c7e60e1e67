// What a long computation tells its host while it runs: progress messages, and a chance to
// interrupt it (the R bridge checks for Ctrl-C here). The default does nothing. Below every
// layer that runs fits (solver/, selection/) and the thread runner that they share
// (common/task_runner.h).
#pragma once

#include <string>

namespace argus {

class ProgressSink {
 public:
  virtual ~ProgressSink() = default;
  virtual void message(const std::string&) {}
  virtual void checkInterrupt() {}
};

}  // namespace argus
