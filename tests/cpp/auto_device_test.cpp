// device = "auto": the measured rule (device/auto_device.h) by model, entries and (survival)
// distinct event times; without a visible GPU it is the CPU.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "common/model_type.h"
#include "data/dataset.h"
#include "device/auto_device.h"
#include "device/cuda_device.h"

namespace argus {
namespace {

struct AutoCase {
  std::vector<double> y, time;
  std::vector<std::int64_t> stratumStart;
  Dataset data;
  // n rows sorted by time descending, every other row an event; `columns` intercept-like
  // columns of n entries each (counted, never read). wholeDays: about 500 distinct times.
  AutoCase(std::int64_t n, int columns, bool wholeDays) : y(n), time(n), stratumStart{0, n} {
    for (std::int64_t r = 0; r < n; ++r) {
      const double t = 500.0 * static_cast<double>(n - r) / static_cast<double>(n);
      time[r] = wholeDays ? std::ceil(t) : t;
      y[r] = r % 2 == 0 ? 1.0 : 0.0;
    }
    data.model = ModelType::Cox;
    data.design.nRows = n;
    for (int j = 0; j < columns; ++j) {
      ColumnView c;
      c.kind = ColumnKind::Intercept;
      c.nnz = n;
      data.design.columns.push_back(c);
    }
    data.outcomes.y = y.data();
    data.outcomes.time = time.data();
    data.outcomes.stratumStart = stratumStart.data();
    data.outcomes.nStrata = 1;
  }
};

TEST(AutoDevice, FollowsTheMeasuredRule) {
  const std::int64_t n = 1000000;
  AutoCase continuous(n, 50, false);  // 5e7 entries, distinct times: 4.3x on an H200
  EXPECT_TRUE(autoPrefersCuda(continuous.data));
  continuous.data.model = ModelType::FineGray;  // 2.1x there: the CPU
  EXPECT_FALSE(autoPrefersCuda(continuous.data));
  AutoCase days(n, 50, true);  // 5e7 entries, ~500 event times: the CPU
  EXPECT_FALSE(autoPrefersCuda(days.data));
  AutoCase fewEvents(n, 50, false);  // distinct times, 1 row in 20 an event: still distinct
  for (std::int64_t r = 0; r < n; ++r) fewEvents.y[r] = r % 20 == 0 ? 1.0 : 0.0;
  EXPECT_TRUE(autoPrefersCuda(fewEvents.data));
  AutoCase small(n, 49, false);  // 4.9e7 entries (at 5e6 the CPU was as fast)
  EXPECT_FALSE(autoPrefersCuda(small.data));
  AutoCase counting(n, 50, false);
  counting.data.outcomes.startTime = counting.time.data();  // counting process: slower on a GPU
  EXPECT_FALSE(autoPrefersCuda(counting.data));
  for (ModelType m : {ModelType::Logistic, ModelType::Poisson, ModelType::LeastSquares}) {
    AutoCase glm(n, 49, false);
    glm.data.model = m;
    EXPECT_FALSE(autoPrefersCuda(glm.data)) << modelTypeName(m);
    glm.data.design.columns.push_back(glm.data.design.columns.back());  // 5e7
    EXPECT_TRUE(autoPrefersCuda(glm.data)) << modelTypeName(m);
  }
  AutoCase sccs(999999, 1, false);
  sccs.data.model = ModelType::SelfControlledCaseSeries;
  EXPECT_FALSE(autoPrefersCuda(sccs.data));
  sccs.data.design.columns[0].nnz = 1000000;
  EXPECT_TRUE(autoPrefersCuda(sccs.data));
  AutoCase clr(n, 4, false);  // 4e6 entries
  clr.data.model = ModelType::ConditionalLogistic;
  EXPECT_FALSE(autoPrefersCuda(clr.data));
  clr.data.design.columns.push_back(clr.data.design.columns.back());  // 5e6: 10.6x on an H100
  clr.data.ties = TieMethod::Exact;
  EXPECT_TRUE(autoPrefersCuda(clr.data));
  clr.data.ties = TieMethod::Efron;  // not timed on a GPU
  EXPECT_FALSE(autoPrefersCuda(clr.data));
}

TEST(AutoDevice, IsTheCpuWithoutAVisibleGpu) {
  if (cudaDeviceCount() > 0) GTEST_SKIP() << "a GPU is visible";
  AutoCase continuous(1000000, 5, false);
  EXPECT_EQ(resolveComputeDevice(parseComputeDevice("auto"), continuous.data).kind, ComputeDevice::Kind::Cpu);
  EXPECT_EQ(resolveComputeDevice(parseComputeDevice("cpu"), continuous.data).kind, ComputeDevice::Kind::Cpu);
}

// A run of many fits resolves "auto" once, at the dispatch point: its fits get the resolved
// device (which resolving again leaves as it is), marked as chosen by "auto".
TEST(AutoDevice, ARunOfFitsResolvesItOnce) {
  if (cudaDeviceCount() > 0) GTEST_SKIP() << "a GPU is visible";
  AutoCase continuous(1000000, 5, false);
  const DeviceRun run = prepareDeviceRun(parseComputeDevice("auto"), continuous.data);
  EXPECT_EQ(run.device.kind, ComputeDevice::Kind::Cpu);
  EXPECT_TRUE(run.device.automatic);
  EXPECT_EQ(run.shared, nullptr);
  const ComputeDevice again = resolveComputeDevice(run.device, continuous.data);
  EXPECT_EQ(again.kind, ComputeDevice::Kind::Cpu);
  EXPECT_TRUE(again.automatic);
  EXPECT_FALSE(prepareDeviceRun(parseComputeDevice("cpu"), continuous.data).device.automatic);
}

}  // namespace
}  // namespace argus
