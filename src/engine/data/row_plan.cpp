#include "data/row_plan.h"

#include <algorithm>

#include "common/errors.h"

namespace argus {

namespace {

// Rows without a stratum baseline (GLMs) keep the user's order.
RowPlan identityPlan(std::int64_t nRows, const std::int32_t* stratumCode, std::int32_t nCodes,
                     bool describeUserOrder) {
  RowPlan plan;
  if (describeUserOrder) {
    plan.userOrder = true;
    plan.nStrata = stratumCode ? nCodes : 1;
    plan.stratumStart = {0, nRows};
    return plan;
  }
  plan.internalOfUser.resize(static_cast<std::size_t>(nRows));
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

// Does row r count as an event when deciding which strata carry information?
bool isEventRow(ModelType type, double y) {
  return isSurvival(type) ? y == 1.0 : y > 0.0;
}

}  // namespace

RowPlan planRows(ModelType type, std::int64_t nRows, const double* y, const double* time,
                 const std::int32_t* stratumCode, std::int32_t nCodes, bool describeUserOrder) {
  ARGUS_REQUIRE(nRows > 0, "the data have no rows");
  if (!hasStratumBaseline(type)) return identityPlan(nRows, stratumCode, nCodes, describeUserOrder);
  ARGUS_REQUIRE(stratumCode != nullptr || isSurvival(type),
                "model '" + modelTypeName(type) + "' needs stratumId");
  ARGUS_REQUIRE(!isSurvival(type) || time != nullptr,
                "model '" + modelTypeName(type) + "' needs time");
  if (stratumCode == nullptr) nCodes = 1;
  auto codeOf = [&](std::int64_t r) { return stratumCode ? stratumCode[r] : 0; };

  RowPlan plan;
  // Events per stratum decide which strata stay. Survival models keep every stratum:
  // Fine-Gray's rows without events still shape the censoring distribution, and a Cox
  // stratum without events, which adds nothing to the partial likelihood, still has rows
  // whose predictions and residuals users ask for (coxph gives them X beta and a survival of
  // 1; they were NA when the stratum was dropped).
  const bool keepAll = isSurvival(type);
  std::vector<double> events(static_cast<std::size_t>(nCodes), 0.0);
  std::vector<std::int64_t> count(static_cast<std::size_t>(nCodes) + 1, 0);
  double totalEvents = 0.0;
  bool codesAscend = true;  // nondecreasing: the stable sort by code keeps the user's order
  for (std::int64_t r = 0; r < nRows; ++r) {
    const std::int32_t s = codeOf(r);
    ARGUS_REQUIRE(s >= 0 && s < nCodes, "stratum code out of range");
    codesAscend &= r == 0 || s >= codeOf(r - 1);
    const double e = isEventRow(type, y[r]) ? 1.0 : 0.0;
    events[s] += e;
    totalEvents += e;
    ++count[s + 1];
  }
  ARGUS_REQUIRE(totalEvents > 0, "no stratum has an event: model '" + modelTypeName(type) +
                                     "' has nothing to fit");
  std::vector<std::int32_t> newCode(static_cast<std::size_t>(nCodes), -1);
  plan.stratumStart.push_back(0);
  for (std::int32_t s = 0; s < nCodes; ++s) {
    if (count[s + 1] == 0) continue;  // a code nobody uses
    if (events[s] > 0 || keepAll) {
      newCode[s] = plan.nStrata++;
      plan.stratumStart.push_back(plan.stratumStart.back() + count[s + 1]);
    } else {
      ++plan.droppedStrata;
      plan.droppedRows += count[s + 1];
    }
  }
  const std::int64_t kept = plan.stratumStart.back();
  // Codes in order, every one used and kept (nStrata counts the kept), and no time sort: the
  // order is the identity and each row's stratum its code.
  if (describeUserOrder && codesAscend && !isSurvival(type) && plan.nStrata == nCodes) {
    plan.userOrder = true;
    return plan;
  }
  plan.internalOfUser.assign(static_cast<std::size_t>(nRows), -1);

  // Stable counting sort by new stratum code.
  std::vector<std::int64_t> next(plan.stratumStart.begin(), plan.stratumStart.end() - 1);
  plan.order.resize(static_cast<std::size_t>(kept));
  for (std::int64_t r = 0; r < nRows; ++r) {
    const std::int32_t s = newCode[codeOf(r)];
    if (s >= 0) plan.order[next[s]++] = r;
  }
  // Survival: time descending within a stratum, so that a column's nonzeros, walked in row
  // order, visit the risk-set buckets from the last event time back to the first.
  if (isSurvival(type)) {
    for (std::int32_t s = 0; s < plan.nStrata; ++s)
      std::stable_sort(plan.order.begin() + plan.stratumStart[s],
                       plan.order.begin() + plan.stratumStart[s + 1],
                       [time](std::int64_t a, std::int64_t b) { return time[a] > time[b]; });
  }
  plan.stratum.resize(static_cast<std::size_t>(kept));
  for (std::int32_t s = 0; s < plan.nStrata; ++s)
    for (std::int64_t pos = plan.stratumStart[s]; pos < plan.stratumStart[s + 1]; ++pos) {
      plan.stratum[pos] = s;
      plan.internalOfUser[plan.order[pos]] = static_cast<std::int32_t>(pos);
    }
  return plan;
}

}  // namespace argus
