// Which rows carry information, and the groups inside which a common shift carries none
// (solver/information_rows.h), on small hand-made data whose risk sets are known.
#include <gtest/gtest.h>

#include <vector>

#include "hand_design.h"
#include "solver/information_rows.h"

namespace argus {
namespace {

using testing_data::HandDesign;

TEST(InformationRows, CoxRowsCensoredBeforeTheFirstEventTakeNoPart) {
  // One stratum, rows by time descending: events at 5 and 3; rows censored at 2 and 1 are
  // in no risk set. Fine-Gray keeps a competing event at 1 (at risk after its time).
  const std::vector<double> time = {9, 7, 5, 4, 3, 2, 1};
  for (const ModelType model : {ModelType::Cox, ModelType::FineGray}) {
    std::vector<double> y = {0, 0, 1, 0, 1, 0, 0};
    if (model == ModelType::FineGray) y[6] = 2;
    HandDesign d(model, y);
    d.time = time;
    d.setStrata(std::vector<std::int32_t>(time.size(), 0));
    d.finish();
    const InformationRows info = informationRows(d.data, nullptr);
    const std::vector<double> want = model == ModelType::Cox ? std::vector<double>{1, 1, 1, 1, 1, 0, 0}
                                                             : std::vector<double>{1, 1, 1, 1, 1, 0, 1};
    EXPECT_EQ(info.weight, want) << modelTypeName(model);
    EXPECT_TRUE(info.centred);
  }
}

TEST(InformationRows, CountingProcessGroupsJoinEventTimesThatARowSpans) {
  // Events at 2, 4, 6 and 8. Rows (start, stop]: split rows each at risk at one event time,
  // one row spanning 4 and 6 (so those two are one group), one interval after the last event
  // and one before the first: in no risk set.
  const std::vector<double> start = {7, 5, 3, 1, 3, 8, 0}, stop = {8, 6, 4, 2, 6, 9, 1};
  const std::vector<double> y = {1, 1, 1, 1, 0, 0, 0};
  HandDesign d(ModelType::Cox, y);
  d.time = stop;
  d.setStrata(std::vector<std::int32_t>(y.size(), 0));
  d.finish();
  d.data.outcomes.startTime = start.data();
  const InformationRows info = informationRows(d.data, nullptr);
  EXPECT_EQ(info.weight, (std::vector<double>{1, 1, 1, 1, 1, 0, 0}));
  // groups: {2}, {4, 6}, {8}
  EXPECT_NE(info.group[3], info.group[2]);  // 2 vs 4
  EXPECT_EQ(info.group[2], info.group[1]);  // 4 and 6, joined by the row (3, 6]
  EXPECT_EQ(info.group[4], info.group[1]);
  EXPECT_NE(info.group[0], info.group[1]);  // 8 alone
}

TEST(InformationRows, ExactClrSetsOfCasesAloneTakeNoPart) {
  // Sets: {case, control}, {case, case}, {control, control}.
  const std::vector<double> y = {1, 0, 1, 1, 0, 0};
  for (const TieMethod ties : {TieMethod::Exact, TieMethod::Breslow}) {
    HandDesign d(ModelType::ConditionalLogistic, y);
    d.setStrata({0, 0, 1, 1, 2, 2});
    d.finish();
    d.data.ties = ties;
    const InformationRows info = informationRows(d.data, nullptr);
    const std::vector<double> want = ties == TieMethod::Exact ? std::vector<double>{1, 1, 0, 0, 0, 0}
                                                              : std::vector<double>{1, 1, 1, 1, 0, 0};
    EXPECT_EQ(info.weight, want);
  }
}

}  // namespace
}  // namespace argus
