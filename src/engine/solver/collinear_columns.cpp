#include "solver/collinear_columns.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "data/column_centring.h"
#include "solver/dense_block.h"

namespace argus {

namespace {

// The rows taking part (positive weight), their groups contiguous: the order every pass
// below visits them in.
struct Visit {
  std::vector<std::int64_t> row;         // per position: the row
  std::vector<double> weight;            // per position: its weight
  std::vector<std::int64_t> groupStart;  // positions where each group starts, then the end
};

Visit visitOrder(const CollinearityRows& rows, std::int64_t n) {
  Visit v;
  for (std::int64_t r = 0; r < n; ++r)
    if ((rows.weights ? rows.weights[r] : 1.0) > 0.0) v.row.push_back(r);
  auto groupOf = [&](std::int64_t r) { return rows.group ? rows.group[r] : 0; };
  if (!std::is_sorted(v.row.begin(), v.row.end(), [&](std::int64_t a, std::int64_t b) { return groupOf(a) < groupOf(b); }))
    std::stable_sort(v.row.begin(), v.row.end(), [&](std::int64_t a, std::int64_t b) { return groupOf(a) < groupOf(b); });
  for (std::size_t i = 0; i < v.row.size(); ++i) {
    v.weight.push_back(rows.weights ? rows.weights[v.row[i]] : 1.0);
    if (i == 0 || groupOf(v.row[i]) != groupOf(v.row[i - 1])) v.groupStart.push_back(static_cast<std::int64_t>(i));
  }
  v.groupStart.push_back(static_cast<std::int64_t>(v.row.size()));
  return v;
}

// The checked columns' entries position by position: dense ones (and an intercept) at every
// position, the others from a copy of their stored entries in visiting order.
class RowEntries {
 public:
  RowEntries(const DesignView& design, const std::vector<std::int32_t>& columns, const Visit& visit)
      : visit_(visit), start_(visit.row.size() + 1, 0) {
    const std::int64_t n = design.nRows;
    std::vector<std::int64_t> at(static_cast<std::size_t>(n), -1);
    for (std::size_t i = 0; i < visit.row.size(); ++i) at[visit.row[i]] = static_cast<std::int64_t>(i);
    for (std::size_t a = 0; a < columns.size(); ++a) {
      const ColumnView& c = design.columns[columns[a]];
      if (c.kind == ColumnKind::Dense || c.kind == ColumnKind::Intercept) {
        dense_.push_back({&c, static_cast<std::int32_t>(a)});
      } else {
        forEachEntry(c, n, [&](std::int64_t r, double) {
          if (at[r] >= 0) ++start_[at[r] + 1];
        });
      }
    }
    for (std::size_t i = 0; i < visit.row.size(); ++i) start_[i + 1] += start_[i];
    position_.resize(start_.back());
    value_.resize(start_.back());
    std::vector<std::int64_t> fill(start_.begin(), start_.end() - 1);
    for (std::size_t a = 0; a < columns.size(); ++a) {
      const ColumnView& c = design.columns[columns[a]];
      if (c.kind == ColumnKind::Dense || c.kind == ColumnKind::Intercept) continue;
      forEachEntry(c, n, [&](std::int64_t r, double x) {
        if (at[r] < 0) return;
        position_[fill[at[r]]] = static_cast<std::int32_t>(a);
        value_[fill[at[r]]++] = x;
      });
    }
  }

  std::size_t denseCount() const { return dense_.size(); }
  // The entries at position i as (position among the columns, value) into `out`, the dense
  // ones first.
  void read(std::size_t i, std::vector<std::pair<std::int32_t, double>>& out) const {
    out.clear();
    const std::int64_t r = visit_.row[i];
    for (const Dense& d : dense_) {
      const double x = d.column->kind == ColumnKind::Dense ? d.column->values[r] : 1.0;
      out.emplace_back(d.position, x);
    }
    for (std::int64_t k = start_[i]; k < start_[i + 1]; ++k) out.emplace_back(position_[k], value_[k]);
  }

