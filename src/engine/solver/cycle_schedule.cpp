#include "solver/cycle_schedule.h"

namespace argus {

CycleSchedule::CycleSchedule(const DesignView& design, const std::vector<unsigned char>& fixed,
                             bool activeSet)
    : activeSet_(activeSet) {
  std::int32_t intercept = -1;
  for (std::size_t j = 0; j < design.nColumns(); ++j) {
    if (fixed[j]) continue;
    if (design.columns[j].kind == ColumnKind::Intercept && intercept < 0) {
      intercept = static_cast<std::int32_t>(j);
      continue;
    }
    full_.coordinates.push_back(static_cast<std::int32_t>(j));
  }
  work_.resize(design.nColumns());
  for (std::size_t j = 0; j < design.nColumns(); ++j) {
    work_[j] = static_cast<double>(design.columns[j].nnz) + 1.0;
    if (!fixed[j]) fullWork_ += work_[j];
  }
  if (intercept >= 0) full_.coordinates.push_back(intercept);
  full_.follower = intercept;
  active_.follower = intercept;
}

const CyclePlan& CycleSchedule::begin(const CycleState& state) {
  if (nextFull_) {
    current_ = &full_;
    if (activeSet_) {
      zeroBefore_.resize(full_.coordinates.size());
      for (std::size_t k = 0; k < full_.coordinates.size(); ++k)
        zeroBefore_[k] = state.beta[full_.coordinates[k]] == 0.0;
    }
  } else {
    current_ = &active_;
  }
  return *current_;
}

bool CycleSchedule::finish(bool ruleMet, const CycleState& state) {
  if (!activeSet_) return ruleMet;
  if (current_ == &active_) {
    nextFull_ = ruleMet;  // settled on the active set: check the rest with a full cycle
    return false;
  }
  bool entered = false;
  for (std::size_t k = 0; k < full_.coordinates.size() && !entered; ++k)
    entered = zeroBefore_[k] && state.beta[full_.coordinates[k]] != 0.0;
  if (ruleMet && !entered) return true;
  buildActive(state);
  nextFull_ = active_.coordinates.empty() || !worthIt_;
  return false;
}

void CycleSchedule::buildActive(const CycleState& state) {
  active_.coordinates.clear();
  double activeWork = 0.0;
  for (const std::int32_t j : full_.coordinates)
    if (state.beta[j] != 0.0 || state.prior[j].kind != PriorKind::Laplace) {
      active_.coordinates.push_back(j);
      activeWork += work_[j];
    }
  worthIt_ = activeWork <= kMaxActiveWork * fullWork_;
}

}  // namespace argus
