// What fitCcd() does with coefficients the data cannot pin down: aliased (collinear,
// duplicated, constant, without information: held at 0 and listed) and running off to
// infinity (NoFiniteMle, solver/recession.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "hand_design.h"
#include "solver/ccd_solver.h"
#include "solver/recession.h"

namespace argus {
namespace {

using testing_data::HandDesign;

FitResult fitFlat(const HandDesign& d, PriorKind kind = PriorKind::None,
                  MajorizedStartRule start = MajorizedStartRule::Auto) {
  FitRequest req;
  req.control.majorizedStart = start;
  req.data = &d.data;
  req.prior.assign(d.nColumns(), CoordinatePrior{kind, 0.5});
  for (std::size_t j = 0; j < d.nColumns(); ++j)
    if (d.data.design.columns[j].kind == ColumnKind::Intercept) req.prior[j] = CoordinatePrior{};
  return fitCcd(req);
}

std::vector<double> normals(std::mt19937& rng, std::size_t n, double mean, double sd) {
  std::normal_distribution<double> normal(mean, sd);
  std::vector<double> v(n);
  for (double& x : v) x = normal(rng);
  return v;
}

std::vector<double> binary(std::mt19937& rng, std::size_t n, double p) {
  std::bernoulli_distribution b(p);
  std::vector<double> v(n);
  for (double& x : v) x = b(rng) ? 1.0 : 0.0;
  return v;
}

TEST(Aliasing, CollinearDuplicatedConstantAndEmptyColumnsAreHeldAtZero) {
  std::mt19937 rng(11);
  const std::size_t n = 80;
  const std::vector<double> a = normals(rng, n, 50.0, 10.0), b = normals(rng, n, 0.0, 1.0);
  std::vector<double> combination(n), y(n);
  for (std::size_t r = 0; r < n; ++r) {
    combination[r] = a[r] - 2.0 * b[r];
    y[r] = 0.1 * a[r] + b[r] + normals(rng, 1, 0.0, 1.0)[0];
  }
  for (const ModelType m : {ModelType::LeastSquares, ModelType::Logistic}) {
    std::vector<double> outcome = y;
    if (m == ModelType::Logistic)
      for (std::size_t r = 0; r < n; ++r) outcome[r] = y[r] > 5.5 ? 1.0 : 0.0;
    HandDesign d(m, outcome);
    d.addIntercept();                                             // 0
    d.addColumn(ColumnKind::Dense, a);                            // 1
    d.addColumn(ColumnKind::Dense, b);                            // 2
    d.addColumn(ColumnKind::Dense, combination);                  // 3: a - 2b
    d.addColumn(ColumnKind::Dense, b);                            // 4: duplicate of b
    d.addColumn(ColumnKind::Dense, std::vector<double>(n, 3.0));  // 5: constant
    d.addColumn(ColumnKind::Sparse, std::vector<double>(n, 0.0)); // 6: no entries
    d.finish();
    const FitResult fit = fitFlat(d);
    EXPECT_EQ(fit.status, FitStatus::Success) << modelTypeName(m);
    EXPECT_EQ(fit.aliased, (std::vector<std::int32_t>{3, 4, 5, 6})) << modelTypeName(m);
    for (const std::int32_t j : fit.aliased) EXPECT_EQ(fit.beta[j], 0.0);
    // Under a normal prior every coefficient is identified: nothing is set aside.
    EXPECT_TRUE(fitFlat(d, PriorKind::Normal).aliased.empty()) << modelTypeName(m);
  }
}

TEST(Aliasing, DuplicatesOutsideTheBlockAreFoundInLargeProblems) {
  // 40 indicator columns (more than the block takes): exact duplicates are still caught.
  std::mt19937 rng(12);
  const std::size_t n = 400, p = 40;
  HandDesign d(ModelType::Logistic, binary(rng, n, 0.4));
  d.addIntercept();
  std::vector<std::vector<double>> cols;
  for (std::size_t j = 0; j < p; ++j) cols.push_back(binary(rng, n, 0.1));
  cols[35] = cols[7];
  for (const auto& c : cols) d.addColumn(ColumnKind::Indicator, c);
  d.finish();
  const FitResult fit = fitFlat(d);
  EXPECT_EQ(fit.aliased, (std::vector<std::int32_t>{36}));  // column 35 + the intercept
}

TEST(Aliasing, CovariatesConstantWithinStrataCarryNoInformation) {
  std::mt19937 rng(13);
  const std::size_t n = 60;
  std::vector<std::int32_t> strata(n);
  std::vector<double> y(n, 0.0), perStratum(n), x = normals(rng, n, 0.0, 1.0);
  for (std::size_t r = 0; r < n; ++r) {
    strata[r] = static_cast<std::int32_t>(r / 4);
    perStratum[r] = static_cast<double>(strata[r] % 5);
    if (r % 4 == 0) y[r] = 1.0;
  }
  HandDesign d(ModelType::ConditionalLogistic, y);
  d.addColumn(ColumnKind::Dense, x);
  d.addColumn(ColumnKind::Dense, perStratum);
  d.setStrata(strata);
  d.finish();
  const FitResult fit = fitFlat(d);
  EXPECT_EQ(fit.aliased, (std::vector<std::int32_t>{1}));
  EXPECT_EQ(fit.status, FitStatus::Success);
}

// An intercept-and-slope fit whose outcome is constant: the intercept runs off towards
// `direction` (+1 or -1) times infinity.
void expectInterceptRunsOff(ModelType model, double outcome, double direction) {
  std::mt19937 rng(14);
  const std::size_t n = 50;
  HandDesign d(model, std::vector<double>(n, outcome));
  d.addIntercept();
  d.addColumn(ColumnKind::Dense, normals(rng, n, 0.0, 1.0));
  d.finish();
  const FitResult fit = fitFlat(d);
  EXPECT_EQ(fit.status, FitStatus::NoFiniteMle) << modelTypeName(model);
  ASSERT_FALSE(fit.infinite.empty()) << modelTypeName(model);
  EXPECT_EQ(fit.infinite[0], 0) << modelTypeName(model);
  EXPECT_GT(direction * fit.beta[0], 5.0) << modelTypeName(model);
}

TEST(Aliasing, CollinearColumnsInConditionalAndCoxModelsFromTheCentredGram) {
  // x3 = x1 + 2 x2 - 4 (the constant is absorbed by the strata), with x2 sparse: x3 aliased.
  std::mt19937 rng(18);
  const std::size_t n = 120;
  std::vector<std::int32_t> strata(n);
  std::vector<double> y(n, 0.0), x1 = normals(rng, n, 0.0, 1.0), x2(n), x3(n), time(n);
  std::bernoulli_distribution sparse(0.3), event(0.6);
  for (std::size_t r = 0; r < n; ++r) {
    strata[r] = static_cast<std::int32_t>(r / 6);
    x2[r] = sparse(rng) ? normals(rng, 1, 0.0, 1.0)[0] : 0.0;
    x3[r] = x1[r] + 2.0 * x2[r] - 4.0;
    time[r] = static_cast<double>(6 - r % 6);  // descending within each stratum
  }
  for (const ModelType m : {ModelType::ConditionalLogistic, ModelType::Cox}) {
    for (std::size_t r = 0; r < n; ++r)
      y[r] = m == ModelType::Cox ? (event(rng) ? 1.0 : 0.0) : (r % 6 == 0 ? 1.0 : 0.0);
    HandDesign d(m, y);
    if (m == ModelType::Cox) d.time = time;
    d.addColumn(ColumnKind::Dense, x1);
    d.addColumn(ColumnKind::Sparse, x2);
    d.addColumn(ColumnKind::Dense, x3);
    d.setStrata(strata);
    d.finish();
    const FitResult fit = fitFlat(d);
    EXPECT_EQ(fit.aliased, (std::vector<std::int32_t>{2})) << modelTypeName(m);
    EXPECT_EQ(fit.status, FitStatus::Success) << modelTypeName(m);
  }
}

TEST(Recession, OutcomesThatNeverOrAlwaysOccurRunOffToInfinity) {
  expectInterceptRunsOff(ModelType::Logistic, 1.0, 1.0);  // every y = 1
  expectInterceptRunsOff(ModelType::Poisson, 0.0, -1.0);  // every count 0
}

// Logistic rows in four groups (r % 4): group 0 always has y = 1, group 1 always y = 0,
// groups 2 and 3 are mixed; x1 and x2 indicate the groups listed.
struct FourGroups {
  std::vector<double> x1, x2, y;
};
FourGroups fourGroups(unsigned seed, const std::vector<int>& x1Groups, const std::vector<int>& x2Groups) {
  std::mt19937 rng(seed);
  std::bernoulli_distribution coin(0.5);
  auto in = [](const std::vector<int>& groups, int g) {
    return std::find(groups.begin(), groups.end(), g) != groups.end();
  };
  FourGroups out;
  for (int r = 0; r < 120; ++r) {
    const int group = r % 4;
    out.x1.push_back(in(x1Groups, group) ? 1.0 : 0.0);
    out.x2.push_back(in(x2Groups, group) ? 1.0 : 0.0);
    out.y.push_back(group == 0 ? 1.0 : group == 1 ? 0.0 : (coin(rng) ? 1.0 : 0.0));
  }
  return out;
}

FitResult fitFourGroups(unsigned seed, const std::vector<int>& x1Groups, const std::vector<int>& x2Groups) {
  const FourGroups g = fourGroups(seed, x1Groups, x2Groups);
  HandDesign d(ModelType::Logistic, g.y);
  d.addIntercept();
  d.addColumn(ColumnKind::Indicator, g.x1);
  d.addColumn(ColumnKind::Indicator, g.x2);
  d.finish();
  return fitFlat(d);
}

TEST(Recession, ACombinationOfCoefficientsCanSeparate) {
  // x1 = 1, x2 = 0 always has y = 1; x1 = 0, x2 = 1 always y = 0; the rest is mixed. Neither
  // coefficient alone runs off, beta1 - beta2 does.
  const FitResult fit = fitFourGroups(15, {0, 2}, {1, 2});
  EXPECT_EQ(fit.status, FitStatus::NoFiniteMle)
      << fit.beta[0] << " " << fit.beta[1] << " " << fit.beta[2] << " after " << fit.iterations;
  EXPECT_EQ(fit.infinite, (std::vector<std::int32_t>{1, 2}));
  ASSERT_EQ(fit.pinned.size(), 1u);  // one direction, beta1 - beta2: one pin (a profile's)
  EXPECT_TRUE(fit.pinned[0] == 1 || fit.pinned[0] == 2);
}

TEST(Recession, TwoIndependentSeparationsPinOneCoefficientEach) {
  // x1 = 1 always has y = 1, x2 = 1 always y = 0 (other rows): two directions, each
  // coefficient receding alone, so a profile holds both.
  const FitResult fit = fitFourGroups(17, {0}, {1});
  EXPECT_EQ(fit.status, FitStatus::NoFiniteMle);
  EXPECT_EQ(fit.infinite, (std::vector<std::int32_t>{1, 2}));
  EXPECT_EQ(fit.pinned, (std::vector<std::int32_t>{1, 2}));
}

TEST(Recession, CoxCovariateWhoseArmHasNoEventsRunsOffToMinusInfinity) {
  // Rows sorted by time descending (the engine's order for one stratum); arm = 1 rows are all
  // censored.
  std::mt19937 rng(16);
  const std::size_t n = 60;
  std::vector<double> y(n), time(n), arm(n), z = normals(rng, n, 0.0, 1.0);
  for (std::size_t r = 0; r < n; ++r) {
    time[r] = static_cast<double>(n - r);
    arm[r] = r % 3 == 0 ? 1.0 : 0.0;
    y[r] = arm[r] == 0.0 && r % 2 == 0 ? 1.0 : 0.0;
  }
  HandDesign d(ModelType::Cox, y);
  d.time = time;
  d.addColumn(ColumnKind::Indicator, arm);
  d.addColumn(ColumnKind::Dense, z);
  std::vector<std::int32_t> one(n, 0);
  d.setStrata(one);
  d.finish();
  const FitResult fit = fitFlat(d);
  EXPECT_EQ(fit.status, FitStatus::NoFiniteMle);
  EXPECT_EQ(fit.infinite, (std::vector<std::int32_t>{0}));
  EXPECT_EQ(fit.pinned, (std::vector<std::int32_t>{0}));
  EXPECT_LT(fit.beta[0], -5.0);
  EXPECT_LT(std::fabs(fit.beta[1]), 2.0);
}

TEST(Recession, CoxCombinationRunsOffEvenAfterTheMajorizedStart) {
  // x1 - x2 = arm, whose rows have no events; w (x2) has a finite effect of its own. The
  // majorized start runs the combination far out before the cycles: the probe must still
  // see it.
  std::mt19937 rng(18);
  const std::size_t n = 90;
  std::vector<double> y(n), time(n), x1(n), x2(n);
  std::bernoulli_distribution coin(0.5);
  for (std::size_t r = 0; r < n; ++r) {
    time[r] = static_cast<double>(n - r);
    const double arm = r % 3 == 0 ? 1.0 : 0.0;
    const double w = coin(rng) ? 1.0 : 0.0;
    x1[r] = arm + w;
    x2[r] = w;
    y[r] = arm == 0.0 && r % 2 == 0 ? 1.0 : 0.0;
  }
  for (const MajorizedStartRule start : {MajorizedStartRule::Never, MajorizedStartRule::Always}) {
    HandDesign d(ModelType::Cox, y);
    d.time = time;
    d.addColumn(ColumnKind::Sparse, x1);
    d.addColumn(ColumnKind::Indicator, x2);
    d.setStrata(std::vector<std::int32_t>(n, 0));
    d.finish();
    const FitResult fit = fitFlat(d, PriorKind::None, start);
    EXPECT_EQ(fit.status, FitStatus::NoFiniteMle) << fit.beta[0] << " " << fit.beta[1];
    EXPECT_EQ(fit.infinite, (std::vector<std::int32_t>{0, 1}));
    if (start == MajorizedStartRule::Always) EXPECT_GT(fit.majorizedSteps, 0);
  }
}

TEST(Recession, AFactorWhoseReferenceLevelHasNoEventsRunsOff) {
  // Three levels as model.matrix() codes them: the intercept and indicators of levels b and
  // c. Level a (the reference) has no events, so the intercept runs to -inf and both
  // indicators to +inf, while no coefficient alone recedes (birthwt's race with no low
  // birth weight among whites was certified SUCCESS at -12.5, 12.2, 12.0). Poisson alike with
  // all-zero counts in the reference level.
  std::mt19937 rng(21);
  const std::size_t n = 150;
  std::vector<double> b(n), c(n), y(n), counts(n);
  std::bernoulli_distribution coin(0.4);
  std::poisson_distribution<int> poisson(3.0);
  for (std::size_t r = 0; r < n; ++r) {
    const int level = static_cast<int>(r % 3);
    b[r] = level == 1 ? 1.0 : 0.0;
    c[r] = level == 2 ? 1.0 : 0.0;
    y[r] = level == 0 ? 0.0 : (coin(rng) ? 1.0 : 0.0);
    counts[r] = level == 0 ? 0.0 : static_cast<double>(poisson(rng));
  }
  for (const ModelType m : {ModelType::Logistic, ModelType::Poisson}) {
    HandDesign d(m, m == ModelType::Logistic ? y : counts);
    d.addIntercept();
    d.addColumn(ColumnKind::Indicator, b);
    d.addColumn(ColumnKind::Indicator, c);
    d.finish();
    const FitResult fit = fitFlat(d);
    EXPECT_EQ(fit.status, FitStatus::NoFiniteMle)
        << modelTypeName(m) << ": " << fit.beta[0] << " " << fit.beta[1] << " " << fit.beta[2];
    EXPECT_EQ(fit.infinite, (std::vector<std::int32_t>{0, 1, 2})) << modelTypeName(m);
    // one direction (intercept down, both levels up): one pin, the levels' rates stay free
    EXPECT_EQ(fit.pinned.size(), 1u) << modelTypeName(m);
  }
}

TEST(Recession, AFiniteCovariateBesideAFactorWithoutEventsIsNotFlagged) {
  // Cox: level a of a three-level factor has no events (its indicators b and c run off to
  // +inf together), and age, uncentred with a finite effect, is far too (|beta| max|x| > 5,
  // and it moved all along the fit). Only the factor's coefficients are flagged (pbc's
  // transplants by stage named age as well, and dropped its standard error).
  std::mt19937 rng(22);
  const std::size_t n = 240;
  std::vector<double> y(n), time(n), b(n), c(n), age = normals(rng, n, 60.0, 8.0);
  std::bernoulli_distribution coin(0.5);
  for (std::size_t r = 0; r < n; ++r) {
    time[r] = static_cast<double>(n - r);  // descending, the engine's order
    const int level = static_cast<int>(r % 3);
    b[r] = level == 1 ? 1.0 : 0.0;
    c[r] = level == 2 ? 1.0 : 0.0;
    const double risk = 1.0 / (1.0 + std::exp(-(age[r] - 60.0) / 4.0));
    y[r] = level != 0 && std::bernoulli_distribution(risk)(rng) ? 1.0 : 0.0;
  }
  HandDesign d(ModelType::Cox, y);
  d.time = time;
  d.addColumn(ColumnKind::Dense, age);
  d.addColumn(ColumnKind::Indicator, b);
  d.addColumn(ColumnKind::Indicator, c);
  d.setStrata(std::vector<std::int32_t>(n, 0));
  d.finish();
  const FitResult fit = fitFlat(d);
  EXPECT_EQ(fit.status, FitStatus::NoFiniteMle) << fit.beta[0] << " " << fit.beta[1] << " " << fit.beta[2];
  EXPECT_EQ(fit.infinite, (std::vector<std::int32_t>{1, 2})) << fit.beta[0];
  EXPECT_EQ(fit.pinned.size(), 1u);  // b and c run off together: their difference is finite
  EXPECT_GT(std::fabs(fit.beta[0]) * 80.0, kFarEta);  // age is far, so it was probed
}

TEST(Recession, ARareLevelRunsOffWithTheOthers) {
  // The reference level (100 rows) has no events; level c has 2 to 20 rows beside b's 2,000.
  // Judged on the correlation scale c's share of the flat direction looked small, and it was
  // reported finite (11.2, with a standard error) while it runs off with the others.
  for (int rare : {2, 4, 20}) {
    std::mt19937 rng(3);
    std::bernoulli_distribution coin(0.4);
    std::vector<double> b, c, y;
    for (int r = 0; r < 100; ++r) { b.push_back(0); c.push_back(0); y.push_back(0); }
    for (int r = 0; r < 2000; ++r) { b.push_back(1); c.push_back(0); y.push_back(coin(rng) ? 1.0 : 0.0); }
    for (int r = 0; r < rare; ++r) { b.push_back(0); c.push_back(1); y.push_back(r % 2); }
    HandDesign d(ModelType::Logistic, y);
    d.addIntercept();
    d.addColumn(ColumnKind::Indicator, b);
    d.addColumn(ColumnKind::Indicator, c);
    d.finish();
    const FitResult fit = fitFlat(d);
    EXPECT_EQ(fit.status, FitStatus::NoFiniteMle) << rare;
    EXPECT_EQ(fit.infinite, (std::vector<std::int32_t>{0, 1, 2})) << rare << ": " << fit.beta[2];
  }
}

TEST(Recession, CompleteSeparationByADifferenceOfContinuousCovariates) {
  // y = 1 where x1 > x2, x1 and x2 correlated, with and without an unrelated x3: every row
  // saturates, the information block from gradient differences is rounding noise, and one of
  // x1, x2 may pass the single probe while the other, at -3977, does not. Both are flagged.
  for (const bool third : {false, true}) {
    for (unsigned seed = 1; seed <= 40; ++seed) {
      std::mt19937 rng(seed);
      std::normal_distribution<double> normal;
      std::vector<double> x1, x2, x3, y;
      for (int r = 0; r < 200; ++r) {
        const double a = normal(rng), b = a + 0.5 * normal(rng), z = a + 0.3 * normal(rng);
        x1.push_back(z);
        x2.push_back(b);
        x3.push_back(normal(rng));
        y.push_back(z - b > 0 ? 1.0 : 0.0);
      }
      HandDesign d(ModelType::Logistic, y);
      d.addIntercept();
      d.addColumn(ColumnKind::Dense, x1);
      d.addColumn(ColumnKind::Dense, x2);
      if (third) d.addColumn(ColumnKind::Dense, x3);
      d.finish();
      const FitResult fit = fitFlat(d);
      EXPECT_EQ(fit.status, FitStatus::NoFiniteMle) << seed;
      const auto flagged = [&](std::int32_t j) {
        return std::find(fit.infinite.begin(), fit.infinite.end(), j) != fit.infinite.end();
      };
      EXPECT_TRUE(flagged(1) && flagged(2)) << "seed " << seed << (third ? ", x3" : "") << ": "
                                            << fit.beta[1] << " " << fit.beta[2] << " flagged "
                                            << ::testing::PrintToString(fit.infinite) << " after "
                                            << fit.iterations;
    }
  }
}

TEST(Recession, ARareOutcomeIsFarButFinite) {
  // 6 events in 30,000 rows: intercept about log(6 / 30000) = -8.5, probed and kept.
  const std::size_t n = 30000;
  std::vector<double> y(n, 0.0), x(n);
  for (std::size_t r = 0; r < n; ++r) x[r] = r % 2 == 0 ? 1.0 : 0.0;
  for (std::size_t r = 0; r < 6; ++r) y[r * 4999] = 1.0;
  HandDesign d(ModelType::Logistic, y);
  d.addIntercept();
  d.addColumn(ColumnKind::Indicator, x);
  d.finish();
  const FitResult fit = fitFlat(d);
  EXPECT_EQ(fit.status, FitStatus::Success);
  EXPECT_TRUE(fit.infinite.empty());
  EXPECT_LT(fit.beta[0], -7.0);
}

TEST(Recession, ASmallWeightSubgroupIsFarButFinite) {
  // A subgroup of 3,000 rows with one event, weighted 1e-7: its coefficient is far out (the
  // event rate there is 1 in 3,000) and the log-likelihood barely moves with it, but it has
  // a finite maximum. The probe measures the drop against the coefficient's own curvature.
  const std::size_t n = 20000;
  std::vector<double> y(n, 0.0), group(n, 0.0), w(n, 1.0);
  for (std::size_t r = 0; r < n; ++r) {
    if (r < 3000) {
      group[r] = 1.0;
      w[r] = 1e-7;
    } else if (r % 3 == 0) {
      y[r] = 1.0;
    }
  }
  y[1500] = 1.0;
  HandDesign d(ModelType::Logistic, y);
  d.addIntercept();
  d.addColumn(ColumnKind::Indicator, group);
  d.finish();
  FitRequest req;
  req.data = &d.data;
  req.weights = w.data();
  req.prior.assign(2, CoordinatePrior{});
  const FitResult fit = fitCcd(req);
  EXPECT_EQ(fit.status, FitStatus::Success);
  EXPECT_TRUE(fit.infinite.empty());
  // The MLE: log odds 1/2999 in the group against 1/2 outside.
  // (its standard error is about 3,000: 0.05 is far within the optimality tolerance)
  EXPECT_NEAR(fit.beta[0] + fit.beta[1], std::log(1.0 / 2999.0), 0.05);
}

TEST(Recession, AFactorWithoutEventsInItsReferenceLevelBesideAnUncentredYear) {
  // The intercept beside a birth year (1950-1972) is a valley as flat on the correlation scale
  // as the recession (intercept to -inf, both other levels to +inf): probed in the raw basis
  // the two mixed, no probe receded, and the fit was SUCCESS. The year is finite.
  std::mt19937 rng(47);
  std::uniform_int_distribution<int> level(0, 2), year(0, 22);
  std::bernoulli_distribution coin(0.35);
  const std::size_t n = 240;
  std::vector<double> y(n), born(n), second(n), third(n);
  for (std::size_t r = 0; r < n; ++r) {
    const int l = level(rng);
    born[r] = 1950.0 + year(rng);
    second[r] = l == 1 ? 1.0 : 0.0;
    third[r] = l == 2 ? 1.0 : 0.0;
    y[r] = l == 0 ? 0.0 : (coin(rng) ? 1.0 : 0.0);
  }
  HandDesign d(ModelType::Logistic, y);
  d.addIntercept();
  d.addColumn(ColumnKind::Dense, born);
  d.addColumn(ColumnKind::Indicator, second);
  d.addColumn(ColumnKind::Indicator, third);
  d.finish();
  const FitResult fit = fitFlat(d);
  EXPECT_EQ(fit.status, FitStatus::NoFiniteMle)
      << fit.beta[0] << " " << fit.beta[1] << " " << fit.beta[2] << " " << fit.beta[3];
  EXPECT_EQ(fit.infinite, (std::vector<std::int32_t>{0, 2, 3}));
  EXPECT_LT(std::fabs(fit.beta[1]), 0.5);
}

}  // namespace
}  // namespace argus
