#include <gtest/gtest.h>

#include "data/design_storage.h"
#include "solver/ccd_solver.h"

namespace argus {

TEST(Smoke, FitsTinyLogistic) {
  std::vector<std::int32_t> row = {0, 1, 2, 3, 4, 5};
  std::vector<std::int32_t> col = {0, 0, 0, 0, 0, 0};
  std::vector<double> val = {0.5, -1.0, 2.0, 0.1, -0.3, 1.2};
  TripletInput in;
  in.nRows = 6; in.nColumns = 1; in.nEntries = 6;
  in.row = row.data(); in.column = col.data(); in.value = val.data(); in.addIntercept = true;
  in.denseFraction = 2.0;
  BuiltDesign built = buildDesign(in);
  std::vector<double> y = {1, 0, 1, 0, 0, 1};
  Dataset data;
  data.model = ModelType::Logistic;
  data.design = built.storage.view();
  data.outcomes.y = y.data();
  FitRequest req;
  req.data = &data;
  req.prior.assign(2, CoordinatePrior{});
  req.control.tolerance = 1e-12;
  FitResult fit = fitCcd(req);
  EXPECT_EQ(fit.status, FitStatus::Success);
  EXPECT_TRUE(std::isfinite(fit.logLikelihood));
}

}  // namespace argus
