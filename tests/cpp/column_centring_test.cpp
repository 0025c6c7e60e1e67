// Centring for the shift-invariant models (data/column_centring.h): a Cox or conditional
// logistic fit with a time stamp of 1.7e9 + U(0, 3600) equals the fit of the same data with
// the column shifted to near 0, and so does the Hessian behind vcov(). Before, Cox held the
// column at 0 as aliased and biased the other coefficient by 14%.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "data/column_centring.h"
#include "hand_design.h"
#include "solver/ccd_solver.h"
#include "solver/inference.h"

namespace argus {
namespace {

constexpr double kStamp = 1.7e9;

struct Rows {
  std::vector<double> stamp, z, y, time;
  std::vector<std::int32_t> stratum;
};

// Cox: one stratum, rows by time descending. clr: sets of 4 with one case.
Rows simulate(ModelType model, std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unif(0.0, 1.0);
  std::normal_distribution<double> normal(0.0, 1.0);
  Rows raw;
  std::vector<double> eta(n);
  for (std::size_t r = 0; r < n; ++r) {
    raw.stamp.push_back(kStamp + 3600.0 * unif(rng));
    raw.z.push_back(normal(rng));
    eta[r] = 1.5 * (raw.stamp[r] - kStamp - 1800.0) / 3600.0 + 0.5 * raw.z[r];
  }
  if (model == ModelType::Cox) {
    std::vector<double> t(n);
    for (std::size_t r = 0; r < n; ++r) t[r] = -std::log(unif(rng)) * std::exp(-eta[r]);
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return t[a] > t[b]; });
    Rows out;
    for (const std::size_t r : order) {
      out.stamp.push_back(raw.stamp[r]);
      out.z.push_back(raw.z[r]);
      out.time.push_back(t[r]);
      out.y.push_back(unif(rng) < 0.8 ? 1.0 : 0.0);
      out.stratum.push_back(0);
    }
    return out;
  }
  raw.y.assign(n, 0.0);
  for (std::size_t s = 0; s + 4 <= n; s += 4) {
    double total = 0.0;
    for (std::size_t r = s; r < s + 4; ++r) total += std::exp(eta[r]);
    double pick = unif(rng) * total;
    std::size_t r = s;
    for (; r + 1 < s + 4 && (pick -= std::exp(eta[r])) > 0.0; ++r) {}
    raw.y[r] = 1.0;
    for (std::size_t k = s; k < s + 4; ++k) raw.stratum.push_back(static_cast<std::int32_t>(s / 4));
  }
  return raw;
}

void build(testing_data::HandDesign* d, const Rows& rows, double shift) {
  std::vector<double> x(rows.stamp);
  for (double& v : x) v -= shift;
  d->addColumn(ColumnKind::Dense, x);
  d->addColumn(ColumnKind::Dense, rows.z);
  d->time = rows.time;
  d->setStrata(rows.stratum);
  d->finish();
}

FitResult fit(const Dataset& data) {
  FitRequest req;
  req.data = &data;
  req.prior.assign(2, CoordinatePrior{});
  req.control.tolerance = 1e-10;
  req.control.optimalityTolerance = 1e-7;
  return fitCcd(req);
}

TEST(ShiftInvariantCentring, ATimeStampFitsAsTheColumnShiftedToZero) {
  for (const ModelType model : {ModelType::Cox, ModelType::ConditionalLogistic}) {
    const Rows rows = simulate(model, 2000, 9);
    testing_data::HandDesign raw(model, rows.y), shifted(model, rows.y);
    build(&raw, rows, 0.0);
    build(&shifted, rows, kStamp);
    const std::string what = modelTypeName(model);
    EXPECT_TRUE(ShiftInvariantCentring(raw.data).active()) << what;
    EXPECT_FALSE(ShiftInvariantCentring(shifted.data).active()) << what;  // 1,800 +- 1,000: ordinary
    const FitResult a = fit(raw.data), b = fit(shifted.data);
    ASSERT_EQ(b.status, FitStatus::Success) << what;
    EXPECT_EQ(a.status, FitStatus::Success) << what;
    EXPECT_TRUE(a.aliased.empty()) << what;
    for (std::size_t j = 0; j < 2; ++j) EXPECT_NEAR(a.beta[j], b.beta[j], 1e-7 * std::fabs(b.beta[j])) << what << j;
    EXPECT_NEAR(a.logLikelihood, b.logLikelihood, 1e-9 * std::fabs(b.logLikelihood)) << what;
    // The Hessian behind vcov(): the same function of beta, the same digits.
    LikelihoodProbe pa(ComputeDevice{}, raw.data, nullptr), pb(ComputeDevice{}, shifted.data, nullptr);
    const SquareMatrix ha = hessianAt(pa, b.beta, {0, 1}), hb = hessianAt(pb, b.beta, {0, 1});
    for (std::size_t i = 0; i < 4; ++i)
      EXPECT_NEAR(ha.values[i], hb.values[i], 1e-6 * std::fabs(hb.values[0] + hb.values[3])) << what << " H " << i;
  }
}

