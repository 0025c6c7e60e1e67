// Data preparation: the triplet builder (data/design_storage.h), the row plan
// (data/row_plan.h), dataset validation (data/dataset.h), and the name parsers and device
// dispatch (common/model_type.h, solver/compute_device.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "common/errors.h"
#include "data/dataset.h"
#include "data/design_storage.h"
#include "data/row_plan.h"
#include "device/cuda_device.h"
#include "models/likelihood.h"
#include "solver/ccd_solver.h"
#include "test_data.h"

namespace argus {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

struct Triplets {
  std::vector<std::int32_t> row, column;
  std::vector<double> value;
  void add(std::int32_t r, std::int32_t c, double v) {
    row.push_back(r);
    column.push_back(c);
    value.push_back(v);
  }
  TripletInput input(std::int64_t nRows, std::int32_t nColumns, bool withValues = true) const {
    TripletInput in;
    in.nRows = nRows;
    in.nColumns = nColumns;
    in.nEntries = static_cast<std::int64_t>(row.size());
    in.row = row.data();
    in.column = column.data();
    in.value = withValues ? value.data() : nullptr;
    return in;
  }
};

// (row, value) pairs of a column, as the engine sees them.
std::vector<std::pair<std::int64_t, double>> entries(const DesignView& v, std::size_t j) {
  std::vector<std::pair<std::int64_t, double>> out;
  forEachEntry(v.columns[j], v.nRows, [&](std::int64_t r, double x) { out.emplace_back(r, x); });
  return out;
}

using Entries = std::vector<std::pair<std::int64_t, double>>;

// Eight rows, default denseFraction 0.25: a column is dense above 2 entries.
Triplets mixedTriplets() {
  Triplets t;
  t.add(5, 0, 1.0);   // col 0: rows {5, 1}, all ones -> Indicator
  t.add(6, 1, 2.5);   // col 1: rows {6, 2} -> Sparse
  t.add(7, 2, 0.5);   // col 2: 4 entries -> Dense
  t.add(1, 0, 1.0);
  t.add(0, 2, -1.0);
  t.add(2, 1, -1.0);
  t.add(3, 2, 3.0);
  t.add(4, 2, 1.0);
  t.add(3, 4, 1.0);   // col 4: rows {3, 0}, ones -> Indicator
  t.add(0, 4, 1.0);   // col 3: no entries
  return t;
}

TEST(BuildDesign, PicksColumnKindsAndSortsRows) {
  const Triplets t = mixedTriplets();
  const BuiltDesign built = buildDesign(t.input(8, 5));
  EXPECT_EQ(built.firstDuplicate, -1);
  EXPECT_EQ(built.skippedEntries, 0);
  EXPECT_EQ(built.zeroEntries, 0);
  const DesignView v = built.storage.view();
  ASSERT_EQ(v.nColumns(), 5u);
  EXPECT_EQ(v.nRows, 8);
  EXPECT_EQ(v.columns[0].kind, ColumnKind::Indicator);
  EXPECT_EQ(v.columns[1].kind, ColumnKind::Sparse);
  EXPECT_EQ(v.columns[2].kind, ColumnKind::Dense);
  EXPECT_EQ(v.columns[3].nnz, 0);
  EXPECT_EQ(v.columns[4].kind, ColumnKind::Indicator);

  EXPECT_EQ(entries(v, 0), (Entries{{1, 1.0}, {5, 1.0}}));
  EXPECT_EQ(entries(v, 1), (Entries{{2, -1.0}, {6, 2.5}}));
  EXPECT_EQ(entries(v, 2), (Entries{{0, -1.0}, {1, 0.0}, {2, 0.0}, {3, 3.0}, {4, 1.0},
                                    {5, 0.0}, {6, 0.0}, {7, 0.5}}));
  EXPECT_TRUE(entries(v, 3).empty());
  EXPECT_EQ(entries(v, 4), (Entries{{0, 1.0}, {3, 1.0}}));
}

TEST(BuildDesign, DenseFractionControlsDenseStorage) {
  const Triplets t = mixedTriplets();
  TripletInput in = t.input(8, 5);
  in.denseFraction = 2.0;  // never dense
  BuiltDesign built = buildDesign(in);
  DesignView v = built.storage.view();
  EXPECT_EQ(v.columns[2].kind, ColumnKind::Sparse);
  EXPECT_EQ(entries(v, 2), (Entries{{0, -1.0}, {3, 3.0}, {4, 1.0}, {7, 0.5}}));
  in.denseFraction = 0.0;  // every non-empty column dense
  built = buildDesign(in);
  v = built.storage.view();
  for (std::size_t j : {0u, 1u, 2u, 4u}) EXPECT_EQ(v.columns[j].kind, ColumnKind::Dense) << j;
  EXPECT_EQ(entries(v, 0)[5], (std::pair<std::int64_t, double>{5, 1.0}));
  EXPECT_EQ(entries(v, 0)[4], (std::pair<std::int64_t, double>{4, 0.0}));
}

TEST(BuildDesign, NullValuesMeanIndicators) {
  const Triplets t = mixedTriplets();
  TripletInput in = t.input(8, 5, /*withValues=*/false);
  const BuiltDesign built = buildDesign(in);
  const DesignView v = built.storage.view();
  EXPECT_EQ(v.columns[1].kind, ColumnKind::Indicator);
  EXPECT_EQ(entries(v, 1), (Entries{{2, 1.0}, {6, 1.0}}));
  EXPECT_EQ(v.columns[2].kind, ColumnKind::Dense);
  EXPECT_EQ(entries(v, 2)[0].second, 1.0);
  EXPECT_EQ(entries(v, 2)[1].second, 0.0);
}

TEST(BuildDesign, ReportsDuplicates) {
  Triplets t = mixedTriplets();
  t.add(6, 1, 4.0);  // repeats (row 6, column 1), first seen at entry 1
  const auto repeat = static_cast<std::int64_t>(t.row.size() - 1);
  const BuiltDesign built = buildDesign(t.input(8, 5));
  EXPECT_EQ(built.firstDuplicate, repeat);

  // Same row in different columns is not a duplicate.
  Triplets u;
  u.add(3, 0, 1.0);
  u.add(3, 1, 1.0);
  u.add(4, 0, 1.0);
  EXPECT_EQ(buildDesign(u.input(8, 2)).firstDuplicate, -1);
}

TEST(BuildDesign, SkipsDroppedRowsAndExplicitZeros) {
  Triplets t = mixedTriplets();
  t.add(-1, 1, 9.0);
  t.add(-1, 0, 1.0);
  t.add(2, 0, 0.0);  // explicit zero: dropped, col 0 stays an indicator with 2 rows
  t.add(4, 1, 0.0);
  t.add(5, 1, 0.0);
  const BuiltDesign built = buildDesign(t.input(8, 5));
  EXPECT_EQ(built.skippedEntries, 2);
  EXPECT_EQ(built.zeroEntries, 3);
  EXPECT_EQ(built.firstDuplicate, -1);
  const DesignView v = built.storage.view();
  EXPECT_EQ(v.columns[0].kind, ColumnKind::Indicator);
  EXPECT_EQ(entries(v, 0), (Entries{{1, 1.0}, {5, 1.0}}));
  EXPECT_EQ(v.columns[1].kind, ColumnKind::Sparse);  // zeros did not make it dense
  EXPECT_EQ(entries(v, 1), (Entries{{2, -1.0}, {6, 2.5}}));
}

TEST(BuildDesign, AddInterceptPrependsAnInterceptColumn) {
  const Triplets t = mixedTriplets();
  TripletInput in = t.input(8, 5);
  in.addIntercept = true;
  const BuiltDesign built = buildDesign(in);
  const DesignView v = built.storage.view();
  ASSERT_EQ(v.nColumns(), 6u);
  EXPECT_EQ(v.columns[0].kind, ColumnKind::Intercept);
  EXPECT_EQ(v.columns[0].nnz, 8);
  EXPECT_EQ(entries(v, 0).size(), 8u);
  EXPECT_EQ(v.columns[1].kind, ColumnKind::Indicator);
  EXPECT_EQ(entries(v, 2), (Entries{{2, -1.0}, {6, 2.5}}));
  EXPECT_EQ(v.columns[3].kind, ColumnKind::Dense);
  EXPECT_EQ(entries(v, 5), (Entries{{0, 1.0}, {3, 1.0}}));
}

TEST(BuildDesign, RejectsOutOfRangeIndices) {
  Triplets t = mixedTriplets();
  t.add(1, 5, 1.0);  // column 5 of 5
  EXPECT_THROW(buildDesign(t.input(8, 5)), ArgusError);
  Triplets u = mixedTriplets();
  u.add(1, -1, 1.0);
  EXPECT_THROW(buildDesign(u.input(8, 5)), ArgusError);
  Triplets w = mixedTriplets();
  w.add(8, 0, 1.0);  // row 8 of 8
  EXPECT_THROW(buildDesign(w.input(8, 5)), ArgusError);
  EXPECT_THROW(buildDesign(mixedTriplets().input(0, 5)), ArgusError);
}

// Random shuffled triplets: the built columns hold exactly the nonzero entries, rows strictly
// increasing, whatever kind each column got.
TEST(BuildDesign, RandomInputRoundTrips) {
  std::mt19937 rng(9);
  const std::int64_t nRows = 300;
  const std::int32_t nCols = 25;
  std::map<std::pair<std::int32_t, std::int32_t>, double> truth;
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (std::int32_t c = 0; c < nCols; ++c) {
    const double fill = c % 5 == 0 ? 0.6 : 0.05 + 0.01 * c;
    const bool ones = c % 3 == 0;
    for (std::int32_t r = 0; r < nRows; ++r)
      if (u(rng) < fill) truth[{r, c}] = ones ? 1.0 : std::round(u(rng) * 100.0) / 10.0 + 0.1;
  }
  Triplets t;
  for (const auto& kv : truth) t.add(kv.first.first, kv.first.second, kv.second);
  std::vector<std::size_t> perm(t.row.size());
  for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), rng);
  Triplets s;
  for (std::size_t i : perm) s.add(t.row[i], t.column[i], t.value[i]);

  const BuiltDesign built = buildDesign(s.input(nRows, nCols));
  EXPECT_EQ(built.firstDuplicate, -1);
  const DesignView v = built.storage.view();
  ASSERT_EQ(v.nColumns(), static_cast<std::size_t>(nCols));
  int dense = 0, indicator = 0, sparse = 0;
  for (std::int32_t c = 0; c < nCols; ++c) {
    std::int64_t last = -1, count = 0;
    for (const auto& [r, x] : entries(v, c)) {
      EXPECT_GT(r, last);
      last = r;
      auto it = truth.find({static_cast<std::int32_t>(r), c});
      if (it == truth.end()) {
        EXPECT_EQ(x, 0.0) << "row " << r << " column " << c;
      } else {
        EXPECT_EQ(x, it->second) << "row " << r << " column " << c;
        ++count;
      }
    }
    std::int64_t expected = 0;
    for (const auto& kv : truth) expected += kv.first.second == c;
    EXPECT_EQ(count, expected) << "column " << c;
    const ColumnKind k = v.columns[c].kind;
    dense += k == ColumnKind::Dense;
    indicator += k == ColumnKind::Indicator;
    sparse += k == ColumnKind::Sparse;
    if (k == ColumnKind::Dense) {
      EXPECT_GT(static_cast<double>(expected), 0.25 * nRows);
    } else {
      EXPECT_LE(static_cast<double>(expected), 0.25 * nRows);
      EXPECT_EQ(k == ColumnKind::Indicator, c % 3 == 0) << "column " << c;
    }
  }
  EXPECT_GT(dense, 0);
  EXPECT_GT(indicator, 0);
  EXPECT_GT(sparse, 0);
}

