#include "data/column.h"

#include <cmath>

namespace argus {

const char* columnKindName(ColumnKind kind) {
  switch (kind) {
    case ColumnKind::Indicator: return "indicator";
    case ColumnKind::Sparse: return "sparse";
    case ColumnKind::Dense: return "dense";
    case ColumnKind::Intercept: return "intercept";
  }
  return "unknown";
}

double columnMaxAbs(const ColumnView& c) {
  switch (c.kind) {
    case ColumnKind::Indicator:
      return c.nnz > 0 ? 1.0 : 0.0;
    case ColumnKind::Intercept:
      return 1.0;
    case ColumnKind::Sparse:
    case ColumnKind::Dense:
      break;
  }
  double largest = 0.0;
  for (std::int64_t k = 0; k < c.nnz; ++k) largest = std::fmax(largest, std::fabs(c.values[k]));
  return largest;
}

}  // namespace argus
