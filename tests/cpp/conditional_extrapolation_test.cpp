// Cycle extrapolation (solver/cpu_cycle_runner.h) now reaches the conditional models through
// their direction support: fits with and without it must agree at a tight tolerance, for
// clr with each tie method and for sccs, under every prior; and on strongly coupled columns
// it must save cycles, as it does for Cox.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "clr_test_data.h"
#include "solver/ccd_solver.h"

namespace argus {
namespace {

using testing_data::ClrSpec;
using testing_data::makeClrProblem;
using testing_data::mixedStrata;
using testing_data::TestProblem;

FitResult fitWith(const TestProblem& p, PriorKind kind, double variance, bool extrapolate) {
  FitRequest req;
  req.data = &p.data;
  req.weights = p.weightPtr();
  req.prior.assign(p.nColumns(), CoordinatePrior{kind, variance});
  req.control.tolerance = 1e-13;
  req.control.convergence = ConvergenceType::Zhang;
  req.control.maxIterations = 5000;
  req.control.extrapolate = extrapolate;
  // The block Newton step solves these small dense problems by itself: test the
  // extrapolation alone.
  req.control.blockNewton = false;
  return fitCcd(req);
}

std::unique_ptr<TestProblem> clrProblem(TieMethod ties, std::uint32_t seed) {
  ClrSpec spec;
  for (int copy = 0; copy < 6; ++copy)
    for (const auto& l : mixedStrata(true)) spec.strata.push_back(l);
  spec.ties = ties;
  spec.seed = seed;
  return makeClrProblem(spec);
}

void expectSameOptimum(const TestProblem& p, const std::string& name) {
  for (const auto& prior : std::vector<std::pair<PriorKind, double>>{
           {PriorKind::None, 1.0}, {PriorKind::Normal, 0.5}, {PriorKind::Laplace, 0.05}}) {
    SCOPED_TRACE(name + " prior " + std::to_string(static_cast<int>(prior.first)));
    const FitResult plain = fitWith(p, prior.first, prior.second, false);
    const FitResult fast = fitWith(p, prior.first, prior.second, true);
    ASSERT_EQ(plain.status, FitStatus::Success);
    ASSERT_EQ(fast.status, FitStatus::Success);
    for (std::size_t j = 0; j < plain.beta.size(); ++j) {
      EXPECT_NEAR(fast.beta[j], plain.beta[j], 1e-7) << "beta " << j;
      if (prior.first == PriorKind::Laplace)
        EXPECT_EQ(fast.beta[j] == 0.0, plain.beta[j] == 0.0) << "beta " << j;
    }
    EXPECT_NEAR(fast.logLikelihood, plain.logLikelihood, 1e-8 * std::fabs(plain.logLikelihood));
  }
}

TEST(ConditionalExtrapolation, ReachesTheSameOptimum) {
  for (TieMethod ties : {TieMethod::Breslow, TieMethod::Efron, TieMethod::Exact}) {
    auto p = clrProblem(ties, 31);
    expectSameOptimum(*p, "clr ties " + std::to_string(static_cast<int>(ties)));
  }
  testing_data::ProblemSpec spec;
  spec.model = ModelType::SelfControlledCaseSeries;
  spec.nRows = 400;
  spec.seed = 32;
  auto sccs = testing_data::makeProblem(spec);
  expectSameOptimum(*sccs, "sccs");
}

TEST(ConditionalExtrapolation, SavesCyclesOnCoupledColumns) {
  auto p = clrProblem(TieMethod::Exact, 33);
  // The two dense columns share one component: strongly correlated, so plain CCD crawls.
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<double> shared(static_cast<std::size_t>(p->nRows()));
  for (double& z : shared) z = normal(p->rng());
  for (std::size_t j = 0; j < p->nColumns(); ++j) {
    if (p->kind(j) != ColumnKind::Dense) continue;
    for (std::int64_t r = 0; r < p->nRows(); ++r)
      p->storage.values[p->storage.valueStart[j] + r] = shared[r] + 0.2 * normal(p->rng());
  }
  p->data.design = p->storage.view();
  const FitResult plain = fitWith(*p, PriorKind::None, 1.0, false);
  const FitResult fast = fitWith(*p, PriorKind::None, 1.0, true);
  ASSERT_EQ(fast.status, FitStatus::Success);
  for (std::size_t j = 0; j < plain.beta.size(); ++j) EXPECT_NEAR(fast.beta[j], plain.beta[j], 1e-6);
  EXPECT_LT(fast.iterations, plain.iterations)
      << "plain " << plain.iterations << " fast " << fast.iterations;
  std::printf("coupled clr exact: %d cycles plain, %d with extrapolation\n", plain.iterations,
              fast.iterations);
}

}  // namespace
}  // namespace argus
