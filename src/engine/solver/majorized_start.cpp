#include "solver/majorized_start.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "common/errors.h"
#include "common/prefetch.h"
#include "common/worker_team.h"
#include "solver/ccd_solver.h"

namespace argus {

namespace {

constexpr int kHalvings = 4;
constexpr std::size_t kInterruptEvery = 64;
constexpr double kLongestStep = 8.0;
// The start takes about 2.5 steps (sweeps) for what an exact cycle does (benchmark designs).
constexpr double kStepsPerCycle = 2.5;
// Finish when the rule's measure between two steps is this far below the tolerance, so that
// the first exact cycle usually meets the rule itself.
constexpr double kFinish = 0.1;

// A column's entries in pieces for threads (MajorizedStartOptions::pieceEntries): up to
// kMaxPieces equal ranges, fixed by the column alone; the pieces' sums are combined in piece
// order on the calling thread.
constexpr int kMaxPieces = 4;

int pieceCount(const ColumnView& col, std::int64_t nRows, std::int64_t pieceEntries) {
  const std::int64_t pieces = entryPositions(col, nRows) / pieceEntries;
  return static_cast<int>(std::min<std::int64_t>(kMaxPieces, std::max<std::int64_t>(1, pieces)));
}

// One piece's sums over its entries: per-entry totals, and the per-stratum runs' sums of c x,
// its first and last run kept apart (they may continue in the neighbouring pieces).
struct PieceSums {
  double g = 0.0, cxx = 0.0;
  double interior = 0.0;  // the gradient pass: sum over the runs between first and last of sum^2 / C_s
  bool any = false, oneRun = true;
  std::size_t firstStratum = 0, lastStratum = 0;
  double firstSum = 0.0, lastSum = 0.0;
};

// The quadratic model q of majorized_start.h around one beta, and its coordinate steps.
class QuadraticModel {
 public:
  QuadraticModel(const Dataset& data, WorkerTeam* team, std::int64_t pieceEntries)
      : data_(data),
        stratum_(data.outcomes.nStrata > 1 ? data.outcomes.stratum : nullptr),
        team_(team),
        pieceEntries_(pieceEntries),
        rows_(static_cast<std::size_t>(data.nRows())) {}

  // The model around a new beta: its row scores and curvatures, delta = 0.
  void load(const std::vector<double>& score, const std::vector<double>& curvature) {
    const std::size_t strata = static_cast<std::size_t>(std::max(data_.outcomes.nStrata, 1));
    total_.assign(strata, 0.0);
    sumC_.assign(strata, 0.0);
    alpha_.assign(strata, 0.0);
    for (std::int64_t r = 0; r < data_.nRows(); ++r) {
      rows_[r] = Row{score[r], curvature[r], 0.0};
      total_[stratumOf(r)] += score[r];
      sumC_[stratumOf(r)] += curvature[r];
    }
    for (std::size_t s = 0; s < strata; ++s) alpha_[s] = shift(s);
  }

  // Coordinate j's step at inner value b (beta_j + delta_j so far); applies it and returns it.
  double step(std::size_t j, double b, CoordinatePrior prior) {
    const ColumnView& col = data_.design.columns[j];
    const int pieces = pieceCount(col, data_.nRows(), pieceEntries_);
    const WorkerTeam::Round round(pieces > 1 ? team_ : nullptr);
    // The gradient pass: g = sum x (t - c alpha), the curvature sum c x^2 less, per stratum,
    // (sum c x)^2 / C_s.
    forPieces(col, pieces, true);
    double g = 0.0, cxx = 0.0, excess = 0.0;
    combine(pieces, [&](std::size_t s, double sum) { excess += sum * sum / sumC_[s]; },
            [&](const PieceSums& p) {
              g += p.g;
              cxx += p.cxx;
              excess += p.interior;
            });
    const double curvature = cxx - excess;
    if (!(curvature > 1e-12 * cxx)) return 0.0;  // constant within strata: no information
    const double delta = newtonStep(GradHess{g, -curvature}, b, prior);
    if (delta == 0.0 || !std::isfinite(delta)) return 0.0;
    // The update pass: t, X delta on the rows, then the strata's sums of t and shifts.
    delta_ = delta;
    forPieces(col, pieces, false);
    combine(pieces, [&](std::size_t s, double sum) { moveTotal(s, sum); }, [](const PieceSums&) {});
    return delta;
  }

  // X delta, and the log-likelihood's slope along it at beta: sum score (X delta).
  double direction(std::vector<double>* d) const {
    double slope = 0.0;
    for (std::size_t r = 0; r < rows_.size(); ++r) {
      const Row& row = rows_[r];
      (*d)[r] = row.d;
      slope += (row.t + row.c * row.d) * row.d;
    }
    return slope;
  }

