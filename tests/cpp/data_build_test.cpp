// The fast paths of createData()'s long-table build: buildDesign() on entries already sorted
// by (column, row) and with the row plan's map applied inside, identifier coding read in
// place from int32 / double / int64 storage, and the one-pass value checks. Each must give
// exactly what the general path gives, since R's results must not depend on which ran.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "common/errors.h"
#include "data/design_storage.h"
#include "data/id_index.h"
#include "data/value_checks.h"

namespace argus {
namespace {

struct Entries {
  std::vector<std::int32_t> row, column;
  std::vector<double> value;
};

// Random entries over user rows, with zeros, repeated (row, column) pairs and columns of
// every kind (sparse, indicator, dense at the default 1/4 fill).
Entries randomEntries(std::int32_t nUserRows, std::int32_t nColumns, std::mt19937* rng) {
  Entries e;
  std::uniform_int_distribution<std::int32_t> anyRow(0, nUserRows - 1);
  for (std::int32_t c = 0; c < nColumns; ++c) {
    if (c == 3) continue;  // an empty column
    const int n = c % 4 == 0 ? nUserRows / 2 : 1 + c % 7;
    for (int k = 0; k < n; ++k) {
      e.row.push_back(anyRow(*rng));
      e.column.push_back(c);
      e.value.push_back(c % 3 == 1 ? 1.0 : (k % 5 == 0 ? 0.0 : 0.5 * k - 1));
    }
  }
  return e;
}

Entries permuted(const Entries& e, const std::vector<std::size_t>& order) {
  Entries out;
  for (std::size_t k : order) {
    out.row.push_back(e.row[k]);
    out.column.push_back(e.column[k]);
    out.value.push_back(e.value[k]);
  }
  return out;
}

TripletInput tripletInput(const Entries& e, std::int64_t nRows, std::int32_t nColumns,
                          const std::vector<std::int32_t>* internalOfUser, bool intercept) {
  TripletInput in;
  in.nRows = nRows;
  in.nColumns = nColumns;
  in.nEntries = static_cast<std::int64_t>(e.row.size());
  in.row = e.row.data();
  in.column = e.column.data();
  in.value = e.value.data();
  in.addIntercept = intercept;
  if (internalOfUser) {
    in.internalOfUser = internalOfUser->data();
    in.nUserRows = static_cast<std::int64_t>(internalOfUser->size());
  }
  return in;
}

BuiltDesign build(const Entries& e, std::int64_t nRows, std::int32_t nColumns,
                  const std::vector<std::int32_t>* internalOfUser, bool intercept = true) {
  return buildDesign(tripletInput(e, nRows, nColumns, internalOfUser, intercept));
}

// buildDesign() writing its rows into memory the caller owns (as the R bridge does), then
// copied back into storage.rows so that the result compares with the owning build's.
BuiltDesign buildIntoBuffer(const Entries& e, std::int64_t nRows, std::int32_t nColumns,
                            const std::vector<std::int32_t>* internalOfUser) {
  const TripletInput in = tripletInput(e, nRows, nColumns, internalOfUser, true);
  std::vector<std::int32_t> buffer(e.row.size(), -7);
  BuiltDesign built = buildDesign(in, buffer.data());
  EXPECT_EQ(built.rowsOut, buffer.data());
  EXPECT_TRUE(built.storage.rows.empty());
  const std::int64_t stored = built.storage.rowStart.back();
  EXPECT_LE(stored, in.nEntries);
  built.storage.rows.assign(buffer.begin(), buffer.begin() + stored);
  return built;
}

void expectSameStorage(const BuiltDesign& a, const BuiltDesign& b) {
  EXPECT_EQ(a.storage.kinds, b.storage.kinds);
  EXPECT_EQ(a.storage.rowStart, b.storage.rowStart);
  EXPECT_EQ(a.storage.valueStart, b.storage.valueStart);
  EXPECT_EQ(a.storage.rows, b.storage.rows);
  EXPECT_EQ(a.storage.values, b.storage.values);
  EXPECT_EQ(a.skippedEntries, b.skippedEntries);
  EXPECT_EQ(a.zeroEntries, b.zeroEntries);
  EXPECT_EQ(a.duplicateRow, b.duplicateRow);
  EXPECT_EQ(a.duplicateColumn, b.duplicateColumn);
}

// A row plan that drops user rows 5 and 17 and reverses the others (as a survival plan may).
std::vector<std::int32_t> droppingReversingPlan(std::int32_t nUser) {
  std::vector<std::int32_t> map(nUser);
  std::int32_t next = nUser - 3;
  for (std::int32_t u = 0; u < nUser; ++u) map[u] = (u == 5 || u == 17) ? -1 : next--;
  return map;
}

TEST(DataBuild, SortedEntriesGiveTheDesignOfAnyOrder) {
  std::mt19937 rng(11);
  const std::int32_t nUser = 40, nColumns = 12;
  const Entries e = randomEntries(nUser, nColumns, &rng);
  const std::vector<std::int32_t> map = droppingReversingPlan(nUser);
  // The same entries pre-mapped, as R used to pass them.
  Entries mapped = e;
  for (auto& r : mapped.row) r = map[r];

  std::vector<std::size_t> shuffled(e.row.size());
  std::iota(shuffled.begin(), shuffled.end(), 0);
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  // (column, internal row) order, stable (repeated pairs keep their shuffled order, as the
  // general path's stable sorts keep it): the fast path's input.
  std::vector<std::size_t> sorted = shuffled;
  std::stable_sort(sorted.begin(), sorted.end(), [&](std::size_t a, std::size_t b) {
    return mapped.column[a] != mapped.column[b] ? mapped.column[a] < mapped.column[b]
                                                : mapped.row[a] < mapped.row[b];
  });
  const BuiltDesign reference = build(permuted(mapped, shuffled), nUser - 2, nColumns, nullptr);
  EXPECT_GE(reference.firstDuplicate, 0);
  for (bool intercept : {false, true}) {
    const BuiltDesign general = build(permuted(mapped, shuffled), nUser - 2, nColumns, nullptr,
                                      intercept);
    const BuiltDesign viaMap = build(permuted(e, shuffled), nUser - 2, nColumns, &map, intercept);
    const Entries inOrder = permuted(e, sorted);
    const BuiltDesign fast = build(inOrder, nUser - 2, nColumns, &map, intercept);
    const BuiltDesign fastMapped = build(permuted(mapped, sorted), nUser - 2, nColumns, nullptr,
                                         intercept);
    expectSameStorage(viaMap, general);
    EXPECT_EQ(viaMap.firstDuplicate, general.firstDuplicate);
    expectSameStorage(fast, general);
    expectSameStorage(fastMapped, general);
    EXPECT_EQ(fast.firstDuplicate, fastMapped.firstDuplicate);
    // The reported entry is the second of its pair in the order given.
    const std::int64_t d = fast.firstDuplicate;
    ASSERT_GE(d, 1);
    EXPECT_EQ(map[inOrder.row[d]], fast.duplicateRow);
    EXPECT_EQ(inOrder.column[d], fast.duplicateColumn);
  }
  EXPECT_EQ(reference.storage.kinds.size(), static_cast<std::size_t>(nColumns) + 1);
}

// Rows written into the caller's buffer: the same design on the sorted and the general path,
// with dropped rows, zeros and dense columns (which store no rows) leaving part of it unused.
TEST(DataBuild, RowsIntoTheCallersBufferGiveTheSameDesign) {
  std::mt19937 rng(13);
  const std::int32_t nUser = 40, nColumns = 12;
  const Entries e = randomEntries(nUser, nColumns, &rng);
  const std::vector<std::int32_t> map = droppingReversingPlan(nUser);
  std::vector<std::size_t> shuffled(e.row.size());
  std::iota(shuffled.begin(), shuffled.end(), 0);
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  std::vector<std::size_t> sorted = shuffled;
  std::stable_sort(sorted.begin(), sorted.end(), [&](std::size_t a, std::size_t b) {
    return e.column[a] != e.column[b] ? e.column[a] < e.column[b] : map[e.row[a]] < map[e.row[b]];
  });
  for (const auto* order : {&shuffled, &sorted}) {
    const Entries input = permuted(e, *order);
    const BuiltDesign owning = build(input, nUser - 2, nColumns, &map);
    const BuiltDesign buffered = buildIntoBuffer(input, nUser - 2, nColumns, &map);
    ASSERT_FALSE(owning.storage.rows.empty());
    EXPECT_LT(owning.storage.rows.size(), e.row.size());  // the buffer is not filled
    expectSameStorage(buffered, owning);
    EXPECT_EQ(buffered.firstDuplicate, owning.firstDuplicate);
  }
}

TEST(DataBuild, AnIdentityRowMapGivesTheUnmappedDesign) {
  std::mt19937 rng(12);
  const Entries e = randomEntries(30, 9, &rng);
  std::vector<std::size_t> shuffled(e.row.size());
  std::iota(shuffled.begin(), shuffled.end(), 0);
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  const Entries input = permuted(e, shuffled);
  std::vector<std::int32_t> identity(30);
  std::iota(identity.begin(), identity.end(), 0);
  const BuiltDesign plain = build(input, 30, 9, nullptr);
  const BuiltDesign viaMap = build(input, 30, 9, &identity);
  expectSameStorage(viaMap, plain);
  EXPECT_EQ(viaMap.firstDuplicate, plain.firstDuplicate);
}

TEST(DataBuild, MappedRowsAreChecked) {
  const std::vector<std::int32_t> map = {0, -1, 1};
  Entries e;
  e.row = {0, 3};
  e.column = {0, 0};
  e.value = {1.0, 1.0};
  EXPECT_THROW(build(e, 2, 1, &map), ArgusError);
  e.row = {0, 1, 2};
  e.column = {0, 0, 0};
  e.value = {1.0, 1.0, 1.0};
  EXPECT_EQ(build(e, 2, 1, &map).skippedEntries, 1);
}

TEST(DataBuild, IdentifiersReadInPlaceCodeAsInt64) {
  const std::vector<std::int64_t> ids64 = {40, 7, 40, 1000003, 7, -2};
  const std::vector<double> idsDouble(ids64.begin(), ids64.end());
  const std::vector<std::int32_t> ids32(ids64.begin(), ids64.end());
  const IdCodes reference = codeIds(ids64.data(), 6);
  std::vector<std::int32_t> code(6);
  EXPECT_EQ(codeIds(IdColumn{IdColumn::Type::Double, idsDouble.data(), 6}, code.data()),
            reference.unique);
  EXPECT_EQ(code, reference.code);
  EXPECT_EQ(codeIds(IdColumn{IdColumn::Type::Int32, ids32.data(), 6}, code.data()),
            reference.unique);
  EXPECT_EQ(code, reference.code);

  const std::vector<std::int32_t> table = {7, 1000003, 40};
  const std::vector<std::int64_t> table64(table.begin(), table.end());
  const IdLookup expected = lookupIds(ids64.data(), 6, table64.data(), 3);
  std::vector<std::int32_t> position(6);
  EXPECT_EQ(lookupIds(IdColumn{IdColumn::Type::Double, idsDouble.data(), 6},
                      IdColumn{IdColumn::Type::Int32, table.data(), 3}, position.data()),
            expected.firstMissing);
  EXPECT_EQ(position, expected.position);
  EXPECT_EQ(expected.firstMissing, 5);
}

TEST(DataBuild, ValueChecksFindWhatRWouldFind) {
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> whole = {3, -1e15, 0, 9007199254740992.0};
  EXPECT_EQ(firstFractional(whole.data(), 4), -1);
  const std::vector<double> fraction = {3, inf, 2.5, 0.5};
  EXPECT_EQ(firstFractional(fraction.data(), 4), 2);
  const std::vector<double> values = {0, -3e-101, 2, -1e101, 0};
  const AbsoluteRange r = absoluteRange(values.data(), 5);
  EXPECT_EQ(r.smallestNonzero, 3e-101);
  EXPECT_EQ(r.largest, 1e101);
  const std::vector<double> zeros = {0, 0};
  EXPECT_EQ(absoluteRange(zeros.data(), 2).smallestNonzero, inf);
  EXPECT_EQ(absoluteRange(zeros.data(), 0).largest, 0);
  // one pass for min and max, R's min() and max() (not finite: any NaN or infinity)
  const ValueRange v = valueRange(values.data(), 5);
  EXPECT_TRUE(v.finite);
  EXPECT_EQ(v.min, -1e101);
  EXPECT_EQ(v.max, 2);
  for (const double bad : {inf, -inf, std::nan("")}) {
    std::vector<double> withBad = values;
    withBad[3] = bad;
    EXPECT_FALSE(valueRange(withBad.data(), 5).finite);
  }
  EXPECT_TRUE(valueRange(values.data(), 0).finite);
  const std::int32_t na = std::numeric_limits<std::int32_t>::min();
  const std::vector<std::int32_t> ints = {5, -2, 7};
  const ValueRange vi = valueRange(ints.data(), 3, na);
  EXPECT_TRUE(vi.finite);
  EXPECT_EQ(vi.min, -2);
  EXPECT_EQ(vi.max, 7);
  const std::vector<std::int32_t> withNa = {5, na, 7};
  EXPECT_FALSE(valueRange(withNa.data(), 3, na).finite);
}

// The outcome and time scans against R's one-line forms, written out naively.
TEST(DataBuild, OutcomeAndTimeScansFindTheFirstBadRow) {
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> y = {0, 1, 2, 1, 3.5, -1, 0, 2, 1e300, inf};
  auto naive = [&](auto inSet) -> std::int64_t {
    for (std::size_t i = 0; i < y.size(); ++i)
      if (std::isfinite(y[i]) && !inSet(y[i])) return static_cast<std::int64_t>(i);
    return -1;
  };
  const auto n = static_cast<std::int64_t>(y.size());
  EXPECT_EQ(firstOutsideOutcomeSet(y.data(), n, OutcomeSet::Binary),
            naive([](double v) { return v == 0 || v == 1; }));  // 2
  EXPECT_EQ(firstOutsideOutcomeSet(y.data(), n, OutcomeSet::Competing),
            naive([](double v) { return v == 0 || v == 1 || v == 2; }));  // 3.5 at 4
  EXPECT_EQ(firstOutsideOutcomeSet(y.data(), n, OutcomeSet::Count),
            naive([](double v) { return v >= 0 && v == std::round(v); }));  // 4
  EXPECT_EQ(firstOutsideOutcomeSet(y.data(), n, OutcomeSet::Binary), 2);
  EXPECT_EQ(firstOutsideOutcomeSet(y.data(), n, OutcomeSet::Competing), 4);
  EXPECT_EQ(firstOutsideOutcomeSet(y.data(), n, OutcomeSet::Count), 4);
  const std::vector<double> counts = {0, 3, 1e300, 7, inf};  // non-finite: R's to report
  EXPECT_EQ(firstOutsideOutcomeSet(counts.data(), 5, OutcomeSet::Count), -1);
  const std::vector<double> time = {3, 0.5, 0, 2, -1};
  EXPECT_EQ(firstBelow(time.data(), 5, 0.0, false), 4);
  EXPECT_EQ(firstBelow(time.data(), 5, 0.0, true), 2);
  EXPECT_EQ(firstBelow(time.data(), 2, 0.0, true), -1);
}

}  // namespace
}  // namespace argus
