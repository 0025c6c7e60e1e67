// Many fits of one data set under one set of weights on one device: the points of a profile
// and the refits of its limits (solver/profile.h), each a fit with one coefficient held
// somewhere else.
//
// fitCcd() sets a fit up from nothing: it validates the data, centres them where needed
// (data/column_centring.h), resolves the device and makes a runner, whose likelihood builds
// its risk sets or strata. On a Cox model of 10,000 rows in 2,000 strata with one covariate,
// that set-up was nearly all of each profile point (2.6 ms of 3), where the incumbent moves
// one coefficient of an engine it keeps. A session does the set-up once and lends its runner
// to every fit (CycleRunner::restart() returns it to the state of a new one), so each fit is
// the fit fitCcd() makes of the same request, to the bit: the tests compare them.
//
// One session belongs to one thread at a time (profile.cpp keeps one per worker).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "data/column_centring.h"
#include "solver/ccd_solver.h"

namespace argus {

class RefitSession {
 public:
  // Validates base's data and weights, centres the data where fitCcd() would, and resolves
  // base's device once ("auto" included), with the device copy of the data its fits share.
  explicit RefitSession(const FitRequest& base);
  RefitSession(const RefitSession&) = delete;
  RefitSession& operator=(const RefitSession&) = delete;

  // fitCcd(req) for a request on the base's data, weights, device and threads (its prior,
  // start, fixed flags and other controls are its own): the same result, without the set-up.
  FitResult fit(const FitRequest& req, ProgressSink* progress = nullptr);

  // The log-likelihood at beta, the runner reset there (every sum recomputed from beta), and
  // then g_j, h_j there (no fit in between): LikelihoodProbe::moveTo() and gradHess() on these
  // data, to the bit.
  double moveTo(const std::vector<double>& beta);
  GradHess gradHess(std::int32_t j);

 private:
  // The runner, new or restarted as a new one.
  CycleRunner& freshRunner();

  const Dataset& input_;
  const double* weights_;
  int threads_;
  ShiftInvariantCentring centring_;
  ComputeDevice device_;  // resolved, then where the runner runs (makeCycleRunner may hand a fit to the CPU)
  std::shared_ptr<const SharedDeviceData> shared_;
  std::unique_ptr<CycleRunner> runner_;
  bool used_ = false;     // runner_ has been moved since it was made or restarted
  bool probed_ = false;   // runner_ stands where the last moveTo() put it
  CycleState probe_;      // moveTo()'s state: reset() reads only beta
};

}  // namespace argus
