#include "solver/host_bound_steps.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "common/prefetch.h"
#include "common/progress_sink.h"
#include "common/worker_team.h"
#include "models/separable_bound.h"

namespace argus {

namespace {

constexpr std::size_t kInterruptEvery = 64;

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
    combine(pieces, [&](std::size_t s, double sum) { excess += boundRunExcess(sum, sumC_[s]); },
            [&](const PieceSums& p) {
              g += p.g;
              cxx += p.cxx;
              excess += p.interior;
            });
    const double curvature = boundCurvature(cxx, excess);
    if (!boundInformative(curvature, cxx)) return 0.0;  // constant within strata: no information
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
      slope += boundSlopeTerm(row.t, row.c, row.d);
    }
    return slope;
  }

 private:
  std::size_t stratumOf(std::int64_t r) const {
    return stratum_ ? static_cast<std::size_t>(stratum_[r]) : 0;
  }
  double shift(std::size_t s) const { return boundShift(total_[s], sumC_[s]); }
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
            if (sumC_[current] > 0.0) interior += boundRunExcess(sum, sumC_[current]);
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
        g += boundGradientTerm(x, row.t, row.c, Strata ? alpha_[s] : alpha0);
        cxx += cx * x;
      } else {
        boundMoveRow(&row.t, &row.d, cx, x, delta);
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


// The host's steps: the model above on the runner's row scores, and trials that move beta by
// s delta from where the step set out (`from`) and eta by s d from the linear predictor there,
// the runner reset to each (resetToEta). Coordinates the sweep moved to 0 (Laplace) stay at 0
// on a longer step rather than cross it: their columns' share of eta is taken back out.
class HostBoundSteps final : public BoundSteps {
 public:
  HostBoundSteps(CycleRunner& runner, const Dataset& data, const MajorizedStartOptions& options)
      : runner_(runner),
        data_(data),
        team_(options.threads > 1 ? std::make_unique<WorkerTeam>(std::min(options.threads, kMaxPieces)) : nullptr),
        model_(data, team_.get(), options.pieceEntries),
        d_(static_cast<std::size_t>(data.nRows())),
        eta_(static_cast<std::size_t>(data.nRows())) {}

  bool load() override {
    if (!runner_.rowScores(&score_, &curvature_)) return false;
    model_.load(score_, curvature_);
    return true;
  }

  Proposal propose(const CycleState& state, ProgressSink* progress) override {
    delta_.resize(state.beta.size());
    Proposal out;
    out.move = sweepSteps(model_, state, &delta_, progress);
    out.passes = 1;
    if (out.move != 0.0) out.slope = model_.direction(&d_);
    return out;
  }

  void beginTrials(const CycleState& state) override {
    base_ = runner_.linearPredictor();
    from_ = state.beta;
    zeroed_.assign(from_.size(), 0);
    for (std::size_t j = 0; j < from_.size(); ++j) zeroed_[j] = delta_[j] != 0.0 && from_[j] + delta_[j] == 0.0;
  }
  const std::vector<double>& from() const override { return from_; }
  const std::vector<double>& delta() const override { return delta_; }
  const std::vector<unsigned char>& zeroed() const override { return zeroed_; }

  CycleReadout at(CycleState& state, double s) override {
    const std::size_t p = from_.size(), n = eta_.size();
    for (std::size_t j = 0; j < p; ++j) state.beta[j] = (s > 1.0 && zeroed_[j]) ? 0.0 : from_[j] + s * delta_[j];
    for (std::size_t r = 0; r < n; ++r) eta_[r] = base_[r] + s * d_[r];
    if (s > 1.0)
      for (std::size_t j = 0; j < p; ++j)
        if (zeroed_[j])
          forEachEntry(data_.design.columns[j], data_.nRows(),
                       [&](std::int64_t r, double x) { eta_[r] -= (s - 1.0) * delta_[j] * x; });
    return runner_.resetToEta(state, eta_);
  }

  double etaChange() override {
    double change = 0.0;
    for (std::size_t r = 0; r < eta_.size(); ++r) change += std::fabs(eta_[r] - base_[r]);
    return change;
  }

 private:
  CycleRunner& runner_;
  const Dataset& data_;
  std::unique_ptr<WorkerTeam> team_;
  QuadraticModel model_;
  std::vector<double> score_, curvature_, delta_, d_, eta_, base_, from_;
  std::vector<unsigned char> zeroed_;
};

}  // namespace

std::unique_ptr<BoundSteps> makeHostBoundSteps(CycleRunner& runner, const Dataset& data,
                                               const MajorizedStartOptions& options) {
  return std::make_unique<HostBoundSteps>(runner, data, options);
}

}  // namespace argus
