// Engine errors are ordinary C++ exceptions; the R bridge turns them into R errors and the
// GoogleTest suite checks them directly. The engine never prints and never aborts.
#pragma once

#include <stdexcept>
#include <string>

namespace argus {

class ArgusError : public std::runtime_error {
 public:
  explicit ArgusError(const std::string& what) : std::runtime_error(what) {}
};

// Raised when the data are valid but a request cannot be honoured (e.g. CUDA asked for in a
// CPU-only build).
class UnsupportedError : public ArgusError {
 public:
  explicit UnsupportedError(const std::string& what) : ArgusError(what) {}
};

// Checks a condition and throws ArgusError with `message` when it fails. A macro, so that
// the message (often built with std::to_string) is only evaluated on failure: checks run
// once per row and per covariate entry, and eager messages once cost a third of a fit.
#define ARGUS_REQUIRE(condition, message)                        \
  do {                                                           \
    if (!(condition)) throw ::argus::ArgusError(message);        \
  } while (0)

}  // namespace argus
