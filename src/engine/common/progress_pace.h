// When a long computation reports its progress: at most every `seconds`, and not before
// `seconds` have passed since it started, so that work done within that time reports
// nothing (0: every time it asks; negative: never). due() reads a steady clock (tens of nanoseconds): cheap enough to ask once per
// cycle of a fit, which is as often as a fit asks. Below solver/ (ccd_fit.h paces its cycle
// reports with it).
#pragma once

#include <chrono>

namespace argus {

class ProgressPace {
 public:
  using Clock = double (*)();  // seconds on a steady clock
  static double steadySeconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }

  // seconds < 0: never due; 0: always.
  explicit ProgressPace(double seconds, Clock clock = steadySeconds)
      : seconds_(seconds), clock_(clock), last_(seconds > 0.0 ? clock() : 0.0) {}

  // Whether a report is due now; if so, the next is due `seconds` from now.
  bool due() {
    if (seconds_ <= 0.0) return seconds_ == 0.0;
    const double now = clock_();
    if (now - last_ < seconds_) return false;
    last_ = now;
    return true;
  }

 private:
  double seconds_;
  Clock clock_;
  double last_;
};

}  // namespace argus
