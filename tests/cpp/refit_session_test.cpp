// A RefitSession's fits are fitCcd()'s to the bit, whatever fits it ran before (its runner
// restarted as a new one), and a profile evaluated in sessions equals its per-point refits:
// a fitCcd() with the coordinate held, and the derivative from a fresh LikelihoodProbe at
// the refit, as profileValues() computed them before sessions. Every model, penalized and
// flat, the point where nothing else is free, and more than one thread.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/errors.h"
#include "common/progress_sink.h"
#include "hand_design.h"
#include "solver/block_newton.h"
#include "solver/ccd_solver.h"
#include "solver/inference.h"
#include "solver/profile.h"
#include "solver/refit_session.h"
#include "spline_basis.h"
#include "survival_test_data.h"
#include "test_data.h"

namespace argus {
namespace {

FitRequest flatRequest(const Dataset& data, const double* weights) {
  FitRequest req;
  req.data = &data;
  req.weights = weights;
  req.prior.assign(data.design.nColumns(), CoordinatePrior{});
  return req;
}

// The same fit, bit for bit (== on doubles: a NaN would fail, as it should here).
void expectSameFit(const FitResult& a, const FitResult& b, const std::string& what) {
  EXPECT_EQ(a.status, b.status) << what;
  EXPECT_EQ(a.iterations, b.iterations) << what;
  EXPECT_EQ(a.majorizedSteps, b.majorizedSteps) << what;
  EXPECT_EQ(a.beta, b.beta) << what;
  EXPECT_EQ(a.logLikelihood, b.logLikelihood) << what;
  EXPECT_EQ(a.logPrior, b.logPrior) << what;
  EXPECT_EQ(a.optimality, b.optimality) << what;
  EXPECT_EQ(a.aliased, b.aliased) << what;
  EXPECT_EQ(a.infinite, b.infinite) << what;
}

// A sequence of different fits of one data set: flat, one coefficient held elsewhere, Laplace
// and normal priors, from 0 and from an optimum; each in one session and by fitCcd().
void checkSessionAgainstFitCcd(const Dataset& data, const double* weights, const std::string& name) {
  const std::size_t p = data.design.nColumns();
  FitRequest flat = flatRequest(data, weights);
  const FitResult optimum = fitCcd(flat);
  std::vector<FitRequest> requests(4, flat);
  requests[1].start = optimum.beta;
  requests[1].fixed.assign(p, 0);
  requests[1].fixed[p - 1] = 1;
  requests[1].start[p - 1] += 0.3;
  for (std::size_t j = 0; j < p; ++j) requests[2].prior[j] = {PriorKind::Laplace, 0.5};
  requests[2].prior[0] = CoordinatePrior{};
  requests[2].start = optimum.beta;
  for (std::size_t j = 0; j < p; ++j) requests[3].prior[j] = {PriorKind::Normal, 2.0};
  requests[3].control.convergence = ConvergenceType::Zhang;
  RefitSession session(flat);
  for (int round = 0; round < 2; ++round)  // the second round after every kind of fit
    for (std::size_t k = 0; k < requests.size(); ++k)
      expectSameFit(session.fit(requests[k]), fitCcd(requests[k]),
                    name + " request " + std::to_string(k) + " round " + std::to_string(round));
  // moveTo() and gradHess() are LikelihoodProbe's
  LikelihoodProbe probe(flat.device, data, weights);
  EXPECT_EQ(session.moveTo(optimum.beta), probe.moveTo(optimum.beta)) << name;
  for (std::size_t j = 0; j < p; ++j) {
    EXPECT_EQ(session.gradHess(static_cast<std::int32_t>(j)).g, probe.gradHess(static_cast<std::int32_t>(j)).g) << name;
    EXPECT_EQ(session.gradHess(static_cast<std::int32_t>(j)).h, probe.gradHess(static_cast<std::int32_t>(j)).h) << name;
  }
}

TEST(RefitSession, FitsAreFitCcdsToTheBitForEveryModel) {
  for (const ModelType model : testing_data::allModels()) {
    testing_data::ProblemSpec spec;
    spec.model = model;
    spec.seed = 21;
    auto prob = testing_data::makeProblem(spec);
    checkSessionAgainstFitCcd(prob->data, prob->weightPtr(), modelTraits(model).name);
  }
  for (const ModelType model : {ModelType::Cox, ModelType::FineGray}) {
    testing_data::SurvivalSpec spec;
    spec.model = model;
    spec.nStrata = model == ModelType::Cox ? 3 : 1;
    testing_data::SurvivalProblem prob(spec);
    checkSessionAgainstFitCcd(prob.data, prob.weightPtr(), modelTraits(model).name);
  }
}

// A flat fit of nearly collinear columns admits them to the Newton block
// (LikelihoodCycleRunner::aliasedColumns); a penalized fit after it in the same session must
// run with the block a new runner has (restart()), as fitCcd()'s does.
TEST(RefitSession, RestartForgetsTheColumnsAFitAdmittedToTheBlock) {
  std::mt19937 rng(48);
  std::lognormal_distribution<double> skewed(1.0, 0.5);
  std::bernoulli_distribution rare(0.07);
  std::normal_distribution<double> noise(0.0, 5.0);
  const std::size_t n = 20000, df = 16;  // sparse columns the block leaves to CCD
  std::vector<double> t(n), rareColumn(n), y(n);
  for (std::size_t r = 0; r < n; ++r) {
    t[r] = skewed(rng);
    rareColumn[r] = rare(rng) ? 1.0 : 0.0;
    y[r] = 20.0 + 3.0 * std::sin(t[r]) + 2.0 * rareColumn[r] + noise(rng);
  }
  testing_data::HandDesign d(ModelType::LeastSquares, y);
  d.addIntercept();
  for (const auto& v : testing_data::bsplineTimesIndicator(t, df, rareColumn)) d.addColumn(ColumnKind::Sparse, v);
  d.finish();
  const FitRequest flat = flatRequest(d.data, nullptr);
  FitRequest ridge = flat;
  for (std::size_t j = 1; j < d.nColumns(); ++j) ridge.prior[j] = {PriorKind::Normal, 0.05};
  RefitSession session(flat);
  const FitResult first = session.fit(flat);
  ASSERT_EQ(first.status, FitStatus::Success);
  expectSameFit(first, fitCcd(flat), "flat");
  expectSameFit(session.fit(ridge), fitCcd(ridge), "ridge after flat");
}

// Where the block costs more than a cycle it steps every period() cycles, counted by the
// block: each fit of a session counts from 0, as on a new runner (restart()).
TEST(RefitSession, RestartCountsTheBlockStepsFromZero) {
  testing_data::ProblemSpec spec;
  spec.model = ModelType::ConditionalLogistic;
  spec.nRows = 16000;
  spec.nStrata = 2000;
  spec.kinds.assign(12, ColumnKind::Dense);
  spec.seed = 4;
  auto prob = testing_data::makeProblem(spec);
  const FitRequest flat = flatRequest(prob->data, prob->weightPtr());
  ASSERT_GT(BlockNewton(prob->data, false).period(), 1);
  FitRequest lasso = flat;
  for (std::size_t j = 0; j < prob->nColumns(); ++j) lasso.prior[j] = {PriorKind::Laplace, 0.02};
  RefitSession session(flat);
  const FitResult expected = fitCcd(lasso);
  expectSameFit(session.fit(flat), fitCcd(flat), "flat");
  for (int k = 0; k < 3; ++k) expectSameFit(session.fit(lasso), expected, "lasso " + std::to_string(k));
}

// A fit stopped part-way (an interrupt thrown from the progress sink) leaves its runner moved:
// the session's next fits restart it and are still fitCcd()'s, for every model.
struct InterruptAt : ProgressSink {
  int checksLeft;
  explicit InterruptAt(int n) : checksLeft(n) {}
  void checkInterrupt() override {
    if (--checksLeft <= 0) throw std::runtime_error("interrupted");
  }
};

TEST(RefitSession, FitsAfterAnInterruptedFitAreFitCcds) {
  for (ModelType model : testing_data::allModels()) {
    testing_data::ProblemSpec spec;
    spec.model = model;
    spec.seed = 9;
    auto problem = testing_data::makeProblem(spec);
    const FitRequest flat = flatRequest(problem->data, problem->weightPtr());
    FitRequest lasso = flat;
    for (CoordinatePrior& prior : lasso.prior) prior = {PriorKind::Laplace, 0.3};
    RefitSession session(flat);
    InterruptAt interrupt(2);
    EXPECT_THROW(session.fit(flat, &interrupt), std::runtime_error);
    const std::string name = modelTraits(model).name;
    expectSameFit(session.fit(lasso), fitCcd(lasso), name + " lasso after the interrupt");
    expectSameFit(session.fit(flat), fitCcd(flat), name + " flat after the interrupt");
  }
}

TEST(RefitSession, RefusesAnotherDataSetOrThreadCount) {
  auto a = testing_data::makeProblem(testing_data::ProblemSpec{});
  auto b = testing_data::makeProblem(testing_data::ProblemSpec{});
  RefitSession session(flatRequest(a->data, a->weightPtr()));
  EXPECT_THROW(session.fit(flatRequest(b->data, b->weightPtr())), ArgusError);
  FitRequest threads = flatRequest(a->data, a->weightPtr());
  threads.control.threads = 2;
  EXPECT_THROW(session.fit(threads), ArgusError);
  EXPECT_THROW(session.gradHess(0), ArgusError);  // no moveTo() yet
}

// The profile at `points` as it was computed before sessions: per point a fitCcd() with the
// coordinate held there (warm-started from the optimum, one thread) and, at its coefficients,
// the gradient from a new LikelihoodProbe plus the prior's slope.
std::vector<ProfilePoint> perPointRefits(const FitRequest& fit, std::int32_t c,
                                         const std::vector<double>& points, bool includePenalty) {
  std::vector<ProfilePoint> out(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    FitRequest req = fit;
    if (req.fixed.empty()) req.fixed.assign(fit.start.size(), 0);
    req.fixed[c] = 1;
    req.control.threads = 1;
    req.start[c] = points[i];
    const FitResult refit = fitCcd(req);
    out[i].value = refit.logLikelihood + (includePenalty ? refit.logPrior : 0.0);
    out[i].converged = refit.status != FitStatus::MaxIterations && refit.status != FitStatus::IllConditioned;
    LikelihoodProbe probe(fit.device, *fit.data, fit.weights);
    const double b = refit.beta[c];
    const double side = static_cast<double>((b > 0.0) - (b < 0.0));
    out[i].derivative = derivativesAt(probe, refit.beta, {c}).gradient[0] +
                        (includePenalty ? priorSlope(b, fit.prior[c], side).gradient : 0.0);
  }
  return out;
}

void checkProfileAgainstRefits(const Dataset& data, const double* weights, bool penalized,
                               const std::string& name) {
  FitRequest req = flatRequest(data, weights);
  const std::size_t p = data.design.nColumns();
  const std::int32_t c = static_cast<std::int32_t>(p - 1);
  if (penalized)
    for (std::size_t j = 0; j + 1 < p; ++j) req.prior[j] = {PriorKind::Laplace, 0.3};
  const FitResult optimum = fitCcd(req);
  ASSERT_NE(optimum.status, FitStatus::IllConditioned) << name;
  req.start = optimum.beta;
  const double b = optimum.beta[c];
  const std::vector<double> points = {b - 1.0, b - 0.25, b, b + 0.1, b + 0.7};
  for (const bool includePenalty : {true, false}) {
    const std::vector<ProfilePoint> expected = perPointRefits(req, c, points, includePenalty);
    for (const int threads : {1, 2}) {
      const std::vector<ProfilePoint> got =
          profileValues(req, c, points, includePenalty, threads, nullptr, true);
      for (std::size_t i = 0; i < points.size(); ++i) {
        const std::string where = name + " point " + std::to_string(i) + " threads " +
                                  std::to_string(threads) + (includePenalty ? " with penalty" : "");
        EXPECT_EQ(got[i].value, expected[i].value) << where;
        EXPECT_EQ(got[i].derivative, expected[i].derivative) << where;
        EXPECT_EQ(got[i].converged, expected[i].converged) << where;
      }
    }
  }
}

TEST(ProfileInSessions, ValuesAndDerivativesAreThePerPointRefits) {
  for (const ModelType model : testing_data::allModels()) {
    testing_data::ProblemSpec spec;
    spec.model = model;
    spec.seed = 33;
    auto prob = testing_data::makeProblem(spec);
    for (const bool penalized : {false, true})
      checkProfileAgainstRefits(prob->data, prob->weightPtr(), penalized,
                                std::string(modelTraits(model).name) + (penalized ? " laplace" : ""));
  }
  for (const ModelType model : {ModelType::Cox, ModelType::FineGray}) {
    testing_data::SurvivalSpec spec;
    spec.model = model;
    spec.nStrata = model == ModelType::Cox ? 4 : 1;
    testing_data::SurvivalProblem prob(spec);
    checkProfileAgainstRefits(prob.data, prob.weightPtr(), true, modelTraits(model).name);
  }
}

// A stratified Cox model of one covariate (CohortMethod's outcome model): its profile points
// have nothing else to refit and are read from one reset each; the same numbers.
TEST(ProfileInSessions, NothingElseFreeGivesTheRefitsNumbers) {
  for (const ModelType model : {ModelType::Cox, ModelType::FineGray}) {
    testing_data::SurvivalSpec spec;
    spec.model = model;
    spec.nStrata = model == ModelType::Cox ? 20 : 1;
    spec.kinds = {ColumnKind::Indicator};
    testing_data::SurvivalProblem prob(spec);
    checkProfileAgainstRefits(prob.data, prob.weightPtr(), false, modelTraits(model).name);
  }
  for (const ModelType model : testing_data::allModels()) {
    testing_data::ProblemSpec spec;
    spec.model = model;
    spec.kinds = {ColumnKind::Dense};
    spec.seed = 5;
    auto prob = testing_data::makeProblem(spec);
    checkProfileAgainstRefits(prob->data, prob->weightPtr(), false, modelTraits(model).name);
  }
  // the intercept held with a free column beside it is not such a point: covered above
}

// Intervals from sessions: the limits are the roots of the per-point refits' profile.
TEST(ProfileInSessions, IntervalLimitsAreRootsOfTheRefitsProfile) {
  testing_data::SurvivalSpec spec;
  spec.model = ModelType::Cox;
  spec.nStrata = 20;
  spec.kinds = {ColumnKind::Indicator};
  testing_data::SurvivalProblem prob(spec);
  FitRequest req = flatRequest(prob.data, prob.weightPtr());
  req.start = fitCcd(req).beta;
  ProfileSettings settings;
  const ProfileInterval limits = profileIntervals(req, {0}, settings)[0];
  ASSERT_EQ(limits.lower.status, LimitStatus::Found);
  ASSERT_EQ(limits.upper.status, LimitStatus::Found);
  const std::vector<ProfilePoint> at =
      perPointRefits(req, 0, {limits.lower.value, req.start[0], limits.upper.value}, true);
  EXPECT_EQ(at[1].value, limits.maximum);
  EXPECT_NEAR(at[1].value - at[0].value, settings.drop, 1e-6);
  EXPECT_NEAR(at[1].value - at[2].value, settings.drop, 1e-6);
}

// The adaptive grid in one engine call: its values are profileValues()' at its points (bit for
// bit, any thread count), and the straight line between neighbouring points misses the profile
// at their midpoint by no more than the tolerance; with too few points allowed it says so.
TEST(ProfileInSessions, AdaptiveGridValuesAndAccuracy) {
  testing_data::ProblemSpec spec;
  spec.model = ModelType::Poisson;
  spec.seed = 12;
  auto prob = testing_data::makeProblem(spec);
  FitRequest req = flatRequest(prob->data, prob->weightPtr());
  req.start = fitCcd(req).beta;
  const std::int32_t c = 2;
  const double b = req.start[c], tolerance = 0.01;
  const std::vector<double> initial = {b - 2.0, b - 1.0, b, b + 1.0, b + 2.0};
  const AdaptiveProfile grid = adaptiveProfile(req, c, initial, tolerance, 1000, true, 1, nullptr, true);
  EXPECT_TRUE(grid.complete);
  ASSERT_GT(grid.points.size(), 20u);
  const std::vector<ProfilePoint> at = profileValues(req, c, grid.points, true, 1, nullptr, true);
  std::vector<double> mid;
  for (std::size_t i = 0; i < grid.points.size(); ++i) {
    if (i > 0) {
      EXPECT_GT(grid.points[i], grid.points[i - 1]);
      mid.push_back((grid.points[i - 1] + grid.points[i]) / 2);
    }
    EXPECT_EQ(grid.values[i].value, at[i].value);
    EXPECT_EQ(grid.values[i].derivative, at[i].derivative);
  }
  const std::vector<ProfilePoint> between = profileValues(req, c, mid, true, 1);
  for (std::size_t i = 0; i < mid.size(); ++i)
    EXPECT_LE(std::fabs(between[i].value - (grid.values[i].value + grid.values[i + 1].value) / 2), tolerance)
        << "interval " << i;
  const AdaptiveProfile threads = adaptiveProfile(req, c, initial, tolerance, 1000, true, 3, nullptr, true);
  EXPECT_EQ(threads.points, grid.points);
  for (std::size_t i = 0; i < grid.points.size(); ++i) EXPECT_EQ(threads.values[i].value, grid.values[i].value);
  const AdaptiveProfile capped = adaptiveProfile(req, c, initial, tolerance, 12, true, 1);
  EXPECT_FALSE(capped.complete);
  EXPECT_LE(capped.points.size(), 12u);
  EXPECT_GT(capped.points.size(), initial.size());
  EXPECT_THROW(adaptiveProfile(req, c, {b + 1.0, b}, tolerance, 100, true, 1), ArgusError);
  EXPECT_THROW(adaptiveProfile(req, c, {b}, tolerance, 100, true, 1), ArgusError);
}

}  // namespace
}  // namespace argus
