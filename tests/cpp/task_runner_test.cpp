// runTasks() (common/task_runner.h): every task runs once, errors come back in task
// order, and an interrupt seen on the calling thread stops the workers.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "common/errors.h"
#include "common/task_runner.h"

namespace argus {
namespace {

TEST(RunTasks, EveryTaskRunsOnceWhateverTheThreadCount) {
  for (int threads : {1, 2, 5, 64}) {
    std::vector<std::atomic<int>> runs(37);
    std::vector<std::size_t> reported;
    runTasks(runs.size(), threads, [&](std::size_t i, ProgressSink*) { ++runs[i]; }, nullptr,
             [&](std::size_t done) { reported.push_back(done); }, 1);
    for (const std::atomic<int>& r : runs) EXPECT_EQ(r.load(), 1) << threads;
    ASSERT_FALSE(reported.empty());
    EXPECT_EQ(reported.back(), runs.size());
  }
  EXPECT_THROW(runTasks(3, 0, [](std::size_t, ProgressSink*) {}, nullptr), ArgusError);
  EXPECT_NO_THROW(runTasks(0, 4, [](std::size_t, ProgressSink*) {}, nullptr));
}

TEST(RunTasks, RethrowsTheErrorOfTheLowestFailingTask) {
  for (int threads : {1, 3}) {
    try {
      runTasks(20, threads, [](std::size_t i, ProgressSink*) {
        if (i == 7 || i == 15) throw ArgusError("task " + std::to_string(i));
      }, nullptr);
      FAIL() << "no error";
    } catch (const ArgusError& e) {
      EXPECT_EQ(std::string(e.what()), "task 7");
    }
  }
}

// A host that reports an interrupt on its third check.
class InterruptingHost : public ProgressSink {
 public:
  void checkInterrupt() override {
    if (++checks_ >= 3) throw ArgusError("interrupted by the user");
  }

 private:
  int checks_ = 0;
};

TEST(RunTasks, AnInterruptStopsTheWorkers) {
  for (int threads : {1, 2}) {
    InterruptingHost host;
    std::atomic<int> started{0};
    // Long tasks that poll their sink the way fitCcd() does once per cycle.
    auto task = [&](std::size_t, ProgressSink* sink) {
      ++started;
      for (int cycle = 0; cycle < 200; ++cycle) {
        sink->checkInterrupt();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
    };
    EXPECT_THROW(runTasks(50, threads, task, &host, {}, 5), ArgusError);
    EXPECT_LT(started.load(), 50) << threads;
  }
}

// A progress report that throws (in R: a message handler that stops or jumps) ends the run
// with that exception once the workers are joined; it used to leave runTasks() with joinable
// threads, which is std::terminate.
TEST(RunTasks, AThrowingProgressReportStopsTheWorkersAndComesBack) {
  for (int threads : {1, 2, 3}) {
    std::atomic<int> started{0};
    auto task = [&](std::size_t, ProgressSink*) {
      ++started;
      std::this_thread::sleep_for(std::chrono::milliseconds(3));
    };
    auto report = [](std::size_t done) {
      if (done >= 1) throw std::runtime_error("handler stopped");
    };
    EXPECT_THROW(runTasks(60, threads, task, nullptr, report, 1), std::runtime_error) << threads;
    EXPECT_LT(started.load(), 60) << threads;
  }
}

}  // namespace
}  // namespace argus
