// clr with ties = "efron" and "exact" on the device against the CPU runner: strata of every
// shape the tie methods distinguish (one case, several, all rows cases, none, rows and a
// stratum weighted 0, one-row strata: clr_test_data.h), with and without weights, every
// column kind, cycle by cycle and for a whole fit; an exact stratum out of range is the
// CPU's error naming it. Last, empty and one-row columns on the paths added with these
// (clr's tie methods, counting-process Cox) and Fine-Gray.
#include "clr_test_data.h"
#include "common/errors.h"
#include "device_test_support.h"

namespace argus {
namespace {

using namespace device_test;
using testing_data::ClrSpec;
using testing_data::makeClrProblem;
using testing_data::mixedStrata;

struct ClrCase {
  TieMethod ties;
  bool weighted;
  PriorCase prior;
};

std::string clrName(const ClrCase& c) {
  return std::string(c.ties == TieMethod::Efron ? "efron" : "exact") + (c.weighted ? "_weighted_" : "_") +
         priorCaseName(c.prior);
}
void PrintTo(const ClrCase& c, std::ostream* os) { *os << clrName(c); }

std::vector<ClrCase> clrCases() {
  std::vector<ClrCase> out;
  for (TieMethod ties : {TieMethod::Efron, TieMethod::Exact})
    for (bool weighted : {false, true})
      for (PriorCase p : {PriorCase::None, PriorCase::Laplace, PriorCase::PerCovariate, PriorCase::Fixed})
        out.push_back({ties, weighted, p});
  return out;
}

class DeviceClrTies : public ::testing::TestWithParam<ClrCase> {};

TEST_P(DeviceClrTies, CyclesAndFitMatchTheCpu) {
  ClrSpec spec;
  spec.ties = GetParam().ties;
  spec.strata = mixedStrata(GetParam().weighted);
  // Enough strata that a column touches many runs, and an offset that moves eta off zero.
  for (int copy = 0; copy < 3; ++copy) spec.strata.insert(spec.strata.end(), spec.strata.begin(), spec.strata.begin() + 14);
  spec.offsetSpread = 1.5;
  auto p = makeClrProblem(spec);
  std::vector<CoordinatePrior> prior;
  std::vector<unsigned char> fixed;
  makePriors(GetParam().prior, p->data, &prior, &fixed);
  const std::string what = clrName(GetParam());
  expectSameCycles(p->data, p->weightPtr(), prior, fixed, false, 5, what + " sweep only");
  expectSameCycles(p->data, p->weightPtr(), prior, fixed, true, 4, what + " with block");
  expectSameFit(p->data, p->weightPtr(), prior, fixed, what);
}

INSTANTIATE_TEST_SUITE_P(Clr, DeviceClrTies, ::testing::ValuesIn(clrCases()),
                         [](const ::testing::TestParamInfo<ClrCase>& info) { return clrName(info.param); });

// One column kind at a time, many columns (no block Newton step: the sweep alone).
TEST(DeviceClrTies, WideDesignsOfEachKindMatchTheCpu) {
  for (TieMethod ties : {TieMethod::Efron, TieMethod::Exact}) {
    for (ColumnKind kind : {ColumnKind::Indicator, ColumnKind::Sparse, ColumnKind::Dense}) {
      ClrSpec spec;
      spec.ties = ties;
      spec.strata = mixedStrata(true);
      auto p = makeClrProblem(spec);
      testing_data::ProblemSpec wide;
      wide.model = ModelType::ConditionalLogistic;
      wide.nRows = p->nRows();
      wide.density = 0.3;
      wide.kinds.assign(40, kind);
      auto columns = testing_data::makeProblem(wide);
      p->data.design = columns->data.design;
      std::vector<CoordinatePrior> prior;
      std::vector<unsigned char> fixed;
      makePriors(PriorCase::Laplace, p->data, &prior, &fixed);
      const std::string what = std::string(ties == TieMethod::Efron ? "efron " : "exact ") + columnKindName(kind);
      expectSameCycles(p->data, p->weightPtr(), prior, fixed, true, 4, what);
      expectSameFit(p->data, p->weightPtr(), prior, fixed, what);
    }
  }
}

// A spread of 800 within a stratum of two cases underflows its case-set sum: the device
// raises the CPU's error, naming the stratum, from the log-likelihood and from a scan.
TEST(DeviceClrTies, ExactStratumOutOfRangeIsTheCpusError) {
  ClrSpec spec;
  spec.strata = {{5, 2}, {4, 2}};
  auto p = makeClrProblem(spec);
  for (std::int64_t r = p->stratumStart[1] + 1; r < p->stratumStart[2]; ++r) p->offset[r] = -800.0;
  auto device = makeCycleRunner(parseComputeDevice(kDevice), p->data, p->weightPtr());
  std::vector<CoordinatePrior> prior;
  std::vector<unsigned char> fixed;
  makePriors(PriorCase::None, p->data, &prior, &fixed);
  CycleState s = initialState(prior, fixed, p->data, false);
  try {
    device->reset(s);
    FAIL() << "no error from the log-likelihood";
  } catch (const ArgusError& e) {
    EXPECT_NE(std::string(e.what()).find("stratum 2"), std::string::npos) << e.what();
  }
  try {
    (void)device->gradHess(0);
    FAIL() << "no error from the scan";
  } catch (const ArgusError& e) {
    EXPECT_NE(std::string(e.what()).find("stratum 2"), std::string::npos) << e.what();
  }
}

// Next to the problem's columns: a column without entries, a one-row indicator and a one-row
// sparse column (a chunk or run of one item), for counting-process Cox, Fine-Gray and clr's
// exact and Efron strata.
void addDegenerateColumns(Dataset* data, const std::int32_t* row, const double* value) {
  ColumnView empty;
  empty.kind = ColumnKind::Indicator;
  data->design.columns.push_back(empty);
  ColumnView one;
  one.kind = ColumnKind::Indicator;
  one.nnz = 1;
  one.rows = row;
  data->design.columns.push_back(one);
  one.kind = ColumnKind::Sparse;
  one.values = value;
  data->design.columns.push_back(one);
}

TEST(DeviceRunner, EmptyAndOneRowColumnsOfTheNewPathsMatchTheCpu) {
  const std::int32_t row = 7;
  const double value = -1.3;
  auto run = [&](const Dataset& base, const double* weights, const std::string& what) {
    Dataset data = base;
    addDegenerateColumns(&data, &row, &value);
    std::vector<CoordinatePrior> prior;
    std::vector<unsigned char> fixed;
    makePriors(PriorCase::Normal, data, &prior, &fixed);
    expectSameCycles(data, weights, prior, fixed, true, 4, what + " degenerate columns");
    expectSameFit(data, weights, prior, fixed, what + " degenerate columns");
  };
  {
    SurvivalScope scope;
    for (ModelType m : {ModelType::Cox, ModelType::FineGray}) {
      auto p = countingCoxOrFineGray(m, 300);
      run(p->data, p->weightPtr(), modelTypeName(m));
    }
  }
  for (TieMethod ties : {TieMethod::Efron, TieMethod::Exact}) {
    ClrSpec spec;
    spec.ties = ties;
    spec.strata = mixedStrata(true);
    auto p = makeClrProblem(spec);
    run(p->data, p->weightPtr(), ties == TieMethod::Efron ? "clr efron" : "clr exact");
  }
}

}  // namespace
}  // namespace argus
