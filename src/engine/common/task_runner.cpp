#include "common/task_runner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "common/errors.h"

namespace argus {

namespace {

// The sink given to tasks on worker threads: it only answers "has the run been cancelled?".
class CancelSink final : public ProgressSink {
 public:
  explicit CancelSink(const std::atomic<bool>& cancelled) : cancelled_(cancelled) {}
  void checkInterrupt() override {
    if (cancelled_.load(std::memory_order_relaxed)) throw ArgusError("interrupted by the user");
  }

 private:
  const std::atomic<bool>& cancelled_;
};

// The sink for tasks run on the calling thread: interrupts go to the host, messages do not.
class InterruptOnlySink final : public ProgressSink {
 public:
  explicit InterruptOnlySink(ProgressSink* host) : host_(host) {}
  void checkInterrupt() override {
    if (host_) host_->checkInterrupt();
  }

 private:
  ProgressSink* host_;
};

void runSequentially(std::size_t nTasks, const Task& task, ProgressSink* progress,
                     const TasksDone& onProgress) {
  InterruptOnlySink sink(progress);
  for (std::size_t i = 0; i < nTasks; ++i) {
    if (progress) progress->checkInterrupt();
    task(i, &sink);
    if (onProgress) onProgress(i + 1);
  }
}

}  // namespace

void runTasks(std::size_t nTasks, int threads, const Task& task, ProgressSink* progress,
              const TasksDone& onProgress, int pollMillis) {
  ARGUS_REQUIRE(threads >= 1, "threads must be at least 1");
  const std::size_t workers = std::min<std::size_t>(static_cast<std::size_t>(threads), nTasks);
  if (workers <= 1) {
    runSequentially(nTasks, task, progress, onProgress);
    return;
  }

  std::atomic<std::size_t> next{0};
  std::atomic<bool> cancelled{false};
  std::vector<std::exception_ptr> errors(nTasks);
  std::mutex mutex;
  std::condition_variable finished;
  std::size_t done = 0;
  CancelSink sink(cancelled);

  auto work = [&]() {
    for (;;) {
      if (cancelled.load(std::memory_order_relaxed)) return;
      const std::size_t i = next.fetch_add(1);
      if (i >= nTasks) return;
      try {
        task(i, &sink);
      } catch (...) {
        errors[i] = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(mutex);
      ++done;
      finished.notify_one();
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(workers);
  for (std::size_t t = 0; t < workers; ++t) pool.emplace_back(work);

  std::exception_ptr interrupt;
  std::size_t reported = 0;
  for (;;) {
    std::size_t doneNow;
    {
      std::unique_lock<std::mutex> lock(mutex);
      finished.wait_for(lock, std::chrono::milliseconds(pollMillis),
                        [&] { return done == nTasks; });
      doneNow = done;
    }
    // The host's interrupt check and progress report may throw (R: an interrupt, or a
    // message handler that jumps or stops): cancel, join the workers, then rethrow. Left to
    // propagate, it destroyed joinable threads: std::terminate, the R session gone.
    if (!interrupt && !cancelled.load()) {
      try {
        if (progress) progress->checkInterrupt();
        if (onProgress && doneNow != reported) onProgress(reported = doneNow);
      } catch (...) {
        interrupt = std::current_exception();
        cancelled.store(true);
      }
    }
    if (doneNow == nTasks || cancelled.load()) break;  // after a cancel, join the in-flight
  }
  for (std::thread& t : pool) t.join();
  if (interrupt) std::rethrow_exception(interrupt);
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace argus
