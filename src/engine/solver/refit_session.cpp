#include "solver/refit_session.h"

#include <cmath>

#include "common/errors.h"
#include "solver/ccd_fit.h"

namespace argus {

namespace {

// The data are checked before the centring reads them (as fitCcd() and LikelihoodProbe do).
const Dataset& validatedData(const FitRequest& base) {
  ARGUS_REQUIRE(base.data != nullptr, "no data");
  ARGUS_REQUIRE(base.control.threads >= 1, "threads must be at least 1");
  validateDataset(*base.data, base.weights);
  return *base.data;
}

}  // namespace

RefitSession::RefitSession(const FitRequest& base)
    : input_(validatedData(base)),
      weights_(base.weights),
      threads_(base.control.threads),
      centring_(input_) {
  // The device is resolved for the data the fits read, and its copy made of them: the input's
  // where nothing is centred (and a copy made already is taken as it is), the centred copy's
  // otherwise (fitCcd() drops a shared copy there too: it was made for the input's columns).
  if (base.sharedDevice && !centring_.active()) {
    device_ = base.device;
    shared_ = base.sharedDevice;
  } else {
    DeviceRun run = prepareDeviceRun(base.device, centring_.data());
    device_ = run.device;
    shared_ = std::move(run.shared);
  }
  const std::size_t p = input_.design.nColumns();
  probe_.bound.assign(p, 1.0);
  probe_.prior.assign(p, CoordinatePrior{});
  probe_.fixed.assign(p, 0);
  // moveTo() reads the log-likelihood and gradients, never eta's movement: without the mark
  // its reset skips a pass over the rows (10% of a one-covariate Cox profile's points)
  probe_.tracksEtaChange = false;
}

CycleRunner& RefitSession::freshRunner() {
  if (!runner_ || (used_ && !runner_->restart()))
    runner_ = makeCycleRunner(device_, centring_.data(), weights_, threads_, shared_, &device_);
  used_ = true;
  return *runner_;
}

FitResult RefitSession::fit(const FitRequest& request, ProgressSink* progress) {
  ARGUS_REQUIRE(request.data == &input_ && request.weights == weights_ &&
                    request.control.threads == threads_,
                "a session's fits are of its own data, weights and threads");
  validateFitSettings(request);
  CycleRunner& runner = freshRunner();  // first: it may hand the fits to the CPU (device_)
  FitRequest req = request;
  req.data = &centring_.data();
  req.device = device_;
  req.sharedDevice = shared_;
  probed_ = false;
  FitResult result = fitOnData(req, progress, &runner);
  if (!result.eta.empty() && centring_.active()) centring_.addEtaShift(result.beta, &result.eta);
  return result;
}

double RefitSession::moveTo(const std::vector<double>& beta) {
  ARGUS_REQUIRE(beta.size() == input_.design.nColumns(), "beta has the wrong length");
  for (double b : beta) ARGUS_REQUIRE(std::isfinite(b), "beta must be finite");
  if (!runner_) freshRunner();
  used_ = true;
  probed_ = true;
  probe_.beta = beta;
  return runner_->reset(probe_).logLikelihood;
}

GradHess RefitSession::gradHess(std::int32_t j) {
  ARGUS_REQUIRE(probed_, "gradHess() needs a moveTo() first (and no fit since)");
  return runner_->gradHess(j);
}

}  // namespace argus