 private:
  std::size_t stratumOf(std::int64_t r) const {
    return stratum_ ? static_cast<std::size_t>(stratum_[r]) : 0;
  }
  double shift(std::size_t s) const { return sumC_[s] > 0.0 ? total_[s] / sumC_[s] : 0.0; }
  void moveTotal(std::size_t s, double sumCx) {
    total_[s] -= sumCx * delta_;
    alpha_[s] = shift(s);
  }

  // Runs the gradient pass (gradient: true) or the update pass over each piece, on the team
  // where the round uses it, into sums_[piece]. Strata between a piece's first and last run
  // have all their entries in it: their sums are settled here (no other piece touches them).
  void forPieces(const ColumnView& col, int pieces, bool gradient) {
    const std::int64_t entries = entryPositions(col, data_.nRows());
    auto piece = [&](int i) {
      const std::int64_t first = entries * i / pieces, end = entries * (i + 1) / pieces;
      if (gradient) {
        if (stratum_) walk<true, true>(col, first, end, &sums_[i]); else walk<true, false>(col, first, end, &sums_[i]);
      } else {
        if (stratum_) walk<false, true>(col, first, end, &sums_[i]); else walk<false, false>(col, first, end, &sums_[i]);
      }
    };
    if (team_ && pieces > 1 && team_->together()) {
      team_->run(pieces, piece);
    } else {
      for (int i = 0; i < pieces; ++i) piece(i);
    }
  }

  // One piece's pass, compiled per pass and per strata-or-not; sums kept in locals (the
  // update writes rows_, which the compiler could not tell apart from *out).
  template <bool Gradient, bool Strata>
  void walk(const ColumnView& col, std::int64_t first, std::int64_t end, PieceSums* out) {
    PieceSums p;
    double g = 0.0, cxx = 0.0, interior = 0.0, sum = 0.0;
    std::size_t current = 0;
    int run = 0;
    const double delta = delta_;
    const double alpha0 = alpha_[0];
    auto ahead = [&](std::int64_t r) { ARGUS_PREFETCH(&rows_[r]); };
    forEntryRangePrefetched(col, first, end, ahead, [&](std::int64_t r, double x) {
      std::size_t s = 0;
      if (Strata) {
        s = static_cast<std::size_t>(stratum_[r]);
        if (!p.any) {
          p.any = true;
          p.firstStratum = current = s;
        } else if (s != current) {
          // A run ends: the first is kept apart, later ones are this piece's alone.
          if (run == 0) {
            p.firstSum = sum;
          } else if (Gradient) {
            if (sumC_[current] > 0.0) interior += sum * sum / sumC_[current];
          } else {
            moveTotal(current, sum);
          }
          ++run;
          sum = 0.0;
          current = s;
        }
      }
      Row& row = rows_[r];
      const double cx = row.c * x;
      if (Gradient) {
        g += x * (row.t - row.c * (Strata ? alpha_[s] : alpha0));
        cxx += cx * x;
      } else {
        row.t -= cx * delta;
        row.d += x * delta;
      }
      sum += cx;
    });
    if (!Strata) p.any = end > first;
    p.g = g;
    p.cxx = cxx;
    p.interior = interior;
    if (p.any) {
      if (run == 0) {
        p.firstSum = sum;
      } else {
        p.oneRun = false;
        p.lastStratum = current;
        p.lastSum = sum;
      }
    }
    *out = p;
  }

  // The pieces' first and last runs, joined where a stratum continues into the next piece,
  // handed to run(s, sum) in piece order; each piece to whole(p).
  template <typename Run, typename Whole>
  void combine(int pieces, Run&& run, Whole&& whole) {
    bool open = false;
    std::size_t stratum = 0;
    double sum = 0.0;
    auto close = [&]() {
      if (open && sumC_[stratum] > 0.0) run(stratum, sum);
      open = false;
    };
    for (int i = 0; i < pieces; ++i) {
      const PieceSums& p = sums_[i];
      if (!p.any) continue;
      whole(p);
      if (open && stratum == p.firstStratum) {
        sum += p.firstSum;
      } else {
        close();
        open = true;
        stratum = p.firstStratum;
        sum = p.firstSum;
      }
      if (!p.oneRun) {
        close();
        open = true;
        stratum = p.lastStratum;
        sum = p.lastSum;
      }
    }
    close();
  }

