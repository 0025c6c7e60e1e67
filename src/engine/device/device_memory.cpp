#include "device/device_memory.h"

#include "common/model_type.h"

namespace argus {

double deviceBytesNeeded(const Dataset& data) {
  const double n = static_cast<double>(data.nRows());
  const double p = static_cast<double>(data.design.nColumns());
  double entries = 0.0, values = 0.0, visits = 0.0;
  for (const ColumnView& c : data.design.columns) {
    const bool stored = c.kind == ColumnKind::Indicator || c.kind == ColumnKind::Sparse;
    if (stored) entries += static_cast<double>(c.nnz);
    if (c.kind == ColumnKind::Sparse || c.kind == ColumnKind::Dense) values += static_cast<double>(c.nnz);
    visits += stored ? static_cast<double>(c.nnz) : n;  // a run starts at most once per entry
  }
  // The design, beta / bound / prior (8 + 8 + 16 bytes each), 4 KiB of device scalars and
  // room for CUB's scratch.
  double bytes = 4.0 * entries + 8.0 * values + 32.0 * p + 4096.0 + 64.0 * 1048576.0;
  const double strata = static_cast<double>(data.outcomes.nStrata);
  if (isSurvival(data.model)) {
    // Rows: 8 doubles, the event flag, the exit slot, the stratum, a competing item (16 bytes),
    // an exit run (12) and a staged entry (32); slots (at most one per row and stratum): 12
    // doubles, the event terms (40), stratum, base flag and a tied-slot entry (4); chunks of
    // at least 16 entries: their starts (8) and at most one crossing group per cut (24), and
    // for one column's (at most N / 16) a step's two pieces (slot, share and their sum by
    // slot: 2 x 52; the chunks' partial sums are folded as they are scanned, in CUB's scratch).
    const double slots = n + strata;
    const double chunks = (visits + n) / 16.0 + p + 1.0;
    bytes += (8.0 * 8.0 + 1.0 + 4.0 + 4.0 + 16.0 + 12.0 + 32.0) * n +
             (12.0 * 8.0 + 40.0 + 4.0 + 1.0 + 4.0) * slots + (8.0 + 24.0) * chunks + 8.0 * (p + 1.0) +
             104.0 * (n / 16.0 + 1.0) + 32.0 * strata;
    // Counting-process data: up to two items per entry (exit and entry, 8 bytes each) and
    // their chunks, a second staged entry per row, the moved entries (32), the entry slot and
    // the rows by entry slot (4 + 4 + 8).
    if (data.outcomes.startTime)
      bytes += 16.0 * (visits + n) + (8.0 + 24.0) * chunks + (32.0 + 32.0 + 16.0) * n + 8.0 +
               104.0 * (n / 16.0 + 1.0);  // twice the chunks of one column
  } else if (isConditional(data.model)) {
    const double runs = visits + n + p + 1.0;  // every column's runs, all rows', one end each
    bytes += 7.0 * 8.0 * n + 12.0 * runs + 16.0 * n +  // the run terms: one per run of a column
             40.0 * strata;
    // clr's Efron and exact ties: per stratum the cases, F, the slot terms (40), the exact
    // weight, scratch offset and failure flag; the exact recursion's scratch (32 bytes per
    // case and stratum, at most one case per row).
    if (data.model == ModelType::ConditionalLogistic && data.ties != TieMethod::Breslow)
      bytes += (8.0 + 8.0 + 40.0 + 4.0 + 8.0 + 8.0 + 1.0) * strata + 32.0 * (n + strata);
  } else {
    bytes += 10.0 * 8.0 * n;
  }
  return bytes;
}

double allCoordinatesBytesNeeded(const Dataset& data) {
  const double n = static_cast<double>(data.nRows());
  const double p = static_cast<double>(data.design.nColumns());
  const double strata = static_cast<double>(data.outcomes.nStrata > 1 ? data.outcomes.nStrata : 1);
  double entries = 0.0;
  bool values = false;
  for (const ColumnView& c : data.design.columns) {
    const bool stored = c.kind == ColumnKind::Indicator || c.kind == ColumnKind::Sparse;
    entries += stored ? static_cast<double>(c.nnz) : n;
    values = values || c.kind == ColumnKind::Sparse || c.kind == ColumnKind::Dense;
  }
  const double runs = entries + p;  // a run starts at most once per entry
  const double design = (values ? 24.0 : 8.0) * entries + 12.0 * runs + 8.0 * (n + 1.0) + 16.0 * (p + 1.0) +
                        8.0 * (strata + 1.0) + (strata > 1.0 ? 4.0 * n : 0.0);
  const double steps = 9.0 * 8.0 * n + (8.0 * 8.0 + 2.0 + 16.0 + 32.0) * p + (3.0 * 8.0 + 32.0 + 16.0) * strata +
                       16.0 * runs + 4096.0;
  return design + steps;
}

}  // namespace argus
