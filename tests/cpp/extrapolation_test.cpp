// Cycle extrapolation (solver/likelihood_cycle_runner.h) must change how fast CCD gets to the
// optimum, never which optimum: fits with and without it agree at a tight tolerance for every
// survival model and prior, including coefficients that cross zero and Laplace coefficients
// held at zero; and on the coupled survival design it saves cycles.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "solver/ccd_solver.h"
#include "survival_test_data.h"

namespace argus {
namespace {

using testing_data::makeSurvivalProblem;
using testing_data::SurvivalSpec;

FitResult fitWith(const testing_data::SurvivalProblem& p, PriorKind kind, double variance,
                  bool extrapolate) {
  FitRequest req;
  req.data = &p.data;
  req.weights = p.weightPtr();
  req.prior.assign(p.nColumns(), CoordinatePrior{kind, variance});
  req.control.tolerance = 1e-13;
  req.control.convergence = ConvergenceType::Zhang;
  req.control.maxIterations = 5000;
  req.control.extrapolate = extrapolate;
  // The block Newton step would solve these small dense problems by itself: test the
  // extrapolation alone.
  req.control.blockNewton = false;
  return fitCcd(req);
}

TEST(CycleExtrapolation, ReachesTheSameOptimum) {
  struct Case {
    std::string name;
    SurvivalSpec spec;
  };
  std::vector<Case> cases(4);
  cases[0].name = "cox breslow";
  cases[1].name = "cox efron strata";
  cases[1].spec.ties = TieMethod::Efron;
  cases[1].spec.nStrata = 3;
  cases[2].name = "fgr";
  cases[2].spec.model = ModelType::FineGray;
  cases[3].name = "cox unique times";
  cases[3].spec.integerTimes = false;
  for (Case& c : cases) {
    c.spec.nRows = 400;
    auto p = makeSurvivalProblem(c.spec);
    for (const auto& prior : std::vector<std::pair<PriorKind, double>>{
             {PriorKind::None, 1.0}, {PriorKind::Normal, 0.5}, {PriorKind::Laplace, 0.02}}) {
      const FitResult plain = fitWith(*p, prior.first, prior.second, false);
      const FitResult fast = fitWith(*p, prior.first, prior.second, true);
      ASSERT_EQ(plain.status, FitStatus::Success) << c.name;
      ASSERT_EQ(fast.status, FitStatus::Success) << c.name;
      for (std::size_t j = 0; j < plain.beta.size(); ++j) {
        EXPECT_NEAR(fast.beta[j], plain.beta[j], 1e-7) << c.name << " prior " << int(prior.first)
                                                       << " beta " << j;
        // Zeros of the Laplace fit are exact zeros in both.
        if (prior.first == PriorKind::Laplace)
          EXPECT_EQ(fast.beta[j] == 0.0, plain.beta[j] == 0.0) << c.name << " beta " << j;
      }
      EXPECT_NEAR(fast.logLikelihood, plain.logLikelihood, 1e-8 * std::fabs(plain.logLikelihood));
    }
  }
}

TEST(CycleExtrapolation, SavesCyclesOnCoupledCoordinates) {
  // Six dense columns sharing one component: strongly correlated, so plain CCD crawls.
  SurvivalSpec spec;
  spec.nRows = 1000;
  spec.kinds.assign(6, ColumnKind::Dense);
  auto p = makeSurvivalProblem(spec);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<double> shared(static_cast<std::size_t>(p->nRows()));
  for (double& z : shared) z = normal(p->rng());
  for (std::size_t j = 0; j < p->nColumns(); ++j)
    for (std::int64_t r = 0; r < p->nRows(); ++r)
      p->storage.values[j * p->nRows() + r] = shared[r] + 0.2 * normal(p->rng());
  const FitResult plain = fitWith(*p, PriorKind::None, 1.0, false);
  const FitResult fast = fitWith(*p, PriorKind::None, 1.0, true);
  ASSERT_EQ(fast.status, FitStatus::Success);
  for (std::size_t j = 0; j < plain.beta.size(); ++j) EXPECT_NEAR(fast.beta[j], plain.beta[j], 1e-6);
  EXPECT_LT(2 * fast.iterations, plain.iterations) << "plain " << plain.iterations << " fast " << fast.iterations;
}

}  // namespace
}  // namespace argus