 private:
  struct Dense {
    const ColumnView* column;
    std::int32_t position;
  };
  const Visit& visit_;
  std::vector<Dense> dense_;
  std::vector<std::int64_t> start_;
  std::vector<std::int32_t> position_;
  std::vector<double> value_;
};

// The rows taking part, group by group: row(weight, entries) for each, the dense entries
// shifted by their value on the group's first row where the data are centred (a column
// constant within groups is then exactly 0 there, and a calendar year keeps its digits), and
// groupDone(total weight) at each group's end.
template <typename Row, typename GroupDone>
void walkGroups(const RowEntries& entries, const Visit& visit, bool centre, Row&& row, GroupDone&& groupDone) {
  const std::size_t denseCount = entries.denseCount();
  std::vector<double> shift(denseCount, 0.0);
  std::vector<std::pair<std::int32_t, double>> values;
  for (std::size_t g = 0; g + 1 < visit.groupStart.size(); ++g) {
    double groupWeight = 0.0;
    for (std::int64_t i = visit.groupStart[g]; i < visit.groupStart[g + 1]; ++i) {
      entries.read(static_cast<std::size_t>(i), values);
      if (centre && i == visit.groupStart[g])
        for (std::size_t d = 0; d < denseCount; ++d) shift[d] = values[d].second;
      for (std::size_t d = 0; d < denseCount; ++d) values[d].second -= shift[d];
      groupWeight += visit.weight[i];
      row(visit.weight[i], values);
    }
    groupDone(groupWeight);
  }
}

// Each column's weighted sum of squares over the rows taking part, its values as given: what
// centring must leave more than kRoundingShare of (lm's QR measures a column's residual
// against its own norm). Not from the Gram's walk, whose dense values are shifted per group for their
// digits: there a column constant within the groups up to rounding (poly(age) of sets matched
// on age) kept all of its "spread" and was estimated from the noise (clogit: NA; Argus 1e16).
std::vector<double> rawSquares(const DesignView& design, const std::vector<std::int32_t>& columns, const Visit& visit) {
  std::vector<double> weight(static_cast<std::size_t>(design.nRows), 0.0);
  for (std::size_t i = 0; i < visit.row.size(); ++i) weight[visit.row[i]] = visit.weight[i];
  std::vector<double> raw(columns.size(), 0.0);
  for (std::size_t a = 0; a < columns.size(); ++a)
    forEachEntry(design.columns[columns[a]], design.nRows, [&](std::int64_t r, double x) { raw[a] += weight[r] * x * x; });
  return raw;
}

// Per gray column i, the residual z = sum_b coef[i * k + b] x_b over the rows taking part
// (centred within groups where `centre`): squares[i] = sum w z^2 and cross[i * k + b] =
// sum w z x_b.
void residualSums(const RowEntries& entries, const Visit& visit, bool centre, const std::vector<double>& coef,
                  std::size_t k, std::vector<double>* squares, std::vector<double>* cross) {
  const std::size_t m = squares->size();
  std::vector<double> zSum(m), zSquares(m), zShift(m), xSum(k), zxSum(m * k);
  std::vector<std::int32_t> touched;
  std::vector<unsigned char> isTouched(k, 0);
  std::fill(squares->begin(), squares->end(), 0.0);
  std::fill(cross->begin(), cross->end(), 0.0);
  bool first = true;
  // Per group: sums of w z, w z^2, w x_b and w z x_b; the centred products at its end.
  walkGroups(
      entries, visit, centre,
      [&](double weight, const std::vector<std::pair<std::int32_t, double>>& values) {
        for (const auto& e : values) {
          xSum[e.first] += weight * e.second;
          if (!isTouched[e.first]) isTouched[e.first] = 1, touched.push_back(e.first);
        }
        for (std::size_t i = 0; i < m; ++i) {
          double z = 0.0;
          for (const auto& e : values) z += coef[i * k + e.first] * e.second;
          if (centre && first) zShift[i] = z;
          z -= zShift[i];
          zSum[i] += weight * z;
          zSquares[i] += weight * z * z;
          for (const auto& e : values) zxSum[i * k + e.first] += weight * z * e.second;
        }
        first = false;
      },
      [&](double groupWeight) {
        const double inverse = centre && groupWeight > 0.0 ? 1.0 / groupWeight : 0.0;
        for (std::size_t i = 0; i < m; ++i) {
          (*squares)[i] += zSquares[i] - zSum[i] * zSum[i] * inverse;
          for (const std::int32_t b : touched) {
            (*cross)[i * k + b] += zxSum[i * k + b] - zSum[i] * xSum[b] * inverse;
            zxSum[i * k + b] = 0.0;
          }
          zSum[i] = zSquares[i] = 0.0;
        }
        for (const std::int32_t b : touched) xSum[b] = 0.0, isTouched[b] = 0;
        touched.clear();
        first = true;
      });
}

// 1 - R^2 of each of the columns `gray` on the columns accepted before it in `f` (positions;
// correlation scale `scale`), from the residual itself, computed row by row, after two steps
// of refinement (the corrected semi-normal equations, as accurate as a QR): the Gram
// matrix's pivot squares the condition number that the residual sees. On a spline basis that
// reproduces the constant it read 5e-12 for a column whose residual is 1e-25, and on
// bs(crim, 10) * chas 2e-9 (the plain normal-equation residual as well) where lm's QR finds
// 1.3e-16.
std::vector<double> residualShares(const RowEntries& entries, const Visit& visit, bool centre,
                                   const BlockFactor& f,
                                   const std::vector<double>& correlation, const std::vector<double>& scale,
                                   const std::vector<std::size_t>& gray) {
  constexpr int kRefinements = 2;
  const std::size_t k = scale.size(), m = gray.size();
  // beta[i * k + b]: gray[i] regressed on the accepted columns before it (correlation scale)
  std::vector<double> beta(m * k, 0.0);
  for (std::size_t i = 0; i < m; ++i) {
    std::vector<double> rhs(k, 0.0);
    for (std::size_t b = 0; b < gray[i]; ++b) rhs[b] = correlation[gray[i] * k + b];
    const std::vector<double> solved = solveFactored(f, rhs, gray[i]);
    std::copy(solved.begin(), solved.end(), beta.begin() + static_cast<std::ptrdiff_t>(i * k));
  }
  std::vector<double> squares(m), cross(m * k), coef(m * k);
  for (int pass = 0; pass <= kRefinements; ++pass) {
    // The residual z = u_a - sum_b beta_b u_b (u = x * scale), as a combination of x.
    for (std::size_t i = 0; i < m; ++i) {
      for (std::size_t b = 0; b < k; ++b) coef[i * k + b] = -beta[i * k + b] * scale[b];
      coef[i * k + gray[i]] = scale[gray[i]];
    }
    residualSums(entries, visit, centre, coef, k, &squares, &cross);
    if (pass == kRefinements) break;
    // Refine: beta += C_SS^-1 U_S' z (the residual's correlation with the accepted columns).
    for (std::size_t i = 0; i < m; ++i) {
      std::vector<double> rhs(k, 0.0);
      for (std::size_t b = 0; b < gray[i]; ++b) rhs[b] = cross[i * k + b] * scale[b];
      const std::vector<double> delta = solveFactored(f, rhs, gray[i]);
      for (std::size_t b = 0; b < gray[i]; ++b) beta[i * k + b] += delta[b];
    }
  }
  return squares;
}

// lm's decisions, where the Gram matrix cannot vouch for them: the columns centred within
// groups (or not) and weighted by sqrt(w) over the rows taking part, orthogonalized in order
// (classical Gram-Schmidt twice, as accurate as a Householder QR); a column is aliased when
// what is left of it is at most `tolerance` of its squared norm, or centring left at most
// kRoundingShare of its squares as given. Dense: rows x accepted columns of memory.
std::vector<unsigned char> orthogonalDecisions(const DesignView& design, const Visit& visit, bool centre,
                                               const std::vector<std::int32_t>& columns, double tolerance) {
  const std::int64_t n = design.nRows;
  std::vector<std::int64_t> position(static_cast<std::size_t>(n), -1);
  std::vector<double> root(visit.row.size());  // sqrt(w)
  for (std::size_t i = 0; i < visit.row.size(); ++i)
    position[visit.row[i]] = static_cast<std::int64_t>(i), root[i] = std::sqrt(visit.weight[i]);
  const std::vector<std::int64_t>& groupStart = visit.groupStart;
  const std::size_t m = root.size();
  std::vector<unsigned char> aliased(columns.size(), 1);
  std::vector<std::vector<double>> basis;
  std::vector<double> v(m);
  for (std::size_t a = 0; a < columns.size(); ++a) {
    std::fill(v.begin(), v.end(), 0.0);
    forEachEntry(design.columns[columns[a]], n, [&](std::int64_t r, double x) {
      if (position[r] >= 0) v[position[r]] = x;
    });
    double raw = 0.0;
    for (std::size_t i = 0; i < m; ++i) raw += root[i] * root[i] * v[i] * v[i];
    for (std::size_t g = 0; centre && g + 1 < groupStart.size(); ++g) {
      double sw = 0.0, swx = 0.0;
      for (std::int64_t i = groupStart[g]; i < groupStart[g + 1]; ++i) sw += root[i] * root[i], swx += root[i] * root[i] * v[i];
      if (!(sw > 0.0)) continue;
      const double mean = swx / sw;
      for (std::int64_t i = groupStart[g]; i < groupStart[g + 1]; ++i) v[i] -= mean;
    }
    double norm = 0.0;
    for (std::size_t i = 0; i < m; ++i) v[i] *= root[i], norm += v[i] * v[i];
    if (!(norm > kRoundingShare * raw) || !(norm > 0.0)) continue;
    for (int pass = 0; pass < 2; ++pass)
      for (const std::vector<double>& q : basis) {
        double dot = 0.0;
        for (std::size_t i = 0; i < m; ++i) dot += q[i] * v[i];
        for (std::size_t i = 0; i < m; ++i) v[i] -= dot * q[i];
      }
    double left = 0.0;
    for (std::size_t i = 0; i < m; ++i) left += v[i] * v[i];
    if (!(left > tolerance * norm)) continue;
    aliased[a] = 0;
    const double inverse = 1.0 / std::sqrt(left);
    for (double& x : v) x *= inverse;
    basis.push_back(v);
  }
  return aliased;
}

// The smallest eigenvalue of the accepted columns' correlation matrix (from its factor), by
// inverse iteration: CCD needs of the order of its inverse in cycles along that direction.
double smallestEigenvalue(const BlockFactor& f) {
  constexpr int kIterations = 30;
  const std::size_t k = f.size;
  std::vector<double> x(k, 0.0);
  double norm = 0.0;
  for (std::size_t a = 0; a < k; ++a)
    if (!f.aliased[a]) x[a] = (a % 2 == 0 ? 1.0 : -1.0) * (1.0 + 0.01 * static_cast<double>(a)), norm += x[a] * x[a];
  if (!(norm > 0.0)) return 1.0;
  double estimate = 1.0;
  for (int it = 0; it < kIterations; ++it) {
    for (double& v : x) v /= std::sqrt(norm);
    x = solveFactored(f, x);
    norm = 0.0;
    for (const double v : x) norm += v * v;
    if (!(norm > 0.0) || !std::isfinite(norm)) return 0.0;
    estimate = 1.0 / std::sqrt(norm);
  }
  return estimate;
}

// G = sum_r w x x' - sum_groups S S' / W (S: the group's sum of w x, W of w): the lower
// triangle of the (centred) Gram matrix of the k columns, row-major.
std::vector<double> centredGram(const RowEntries& entries, const Visit& visit, bool centre, std::size_t k) {
  std::vector<double> gram(k * k, 0.0), sum(k, 0.0);
  std::vector<std::int32_t> touched;
  std::vector<unsigned char> isTouched(k, 0);
  walkGroups(
      entries, visit, centre,
      [&](double weight, const std::vector<std::pair<std::int32_t, double>>& values) {
        for (std::size_t i = 0; i < values.size(); ++i) {
          const std::int32_t a = values[i].first;
          const double wx = weight * values[i].second;
          sum[a] += wx;
          if (!isTouched[a]) isTouched[a] = 1, touched.push_back(a);
          for (std::size_t j = 0; j <= i; ++j) {
            const std::int32_t b = values[j].first;
            gram[std::max(a, b) * k + std::min(a, b)] += wx * values[j].second;
          }
        }
      },
      [&](double groupWeight) {
        if (centre && groupWeight > 0.0)
          for (const std::int32_t a : touched)
            for (const std::int32_t b : touched)
              if (b <= a) gram[a * k + b] -= sum[a] * sum[b] / groupWeight;
        for (const std::int32_t a : touched) sum[a] = 0.0, isTouched[a] = 0;
        touched.clear();
      });
  return gram;
}

// The Gram matrix on the correlation scale (symmetric), each column's scale in *scale: 0 for a
// column centring left (almost) nothing of, which is aliased outright.
std::vector<double> correlationOf(const std::vector<double>& gram, const std::vector<double>& raw, std::size_t k,
                                  std::vector<double>* scale) {
  std::vector<double> c(k * k, 0.0);
  scale->assign(k, 0.0);
  for (std::size_t a = 0; a < k; ++a) {
    const double d = gram[a * k + a];
    if (d > kRoundingShare * raw[a] && d > 0.0) (*scale)[a] = 1.0 / std::sqrt(d);
  }
  for (std::size_t a = 0; a < k; ++a)
    for (std::size_t b = 0; b <= a; ++b) {
      const double v = gram[a * k + b] * (*scale)[a] * (*scale)[b];
      c[a * k + b] = c[b * k + a] = v;
    }
  return c;
}

// The columns not decided yet whose pivot the Gram cannot vouch for: below kVerifyBelow, or
// below what rounding can reach after a near-collinear accepted column. A pivot's rounding
// grows as the accepted columns before it near collinearity: about k eps / p^2 for a smallest
// accepted pivot p (bs(crim, 10) * chas: after a column accepted at 2e-9, one whose residual
// is 1.6e-16 had a pivot of 0.015 to 0.17).
std::vector<std::size_t> grayColumns(const BlockFactor& f, const std::vector<double>& pivots,
                                     const std::vector<signed char>& forced, const std::vector<double>& scale) {
  constexpr double kVerifyBelow = 1e-8;
  constexpr double kAmplifiedRounding = 100.0;
  const std::size_t k = scale.size();
  std::vector<std::size_t> gray;
  double smallest = 1.0;
  for (std::size_t a = 0; a < k; ++a) {
    const double rounding = kAmplifiedRounding * static_cast<double>(k) * DBL_EPSILON / (smallest * smallest);
    if (forced[a] < 0 && scale[a] > 0.0 && pivots[a] < std::max(kVerifyBelow, rounding)) gray.push_back(a);
    if (!f.aliased[a]) smallest = std::min(smallest, std::max(pivots[a], DBL_MIN));
  }
  return gray;
}

}  // namespace

Collinearity collinearColumns(const DesignView& design, const CollinearityRows& rows,
                              const std::vector<std::int32_t>& columns, double tolerance,
                              bool orthogonalize) {
  // The orthogonalization's budget: its dense copy (doubles) and its work (rows x k^2).
  constexpr double kDenseEntries = 5e6, kDenseWork = 1e9;
  constexpr int kMaxRounds = 8;
  const std::size_t k = columns.size();
  Collinearity out;
  if (k == 0) return out;
  const Visit visit = visitOrder(rows, design.nRows);
  const RowEntries entries(design, columns, visit);
  std::vector<double> scale;
  const std::vector<double> c =
      correlationOf(centredGram(entries, visit, rows.centre, k), rawSquares(design, columns, visit), k, &scale);
  // Factor; columns whose pivot the Gram cannot vouch for are decided on their residual, in
  // column order, up to the first whose verdict differs from the factor's (the later ones
  // were measured against a set that now changes); then factor again.
  std::vector<signed char> forced(k, -1);
  BlockFactor f;
  std::vector<double> pivots;
  for (int round = 0;; ++round) {
    pivots.clear();
    f = factorSkippingAliased(c, k, tolerance, &forced, &pivots);
    const std::vector<std::size_t> gray = grayColumns(f, pivots, forced, scale);
    if (gray.empty() || round == kMaxRounds) break;
    // Small enough to orthogonalize: lm's answer, whatever the conditioning.
    const double participating = static_cast<double>(visit.row.size());
    const double kk = static_cast<double>(k);
    if (orthogonalize && participating * kk <= kDenseEntries && participating * kk * kk <= kDenseWork) {
      const std::vector<unsigned char> decided = orthogonalDecisions(design, visit, rows.centre, columns, tolerance);
      for (std::size_t a = 0; a < k; ++a) {
        forced[a] = decided[a] ? 1 : 0;
        if (decided[a]) out.aliased.push_back(columns[a]);
      }
      std::sort(out.aliased.begin(), out.aliased.end());
      out.smallestEigenvalue = smallestEigenvalue(factorSkippingAliased(c, k, tolerance, &forced));
      return out;
    }
    const std::vector<double> share = residualShares(entries, visit, rows.centre, f, c, scale, gray);
    for (std::size_t i = 0; i < gray.size(); ++i) {
      const bool aliased = !(share[i] > tolerance);
      forced[gray[i]] = aliased ? 1 : 0;
      if (aliased != static_cast<bool>(f.aliased[gray[i]])) break;
    }
  }
  for (std::size_t a = 0; a < k; ++a)
    if (f.aliased[a]) out.aliased.push_back(columns[a]);
  std::sort(out.aliased.begin(), out.aliased.end());
  out.smallestEigenvalue = smallestEigenvalue(f);
  return out;
}

}  // namespace argus