// A column constant within every stratum but for rounding (poly(age) of sets matched on
// age): centred, only the noise was left, which the fit took for a column of full spread and
// estimated (1e16, the other coefficients 2-3% off clogit's). Now it is zero there and
// aliased, and the other coefficient is the fit's without it; a 1e-6 share of spread, as
// the time stamp's, stays a column.
TEST(ShiftInvariantCentring, AColumnConstantWithinStrataUpToRoundingIsAliased) {
  for (const ModelType model : {ModelType::ConditionalLogistic, ModelType::Cox}) {
    const Rows rows = simulate(model, 2000, 21);
    std::mt19937 rng(22);
    std::normal_distribution<double> normal(0.0, 1.0);
    const std::size_t n = rows.z.size();
    // Cox's one stratum: constant overall; clr: a value per matched set
    std::vector<double> noisy(n), level(n / 4 + 1);
    for (double& v : level) v = 0.05 * normal(rng);
    for (std::size_t r = 0; r < n; ++r) noisy[r] = level[rows.stratum[r]] * (1.0 + 1e-15 * normal(rng)) + 0.3;
    testing_data::HandDesign with(model, rows.y), without(model, rows.y);
    with.addColumn(ColumnKind::Dense, rows.z);
    with.addColumn(ColumnKind::Dense, noisy);
    without.addColumn(ColumnKind::Dense, rows.z);
    for (testing_data::HandDesign* d : {&with, &without}) {
      if (model == ModelType::Cox) d->time = rows.time;
      d->setStrata(rows.stratum);
      d->finish();
    }
    const std::string what = modelTypeName(model);
    FitRequest req;
    req.data = &with.data;
    req.prior.assign(2, CoordinatePrior{});
    req.control.tolerance = 1e-10;
    const FitResult a = fitCcd(req);
    req.data = &without.data;
    req.prior.assign(1, CoordinatePrior{});
    const FitResult b = fitCcd(req);
    EXPECT_EQ(a.status, FitStatus::Success) << what;
    EXPECT_EQ(a.aliased, std::vector<std::int32_t>{1}) << what;
    EXPECT_NEAR(a.beta[0], b.beta[0], 1e-8) << what;
  }
}

TEST(ShiftInvariantCentring, LeavesModelsWithoutAStratumBaselineAlone) {
  const Rows rows = simulate(ModelType::Cox, 200, 3);
  testing_data::HandDesign glm(ModelType::Logistic, rows.y);
  glm.addColumn(ColumnKind::Dense, rows.stamp);
  glm.finish();
  EXPECT_FALSE(ShiftInvariantCentring(glm.data).active());  // no shift invariance without strata
}

// A covariate shifted by about 1e3 per stratum (constant within each, so the model is the
// same) beside a nearly collinear one: uncentred, the risk-set sums lost the digits of the
// near-collinearity, and a stratified Cox fit ended 3.2 units short and NO_FINITE_MLE. Each
// stratum is now centred on its own; beta, the log-likelihood and the input's linear
// predictor are those of the unshifted data.
TEST(ShiftInvariantCentring, ColumnsShiftedPerStratumFitAsTheUnshiftedOnes) {
  const Rows rows = simulate(ModelType::ConditionalLogistic, 4000, 11);
  std::mt19937 rng(12);
  std::normal_distribution<double> normal(0.0, 1.0);
  const std::size_t n = rows.z.size();
  std::vector<double> perStratum(n / 4 + 1), near(n), nearShifted(n), zShifted(n);
  for (double& v : perStratum) v = 1e3 * normal(rng);
  for (std::size_t r = 0; r < n; ++r) {
    near[r] = rows.z[r] + 1e-4 * normal(rng);  // 1 - R^2 ~ 1e-8 against z
    zShifted[r] = rows.z[r] + perStratum[rows.stratum[r]];
    nearShifted[r] = near[r] - perStratum[rows.stratum[r]];
  }
  auto fitOf = [&](const std::vector<double>& z, const std::vector<double>& w, testing_data::HandDesign* d) {
    d->addColumn(ColumnKind::Dense, z);
    d->addColumn(ColumnKind::Dense, w);
    d->setStrata(rows.stratum);
    d->finish();
    FitRequest req;
    req.data = &d->data;
    req.prior.assign(2, CoordinatePrior{});
    req.keepLinearPredictor = true;
    return fitCcd(req);
  };
  testing_data::HandDesign plain(ModelType::ConditionalLogistic, rows.y),
      shifted(ModelType::ConditionalLogistic, rows.y);
  const FitResult a = fitOf(rows.z, near, &plain), b = fitOf(zShifted, nearShifted, &shifted);
  EXPECT_TRUE(ShiftInvariantCentring(shifted.data).active());
  ASSERT_EQ(a.status, FitStatus::Success);
  EXPECT_EQ(b.status, FitStatus::Success);
  EXPECT_NEAR(b.logLikelihood, a.logLikelihood, 1e-9 * std::fabs(a.logLikelihood));
  for (std::size_t j = 0; j < 2; ++j) EXPECT_NEAR(b.beta[j], a.beta[j], 1e-5 * std::fabs(a.beta[j])) << j;
  ASSERT_EQ(b.eta.size(), n);
  for (std::size_t r = 0; r < n; r += 97)
    EXPECT_NEAR(b.eta[r], b.beta[0] * zShifted[r] + b.beta[1] * nearShifted[r], 1e-6 * (1.0 + std::fabs(b.eta[r]))) << r;
}

}  // namespace
}  // namespace argus
