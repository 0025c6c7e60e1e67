// Hand-made designs for the solver tests: columns given as full vectors (one value per row),
// stored as the kind asked for (zeros dropped for indicator and sparse columns), with y and an
// optional stratum vector. Owns every array its Dataset points into; not copyable.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "data/dataset.h"
#include "data/design_storage.h"
#include "common/model_type.h"

namespace argus {
namespace testing_data {

class HandDesign {
 public:
  HandDesign(ModelType model, std::vector<double> outcome) : y(std::move(outcome)) {
    storage.nRows = static_cast<std::int64_t>(y.size());
    data.model = model;
  }
  HandDesign(const HandDesign&) = delete;
  HandDesign& operator=(const HandDesign&) = delete;

  void addIntercept() { addColumn(ColumnKind::Intercept, std::vector<double>(y.size(), 1.0)); }

  void addColumn(ColumnKind kind, const std::vector<double>& x) {
    storage.kinds.push_back(static_cast<int>(kind));
    for (std::size_t r = 0; r < x.size(); ++r) {
      if (kind == ColumnKind::Dense) storage.values.push_back(x[r]);
      if ((kind == ColumnKind::Indicator || kind == ColumnKind::Sparse) && x[r] != 0.0) {
        storage.rows.push_back(static_cast<std::int32_t>(r));
        if (kind == ColumnKind::Sparse) storage.values.push_back(x[r]);
      }
    }
    storage.rowStart.push_back(static_cast<std::int64_t>(storage.rows.size()));
    storage.valueStart.push_back(static_cast<std::int64_t>(storage.values.size()));
    columns.push_back(x);
  }

  // Contiguous strata, given per row (non-decreasing).
  void setStrata(const std::vector<std::int32_t>& perRow) {
    stratum = perRow;
    stratumStart.assign(1, 0);
    for (std::size_t r = 1; r < perRow.size(); ++r)
      if (perRow[r] != perRow[r - 1]) stratumStart.push_back(static_cast<std::int64_t>(r));
    stratumStart.push_back(static_cast<std::int64_t>(perRow.size()));
  }

  // Call after the last column: points the Dataset at the arrays.
  const Dataset& finish() {
    data.design = storage.view();
    data.outcomes.y = y.data();
    data.outcomes.time = time.empty() ? nullptr : time.data();
    if (!stratum.empty()) {
      data.outcomes.stratum = stratum.data();
      data.outcomes.stratumStart = stratumStart.data();
      data.outcomes.nStrata = static_cast<std::int32_t>(stratumStart.size() - 1);
    }
    return data;
  }

  std::size_t nColumns() const { return columns.size(); }

  Dataset data;
  DesignStorage storage;
  std::vector<std::vector<double>> columns;
  std::vector<double> y, time;
  std::vector<std::int32_t> stratum;
  std::vector<std::int64_t> stratumStart;
};

}  // namespace testing_data
}  // namespace argus
