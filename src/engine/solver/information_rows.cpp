#include "solver/information_rows.h"

#include <algorithm>

#include "common/model_type.h"

namespace argus {

namespace {

// Rows [first, end) of each stratum, in order (one stratum where there are none).
template <typename F>
void forEachStratum(const Dataset& data, F&& f) {
  const std::int64_t n = data.nRows();
  const OutcomeView& o = data.outcomes;
  for (std::int64_t r = 0; r < n;) {
    std::int64_t end = n;
    if (o.stratum)
      for (end = r + 1; end < n && o.stratum[end] == o.stratum[r]; ++end) {}
    f(r, end);
    r = end;
  }
}

// Conditional models: a stratum with a case (and, under clr's exact likelihood, a control).
void conditionalRows(const Dataset& data, InformationRows* out) {
  const bool exact = data.model == ModelType::ConditionalLogistic && data.ties == TieMethod::Exact;
  std::int32_t group = 0;
  forEachStratum(data, [&](std::int64_t first, std::int64_t end) {
    std::int64_t members = 0, cases = 0;
    for (std::int64_t r = first; r < end; ++r) {
      if (!(out->weight[r] > 0.0)) continue;
      ++members;
      if (data.outcomes.y[r] > 0.0) ++cases;
    }
    const bool informative = cases > 0 && (!exact || cases < members);
    for (std::int64_t r = first; r < end; ++r) {
      if (!informative) out->weight[r] = 0.0;
      out->group[r] = group;
    }
    ++group;
  });
}

// Cox and Fine-Gray (see the header).
void survivalRows(const Dataset& data, InformationRows* out) {
  const OutcomeView& o = data.outcomes;
  const bool fineGray = data.model == ModelType::FineGray;
  auto isEvent = [&](std::int64_t r) {
    return out->weight[r] > 0.0 && (fineGray ? o.y[r] == 1.0 : o.y[r] > 0.0);
  };
  std::int32_t group = 0;
  forEachStratum(data, [&](std::int64_t first, std::int64_t end) {
    std::vector<double> times;
    for (std::int64_t r = first; r < end; ++r)
      if (isEvent(r)) times.push_back(o.time[r]);
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    if (times.empty()) {
      for (std::int64_t r = first; r < end; ++r) out->weight[r] = 0.0, out->group[r] = group;
      ++group;
      return;
    }
    if (!o.startTime) {
      for (std::int64_t r = first; r < end; ++r) {
        const bool atRisk = o.time[r] >= times.front() || (fineGray && o.y[r] == 2.0);
        if (!atRisk) out->weight[r] = 0.0;
        out->group[r] = group;
      }
      ++group;
      return;
    }
    // (start, stop]: the event times in each row's interval, [lo, hi] as indices; event
    // times i and i + 1 are joined where some row spans both.
    const std::size_t m = times.size();
    std::vector<std::int64_t> lo(static_cast<std::size_t>(end - first), 0), span(m + 1, 0);
    for (std::int64_t r = first; r < end; ++r) {
      const std::size_t a = static_cast<std::size_t>(std::upper_bound(times.begin(), times.end(), o.startTime[r]) - times.begin());
      const std::size_t b = static_cast<std::size_t>(std::upper_bound(times.begin(), times.end(), o.time[r]) - times.begin());
      lo[r - first] = static_cast<std::int64_t>(a);
      if (a >= b || !(out->weight[r] > 0.0)) {  // at risk at no event time
        out->weight[r] = 0.0;
        lo[r - first] = -1;
        continue;
      }
      ++span[a];        // joins a, a + 1, ..., b - 1
      --span[b - 1];
    }
    std::vector<std::int32_t> component;
    component.reserve(m);
    std::int64_t open = 0;
    for (std::size_t i = 0; i < m; ++i) {
      component.push_back(i == 0 ? group : component.back() + (open > 0 ? 0 : 1));
      open += span[i];
    }
    for (std::int64_t r = first; r < end; ++r)
      out->group[r] = lo[r - first] >= 0 ? component[static_cast<std::size_t>(lo[r - first])] : group;
    group = component.back() + 1;
  });
}

}  // namespace

InformationRows informationRows(const Dataset& data, const double* weights) {
  const std::int64_t n = data.nRows();
  InformationRows out;
  out.weight.resize(static_cast<std::size_t>(n));
  out.group.assign(static_cast<std::size_t>(n), 0);
  for (std::int64_t r = 0; r < n; ++r) {
    const double w = weights ? weights[r] : 1.0;
    out.weight[r] = w > 0.0 ? w : 0.0;
  }
  if (isSurvival(data.model)) {
    out.centred = true;
    survivalRows(data, &out);
  } else if (isConditional(data.model)) {
    out.centred = true;
    conditionalRows(data, &out);
  }
  return out;
}

}  // namespace argus
