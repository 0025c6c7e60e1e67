#include "data/row_plan.h"

#include "common/errors.h"

namespace argus {

RowPlan planRows(ModelType type, std::int64_t nRows, const double* y,
                 const std::int32_t* stratumCode, std::int32_t nCodes) {
  ARGUS_REQUIRE(nRows > 0, "the data have no rows");
  RowPlan plan;
  plan.internalOfUser.assign(static_cast<std::size_t>(nRows), -1);

  if (!isConditional(type) || stratumCode == nullptr) {
    ARGUS_REQUIRE(!isConditional(type), "model '" + modelTypeName(type) + "' needs stratumId");
    plan.order.resize(static_cast<std::size_t>(nRows));
    plan.stratum.resize(static_cast<std::size_t>(nRows));
    for (std::int64_t r = 0; r < nRows; ++r) {
      plan.order[r] = r;
      plan.internalOfUser[r] = static_cast<std::int32_t>(r);
      plan.stratum[r] = stratumCode ? stratumCode[r] : 0;
    }
    plan.nStrata = stratumCode ? nCodes : 1;
    plan.stratumStart = {0, nRows};
    return plan;
  }

  // Events per stratum decide which strata stay.
  std::vector<double> events(static_cast<std::size_t>(nCodes), 0.0);
  std::vector<std::int64_t> count(static_cast<std::size_t>(nCodes) + 1, 0);
  for (std::int64_t r = 0; r < nRows; ++r) {
    const std::int32_t s = stratumCode[r];
    ARGUS_REQUIRE(s >= 0 && s < nCodes, "stratum code out of range");
    events[s] += y[r];
    ++count[s + 1];
  }
  std::vector<std::int32_t> newCode(static_cast<std::size_t>(nCodes), -1);
  plan.stratumStart.push_back(0);
  for (std::int32_t s = 0; s < nCodes; ++s) {
    if (count[s + 1] == 0) continue;  // a code nobody uses
    if (events[s] > 0) {
      newCode[s] = plan.nStrata++;
      plan.stratumStart.push_back(plan.stratumStart.back() + count[s + 1]);
    } else {
      ++plan.droppedStrata;
      plan.droppedRows += count[s + 1];
    }
  }
  const std::int64_t kept = plan.stratumStart.back();
  ARGUS_REQUIRE(kept > 0, "no stratum has an event: a conditional model has nothing to fit");

  // Stable counting sort by new stratum code.
  std::vector<std::int64_t> next(plan.stratumStart.begin(), plan.stratumStart.end() - 1);
  plan.order.resize(static_cast<std::size_t>(kept));
  plan.stratum.resize(static_cast<std::size_t>(kept));
  for (std::int64_t r = 0; r < nRows; ++r) {
    const std::int32_t s = newCode[stratumCode[r]];
    if (s < 0) continue;
    const std::int64_t pos = next[s]++;
    plan.order[pos] = r;
    plan.stratum[pos] = s;
    plan.internalOfUser[r] = static_cast<std::int32_t>(pos);
  }
  return plan;
}

}  // namespace argus
