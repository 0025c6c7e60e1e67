// buildDesign() with TripletInput::rowsMayBeInput: where the stored rows would be the input
// rows themselves it writes none and says so (BuiltDesign::rowsAreInput), and the design read
// through the input rows is the one built without the flag; wherever they would differ
// (a zero or dropped entry, a remapped or unsorted row, a dense column) it builds as before.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "common/errors.h"
#include "data/design_storage.h"

namespace argus {
namespace {

struct Case {
  std::int64_t nRows = 0;
  std::int32_t nColumns = 0;
  std::vector<std::int32_t> row, column, internalOfUser;
  std::vector<double> value;

  TripletInput input(bool mayAlias) const {
    TripletInput in;
    in.nRows = nRows;
    in.nColumns = nColumns;
    in.nEntries = static_cast<std::int64_t>(row.size());
    in.row = row.data();
    in.column = column.data();
    in.value = value.empty() ? nullptr : value.data();
    if (!internalOfUser.empty()) {
      in.internalOfUser = internalOfUser.data();
      in.nUserRows = static_cast<std::int64_t>(internalOfUser.size());
    }
    in.rowsMayBeInput = mayAlias;
    return in;
  }
};

// Columns sorted, rows increasing within each: 200 rows, 6 columns at ~10% (none dense).
Case sortedCase(bool values) {
  Case c;
  c.nRows = 200;
  c.nColumns = 6;
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (std::int32_t j = 0; j < c.nColumns; ++j)
    for (std::int32_t r = 0; r < c.nRows; ++r)
      if (u(rng) < 0.1) {
        c.row.push_back(r);
        c.column.push_back(j);
        if (values) c.value.push_back(j % 2 ? 1.0 : 0.5 + u(rng));
      }
  return c;
}

std::vector<std::pair<std::int64_t, double>> columnEntries(const DesignView& v, std::size_t j) {
  std::vector<std::pair<std::int64_t, double>> out;
  forEachEntry(v.columns[j], v.nRows, [&](std::int64_t r, double x) { out.emplace_back(r, x); });
  return out;
}

// The built design's view, its rows read from `rows` (the input's when they alias).
DesignView viewOf(const BuiltDesign& b, std::int64_t nRows, const std::int32_t* rows,
                  std::vector<double>* rowStart, std::vector<double>* valueStart) {
  const DesignStorage& s = b.storage;
  rowStart->assign(s.rowStart.begin(), s.rowStart.end());
  valueStart->assign(s.valueStart.begin(), s.valueStart.end());
  return makeDesignView(nRows, s.kinds.size(), s.kinds.data(), rowStart->data(), valueStart->data(),
                        rows, static_cast<std::size_t>(s.rowStart.back()), s.values.data(),
                        s.values.size());
}

void expectSameDesign(const Case& c, const BuiltDesign& aliased, const BuiltDesign& plain) {
  std::vector<double> ra, va, rp, vp;
  const DesignView a = viewOf(aliased, c.nRows, c.row.data(), &ra, &va);
  const DesignView p = viewOf(plain, c.nRows, plain.storage.rows.data(), &rp, &vp);
  ASSERT_EQ(a.nColumns(), p.nColumns());
  for (std::size_t j = 0; j < a.nColumns(); ++j) {
    EXPECT_EQ(a.columns[j].kind, p.columns[j].kind) << "column " << j;
    EXPECT_EQ(columnEntries(a, j), columnEntries(p, j)) << "column " << j;
  }
}

TEST(DesignRowsInput, SortedKeptEntriesUseTheInputRows) {
  for (bool values : {false, true}) {
    SCOPED_TRACE(values ? "with values" : "indicators");
    const Case c = sortedCase(values);
    std::vector<std::int32_t> room(c.row.size(), -7);
    const BuiltDesign aliased = buildDesign(c.input(true), room.data());
    EXPECT_TRUE(aliased.rowsAreInput);
    EXPECT_TRUE(aliased.storage.rows.empty());
    for (std::int32_t r : room) ASSERT_EQ(r, -7);  // nothing written
    const BuiltDesign plain = buildDesign(c.input(false));
    EXPECT_FALSE(plain.rowsAreInput);
    expectSameDesign(c, aliased, plain);
  }
  // a repeated (row, column) pair is found as in the written build
  Case twice = sortedCase(true);
  twice.row.insert(twice.row.begin() + 7, twice.row[6]);
  twice.column.insert(twice.column.begin() + 7, twice.column[6]);
  twice.value.insert(twice.value.begin() + 7, 2.0);
  const BuiltDesign repeated = buildDesign(twice.input(true));
  const BuiltDesign repeatedPlain = buildDesign(twice.input(false));
  EXPECT_TRUE(repeated.rowsAreInput);
  EXPECT_EQ(repeated.firstDuplicate, 7);
  EXPECT_EQ(repeated.firstDuplicate, repeatedPlain.firstDuplicate);
  EXPECT_EQ(repeated.duplicateRow, repeatedPlain.duplicateRow);
  EXPECT_EQ(repeated.duplicateColumn, repeatedPlain.duplicateColumn);
  // user rows without a map (the plan keeps the user's order): a negative one is an error,
  // while internal rows of -1 are entries to skip
  Case negative = sortedCase(false);
  negative.row[4] = -1;
  TripletInput user = negative.input(true);
  user.userRows = true;
  user.nUserRows = negative.nRows;
  EXPECT_THROW(buildDesign(user), ArgusError);
  EXPECT_EQ(buildDesign(negative.input(true)).skippedEntries, 1);
  // an identity row plan, and an intercept in front, alias too
  Case c = sortedCase(false);
  for (std::int32_t u = 0; u < c.nRows; ++u) c.internalOfUser.push_back(u);
  TripletInput in = c.input(true);
  in.addIntercept = true;
  const BuiltDesign aliased = buildDesign(in);
  EXPECT_TRUE(aliased.rowsAreInput);
  in.rowsMayBeInput = false;
  expectSameDesign(c, aliased, buildDesign(in));
}

// Each way the stored rows would differ from the input's: built and written as without the
// flag.
TEST(DesignRowsInput, AnyDifferenceBuildsTheRows) {
  std::vector<std::pair<std::string, Case>> cases;
  Case zero = sortedCase(true);
  zero.value[3] = 0.0;  // an explicit zero is not stored
  cases.emplace_back("a zero value", zero);
  Case remapped = sortedCase(false);
  for (std::int32_t u = 0; u < remapped.nRows; ++u) remapped.internalOfUser.push_back(remapped.nRows - 1 - u);
  cases.emplace_back("a reversed row plan", remapped);
  Case dropped = sortedCase(false);
  for (std::int32_t u = 0; u < dropped.nRows; ++u) dropped.internalOfUser.push_back(u == dropped.row[5] ? -1 : u);
  cases.emplace_back("a dropped row", dropped);
  Case unsorted = sortedCase(false);
  std::swap(unsorted.row[0], unsorted.row[1]);
  cases.emplace_back("rows out of order", unsorted);
  Case dense = sortedCase(false);
  for (std::int32_t r = 0; r < dense.nRows; r += 2) {  // a last column at 50%: dense
    dense.row.push_back(r);
    dense.column.push_back(dense.nColumns);
  }
  ++dense.nColumns;
  cases.emplace_back("a dense column", dense);
  Case denseFirst = sortedCase(false);  // a dense column before sparse ones
  for (std::int32_t& j : denseFirst.column) ++j;
  std::vector<std::int32_t> rows, columns;
  for (std::int32_t r = 0; r < denseFirst.nRows; r += 2) {
    rows.push_back(r);
    columns.push_back(0);
  }
  denseFirst.row.insert(denseFirst.row.begin(), rows.begin(), rows.end());
  denseFirst.column.insert(denseFirst.column.begin(), columns.begin(), columns.end());
  ++denseFirst.nColumns;
  cases.emplace_back("a dense first column", denseFirst);

  for (const auto& [what, c] : cases) {
    SCOPED_TRACE(what);
    const BuiltDesign withFlag = buildDesign(c.input(true));
    const BuiltDesign without = buildDesign(c.input(false));
    EXPECT_FALSE(withFlag.rowsAreInput);
    std::vector<double> ra, va, rp, vp;
    const DesignView a = viewOf(withFlag, c.nRows, withFlag.storage.rows.data(), &ra, &va);
    const DesignView p = viewOf(without, c.nRows, without.storage.rows.data(), &rp, &vp);
    ASSERT_EQ(a.nColumns(), p.nColumns());
    for (std::size_t j = 0; j < a.nColumns(); ++j)
      EXPECT_EQ(columnEntries(a, j), columnEntries(p, j)) << "column " << j;
  }
}

}  // namespace
}  // namespace argus