  const Dataset& data_;
  const std::int32_t* stratum_;  // null with one stratum
  WorkerTeam* team_;             // null: one thread
  std::int64_t pieceEntries_;
  // One record per row, so that a coordinate's entry loads one cache line: 32 bytes, not 24,
  // so that no record straddles two lines (one in four did, and the prefetch of a record's
  // first line left its second to miss).
  struct alignas(32) Row {
    double t;  // score - c (X delta)
    double c;  // curvature
    double d;  // X delta
  };
  std::vector<Row> rows_;
  std::vector<double> total_, sumC_, alpha_;  // per stratum: sum t, sum c, the shift
  PieceSums sums_[kMaxPieces];
  double delta_ = 0.0;
};

double logPosterior(const CycleReadout& r, const std::vector<double>& beta,
                    const std::vector<CoordinatePrior>& prior) {
  return r.logLikelihood + logPriorTotal(beta, prior);
}

// The step length s in [1, kLongestStep] that maximizes the log posterior along delta when the
// log-likelihood is the parabola through L(0) with slope `slope` and L(1): the model's bound
// is often too curved along the step (its excess over the exact curvature), and the parabola
// measures by how much.
double longerStep(double l0, double l1, double slope, const std::vector<double>& beta,
                  const std::vector<double>& delta, const std::vector<unsigned char>& zeroed,
                  const std::vector<CoordinatePrior>& prior) {
  const double curvature = 2.0 * (l0 + slope - l1);  // minus the second derivative
  double best = 1.0, bestValue = -INFINITY;
  std::vector<double> point(beta.size());
  for (double s = 1.0; s <= kLongestStep; s += 0.25) {
    for (std::size_t j = 0; j < beta.size(); ++j) point[j] = zeroed[j] ? 0.0 : beta[j] + s * delta[j];
    const double value = s * slope - 0.5 * s * s * curvature + logPriorTotal(point, prior);
    if (value > bestValue) {
      bestValue = value;
      best = s;
    }
  }
  return best;
}

// One outer step's trials: beta moved by s delta from where the step set out (`from`), eta by
// s d from its linear predictor there, the runner reset to each (resetToEta). Coordinates the
// sweep moved to 0 (Laplace) stay at 0 on a longer step rather than cross it: their columns'
// share of eta is taken back out.
class StepTrials {
 public:
  StepTrials(CycleRunner& runner, const Dataset& data, CycleState& state, const std::vector<double>& delta,
             const std::vector<double>& d, std::vector<double>& base, std::vector<double>& eta,
             std::vector<unsigned char>& zeroed)
      : runner_(runner), data_(data), state_(state), delta_(delta), d_(d), base_(base), eta_(eta), zeroed_(zeroed) {
    base_ = runner.linearPredictor();
    from_ = state.beta;
    for (std::size_t j = 0; j < from_.size(); ++j) zeroed_[j] = delta_[j] != 0.0 && from_[j] + delta_[j] == 0.0;
  }
  const std::vector<double>& from() const { return from_; }

  CycleReadout at(double s) {
    const std::size_t p = from_.size(), n = eta_.size();
    for (std::size_t j = 0; j < p; ++j) state_.beta[j] = (s > 1.0 && zeroed_[j]) ? 0.0 : from_[j] + s * delta_[j];
    for (std::size_t r = 0; r < n; ++r) eta_[r] = base_[r] + s * d_[r];
    if (s > 1.0)
      for (std::size_t j = 0; j < p; ++j)
        if (zeroed_[j])
          forEachEntry(data_.design.columns[j], data_.nRows(),
                       [&](std::int64_t r, double x) { eta_[r] -= (s - 1.0) * delta_[j] * x; });
    return runner_.resetToEta(state_, eta_);
  }

  // The whole step, a longer one where the parabola through L(0) (`l0`, with `slope`) and
  // L(1) says so, or halves of it: false where none reaches `objective` (beta then back).
  bool search(double l0, double slope, double objective, CycleReadout* readout, double* value) {
    *readout = at(1.0);
    *value = logPosterior(*readout, state_.beta, state_.prior);
    if (std::isfinite(*value) && *value >= objective) {
      const double s = longerStep(l0, readout->logLikelihood, slope, from_, delta_, zeroed_, state_.prior);
      if (s > 1.0) {
        const CycleReadout longer = at(s);
        const double longerValue = logPosterior(longer, state_.beta, state_.prior);
        if (std::isfinite(longerValue) && longerValue > *value) {
          *readout = longer;
          *value = longerValue;
        } else {
          *readout = at(1.0);
        }
      }
      return true;
    }
    double s = 1.0;
    for (int half = 0; half < kHalvings && !(std::isfinite(*value) && *value >= objective); ++half) {
      s *= 0.5;
      *readout = at(s);
      *value = logPosterior(*readout, state_.beta, state_.prior);
    }
    if (std::isfinite(*value) && *value >= objective) return true;
    state_.beta = from_;
    return false;
  }

