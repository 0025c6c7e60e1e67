// A fit's progress lines (ControlSettings::progressSeconds): paced by common/progress_pace.h,
// one per cycle or majorized step at most, from the calling thread only, and nothing that
// changes the fit.
#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "common/progress_pace.h"
#include "solver/ccd_solver.h"
#include "survival_test_data.h"
#include "test_data.h"

namespace argus {
namespace {

double gNow = 0.0;
double fakeClock() { return gNow; }

TEST(ProgressPace, NothingBeforeTheIntervalThenAtMostOneEachInterval) {
  gNow = 100.0;
  ProgressPace pace(0.5, fakeClock);
  EXPECT_FALSE(pace.due());  // work done within the interval reports nothing
  gNow = 100.49;
  EXPECT_FALSE(pace.due());
  gNow = 100.5;
  EXPECT_TRUE(pace.due());
  EXPECT_FALSE(pace.due());  // not twice at one time
  gNow = 100.9;
  EXPECT_FALSE(pace.due());
  gNow = 101.0;
  EXPECT_TRUE(pace.due());
  gNow = 107.0;  // a long cycle: one report, then the interval again
  EXPECT_TRUE(pace.due());
  EXPECT_FALSE(pace.due());
}

TEST(ProgressPace, ZeroIsEveryTimeAndNegativeNever) {
  gNow = 0.0;
  ProgressPace every(0.0, fakeClock), never(-1.0, fakeClock);
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(every.due());
    EXPECT_FALSE(never.due());
    gNow += 1e6;
  }
}

// Records the lines and the threads they came from.
class RecordingSink : public ProgressSink {
 public:
  void message(const std::string& text) override {
    lines.push_back(text);
    threads.push_back(std::this_thread::get_id());
  }
  std::vector<std::string> lines;
  std::vector<std::thread::id> threads;
};

FitRequest laplaceRequest(const Dataset& data, const double* weights, std::size_t p) {
  FitRequest req;
  req.data = &data;
  req.weights = weights;
  req.prior.assign(p, CoordinatePrior{PriorKind::Laplace, 0.5});
  req.control.tolerance = 1e-10;  // several cycles
  return req;
}

TEST(FitProgress, OneLinePerCycleAtZeroSecondsFromTheCallingThreadAndTheSameFit) {
  testing_data::ProblemSpec spec;
  spec.model = ModelType::Poisson;
  spec.nRows = 400;
  auto p = testing_data::makeProblem(spec);
  FitRequest req = laplaceRequest(p->data, p->weightPtr(), p->nColumns());
  RecordingSink quiet;
  const FitResult without = fitCcd(req, &quiet);
  EXPECT_TRUE(quiet.lines.empty());  // the default: no progress lines
  ASSERT_GT(without.iterations, 2);

  req.control.progressSeconds = 0.0;
  RecordingSink sink;
  const FitResult with = fitCcd(req, &sink);
  EXPECT_EQ(with.beta, without.beta);
  EXPECT_EQ(with.iterations, without.iterations);
  ASSERT_EQ(sink.lines.size(), static_cast<std::size_t>(with.iterations));
  const std::regex cycle("fit: cycle ([0-9]+): logLik (-?[0-9.e+-]+), change ([0-9.e+-]+|inf|nan), "
                         "tolerance ([0-9.e+-]+)");
  for (std::size_t i = 0; i < sink.lines.size(); ++i) {
    std::smatch m;
    ASSERT_TRUE(std::regex_match(sink.lines[i], m, cycle)) << sink.lines[i];
    EXPECT_EQ(std::stoi(m[1].str()), static_cast<int>(i) + 1);
    EXPECT_EQ(std::stod(m[4].str()), 1e-10);
    EXPECT_EQ(sink.threads[i], std::this_thread::get_id());
  }
  // The last cycle's log-likelihood is the fit's (to the line's 8 digits).
  std::smatch last;
  std::regex_match(sink.lines.back(), last, cycle);
  EXPECT_NEAR(std::stod(last[2].str()), with.logLikelihood, 1e-7 * std::fabs(with.logLikelihood));

  // A fit done within the interval says nothing; without a sink nothing is asked.
  req.control.progressSeconds = 3600.0;
  RecordingSink hour;
  fitCcd(req, &hour);
  EXPECT_TRUE(hour.lines.empty());
  req.control.progressSeconds = 0.0;
  EXPECT_EQ(fitCcd(req, nullptr).beta, without.beta);
}

TEST(FitProgress, TheMajorizedStartReportsItsStepsFromTheCallingThread) {
  testing_data::SurvivalSpec spec;
  spec.integerTimes = false;
  spec.nRows = 400;
  auto p = testing_data::makeSurvivalProblem(spec);
  FitRequest req = laplaceRequest(p->data, p->weightPtr(), p->nColumns());
  req.control.majorizedStart = MajorizedStartRule::Always;
  req.control.threads = 2;  // work inside a coordinate on a worker team: reports stay here
  const FitResult without = fitCcd(req);
  ASSERT_GT(without.majorizedSteps, 0);
  req.control.progressSeconds = 0.0;
  RecordingSink sink;
  const FitResult with = fitCcd(req, &sink);
  EXPECT_EQ(with.beta, without.beta);
  ASSERT_EQ(sink.lines.size(), static_cast<std::size_t>(with.majorizedSteps + with.iterations));
  for (int s = 0; s < with.majorizedSteps; ++s)
    EXPECT_EQ(sink.lines[s].rfind("fit: majorized start, step " + std::to_string(s + 1) + ": logLik ", 0), 0u)
        << sink.lines[s];
  for (const std::thread::id& t : sink.threads) EXPECT_EQ(t, std::this_thread::get_id());
}

}  // namespace
}  // namespace argus
