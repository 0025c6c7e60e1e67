#include "data/column.h"

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

}  // namespace argus
