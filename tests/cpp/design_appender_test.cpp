// The streamed design builder (DesignAppender, data/design_storage.h): entries that arrive
// column by column, in batches, give exactly buildDesign()'s design from the same entries.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "common/errors.h"
#include "data/design_storage.h"

namespace argus {
namespace {

struct Entries {
  std::vector<std::int32_t> row, column;
  std::vector<double> value;
};

// Random entries of nColumns columns (some dense, some 0/1, some rows dropped as -1, a few
// explicit zeros), grouped by column in `columnOrder`, rows shuffled within each column.
Entries randomEntries(std::int64_t nRows, const std::vector<std::int32_t>& columnOrder,
                      std::mt19937* rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Entries e;
  for (std::int32_t c : columnOrder) {
    std::vector<std::int32_t> rows;
    const double fill = c % 4 == 0 ? 0.5 : 0.1;
    for (std::int32_t r = 0; r < nRows; ++r)
      if (u(*rng) < fill) rows.push_back(u(*rng) < 0.05 ? -1 : r);
    std::shuffle(rows.begin(), rows.end(), *rng);
    for (std::int32_t r : rows) {
      e.row.push_back(r);
      e.column.push_back(c);
      const double v = c % 3 == 0 ? 1.0 : (u(*rng) < 0.05 ? 0.0 : std::round(u(*rng) * 50) / 10);
      e.value.push_back(v);
    }
  }
  return e;
}

BuiltDesign appendInBatches(const Entries& e, std::int64_t nRows, std::int32_t nColumns,
                            bool addIntercept, std::size_t batch) {
  DesignAppender appender(nRows, nColumns, addIntercept);
  for (std::size_t b = 0; b < e.row.size(); b += batch) {
    const std::size_t n = std::min(batch, e.row.size() - b);
    appender.append(static_cast<std::int64_t>(n), e.row.data() + b, e.column.data() + b,
                    e.value.data() + b);
  }
  return appender.finish();
}

BuiltDesign buildAll(const Entries& e, std::int64_t nRows, std::int32_t nColumns,
                     bool addIntercept) {
  TripletInput in;
  in.nRows = nRows;
  in.nColumns = nColumns;
  in.nEntries = static_cast<std::int64_t>(e.row.size());
  in.row = e.row.data();
  in.column = e.column.data();
  in.value = e.value.data();
  in.addIntercept = addIntercept;
  return buildDesign(in);
}

void expectSameDesign(const BuiltDesign& a, const BuiltDesign& b) {
  EXPECT_EQ(a.storage.kinds, b.storage.kinds);
  EXPECT_EQ(a.storage.rowStart, b.storage.rowStart);
  EXPECT_EQ(a.storage.valueStart, b.storage.valueStart);
  EXPECT_EQ(a.storage.rows, b.storage.rows);
  EXPECT_EQ(a.storage.values, b.storage.values);
  EXPECT_EQ(a.skippedEntries, b.skippedEntries);
  EXPECT_EQ(a.zeroEntries, b.zeroEntries);
}

TEST(DesignAppender, BatchesInColumnOrderGiveBuildDesignsDesign) {
  std::mt19937 rng(3);
  const std::int64_t nRows = 200;
  const std::int32_t nColumns = 13;
  std::vector<std::int32_t> order;
  for (std::int32_t c = 0; c < nColumns; ++c)
    if (c != 7) order.push_back(c);  // column 7 has no entry: an empty column
  const Entries e = randomEntries(nRows, order, &rng);
  for (bool intercept : {false, true}) {
    const BuiltDesign whole = buildAll(e, nRows, nColumns, intercept);
    for (std::size_t batch : {std::size_t{1}, std::size_t{37}, e.row.size()}) {
      const BuiltDesign streamed = appendInBatches(e, nRows, nColumns, intercept, batch);
      expectSameDesign(streamed, whole);
      EXPECT_EQ(streamed.firstDuplicate, -1);
    }
    int kinds[4] = {0, 0, 0, 0};
    for (int k : whole.storage.kinds) ++kinds[k];
    EXPECT_GT(kinds[0], 0);  // indicator, sparse and dense columns all occur
    EXPECT_GT(kinds[1], 0);
    EXPECT_GT(kinds[2], 0);
  }
}

TEST(DesignAppender, ColumnsOutOfIndexOrderAreSortedAtTheEnd) {
  std::mt19937 rng(5);
  const std::int64_t nRows = 120;
  const std::vector<std::int32_t> order = {4, 0, 9, 2, 1, 8, 3, 7, 6, 5};
  const Entries e = randomEntries(nRows, order, &rng);
  for (bool intercept : {false, true})
    expectSameDesign(appendInBatches(e, nRows, 10, intercept, 16), buildAll(e, nRows, 10, intercept));
}

TEST(DesignAppender, ReportsTheRepeatedRowAndColumn) {
  Entries e;
  e.row = {3, 1, 2, 5, 1, 2};
  e.column = {0, 0, 1, 1, 1, 1};
  e.value = {1, 1, 2, 3, 4, 5};
  const BuiltDesign built = appendInBatches(e, 6, 2, false, 4);
  EXPECT_EQ(built.firstDuplicate, 5);
  EXPECT_EQ(built.duplicateRow, 2);
  EXPECT_EQ(built.duplicateColumn, 1);
  const BuiltDesign whole = buildAll(e, 6, 2, false);
  EXPECT_EQ(whole.duplicateRow, 2);
  EXPECT_EQ(whole.duplicateColumn, 1);
}

TEST(DesignAppender, RejectsAColumnThatComesBackAndBadIndices) {
  DesignAppender appender(4, 3, false);
  const std::int32_t rows[] = {0, 1, 2};
  const std::int32_t columns[] = {0, 1, 0};
  EXPECT_THROW(appender.append(3, rows, columns, nullptr), ArgusError);
  DesignAppender other(4, 3, false);
  const std::int32_t badRow[] = {4};
  const std::int32_t badColumn[] = {3};
  const std::int32_t zero[] = {0};
  EXPECT_THROW(other.append(1, badRow, zero, nullptr), ArgusError);
  EXPECT_THROW(other.append(1, zero, badColumn, nullptr), ArgusError);
}

}  // namespace
}  // namespace argus
