// The engine's internal row order.
//
// Conditional models need each stratum's rows to be contiguous, so that the per-coordinate
// work can walk a column's nonzeros (in increasing row order) and meet each touched stratum
// exactly once. planRows() computes that order with a stable counting sort, drops strata
// that hold no event (they contribute nothing to a conditional likelihood), and says what it
// dropped. Survival models (cox, fgr) sort each stratum by time descending; a survival model
// without strata is one stratum. Survival models keep strata without events (Fine-Gray's
// rows still shape the censoring distribution; Cox rows still get predictions).
#pragma once

#include <cstdint>
#include <vector>

#include "common/model_type.h"

namespace argus {

struct RowPlan {
  std::vector<std::int64_t> order;           // internal position -> user row index
  std::vector<std::int32_t> internalOfUser;  // user row -> internal position, -1 if dropped
  std::vector<std::int32_t> stratum;         // internal position -> stratum 0..nStrata-1
  std::vector<std::int64_t> stratumStart;    // nStrata + 1 offsets (conditional models)
  std::int32_t nStrata = 0;
  std::int64_t droppedRows = 0;
  std::int32_t droppedStrata = 0;

  // Set by planRows(..., describeUserOrder = true) where every row is kept in the user's
  // order with stratum = the codes given: then order, internalOfUser and stratum are left
  // empty (they would be the identity and the codes) and only the strata's starts are made.
  bool userOrder = false;

  // Every user row kept, in the user's order (GLMs; conditional data sorted by stratum, as
  // OHDSI's SCCS extracts are): R then keeps its vectors as they are, with no permuted copies
  // and no maps (each fresh page costs ~10 us to fault in on this VM).
  bool keepsUserOrder() const {
    if (userOrder) return true;
    if (droppedRows != 0 || order.size() != internalOfUser.size()) return false;
    for (std::size_t i = 0; i < order.size(); ++i)
      if (order[i] != static_cast<std::int64_t>(i)) return false;
    return true;
  }
};

// stratumCode: user-order codes in 0..nCodes-1, or nullptr for no strata. time: needed for
// survival models (event or censoring time), ignored otherwise.
// describeUserOrder: where the plan keeps every row in the user's order with the codes as
// its strata (a GLM; a conditional model whose codes are nondecreasing, each used and each
// with an event), say so (RowPlan::userOrder) instead of building the identity vectors.
RowPlan planRows(ModelType type, std::int64_t nRows, const double* y, const double* time,
                 const std::int32_t* stratumCode, std::int32_t nCodes,
                 bool describeUserOrder = false);

}  // namespace argus