// ---- planRows ------------------------------------------------------------------------------

TEST(PlanRows, ConditionalGroupsStrataStablyAndDropsEventlessStrata) {
  //                                 row: 0  1  2  3  4  5  6  7  8
  const std::vector<std::int32_t> code = {2, 0, 1, 2, 0, 1, 2, 0, 3};
  const std::vector<double> y = {1, 0, 0, 0, 1, 0, 1, 0, 1};
  // Code 1 (rows 2, 5) has no event; code 4 is unused.
  const RowPlan plan = planRows(ModelType::ConditionalLogistic, 9, y.data(), nullptr, code.data(), 5);
  EXPECT_EQ(plan.nStrata, 3);
  EXPECT_EQ(plan.droppedStrata, 1);
  EXPECT_EQ(plan.droppedRows, 2);
  EXPECT_EQ(plan.order, (std::vector<std::int64_t>{1, 4, 7, 0, 3, 6, 8}));
  EXPECT_EQ(plan.stratum, (std::vector<std::int32_t>{0, 0, 0, 1, 1, 1, 2}));
  EXPECT_EQ(plan.stratumStart, (std::vector<std::int64_t>{0, 3, 6, 7}));
  EXPECT_EQ(plan.internalOfUser, (std::vector<std::int32_t>{3, 0, -1, 4, 1, -1, 5, 2, 6}));
}

