// Convergence rules (solver/convergence.h) and the CCD outer loop (solver/ccd_solver.h):
// statuses, convergence types, fixed and starting coefficients, a separable problem, and
// exact optima (closed-form ridge least squares; first-order conditions otherwise).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "common/errors.h"
#include "data/design_storage.h"
#include "models/likelihood.h"
#include "solver/ccd_solver.h"
#include "solver/convergence.h"
#include "test_data.h"

namespace argus {
namespace {

using testing_data::makeProblem;
using testing_data::ProblemSpec;
using testing_data::TestProblem;

TEST(RelativeChange, HandValues) {
  EXPECT_DOUBLE_EQ(relativeChange(3.0, 1.0), 0.5);    // 2 / (3 + 1)
  EXPECT_DOUBLE_EQ(relativeChange(1.0, 3.0), 1.0);    // 2 / (1 + 1)
  EXPECT_DOUBLE_EQ(relativeChange(-3.0, -1.0), 0.5);  // 2 / (3 + 1)
  EXPECT_DOUBLE_EQ(relativeChange(-1.0, 1.0), 1.0);   // 2 / (1 + 1)
  EXPECT_DOUBLE_EQ(relativeChange(0.0, 0.0), 0.0);
  EXPECT_DOUBLE_EQ(relativeChange(-99.0, -100.0), 1.0 / 100.0);
}

TEST(ConvergenceMeasure, EachTypeOnHandMadeReadouts) {
  CycleReadout before, after;
  before.logLikelihood = -100.0;
  before.weightedOutcomeEta = 10.0;
  before.sumAbsEta = 50.0;
  before.sumAbsEtaChange = 7.0;  // must not matter
  after.logLikelihood = -99.0;
  after.weightedOutcomeEta = 12.0;
  after.sumAbsEta = 54.0;
  after.sumAbsEtaChange = 3.0;
  const double priorBefore = -1.5, priorAfter = -2.0;
  EXPECT_DOUBLE_EQ(
      convergenceMeasure(ConvergenceType::Gradient, before, after, priorBefore, priorAfter),
      2.0 / 13.0);
  // Log posterior -101.5 -> -101.
  EXPECT_DOUBLE_EQ(
      convergenceMeasure(ConvergenceType::Lange, before, after, priorBefore, priorAfter),
      0.5 / 102.0);
  EXPECT_DOUBLE_EQ(
      convergenceMeasure(ConvergenceType::Mittal, before, after, priorBefore, priorAfter),
      1.0 / 100.0);
  EXPECT_DOUBLE_EQ(
      convergenceMeasure(ConvergenceType::Zhang, before, after, priorBefore, priorAfter),
      3.0 / 55.0);
}

TEST(ConvergenceType, ParsesKnownNamesAndRejectsOthers) {
  EXPECT_EQ(parseConvergenceType("gradient"), ConvergenceType::Gradient);
  EXPECT_EQ(parseConvergenceType("lange"), ConvergenceType::Lange);
  EXPECT_EQ(parseConvergenceType("mittal"), ConvergenceType::Mittal);
  EXPECT_EQ(parseConvergenceType("zhang"), ConvergenceType::Zhang);
  EXPECT_THROW(parseConvergenceType("Gradient"), ArgusError);
  EXPECT_THROW(parseConvergenceType(""), ArgusError);
  EXPECT_THROW(parseConvergenceType("newton"), ArgusError);
  EXPECT_THROW(parseConvergenceType("gradient "), ArgusError);
}

// Posterior gradient at beta, from a fresh likelihood: the first-order conditions of the fit.
std::vector<GradHess> gradHessAt(const Dataset& data, const double* weights,
                                 const std::vector<double>& beta) {
  auto lik = makeLikelihood(data, weights);
  lik->reset(beta);
  std::vector<GradHess> out(beta.size());
  for (std::size_t j = 0; j < beta.size(); ++j) out[j] = lik->gradHess(j);
  return out;
}

FitRequest requestFor(const TestProblem& p, PriorKind kind, double variance) {
  FitRequest req;
  req.data = &p.data;
  req.weights = p.weightPtr();
  req.prior.assign(p.nColumns(), CoordinatePrior{kind, variance});
  // Intercept excluded from the prior, as by default in the package.
  for (std::size_t j = 0; j < p.nColumns(); ++j)
    if (p.kind(j) == ColumnKind::Intercept) req.prior[j] = CoordinatePrior{};
  return req;
}

std::unique_ptr<TestProblem> problem(ModelType model, std::uint32_t seed) {
  ProblemSpec spec;
  spec.model = model;
  spec.nRows = 300;
  spec.seed = seed;
  return makeProblem(spec);
}

TEST(FitCcd, MaxIterationsReportedWhenOneCycleIsNotEnough) {
  auto p = problem(ModelType::Logistic, 101);
  FitRequest req = requestFor(*p, PriorKind::Normal, 1.0);
  req.control.maxIterations = 1;
  req.control.tolerance = 1e-10;
  const FitResult fit = fitCcd(req);
  EXPECT_EQ(fit.status, FitStatus::MaxIterations);
  EXPECT_EQ(fitStatusName(fit.status), "MAX_ITERATIONS");
  EXPECT_EQ(fit.iterations, 1);
  // The same problem does converge given room.
  req.control.maxIterations = 500;
  const FitResult full = fitCcd(req);
  EXPECT_EQ(full.status, FitStatus::Success);
  EXPECT_GT(full.iterations, 1);
  EXPECT_LE(full.iterations, 500);
}

// The reported log-likelihood and log prior are those of the returned coefficients.
TEST(FitCcd, ReportsLogLikelihoodAndPriorOfReturnedBeta) {
  auto p = problem(ModelType::Poisson, 102);
  FitRequest req = requestFor(*p, PriorKind::Normal, 0.5);
  const FitResult fit = fitCcd(req);
  ASSERT_EQ(fit.status, FitStatus::Success);
  auto lik = makeLikelihood(p->data, p->weightPtr());
  lik->reset(fit.beta);
  EXPECT_NEAR(fit.logLikelihood, lik->logLikelihood(), 1e-9 * std::fabs(fit.logLikelihood));
  EXPECT_DOUBLE_EQ(fit.logPrior, logPriorTotal(fit.beta, req.prior));
  EXPECT_NE(fit.logPrior, 0.0);
}

class EachConvergenceType : public ::testing::TestWithParam<ModelType> {};

TEST_P(EachConvergenceType, ReachesTheSameOptimum) {
  auto p = problem(GetParam(), 103);
  const double variance = 2.0;
  FitRequest ref = requestFor(*p, PriorKind::Normal, variance);
  ref.control.tolerance = 1e-12;
  ref.control.maxIterations = 5000;
  const FitResult best = fitCcd(ref);
  ASSERT_EQ(best.status, FitStatus::Success);

  // The reference is the optimum: the posterior gradient vanishes.
  const std::vector<GradHess> gh = gradHessAt(p->data, p->weightPtr(), best.beta);
  for (std::size_t j = 0; j < gh.size(); ++j) {
    const double priorGrad =
        ref.prior[j].kind == PriorKind::Normal ? -best.beta[j] / variance : 0.0;
    EXPECT_NEAR(gh[j].g + priorGrad, 0.0, 1e-6 * (1.0 + std::fabs(gh[j].h)))
        << "column " << j;
  }
  double largest = 0.0;
  for (double b : best.beta) largest = std::fmax(largest, std::fabs(b));
  EXPECT_GT(largest, 0.05);  // a real fit, not all zeros

  for (ConvergenceType type : {ConvergenceType::Gradient, ConvergenceType::Lange,
                               ConvergenceType::Mittal, ConvergenceType::Zhang}) {
    SCOPED_TRACE("convergence type " + std::to_string(static_cast<int>(type)));
    FitRequest req = ref;
    req.control.convergence = type;
    req.control.tolerance = 1e-9;
    const FitResult fit = fitCcd(req);
    EXPECT_EQ(fit.status, FitStatus::Success);
    for (std::size_t j = 0; j < fit.beta.size(); ++j)
      EXPECT_NEAR(fit.beta[j], best.beta[j], 1e-4) << "column " << j;
    EXPECT_NEAR(fit.logLikelihood, best.logLikelihood, 1e-6 * std::fabs(best.logLikelihood));
  }
}

INSTANTIATE_TEST_SUITE_P(Models, EachConvergenceType,
                         ::testing::ValuesIn(testing_data::allModels()),
                         [](const ::testing::TestParamInfo<ModelType>& info) {
                           return modelTypeName(info.param);
                         });

// L1: at the optimum, a zero coefficient has |g_j| <= lambda and a nonzero one has
// g_j = sign(beta_j) lambda (MODELS.md §3-4).
TEST(FitCcd, LaplaceFitSatisfiesOptimalityConditions) {
  for (ModelType model : {ModelType::Logistic, ModelType::SelfControlledCaseSeries}) {
    SCOPED_TRACE(modelTypeName(model));
    auto p = problem(model, 104);
    const double variance = 0.1;  // lambda ~ 4.5: some coefficients stay at zero, some not
    FitRequest req = requestFor(*p, PriorKind::Laplace, variance);
    req.control.tolerance = 1e-12;
    req.control.maxIterations = 5000;
    const FitResult fit = fitCcd(req);
    ASSERT_EQ(fit.status, FitStatus::Success);
    const double lambda = laplaceLambda(variance);
    const std::vector<GradHess> gh = gradHessAt(p->data, p->weightPtr(), fit.beta);
    int zeros = 0, nonzeros = 0;
    for (std::size_t j = 0; j < gh.size(); ++j) {
      if (req.prior[j].kind != PriorKind::Laplace) {
        EXPECT_NEAR(gh[j].g, 0.0, 1e-6) << "unpenalized column " << j;
        continue;
      }
      if (fit.beta[j] == 0.0) {
        ++zeros;
        EXPECT_LE(std::fabs(gh[j].g), lambda + 1e-6) << "column " << j;
      } else {
        ++nonzeros;
        const double sign = fit.beta[j] > 0.0 ? 1.0 : -1.0;
        EXPECT_NEAR(gh[j].g, sign * lambda, 1e-6) << "column " << j;
      }
    }
    EXPECT_GT(zeros, 0);
    EXPECT_GT(nonzeros, 0);
  }
}

TEST(FitCcd, FixedCoefficientsDoNotMove) {
  auto p = problem(ModelType::Logistic, 105);
  FitRequest req = requestFor(*p, PriorKind::Normal, 1.0);
  req.control.tolerance = 1e-12;
  req.start.assign(p->nColumns(), 0.0);
  req.fixed.assign(p->nColumns(), 0);
  req.start[2] = 0.7;
  req.fixed[2] = 1;
  req.start[4] = -0.3;
  req.fixed[4] = 1;
  ASSERT_EQ(p->kind(0), ColumnKind::Intercept);  // the solver revisits a free intercept
  req.start[0] = 0.2;
  req.fixed[0] = 1;
  const FitResult fit = fitCcd(req);
  ASSERT_EQ(fit.status, FitStatus::Success);
  EXPECT_EQ(fit.beta[0], 0.2);
  EXPECT_EQ(fit.beta[2], 0.7);
  EXPECT_EQ(fit.beta[4], -0.3);
  // The free coefficients are optimal given the fixed ones.
  const std::vector<GradHess> gh = gradHessAt(p->data, p->weightPtr(), fit.beta);
  for (std::size_t j = 0; j < gh.size(); ++j) {
    if (req.fixed[j]) continue;
    const double priorGrad = req.prior[j].kind == PriorKind::Normal ? -fit.beta[j] : 0.0;
    EXPECT_NEAR(gh[j].g + priorGrad, 0.0, 1e-6) << "column " << j;
  }
  // And the fixed ones are not optimal (otherwise the test could not fail).
  const double g2 = gh[2].g - fit.beta[2];
  EXPECT_GT(std::fabs(g2), 1e-3);
}

TEST(FitCcd, StartingCoefficientsAreUsed) {
  auto p = problem(ModelType::Poisson, 106);
  // Everything fixed: the fit returns the start, and reports its log-likelihood.
  FitRequest frozen = requestFor(*p, PriorKind::None, 1.0);
  frozen.start = p->randomBeta(0.4);
  frozen.fixed.assign(p->nColumns(), 1);
  const FitResult still = fitCcd(frozen);
  EXPECT_EQ(still.beta, frozen.start);
  auto lik = makeLikelihood(p->data, p->weightPtr());
  lik->reset(frozen.start);
  EXPECT_NEAR(still.logLikelihood, lik->logLikelihood(), 1e-10 * std::fabs(still.logLikelihood));

  // Starting at the optimum converges at once; starting at zero takes longer.
  FitRequest req = requestFor(*p, PriorKind::Normal, 1.0);
  req.control.tolerance = 1e-10;
  const FitResult fromZero = fitCcd(req);
  ASSERT_EQ(fromZero.status, FitStatus::Success);
  req.start = fromZero.beta;
  const FitResult warm = fitCcd(req);
  ASSERT_EQ(warm.status, FitStatus::Success);
  EXPECT_LE(warm.iterations, 2);
  EXPECT_GT(fromZero.iterations, warm.iterations + 2);
  for (std::size_t j = 0; j < warm.beta.size(); ++j)
    EXPECT_NEAR(warm.beta[j], fromZero.beta[j], 1e-6);
}

// Perfectly separable logistic data without a prior: the MLE does not exist. The solver must
// stop within maxIterations, say so (NO_FINITE_MLE) and name the slope, not the intercept.
TEST(FitCcd, SeparableLogisticWithoutPriorTerminates) {
  const std::int64_t n = 40;
  std::vector<std::int32_t> rows;
  std::vector<double> values, y(static_cast<std::size_t>(n));
  DesignStorage st;
  st.nRows = n;
  st.kinds = {static_cast<int>(ColumnKind::Intercept), static_cast<int>(ColumnKind::Dense)};
  st.rowStart = {0, 0, 0};
  for (std::int64_t r = 0; r < n; ++r) {
    const double x = static_cast<double>(r) - 19.5;  // y = 1 exactly when x > 0
    st.values.push_back(x / 10.0);
    y[r] = x > 0 ? 1.0 : 0.0;
  }
  st.valueStart = {0, 0, n};
  Dataset data;
  data.model = ModelType::Logistic;
  data.design = st.view();
  data.outcomes.y = y.data();
  FitRequest req;
  req.data = &data;
  req.prior.assign(2, CoordinatePrior{});
  req.control.maxIterations = 30;
  const auto t0 = std::chrono::steady_clock::now();
  const FitResult fit = fitCcd(req);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(seconds, 2.0);
  EXPECT_LE(fit.iterations, 30);
  EXPECT_EQ(fit.status, FitStatus::NoFiniteMle)
      << "status " << fitStatusName(fit.status) << " after " << fit.iterations
      << " iterations, slope " << fit.beta[1];
  EXPECT_EQ(fit.infinite, std::vector<std::int32_t>{1});
  // It stops where the gain left is negligible, not far out.
  EXPECT_LT(fit.beta[1], 1e3);
  // The slope runs off towards +infinity.
  EXPECT_GT(fit.beta[1], 5.0);
}

// End to end: triplets -> buildDesign (with intercept) -> fitCcd, no prior, a logistic problem
// whose MLE exists. The fit succeeds and the score vanishes at the result.
TEST(FitCcd, TripletsToMaximumLikelihoodLogistic) {
  const std::int32_t n = 200;
  std::mt19937 rng(110);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<std::int32_t> row, col;
  std::vector<double> val, y(n);
  for (std::int32_t r = 0; r < n; ++r) {
    double eta = -0.5;
    const double x0 = u(rng) * 2.0 - 1.0;  // dense-ish continuous covariate
    row.push_back(r); col.push_back(0); val.push_back(x0); eta += 0.8 * x0;
    if (u(rng) < 0.2) { row.push_back(r); col.push_back(1); val.push_back(1.0); eta -= 0.7; }
    if (u(rng) < 0.1) { row.push_back(r); col.push_back(2); val.push_back(2.0); eta += 0.3; }
    y[r] = u(rng) < 1.0 / (1.0 + std::exp(-eta)) ? 1.0 : 0.0;
  }
  TripletInput in;
  in.nRows = n;
  in.nColumns = 3;
  in.nEntries = static_cast<std::int64_t>(row.size());
  in.row = row.data();
  in.column = col.data();
  in.value = val.data();
  in.addIntercept = true;
  const BuiltDesign built = buildDesign(in);
  Dataset data;
  data.model = ModelType::Logistic;
  data.design = built.storage.view();
  data.outcomes.y = y.data();
  ASSERT_EQ(data.design.nColumns(), 4u);
  EXPECT_EQ(data.design.columns[0].kind, ColumnKind::Intercept);
  EXPECT_EQ(data.design.columns[1].kind, ColumnKind::Dense);
  EXPECT_EQ(data.design.columns[2].kind, ColumnKind::Indicator);
  EXPECT_EQ(data.design.columns[3].kind, ColumnKind::Sparse);

  FitRequest req;
  req.data = &data;
  req.prior.assign(4, CoordinatePrior{});
  req.control.tolerance = 1e-12;
  const FitResult fit = fitCcd(req);
  ASSERT_EQ(fit.status, FitStatus::Success);
  EXPECT_TRUE(std::isfinite(fit.logLikelihood));
  EXPECT_LT(fit.logLikelihood, 0.0);
  const std::vector<GradHess> gh = gradHessAt(data, nullptr, fit.beta);
  for (std::size_t j = 0; j < gh.size(); ++j) EXPECT_NEAR(gh[j].g, 0.0, 1e-6) << "column " << j;
  // Better than the intercept-only model.
  auto lik = makeLikelihood(data, nullptr);
  lik->reset({fit.beta[0], 0.0, 0.0, 0.0});
  EXPECT_GT(fit.logLikelihood, lik->logLikelihood());
}

// Solves A x = b by Gaussian elimination with partial pivoting (A is small and dense).
std::vector<double> solve(std::vector<std::vector<double>> a, std::vector<double> b) {
  const std::size_t n = b.size();
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t piv = k;
    for (std::size_t i = k + 1; i < n; ++i)
      if (std::fabs(a[i][k]) > std::fabs(a[piv][k])) piv = i;
    std::swap(a[k], a[piv]);
    std::swap(b[k], b[piv]);
    for (std::size_t i = k + 1; i < n; ++i) {
      const double f = a[i][k] / a[k][k];
      for (std::size_t c = k; c < n; ++c) a[i][c] -= f * a[k][c];
      b[i] -= f * b[k];
    }
  }
  std::vector<double> x(n);
  for (std::size_t i = n; i-- > 0;) {
    double s = b[i];
    for (std::size_t c = i + 1; c < n; ++c) s -= a[i][c] * x[c];
    x[i] = s / a[i][i];
  }
  return x;
}

// Ridge least squares: beta = (X'WX + D)^-1 X'W(y - offset), D = diag(1/var) on penalized
// columns (0 on the intercept).
TEST(FitCcd, NormalPriorLeastSquaresMatchesClosedForm) {
  ProblemSpec spec;
  spec.model = ModelType::LeastSquares;
  spec.nRows = 60;
  spec.seed = 107;
  auto p = makeProblem(spec);
  const double variance = 0.3;
  FitRequest req = requestFor(*p, PriorKind::Normal, variance);
  req.control.tolerance = 1e-14;
  req.control.maxIterations = 10000;
  const FitResult fit = fitCcd(req);
  ASSERT_EQ(fit.status, FitStatus::Success);

  const std::size_t k = p->nColumns();
  std::vector<std::vector<double>> a(k, std::vector<double>(k, 0.0));
  std::vector<double> b(k, 0.0);
  for (std::int64_t r = 0; r < p->nRows(); ++r)
    for (std::size_t i = 0; i < k; ++i) {
      b[i] += p->x(r, i) * p->w(r) * (p->y[r] - p->off(r));
      for (std::size_t c = 0; c < k; ++c) a[i][c] += p->x(r, i) * p->w(r) * p->x(r, c);
    }
  for (std::size_t i = 0; i < k; ++i)
    if (req.prior[i].kind == PriorKind::Normal) a[i][i] += 1.0 / variance;
  const std::vector<double> exact = solve(a, b);
  for (std::size_t j = 0; j < k; ++j)
    EXPECT_NEAR(fit.beta[j], exact[j], 1e-8) << "column " << j;
}

TEST(FitCcd, RejectsInvalidRequests) {
  auto p = problem(ModelType::Logistic, 108);
  FitRequest good = requestFor(*p, PriorKind::Normal, 1.0);
  good.control.maxIterations = 3;
  EXPECT_NO_THROW(fitCcd(good));

  FitRequest r = good;
  r.prior.pop_back();
  EXPECT_THROW(fitCcd(r), ArgusError);
  r = good;
  r.prior[1].variance = -1.0;
  EXPECT_THROW(fitCcd(r), ArgusError);
  r = good;
  r.start.assign(p->nColumns() + 1, 0.0);
  EXPECT_THROW(fitCcd(r), ArgusError);
  r = good;
  r.start.assign(p->nColumns(), 0.0);
  r.start[0] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(fitCcd(r), ArgusError);
  r = good;
  r.fixed.assign(2, 0);
  EXPECT_THROW(fitCcd(r), ArgusError);
  r = good;
  r.control.tolerance = 0.0;
  EXPECT_THROW(fitCcd(r), ArgusError);
  r = good;
  r.control.maxIterations = 0;
  EXPECT_THROW(fitCcd(r), ArgusError);
  r = good;
  r.data = nullptr;
  EXPECT_THROW(fitCcd(r), ArgusError);
}

}  // namespace
}  // namespace argus
