// DuplicateSplit (solver/duplicate_split.h): exact duplicates under normal priors are found
// whatever their storage (indicator, sparse, dense), and put at the ridge optimum's split
// sum * v_j / sum v, which leaves their sum (and X beta) as it was.
#include <gtest/gtest.h>

#include <vector>

#include "hand_design.h"
#include "solver/duplicate_split.h"

namespace argus {
namespace {

CycleState stateFor(std::size_t p, const std::vector<double>& beta, const std::vector<double>& variance) {
  CycleState s;
  s.beta = beta;
  s.bound.assign(p, 1.0);
  s.fixed.assign(p, 0);
  s.prior.assign(p, CoordinatePrior{});
  for (std::size_t j = 0; j < p; ++j)
    if (variance[j] > 0.0) s.prior[j] = CoordinatePrior{PriorKind::Normal, variance[j]};
  return s;
}

TEST(DuplicateSplit, SplitsExactDuplicatesByTheirPriorVariances) {
  testing_data::HandDesign d(ModelType::Logistic, {0, 1, 0, 1, 1, 0});
  const std::vector<double> a = {0, 1, 0, 1, 1, 0}, b = {2, 0, 0, 1, 0, 3};
  d.addColumn(ColumnKind::Indicator, a);  // 0
  d.addColumn(ColumnKind::Sparse, b);     // 1
  d.addColumn(ColumnKind::Dense, a);      // 2: a again, stored dense
  d.addColumn(ColumnKind::Sparse, a);     // 3: a again, sparse with values 1
  d.addColumn(ColumnKind::Dense, b);      // 4: b again
  d.addColumn(ColumnKind::Sparse, {0, 1, 0, 1, 2, 0});  // 5: like a but for one value
  const Dataset& data = d.finish();
  CycleState state = stateFor(6, {0.9, -1.0, 0.1, 0.2, 0.0, 0.7}, {1.0, 2.0, 3.0, 4.0, 6.0, 1.0});
  const DuplicateSplit split(data.design, state);
  EXPECT_FALSE(split.empty());
  EXPECT_TRUE(split.apply(state));
  // a: sum 1.2 over variances 1, 3, 4; b: sum -1.0 over 2, 6; column 5 untouched
  EXPECT_DOUBLE_EQ(state.beta[0], 1.2 * 1.0 / 8.0);
  EXPECT_DOUBLE_EQ(state.beta[2], 1.2 * 3.0 / 8.0);
  EXPECT_DOUBLE_EQ(state.beta[3], 1.2 * 4.0 / 8.0);
  EXPECT_DOUBLE_EQ(state.beta[1], -1.0 * 2.0 / 8.0);
  EXPECT_DOUBLE_EQ(state.beta[4], -1.0 * 6.0 / 8.0);
  EXPECT_EQ(state.beta[5], 0.7);
  EXPECT_FALSE(split.apply(state));  // already there
}

TEST(DuplicateSplit, LeavesFlatLaplaceAndFixedColumnsAlone) {
  testing_data::HandDesign d(ModelType::Logistic, {0, 1, 0, 1});
  const std::vector<double> a = {1, 1, 0, 1};
  for (int k = 0; k < 4; ++k) d.addColumn(ColumnKind::Indicator, a);
  const Dataset& data = d.finish();
  CycleState state = stateFor(4, {0.5, 0.1, 0.3, 0.2}, {0.0, 0.0, 1.0, 1.0});
  state.prior[1] = CoordinatePrior{PriorKind::Laplace, 1.0};
  state.fixed[3] = 1;
  const DuplicateSplit split(data.design, state);
  EXPECT_TRUE(split.empty());  // one free normal-prior column only
  EXPECT_FALSE(split.apply(state));
  EXPECT_EQ(state.beta, (std::vector<double>{0.5, 0.1, 0.3, 0.2}));
}

}  // namespace
}  // namespace argus
