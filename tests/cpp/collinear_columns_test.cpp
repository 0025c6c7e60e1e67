// The collinearity check of flat-prior columns (solver/collinear_columns.h): against a naive
// oracle (dense copies, group means and Gram-Schmidt in long double), and through
// fitCcd() on columns that never join the Newton block (sparse columns of large problems),
// where only exact duplicates used to be found.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "data/column_centring.h"
#include "hand_design.h"
#include "solver/ccd_solver.h"
#include "solver/collinear_columns.h"
#include "spline_basis.h"

namespace argus {
namespace {

using testing_data::HandDesign;

constexpr double kTolerance = 1e-12;  // the fits' own (LikelihoodCycleRunner::kAliasTolerance)









// The oracle: x centred within groups over the rows that take part (weights w), weighted by
// sqrt(w), orthogonalized in order in long double (Gram-Schmidt twice); a column is aliased
// when what is left of it is at most kTolerance of its squared norm, or centring left at most
// kRoundingShare of its squares as given (lm's 1e-7 of the norm, squared).
std::vector<std::int32_t> naiveCollinear(const std::vector<std::vector<double>>& x,
                                         const std::vector<double>& w,
                                         const std::vector<std::int32_t>& group, bool centre) {
  const std::size_t n = w.size(), k = x.size();
  std::vector<std::vector<long double>> basis;
  std::vector<std::int32_t> out;
  for (std::size_t a = 0; a < k; ++a) {
    std::vector<long double> v(n);
    long double raw = 0.0L;
    for (std::size_t r = 0; r < n; ++r) raw += w[r] * static_cast<long double>(x[a][r]) * x[a][r];
    for (std::size_t r = 0; r < n;) {
      std::size_t end = r + 1;
      while (end < n && group[end] == group[r]) ++end;
      long double sw = 0.0L, swx = 0.0L;
      for (std::size_t q = r; q < end; ++q) sw += w[q], swx += w[q] * static_cast<long double>(x[a][q]);
      const long double mean = centre && sw > 0.0L ? swx / sw : 0.0L;
      for (std::size_t q = r; q < end; ++q) v[q] = (x[a][q] - mean) * std::sqrt(static_cast<long double>(w[q]));
      r = end;
    }
    long double norm = 0.0L;
    for (const long double e : v) norm += e * e;
    bool aliased = !(norm > kRoundingShare * raw) || !(norm > 0.0L);
    if (!aliased) {
      for (int pass = 0; pass < 2; ++pass)
        for (const auto& q : basis) {
          long double dot = 0.0L;
          for (std::size_t r = 0; r < n; ++r) dot += q[r] * v[r];
          for (std::size_t r = 0; r < n; ++r) v[r] -= dot * q[r];
        }
      long double left = 0.0L;
      for (const long double e : v) left += e * e;
      aliased = !(left > kTolerance * norm);
      if (!aliased) {
        for (long double& e : v) e /= std::sqrt(left);
        basis.push_back(v);
      }
    }
    if (aliased) out.push_back(static_cast<std::int32_t>(a));
  }
  return out;
}

TEST(CollinearColumns, MatchesTheNaiveCentredGramOnMixedDesigns) {
  std::mt19937 rng(41);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::bernoulli_distribution sparse(0.15), dropRow(0.1);
  int planted = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t n = 150 + 10 * trial;
    const bool grouped = trial % 2 == 0;
    const bool centre = trial % 4 != 3;
    std::vector<std::int32_t> group(n);
    for (std::size_t r = 0; r < n; ++r) group[r] = grouped ? static_cast<std::int32_t>(r / 7) : 0;
    std::vector<double> w(n), y(n, 0.0);
    for (std::size_t r = 0; r < n; ++r) w[r] = dropRow(rng) ? 0.0 : 0.5 + std::fabs(normal(rng));
    // Columns: a year-like dense one, free dense and sparse ones, an indicator, then planted
    // ones: a combination of earlier columns (dense + 2 sparse), a constant-within-groups one,
    // an empty one, and a constant-within-groups one up to rounding noise.
    std::vector<std::vector<double>> x;
    std::vector<ColumnKind> kinds;
    auto add = [&](ColumnKind kind, std::vector<double> v) { kinds.push_back(kind), x.push_back(std::move(v)); };
    std::vector<double> year(n), dense(n), sp(n), ind(n), combo(n), byGroup(n), empty(n, 0.0), noisy(n);
    for (std::size_t r = 0; r < n; ++r) {
      year[r] = 2000.0 + std::floor(20.0 * std::fabs(normal(rng))) + 0.25 * normal(rng);
      dense[r] = normal(rng);
      sp[r] = sparse(rng) ? normal(rng) : 0.0;
      ind[r] = sparse(rng) ? 1.0 : 0.0;
      combo[r] = dense[r] + 2.0 * sp[r] - 0.5 * ind[r];
      byGroup[r] = 1.5 + 0.1 * group[r];
      noisy[r] = byGroup[r] * (1.0 + 1e-15 * normal(rng));  // poly() of a matching variable
    }
    add(ColumnKind::Dense, year);
    add(ColumnKind::Dense, dense);
    add(ColumnKind::Sparse, sp);
    add(ColumnKind::Indicator, ind);
    const bool plant = trial % 3 != 1;
    add(plant ? ColumnKind::Dense : ColumnKind::Sparse, plant ? combo : sp);  // a duplicate otherwise
    add(ColumnKind::Dense, byGroup);
    add(ColumnKind::Sparse, empty);
    add(ColumnKind::Dense, noisy);
    HandDesign d(ModelType::Logistic, y);
    std::vector<std::int32_t> columns;
    for (std::size_t a = 0; a < x.size(); ++a) {
      d.addColumn(kinds[a], x[a]);
      columns.push_back(static_cast<std::int32_t>(a));
    }
    d.finish();
    CollinearityRows rows;
    rows.weights = w.data();
    rows.group = grouped ? group.data() : nullptr;
    rows.centre = centre;
    const std::vector<std::int32_t> got = collinearColumns(d.data.design, rows, columns, kTolerance).aliased;
    const std::vector<std::int32_t> want = naiveCollinear(x, w, group, centre);
    EXPECT_EQ(got, want) << "trial " << trial;
    // the refined residuals (the path of problems too large to orthogonalize) agree too
    EXPECT_EQ(collinearColumns(d.data.design, rows, columns, kTolerance, false).aliased, want) << "trial " << trial;
    // The planted ones are there: the combination (or duplicate), the empty column, and the
    // within-group constant wherever groups are centred out.
    EXPECT_TRUE(std::count(got.begin(), got.end(), 4)) << trial;
    EXPECT_TRUE(std::count(got.begin(), got.end(), 6)) << trial;
    if (centre && grouped) EXPECT_TRUE(std::count(got.begin(), got.end(), 5)) << trial;
    // constant within groups but for rounding noise: aliased too (the noise was estimated)
    if (centre && grouped) EXPECT_TRUE(std::count(got.begin(), got.end(), 7)) << trial;
    EXPECT_FALSE(std::count(got.begin(), got.end(), 0)) << trial;  // the year keeps its digits
    planted += static_cast<int>(got.size());
  }
  EXPECT_GT(planted, 80);
}

// A B-spline basis of a very skewed covariate crossed with a rare indicator (as
// bs(crim, 10, intercept = TRUE) * chas on Boston): the last basis column is the constant
// less the others, the last interaction the indicator less the other interactions. The
// Gram's pivots after near-collinear accepted columns are rounding there (Boston: 0.015 for
// a residual of 1.6e-16), so the verdicts come from the orthogonalization, or, with it off,
// from the refined residuals; both as the oracle (lm's verdicts, in long double).
TEST(CollinearColumns, ASplineBasisCrossedWithARareIndicatorAgreesWithTheOracle) {
  std::mt19937 rng(46);
  std::lognormal_distribution<double> skewed(0.0, 1.6);
  std::bernoulli_distribution rare(0.07);
  const std::size_t n = 500, df = 10;
  std::vector<double> t(n), w(n, 1.0), y(n, 0.0), rareColumn(n);
  std::vector<std::int32_t> group(n, 0);
  for (std::size_t r = 0; r < n; ++r) t[r] = skewed(rng), rareColumn[r] = rare(rng) ? 1.0 : 0.0;
  const std::vector<std::vector<double>> x = testing_data::bsplineTimesIndicator(t, df, rareColumn);
  HandDesign d(ModelType::LeastSquares, y);
  std::vector<std::int32_t> columns;
  for (std::size_t a = 0; a < x.size(); ++a) {
    d.addColumn(a < df ? ColumnKind::Dense : ColumnKind::Sparse, x[a]);
    columns.push_back(static_cast<std::int32_t>(a));
  }
  d.finish();
  CollinearityRows rows;
  rows.centre = true;
  const std::vector<std::int32_t> want = naiveCollinear(x, w, group, true);
  EXPECT_TRUE(std::count(want.begin(), want.end(), static_cast<std::int32_t>(df - 1)));
  EXPECT_TRUE(std::count(want.begin(), want.end(), static_cast<std::int32_t>(2 * df)));
  EXPECT_EQ(collinearColumns(d.data.design, rows, columns, kTolerance).aliased, want);
  EXPECT_EQ(collinearColumns(d.data.design, rows, columns, kTolerance, false).aliased, want);
}

std::vector<double> indicators(std::mt19937& rng, std::size_t n, double p) {
  std::bernoulli_distribution b(p);
  std::vector<double> v(n);
  for (double& x : v) x = b(rng) ? 1.0 : 0.0;
  return v;
}

FitResult fitFlat(const HandDesign& d) {
  FitRequest req;
  req.data = &d.data;
  req.prior.assign(d.nColumns(), CoordinatePrior{});
  return fitCcd(req);
}

// A factor coded with every level (the levels sum to 1) among 40 sparse columns, which stay
// out of the Newton block: the last level is aliased with the intercept (lr) or with the
// baseline hazard (cox), and its coefficient was an arbitrary split, reported SUCCESS.
TEST(CollinearColumns, EveryLevelOfAFactorOutsideTheBlockIsCaught) {
  std::mt19937 rng(43);
  const std::size_t n = 600, levels = 4, extra = 36;
  std::uniform_int_distribution<int> level(0, static_cast<int>(levels) - 1);
  std::vector<std::vector<double>> dummy(levels, std::vector<double>(n, 0.0));
  for (std::size_t r = 0; r < n; ++r) dummy[level(rng)][r] = 1.0;
  std::vector<double> y = indicators(rng, n, 0.4), time(n);
  for (std::size_t r = 0; r < n; ++r) time[r] = static_cast<double>(n - r);
  std::vector<std::vector<double>> extras;
  for (std::size_t j = 0; j < extra; ++j) extras.push_back(indicators(rng, n, 0.05));
  // and the union of two extras made disjoint: a sum, not a duplicate of any column
  std::vector<double> sum(n);
  for (std::size_t r = 0; r < n; ++r) {
    if (extras[0][r] == 1.0) extras[1][r] = 0.0;
    sum[r] = extras[0][r] + extras[1][r];
  }
  for (const ModelType m : {ModelType::Logistic, ModelType::Cox}) {
    HandDesign d(m, y);
    if (m == ModelType::Cox) d.time = time;
    if (m == ModelType::Logistic) d.addIntercept();
    const std::int32_t first = m == ModelType::Logistic ? 1 : 0;
    for (const auto& v : extras) d.addColumn(ColumnKind::Indicator, v);
    for (const auto& v : dummy) d.addColumn(ColumnKind::Indicator, v);
    d.addColumn(ColumnKind::Indicator, sum);
    if (m == ModelType::Cox) d.setStrata(std::vector<std::int32_t>(n, 0));
    d.finish();
    const FitResult fit = fitFlat(d);
    const std::int32_t lastLevel = first + static_cast<std::int32_t>(extra + levels) - 1;
    EXPECT_EQ(fit.aliased, (std::vector<std::int32_t>{lastLevel, lastLevel + 1})) << modelTypeName(m);
    EXPECT_EQ(fit.status, FitStatus::Success) << modelTypeName(m);
  }
}

}  // namespace
}  // namespace argus
