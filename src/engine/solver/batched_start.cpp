#include "solver/batched_start.h"

#include <chrono>
#include <memory>

#include "common/progress_sink.h"
#include "solver/ccd_fit.h"
#include "solver/majorized_start.h"

namespace argus {

std::vector<FitResult> fitBatch(const FitRequest& common, const std::vector<const double*>& weights,
                                BatchedBoundSteps& batch, ProgressSink* progress) {
  const auto started = std::chrono::steady_clock::now();
  const int members = static_cast<int>(weights.size());
  const MajorizedStartOptions options = majorizedStartOptions(common.control);
  std::vector<CycleState> states(members, initialState(common));
  std::vector<std::unique_ptr<MajorizedStartLoop>> loops;
  std::vector<int> active;
  for (int m = 0; m < members; ++m) {
    const CycleReadout at = batch.reset(m, states[m]);
    loops.push_back(std::make_unique<MajorizedStartLoop>(states[m], at, options, batch.member(m)));
    active.push_back(m);
  }
  // Lockstep: every active member's bound and step at once, then each member's own search and
  // rules; a member whose start ends drops out of the next passes.
  for (int step = 0; step < options.maxSteps && !active.empty(); ++step) {
    if (progress) progress->checkInterrupt();
    batch.load(active);
    const std::vector<BoundSteps::Proposal> proposals = batch.propose(active, states, progress);
    std::vector<int> next;
    for (std::size_t i = 0; i < active.size(); ++i)
      if (loops[active[i]]->take(proposals[i])) next.push_back(active[i]);
    active.swap(next);
  }
  const double startSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::vector<FitResult> out;
  for (int m = 0; m < members; ++m) {
    const MajorizedStartResult& start = loops[m]->result();
    FitRequest req = common;
    req.weights = weights[m];
    req.start = states[m].beta;
    req.control.majorizedStart = MajorizedStartRule::Never;
    req.certifyStart = start.ruleMet;
    FitResult fit = fitCcd(req, progress);
    fit.majorizedSteps = start.steps;
    fit.majorizedPasses = start.sweeps;
    fit.seconds += startSeconds / members;
    out.push_back(std::move(fit));
  }
  return out;
}

}  // namespace argus