TEST(PlanRows, CountsAreEventsForConditionalPoisson) {
  const std::vector<std::int32_t> code = {1, 1, 0, 0, 2};
  const std::vector<double> y = {0, 2, 0, 0, 3};
  const RowPlan plan =
      planRows(ModelType::SelfControlledCaseSeries, 5, y.data(), nullptr, code.data(), 3);
  EXPECT_EQ(plan.nStrata, 2);
  EXPECT_EQ(plan.droppedStrata, 1);
  EXPECT_EQ(plan.droppedRows, 2);
  EXPECT_EQ(plan.order, (std::vector<std::int64_t>{0, 1, 4}));
  EXPECT_EQ(plan.stratumStart, (std::vector<std::int64_t>{0, 2, 3}));
}

TEST(PlanRows, ConditionalErrors) {
  const std::vector<std::int32_t> code = {0, 1, 1, 0};
  const std::vector<double> none = {0, 0, 0, 0};
  EXPECT_THROW(planRows(ModelType::ConditionalLogistic, 4, none.data(), nullptr, code.data(), 2),
               ArgusError);
  const std::vector<double> y = {1, 0, 0, 0};
  EXPECT_THROW(planRows(ModelType::ConditionalPoisson, 4, y.data(), nullptr, nullptr, 0), ArgusError);
  const std::vector<std::int32_t> bad = {0, 1, 2, 0};
  EXPECT_THROW(planRows(ModelType::ConditionalLogistic, 4, y.data(), nullptr, bad.data(), 2),
               ArgusError);
  EXPECT_THROW(planRows(ModelType::Logistic, 0, y.data(), nullptr, nullptr, 0), ArgusError);
}