 private:
  CycleRunner& runner_;
  const Dataset& data_;
  CycleState& state_;
  const std::vector<double>& delta_;
  const std::vector<double>& d_;
  std::vector<double>& base_;
  std::vector<double>& eta_;
  std::vector<unsigned char>& zeroed_;
  std::vector<double> from_;
};

// One sweep of the model's coordinate steps into *delta; returns the largest |step|.
double sweepSteps(QuadraticModel& model, const CycleState& state, std::vector<double>* delta,
                  ProgressSink* progress) {
  double move = 0.0;
  for (std::size_t j = 0; j < delta->size(); ++j) {
    // A sweep of a large design takes a second: interrupts are seen within it.
    if (progress && j % kInterruptEvery == 0) progress->checkInterrupt();
    (*delta)[j] = state.fixed[j] ? 0.0 : model.step(j, state.beta[j], state.prior[j]);
    move = std::max(move, std::fabs((*delta)[j]));
  }
  return move;
}

}  // namespace

MajorizedStartRule parseMajorizedStartRule(const std::string& name) {
  if (name == "never") return MajorizedStartRule::Never;
  if (name == "auto") return MajorizedStartRule::Auto;
  if (name == "always") return MajorizedStartRule::Always;
  throw ArgusError("unknown majorizedStart '" + name + "'; expected auto, always or never");
}

bool majorizedStartPays(const CycleRunner& runner, const Dataset& data, const CycleState& state) {
  const Likelihood::ExactCycleCost cost = runner.exactCycleCost();
  double entries = 0.0, cycle = 0.0;
  for (std::size_t j = 0; j < state.beta.size(); ++j) {
    if (state.fixed[j]) continue;
    const double e = static_cast<double>(entryPositions(data.design.columns[j], data.nRows()));
    entries += e;
    cycle += cost.perEntry * e + cost.perSlot * static_cast<double>(cost.slots);
  }
  return cycle > 0.0 && cycle >= kStepsPerCycle * entries;
}

MajorizedStartResult majorizedStart(CycleRunner& runner, const Dataset& data, CycleState& state,
                                    const CycleReadout& at, const MajorizedStartOptions& options,
                                    ProgressSink* progress) {
  MajorizedStartResult result;
  std::unique_ptr<WorkerTeam> team;
  if (options.threads > 1) team = std::make_unique<WorkerTeam>(std::min(options.threads, kMaxPieces));
  result.readout = at;
  const std::size_t p = state.beta.size();
  const std::size_t n = static_cast<std::size_t>(data.nRows());
  std::vector<double> score, curvature, delta(p), d(n), eta(n), base;
  std::vector<unsigned char> zeroed(p, 0);
  double objective = logPosterior(at, state.beta, state.prior);
  double lastGain = INFINITY;
  int slowSteps = 0;
  QuadraticModel model(data, team.get(), options.pieceEntries);
  for (int step = 0; step < options.maxSteps; ++step) {
    if (!runner.rowScores(&score, &curvature)) return result;
    result.used = true;
    model.load(score, curvature);
    const double move = sweepSteps(model, state, &delta, progress);
    ++result.sweeps;
    if (move == 0.0) break;
    const double slope = model.direction(&d);
    StepTrials trials(runner, data, state, delta, d, base, eta, zeroed);
    CycleReadout readout;
    double value = 0.0;
    if (!trials.search(result.readout.logLikelihood, slope, objective, &readout, &value)) break;
    ++result.steps;
    // The readouts of resetToEta() hold no eta change: the "zhang" rule's is the step's.
    double change = 0.0;
    for (std::size_t r = 0; r < n; ++r) change += std::fabs(eta[r] - base[r]);
    readout.sumAbsEtaChange = change;
    const double measure = convergenceMeasure(options.convergence, result.readout, readout,
                                              logPriorTotal(trials.from(), state.prior),
                                              logPriorTotal(state.beta, state.prior));
    result.readout = readout;
    if (options.afterStep) options.afterStep(result.steps, readout);
    const double gain = value - objective;
    objective = value;
    if (measure <= kFinish * options.tolerance) {
      result.ruleMet = true;
      break;
    }
    // Progress slower than the exact cycles': hand over to them.
    slowSteps = gain > 0.7 * lastGain ? slowSteps + 1 : 0;
    if (slowSteps >= 2) break;
    lastGain = gain;
  }
  // Where the cycles start: X beta recomputed, not the sums of the steps.
  if (result.used) result.readout = runner.reset(state);
  return result;
}

}  // namespace argus
