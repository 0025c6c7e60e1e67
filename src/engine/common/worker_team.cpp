#include "common/worker_team.h"

#include <exception>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace argus {

namespace {

// Tells the core this is a spin loop (saves power and the sibling hyperthread's cycles).
inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#else
  std::this_thread::yield();
#endif
}

// About 100 microseconds of pause instructions: longer than the gap between two coordinates,
// shorter than anything a user would notice as a busy core.
constexpr int kSpins = 2000;

}  // namespace

WorkerTeam::WorkerTeam(int threads) {
  try {
    for (int m = 1; m < threads; ++m) workers_.emplace_back([this, m] { loop(m); });
  } catch (...) {
    stopAll();  // the threads already started must be joined before the rethrow
    throw;
  }
}

WorkerTeam::~WorkerTeam() { stopAll(); }

void WorkerTeam::stopAll() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
  workers_.clear();
}

void WorkerTeam::run(const std::function<void(int)>& job) {
  if (workers_.empty()) {
    job(0);
    return;
  }
  job_ = &job;
  pending_.store(static_cast<int>(workers_.size()), std::memory_order_relaxed);
  {
    // Under the lock, so that a worker about to sleep cannot miss the new generation.
    std::lock_guard<std::mutex> lock(mutex_);
    generation_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();
  // The workers read the caller's job and its data: wait for them even if job(0) throws.
  std::exception_ptr error;
  try {
    job(0);
  } catch (...) {
    error = std::current_exception();
  }
  while (pending_.load(std::memory_order_acquire) != 0) relax();
  if (error) std::rethrow_exception(error);
}

void WorkerTeam::loop(int member) {
  std::uint64_t seen = 0;
  for (;;) {
    int spins = 0;
    while (generation_.load(std::memory_order_acquire) == seen) {
      if (++spins < kSpins) {
        relax();
        continue;
      }
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_.load(std::memory_order_acquire) != seen; });
      if (stop_) return;
    }
    seen = generation_.load(std::memory_order_acquire);
    (*job_)(member);
    pending_.fetch_sub(1, std::memory_order_release);
  }
}

}  // namespace argus
