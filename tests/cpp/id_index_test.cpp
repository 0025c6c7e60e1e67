// Identifier coding: the direct-table path (compact ids) and the hash path (sparse 64-bit
// ids) must give the same codes, lookups and duplicate detection.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "common/errors.h"
#include "data/id_index.h"

namespace argus {
namespace {

void expectConsistentCodes(const std::vector<std::int64_t>& ids) {
  const IdCodes codes = codeIds(ids.data(), static_cast<std::int64_t>(ids.size()));
  ASSERT_EQ(codes.code.size(), ids.size());
  for (std::size_t k = 1; k < codes.unique.size(); ++k) EXPECT_LT(codes.unique[k - 1], codes.unique[k]);
  for (std::size_t i = 0; i < ids.size(); ++i) EXPECT_EQ(codes.unique[codes.code[i]], ids[i]);
}

TEST(IdIndex, CompactIdsUseConsistentCodes) {
  std::vector<std::int64_t> ids = {5, 3, 5, 9, 3, 4, 100};
  expectConsistentCodes(ids);
  const IdCodes codes = codeIds(ids.data(), 7);
  EXPECT_EQ(codes.unique, (std::vector<std::int64_t>{3, 4, 5, 9, 100}));
}

TEST(IdIndex, SparseSixtyFourBitIdsUseConsistentCodes) {
  std::vector<std::int64_t> ids = {INT64_C(9007199254740993), -7, INT64_C(1000000000000007), -7,
                                   INT64_C(9007199254740992), INT64_MAX, INT64_MIN};
  expectConsistentCodes(ids);
  EXPECT_EQ(codeIds(ids.data(), 7).unique.size(), 6u);
}

TEST(IdIndex, LookupFindsPositionsAndFirstMissingOnBothPaths) {
  for (std::int64_t scale : {INT64_C(1), INT64_C(1000000000000)}) {
    std::vector<std::int64_t> table = {10 * scale, 30 * scale, 20 * scale};
    std::vector<std::int64_t> keys = {20 * scale, 10 * scale, 25 * scale, 30 * scale, 99 * scale};
    const IdLookup found = lookupIds(keys.data(), 5, table.data(), 3);
    EXPECT_EQ(found.position, (std::vector<std::int32_t>{2, 0, -1, 1, -1}));
    EXPECT_EQ(found.firstMissing, 2);
  }
}

TEST(IdIndex, DuplicatesInTheTableAreErrors) {
  std::vector<std::int64_t> table = {1, 2, 1};
  std::vector<std::int64_t> keys = {1};
  EXPECT_THROW(lookupIds(keys.data(), 1, table.data(), 3), ArgusError);
  EXPECT_EQ(firstDuplicateId(table.data(), 3), 2);
  std::vector<std::int64_t> big = {INT64_C(1) << 50, 3, INT64_C(1) << 50};
  EXPECT_EQ(firstDuplicateId(big.data(), 3), 2);
  std::vector<std::int64_t> unique = {4, 1, 8};
  EXPECT_EQ(firstDuplicateId(unique.data(), 3), -1);
  // Read in place as R stores them: 32-bit integers and doubles, dense and spread.
  const std::vector<std::int32_t> ints = {5, 9, 7, 9, 5};
  EXPECT_EQ(firstDuplicateId(IdColumn{IdColumn::Type::Int32, ints.data(), 5}), 3);
  EXPECT_EQ(firstDuplicateId(IdColumn{IdColumn::Type::Int32, ints.data(), 3}), -1);
  const std::vector<double> doubles = {1e12, 3.0, 7.0, 1e12};
  EXPECT_EQ(firstDuplicateId(IdColumn{IdColumn::Type::Double, doubles.data(), 4}), 3);
  EXPECT_EQ(firstDuplicateId(IdColumn{IdColumn::Type::Double, doubles.data(), 3}), -1);
}

TEST(IdIndex, RandomIdsAgreeBetweenPaths) {
  std::mt19937_64 rng(7);
  std::vector<std::int64_t> compact(5000), spread(5000);
  for (std::size_t i = 0; i < compact.size(); ++i) {
    compact[i] = static_cast<std::int64_t>(rng() % 3000);
    spread[i] = compact[i] * INT64_C(1000000007);  // same pattern, hash path
  }
  const IdCodes a = codeIds(compact.data(), 5000), b = codeIds(spread.data(), 5000);
  EXPECT_EQ(a.code, b.code);
}

// Ids in nondecreasing order take a running count instead of the map: the same codes as the
// map gives the same ids out of order, for every storage type.
TEST(IdIndex, OrderedIdsCodeAsTheMapDoes) {
  std::mt19937_64 rng(11);
  for (std::int64_t scale : {INT64_C(1), INT64_C(1000000007)}) {
    std::vector<std::int64_t> sorted(4000);
    for (std::int64_t& v : sorted) v = static_cast<std::int64_t>(rng() % 900) * scale - 300 * scale;
    std::sort(sorted.begin(), sorted.end());
    const IdCodes ordered = codeIds(sorted.data(), 4000);
    expectConsistentCodes(sorted);
    // out of order: one swap sends it down the map path; the codes follow the ids
    std::vector<std::int64_t> swapped = sorted;
    std::swap(swapped[0], swapped[3999]);
    const IdCodes mapped = codeIds(swapped.data(), 4000);
    EXPECT_EQ(ordered.unique, mapped.unique);
    EXPECT_EQ(mapped.code[0], ordered.code[3999]);
    EXPECT_EQ(mapped.code[3999], ordered.code[0]);
    for (std::size_t i = 1; i + 1 < sorted.size(); ++i) ASSERT_EQ(mapped.code[i], ordered.code[i]);
  }
  const std::vector<std::int32_t> ints = {-4, -4, 2, 2, 2, 7};
  std::vector<std::int32_t> code(6);
  EXPECT_EQ(codeIds(IdColumn{IdColumn::Type::Int32, ints.data(), 6}, code.data()),
            (std::vector<std::int64_t>{-4, 2, 7}));
  EXPECT_EQ(code, (std::vector<std::int32_t>{0, 0, 1, 1, 1, 2}));
  const std::vector<double> doubles = {1.0, 1e12, 1e12, 3e12};
  std::vector<std::int32_t> dcode(4);
  EXPECT_EQ(codeIds(IdColumn{IdColumn::Type::Double, doubles.data(), 4}, dcode.data()).size(), 3u);
  EXPECT_EQ(dcode, (std::vector<std::int32_t>{0, 1, 1, 2}));
}

}  // namespace
}  // namespace argus
