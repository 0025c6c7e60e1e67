// One fit in progress: the steps of fitCcd() (solver/ccd_solver.cpp) and what they share.
//
//   CcdFit fit(request, progress);  plan: the state, the runner, aliased columns set aside
//   fit.start();                    the majorized start, certified where it met the rule
//   fit.cycle();                    exact cycles until a certified rule (or maxIterations)
//   fit.readOut();                  the log-likelihood from fresh sums at the returned beta
//   fit.certify();                  optimality there, coefficients without a finite estimate
//   FitResult r = fit.result();     the result, with eta where asked
//
// The request must be validated (validateFitRequest) and its data the fit's own (centred
// where fitCcd centres them). The object holds references to both. A fit makes its runner
// through the dispatch point, or borrows one made for these data and weights that stands as a
// new one does (CycleRunner::restart(): solver/refit_session.h lends it to many fits).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/progress_pace.h"
#include "solver/ccd_solver.h"
#include "solver/cycle_schedule.h"
#include "solver/duplicate_split.h"
#include "solver/majorized_start.h"
#include "solver/overshoot_guard.h"

namespace argus {

// The settings of a request, everything but its data and weights (validateDataset): fitCcd()
// checks both, a RefitSession (solver/refit_session.h) the data once and these per fit.
void validateFitSettings(const FitRequest& req);

// The state a fit of req starts from: its start (or 0), priors, fixed flags and the trust
// region scaled to each column. A batch of fits (solver/batched_start.h) starts each member
// from it too.
CycleState initialState(const FitRequest& req);

// The majorized start's options a request's control sets (a single fit's and a batch's).
MajorizedStartOptions majorizedStartOptions(const ControlSettings& control);

// The steps below on a validated request whose data the fit may read as they are (centred
// where fitCcd centres them), with its own runner or the one lent (see CcdFit).
FitResult fitOnData(const FitRequest& req, ProgressSink* progress, CycleRunner* runner = nullptr);

class CcdFit {
 public:
  CcdFit(const FitRequest& req, ProgressSink* progress, CycleRunner* runner = nullptr);
  CcdFit(const CcdFit&) = delete;
  CcdFit& operator=(const CcdFit&) = delete;

  void start();
  void cycle();
  void readOut();
  void certify();
  FitResult result();

 private:
  void setAsideAliased();
  bool certifyStart();
  void prepareCycles(bool certifiedByStart);
  bool undoneByGuard(const CycleReadout& current);
  void noteCycle(const CyclePlan& plan, const CycleReadout& current, double measure) const;
  void reportStep(int steps, const CycleReadout& at);
  void reportCycle(const CycleReadout& current, double measure);
  void checkRule(bool ruleMet);
  std::vector<std::int32_t> probeRecession();
  bool verbose() const { return progress_ && req_.control.verbose; }

  // Checks of the optimality conditions: every kCheckEvery full cycles once one has failed or
  // a coefficient is far out; a failed check tightens the rule tenfold, down to kGateFloor of
  // the tolerance.
  static constexpr double kGateFloor = 1e-6;
  static constexpr int kCheckEvery = 10;
  // The recent move along which coefficients running off to infinity are probed
  // (solver/recession.h): beta now less beta 8 to 16 cycles ago, when the finite
  // coefficients have settled and the move is along the direction of recession.
  static constexpr int kMoveWindow = 8;

  const FitRequest& req_;
  const Dataset& data_;
  ProgressSink* progress_;
  ProgressPace pace_;  // of the progress lines (ControlSettings::progressSeconds)
  CycleState state_;
  // Where runner_ runs: a borrowed runner on req.device (its session resolved it), an own one
  // where makeCycleRunner says (set while it is made, so declared before it).
  ComputeDevice device_;
  std::unique_ptr<CycleRunner> ownRunner_;  // null where the runner is borrowed
  CycleRunner* runner_;
  FitResult result_;
  CycleReadout previous_;
  std::optional<DuplicateSplit> duplicateSplit_;  // after the aliased columns are fixed
  std::optional<CycleSchedule> schedule_;
  std::optional<OvershootGuard> guard_;
  ReadoutNeeds needs_;
  double previousPrior_ = 0.0;
  double gate_ = 0.0;  // the rule's tolerance, tightened after a failed check
  int failedChecks_ = 0, lastCheck_ = 0;
  std::vector<double> older_, newer_;  // beta kMoveWindow and 2 kMoveWindow cycles ago
  std::vector<double> maxAbs_;         // per column, its largest |x|
  std::int32_t intercept_ = -1;
  bool shiftInvariant_ = false;
  bool canRecede_ = true;
};

}  // namespace argus
