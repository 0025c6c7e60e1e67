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

inline void require(bool condition, const std::string& message) {
  if (!condition) throw ArgusError(message);
}

}  // namespace argus
