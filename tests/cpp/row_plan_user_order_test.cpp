// planRows(..., describeUserOrder = true): where the full plan would be the identity order
// with the codes as strata it says so (RowPlan::userOrder) and builds only the strata's
// starts; everywhere else it is the full plan.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "data/row_plan.h"

namespace argus {
namespace {

void expectSamePlan(const RowPlan& a, const RowPlan& b) {
  EXPECT_EQ(a.order, b.order);
  EXPECT_EQ(a.internalOfUser, b.internalOfUser);
  EXPECT_EQ(a.stratum, b.stratum);
  EXPECT_EQ(a.stratumStart, b.stratumStart);
  EXPECT_EQ(a.nStrata, b.nStrata);
  EXPECT_EQ(a.droppedRows, b.droppedRows);
  EXPECT_EQ(a.droppedStrata, b.droppedStrata);
}

TEST(PlanRowsUserOrder, SortedStrataWithEventsAreDescribed) {
  const std::vector<std::int32_t> code = {0, 0, 1, 2, 2, 2, 3};
  const std::vector<double> y = {1, 0, 2, 0, 1, 0, 1};
  for (ModelType m : {ModelType::SelfControlledCaseSeries, ModelType::ConditionalPoisson,
                      ModelType::ConditionalLogistic}) {
    const std::vector<double> outcome = m == ModelType::ConditionalLogistic
                                            ? std::vector<double>{1, 0, 1, 0, 1, 0, 1}
                                            : y;
    const RowPlan full = planRows(m, 7, outcome.data(), nullptr, code.data(), 4);
    const RowPlan light = planRows(m, 7, outcome.data(), nullptr, code.data(), 4, true);
    ASSERT_TRUE(full.keepsUserOrder());
    EXPECT_FALSE(full.userOrder);
    EXPECT_TRUE(light.userOrder);
    EXPECT_TRUE(light.order.empty() && light.internalOfUser.empty() && light.stratum.empty());
    // what the empty vectors stand for
    std::vector<std::int64_t> identity(7);
    std::iota(identity.begin(), identity.end(), 0);
    EXPECT_EQ(full.order, identity);
    EXPECT_EQ(full.stratum, code);
    EXPECT_EQ(light.stratumStart, full.stratumStart);
    EXPECT_EQ(light.stratumStart, (std::vector<std::int64_t>{0, 2, 3, 6, 7}));
    EXPECT_EQ(light.nStrata, 4);
    EXPECT_EQ(light.droppedRows, 0);
  }
  // GLMs keep every row in order: only the one stratum's bounds
  const RowPlan glm = planRows(ModelType::Logistic, 7, y.data(), nullptr, nullptr, 0, true);
  EXPECT_TRUE(glm.userOrder);
  EXPECT_EQ(glm.stratumStart, (std::vector<std::int64_t>{0, 7}));
  EXPECT_EQ(glm.nStrata, 1);
}

// Unsorted codes, a stratum without events, an unused code, survival times: the full plan.
TEST(PlanRowsUserOrder, AnythingElseIsTheFullPlan) {
  const std::vector<double> y = {1, 0, 1, 0, 1, 1};
  const std::vector<std::vector<std::int32_t>> codes = {
      {0, 0, 2, 1, 1, 2},   // not in order
      {0, 0, 1, 1, 2, 2},   // stratum 1 without an event (noEvent below)
      {0, 0, 1, 1, 3, 3}};  // code 2 unused
  std::vector<double> noEvent = y;
  noEvent[2] = 0;  // stratum 1 of the second case: no event
  for (std::size_t k = 0; k < codes.size(); ++k) {
    SCOPED_TRACE("case " + std::to_string(k));
    const std::vector<double>& outcome = k == 1 ? noEvent : y;
    const std::int32_t nCodes = k == 2 ? 4 : 3;
    const RowPlan full = planRows(ModelType::SelfControlledCaseSeries, 6, outcome.data(), nullptr,
                                  codes[k].data(), nCodes);
    const RowPlan light = planRows(ModelType::SelfControlledCaseSeries, 6, outcome.data(), nullptr,
                                   codes[k].data(), nCodes, true);
    EXPECT_FALSE(light.userOrder);
    expectSamePlan(light, full);
  }
  // Cox rows already in time order (descending) keep the full plan: the sort is by time
  const std::vector<double> time = {9, 7, 5, 3, 2, 1};
  const RowPlan cox = planRows(ModelType::Cox, 6, y.data(), time.data(), nullptr, 0, true);
  EXPECT_FALSE(cox.userOrder);
  expectSamePlan(cox, planRows(ModelType::Cox, 6, y.data(), time.data(), nullptr, 0));
  EXPECT_TRUE(cox.keepsUserOrder());
}

}  // namespace
}  // namespace argus
