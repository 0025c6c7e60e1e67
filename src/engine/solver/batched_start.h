// Fits of one data set that differ only in their weights (a cross-validation's fold fits of one
// candidate variance, from one start), taken through the majorized start together: the member
// index is a dimension of the device's bound, so that each pass reads X once for all members
// (device/batched_steps.h). Each member runs its own outer loop (MajorizedStartLoop: its own
// line search and stopping rules), in lockstep with the others; a member whose start ends drops
// out of the passes. Then each member is finished by fitCcd from where its start stands, its
// first step the certificate (FitRequest::certifyStart), with exact cycles where that fails:
// every member's result is a certified fit of its own weights, as fitCcd gives it.
//
// Declarations at the solver's level; a device implements BatchedBoundSteps and the dispatch
// point (makeBatchedBoundSteps, declared below, defined in device/dispatch.cpp) hands it out,
// or none (the CPU, a model without a bound, a batch the device's memory cannot hold): the
// fits then run one by one as before.
#pragma once

#include <memory>
#include <vector>

#include "solver/bound_steps.h"
#include "solver/ccd_solver.h"

namespace argus {

// Members whose passes over X share one read (the device's lanes, device/batched_functors.h),
// and so the fold fits a cross-validation hands a device in one batch.
constexpr int kBatchLanes = 16;

class BatchedBoundSteps {
 public:
  virtual ~BatchedBoundSteps() = default;
  virtual int members() const = 0;
  // Member m reset to state.beta (eta = offset + X beta): its log-likelihood and sum w y eta.
  virtual CycleReadout reset(int m, const CycleState& state) = 0;
  // The bound of every member in `active` at the beta where it stands.
  virtual void load(const std::vector<int>& active) = 0;
  // The step of every active member from its state's beta (states indexed by member), one
  // proposal per active member in order; each pass over X serves every active member.
  virtual std::vector<BoundSteps::Proposal> propose(const std::vector<int>& active,
                                                    const std::vector<CycleState>& states, ProgressSink* progress) = 0;
  // Member m's trials along its proposal (its load() and propose() are the batch's).
  virtual BoundSteps& member(int m) = 0;
};

// The batch for the fits of `data` with each of `weights` on `device` (shared: the data's
// device copy, or null), or null where the device offers none (the CPU; a model without a
// bound, as clr with Efron or exact ties; too little free memory, or an allocation that failed
// while the batch was built). Defined by the dispatch point (device/dispatch.cpp).
std::unique_ptr<BatchedBoundSteps> makeBatchedBoundSteps(const ComputeDevice& device, const Dataset& data,
                                                         const std::vector<const double*>& weights,
                                                         const std::shared_ptr<const SharedDeviceData>& shared);

// The fits of `common` (data, priors, start, fixed, control, device) with each of `weights`
// (one per member, each valid through the call): the batch's start, then fitCcd per member.
// FitResults in member order, with the start's steps and passes.
std::vector<FitResult> fitBatch(const FitRequest& common, const std::vector<const double*>& weights,
                                BatchedBoundSteps& batch, ProgressSink* progress = nullptr);

}  // namespace argus