TEST(PlanRows, NonConditionalKeepsIdentityOrder) {
  const std::vector<double> y = {0, 0, 0, 0, 0, 0};  // no events needed
  for (ModelType m : {ModelType::LeastSquares, ModelType::Logistic, ModelType::Poisson}) {
    const RowPlan plan = planRows(m, 6, y.data(), nullptr, nullptr, 0);
    EXPECT_EQ(plan.order, (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5}));
    EXPECT_EQ(plan.internalOfUser, (std::vector<std::int32_t>{0, 1, 2, 3, 4, 5}));
    EXPECT_EQ(plan.droppedRows, 0);
    EXPECT_EQ(plan.droppedStrata, 0);
    EXPECT_EQ(plan.nStrata, 1);
    EXPECT_EQ(plan.stratumStart, (std::vector<std::int64_t>{0, 6}));
  }
  // Strata given to a non-conditional model do not reorder anything.
  const std::vector<std::int32_t> code = {1, 0, 1, 0, 2, 2};
  const RowPlan plan = planRows(ModelType::Logistic, 6, y.data(), nullptr, code.data(), 3);
  EXPECT_EQ(plan.order, (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(plan.droppedRows, 0);
}

// Survival models keep a stratum without events (Cox: its rows still get predictions and
// residuals; Fine-Gray: they shape the censoring distribution), sorted by time descending.
TEST(PlanRows, SurvivalKeepsStrataWithoutEvents) {
  const std::vector<double> y = {1, 0, 0, 1, 0, 0};
  const std::vector<double> time = {3, 5, 1, 2, 4, 6};
  const std::vector<std::int32_t> code = {0, 1, 1, 0, 1, 0};  // stratum 1: no event
  for (ModelType m : {ModelType::Cox, ModelType::FineGray}) {
    const RowPlan plan = planRows(m, 6, y.data(), time.data(), code.data(), 2);
    EXPECT_EQ(plan.droppedStrata, 0) << modelTypeName(m);
    EXPECT_EQ(plan.droppedRows, 0) << modelTypeName(m);
    EXPECT_EQ(plan.nStrata, 2) << modelTypeName(m);
    EXPECT_EQ(plan.order, (std::vector<std::int64_t>{5, 0, 3, 1, 4, 2})) << modelTypeName(m);
    EXPECT_EQ(plan.stratumStart, (std::vector<std::int64_t>{0, 3, 6})) << modelTypeName(m);
  }
}

// ---- validateDataset -----------------------------------------------------------------------

std::unique_ptr<testing_data::TestProblem> small(ModelType m) {
  testing_data::ProblemSpec spec;
  spec.model = m;
  spec.nRows = 40;
  spec.nStrata = 5;
  spec.seed = 17;
  return testing_data::makeProblem(spec);
}

TEST(ValidateDataset, AcceptsEveryGeneratedDataset) {
  for (ModelType m : testing_data::allModels()) {
    auto p = small(m);
    EXPECT_NO_THROW(validateDataset(p->data, p->weightPtr())) << modelTypeName(m);
    EXPECT_NO_THROW(validateDataset(p->data, nullptr)) << modelTypeName(m);
  }
}

TEST(ValidateDataset, RejectsNonBinaryOutcomeForLogisticModels) {
  for (ModelType m : {ModelType::Logistic, ModelType::ConditionalLogistic}) {
    for (double bad : {2.0, 0.5, -1.0, kNaN}) {
      auto p = small(m);
      p->y[3] = bad;
      EXPECT_THROW(validateDataset(p->data, p->weightPtr()), ArgusError)
          << modelTypeName(m) << " y = " << bad;
    }
  }
  auto ls = small(ModelType::LeastSquares);
  ls->y[3] = -2.7;  // any finite y is fine for least squares
  EXPECT_NO_THROW(validateDataset(ls->data, ls->weightPtr()));
}

TEST(ValidateDataset, RejectsNegativeOrFractionalCounts) {
  for (ModelType m : {ModelType::Poisson, ModelType::ConditionalPoisson,
                      ModelType::SelfControlledCaseSeries}) {
    for (double bad : {-1.0, 1.5}) {
      auto p = small(m);
      p->y[0] = bad;
      EXPECT_THROW(validateDataset(p->data, p->weightPtr()), ArgusError)
          << modelTypeName(m) << " y = " << bad;
    }
    auto p = small(m);
    p->y[0] = 7.0;
    EXPECT_NO_THROW(validateDataset(p->data, p->weightPtr()));
  }
}

TEST(ValidateDataset, RejectsNonPositiveExposureTime) {
  for (ModelType m : {ModelType::Poisson, ModelType::ConditionalPoisson,
                      ModelType::SelfControlledCaseSeries}) {
    for (double bad : {0.0, -1.0, kNaN, kInf}) {
      auto p = small(m);
      ASSERT_FALSE(p->time.empty());
      p->time[5] = bad;
      EXPECT_THROW(validateDataset(p->data, p->weightPtr()), ArgusError)
          << modelTypeName(m) << " time = " << bad;
    }
  }
}

TEST(ValidateDataset, RejectsBadWeightsAndOffsets) {
  for (ModelType m : testing_data::allModels()) {
    for (double bad : {-0.5, kNaN, kInf}) {
      auto p = small(m);
      ASSERT_FALSE(p->weight.empty());
      p->weight[7] = bad;
      EXPECT_THROW(validateDataset(p->data, p->weightPtr()), ArgusError)
          << modelTypeName(m) << " weight = " << bad;
    }
    for (double bad : {kNaN, kInf, -kInf}) {
      auto p = small(m);
      ASSERT_FALSE(p->offset.empty());
      p->offset[7] = bad;
      EXPECT_THROW(validateDataset(p->data, p->weightPtr()), ArgusError)
          << modelTypeName(m) << " offset = " << bad;
    }
    auto p = small(m);
    p->weight[7] = 0.0;  // zero weights are allowed (cross-validation folds)
    EXPECT_NO_THROW(validateDataset(p->data, p->weightPtr()));
  }
}

TEST(ValidateDataset, RejectsBrokenStrataAndInterceptsInConditionalModels) {
  auto p = small(ModelType::ConditionalLogistic);
  p->stratum[p->stratumStart[1]] = 0;  // first row of stratum 1 claims stratum 0
  EXPECT_THROW(validateDataset(p->data, p->weightPtr()), ArgusError);

  auto q = small(ModelType::ConditionalPoisson);
  q->data.outcomes.stratum = nullptr;
  EXPECT_THROW(validateDataset(q->data, q->weightPtr()), ArgusError);

  testing_data::ProblemSpec spec;
  spec.model = ModelType::SelfControlledCaseSeries;
  spec.nRows = 40;
  spec.nStrata = 5;
  spec.kinds = {ColumnKind::Intercept, ColumnKind::Dense};
  auto r = testing_data::makeProblem(spec);
  EXPECT_THROW(validateDataset(r->data, r->weightPtr()), ArgusError);
}

TEST(ValidateDataset, RejectsUnsortedColumnsAndNonFiniteValues) {
  auto p = small(ModelType::Logistic);
  // Find a sparse column with at least two rows and swap them.
  bool swapped = false;
  for (std::size_t j = 0; j < p->nColumns() && !swapped; ++j) {
    if (p->kind(j) != ColumnKind::Sparse) continue;
    const std::int64_t b = p->storage.rowStart[j];
    if (p->storage.rowStart[j + 1] - b < 2) continue;
    std::swap(p->storage.rows[b], p->storage.rows[b + 1]);
    swapped = true;
  }
  ASSERT_TRUE(swapped);
  EXPECT_THROW(validateDataset(p->data, p->weightPtr()), ArgusError);

  auto q = small(ModelType::Poisson);
  for (std::size_t j = 0; j < q->nColumns(); ++j)
    if (q->kind(j) == ColumnKind::Dense) {
      q->storage.values[q->storage.valueStart[j] + 3] = kNaN;
      break;
    }
  EXPECT_THROW(validateDataset(q->data, q->weightPtr()), ArgusError);
}

// The row and entry screens (no messages) hand a failing row to the worded checks: the error
// names the first bad row and what is wrong with it, and what the screen rejects but the
// worded check allows (a count beyond 2^53) is accepted as before.
std::string validationError(const testing_data::TestProblem& p) {
  try {
    validateDataset(p.data, p.weightPtr());
  } catch (const ArgusError& e) {
    return e.what();
  }
  return "";
}

TEST(ValidateDataset, NamesTheFirstBadRowAndWhatIsWrong) {
  auto p = small(ModelType::SelfControlledCaseSeries);
  p->y[30] = 1.5;
  p->time[35] = 0.0;
  EXPECT_EQ(validationError(*p), "y must be a non-negative count (internal row 31)");
  p->y[30] = 1.0;
  EXPECT_EQ(validationError(*p), "exposure time must be positive (internal row 36)");
  p->time[35] = 3.0;
  p->y[12] = 1e300;  // whole, beyond the screen's exact range: the worded check accepts it
  EXPECT_EQ(validationError(*p), "");

  auto b = small(ModelType::ConditionalLogistic);
  b->y[9] = 2.0;
  EXPECT_EQ(validationError(*b), "y must be 0 or 1 for this model (internal row 10)");
  auto w = small(ModelType::Logistic);
  w->weight[4] = -1.0;
  w->offset[2] = kInf;
  EXPECT_EQ(validationError(*w), "offset is not finite (internal row 3)");

  auto c = small(ModelType::Poisson);
  std::size_t sparse = c->nColumns();
  for (std::size_t j = 0; j < c->nColumns() && sparse == c->nColumns(); ++j)
    if (c->kind(j) == ColumnKind::Sparse && c->storage.rowStart[j + 1] > c->storage.rowStart[j])
      sparse = j;
  ASSERT_LT(sparse, c->nColumns());
  c->storage.rows[c->storage.rowStart[sparse + 1] - 1] = static_cast<std::int32_t>(c->nRows());
  EXPECT_EQ(validationError(*c), "covariate column " + std::to_string(sparse + 1) +
                                     " has unsorted or out-of-range rows");
}

// ---- names and devices ---------------------------------------------------------------------

TEST(ModelTypeNames, RoundTripAndErrors) {
  for (ModelType m : testing_data::allModels())
    EXPECT_EQ(parseModelType(modelTypeName(m)), m);
  EXPECT_EQ(parseModelType("sccs"), ModelType::SelfControlledCaseSeries);
  EXPECT_EQ(parseModelType("clr"), ModelType::ConditionalLogistic);
  for (const char* bad : {"", "LR", "logistic", "Cox", "sccs ", "pr2"})
    EXPECT_THROW(parseModelType(bad), ArgusError) << "'" << bad << "'";
}

TEST(ModelTypeNames, Facts) {
  EXPECT_FALSE(isConditional(ModelType::Logistic));
  EXPECT_TRUE(isConditional(ModelType::ConditionalLogistic));
  EXPECT_TRUE(isConditional(ModelType::SelfControlledCaseSeries));
  EXPECT_TRUE(usesExposureTime(ModelType::Poisson));
  EXPECT_FALSE(usesExposureTime(ModelType::ConditionalLogistic));
  EXPECT_TRUE(requiresBinaryOutcome(ModelType::ConditionalLogistic));
  EXPECT_FALSE(requiresBinaryOutcome(ModelType::LeastSquares));
  EXPECT_TRUE(requiresCountOutcome(ModelType::SelfControlledCaseSeries));
  EXPECT_FALSE(requiresCountOutcome(ModelType::Logistic));
}

TEST(ComputeDeviceNames, ParsesCpuAndCuda) {
  EXPECT_EQ(parseComputeDevice("cpu").kind, ComputeDevice::Kind::Cpu);
  ComputeDevice d = parseComputeDevice("cuda");
  EXPECT_EQ(d.kind, ComputeDevice::Kind::Cuda);
  EXPECT_EQ(d.index, 0);
  d = parseComputeDevice("cuda:1");
  EXPECT_EQ(d.kind, ComputeDevice::Kind::Cuda);
  EXPECT_EQ(d.index, 1);
  EXPECT_EQ(parseComputeDevice("cuda:12").index, 12);
  EXPECT_EQ(computeDeviceName(parseComputeDevice("cuda:3")), "cuda:3");
  EXPECT_EQ(computeDeviceName(parseComputeDevice("cuda")), "cuda:0");
  EXPECT_EQ(computeDeviceName(parseComputeDevice("cpu")), "cpu");
}

TEST(ComputeDeviceNames, RejectsMalformedNames) {
  for (const char* bad : {"", "CPU", "gpu", "cuda:x", "cuda:-1", "cuda:1a", "cuda1", "cuda:+1"})
    EXPECT_THROW(parseComputeDevice(bad), ArgusError) << "'" << bad << "'";
}

// ENGINE BUG (see report): device/dispatch.cpp parseComputeDevice() only checks the digits
// when name.size() > 5, so "cuda:" (empty index) is accepted as cuda:0, and the emptiness
// check inside that branch is dead code.
TEST(ComputeDeviceNames, RejectsEmptyCudaIndex) {
  EXPECT_THROW(parseComputeDevice("cuda:"), ArgusError);
}

// ENGINE BUG (see report): an index too large for int makes std::stoi throw
// std::out_of_range, which is not an ArgusError (the R bridge and callers expect ArgusError).
TEST(ComputeDeviceNames, RejectsHugeCudaIndexWithArgusError) {
  EXPECT_THROW(parseComputeDevice("cuda:99999999999"), ArgusError);
}

TEST(Dispatch, CpuRunnerAndCudaUnsupportedInCpuBuild) {
  auto p = small(ModelType::Logistic);
  auto cpu = makeCycleRunner(parseComputeDevice("cpu"), p->data, p->weightPtr());
  ASSERT_NE(cpu, nullptr);
  CycleState state;
  state.beta.assign(p->nColumns(), 0.0);
  state.bound.assign(p->nColumns(), 2.0);
  state.prior.assign(p->nColumns(), CoordinatePrior{});
  state.fixed.assign(p->nColumns(), 0);
  const CycleReadout r0 = cpu->reset(state);
  auto lik = makeLikelihood(p->data, p->weightPtr());
  lik->reset(state.beta);
  EXPECT_DOUBLE_EQ(r0.logLikelihood, lik->logLikelihood());
  EXPECT_DOUBLE_EQ(cpu->gradHess(2).g, lik->gradHess(2).g);

  if (builtWithCuda()) GTEST_SKIP() << "built with CUDA";
  EXPECT_EQ(cudaDeviceCount(), 0);
  EXPECT_THROW(makeCycleRunner(parseComputeDevice("cuda"), p->data, p->weightPtr()),
               UnsupportedError);
  EXPECT_THROW(makeCycleRunner(parseComputeDevice("cuda:1"), p->data, p->weightPtr()),
               UnsupportedError);
  FitRequest req;
  req.data = &p->data;
  req.weights = p->weightPtr();
  req.prior.assign(p->nColumns(), CoordinatePrior{});
  req.device = parseComputeDevice("cuda");
  EXPECT_THROW(fitCcd(req), UnsupportedError);
}

}  // namespace
}  // namespace argus
