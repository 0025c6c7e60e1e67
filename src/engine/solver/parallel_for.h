// Runs independent tasks on a few threads (profile likelihood: one task per parameter or per
// grid point). Each task writes only its own result slot, so results do not depend on the
// number of threads. The selection/ module's thread pool (cross-validation, bootstrap) may
// replace this once both exist; this is the smallest thing that works without one.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace argus {

// Calls task(i) for every i in [0, count) on up to `threads` threads, the calling thread
// included. Tasks must not touch R (or anything else that is single-threaded). The first
// exception stops the hand-out of new tasks and is rethrown once every thread has finished.
template <typename Task>
void parallelFor(std::size_t count, int threads, Task&& task) {
  const std::size_t workers =
      std::min(count, static_cast<std::size_t>(std::max(1, threads)));
  if (workers <= 1) {
    for (std::size_t i = 0; i < count; ++i) task(i);
    return;
  }
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::vector<std::exception_ptr> errors(workers);
  auto work = [&](std::size_t worker) {
    try {
      while (!failed.load()) {
        const std::size_t i = next.fetch_add(1);
        if (i >= count) return;
        task(i);
      }
    } catch (...) {
      errors[worker] = std::current_exception();
      failed.store(true);
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(workers - 1);
  for (std::size_t w = 1; w < workers; ++w) pool.emplace_back(work, w);
  work(0);
  for (std::thread& t : pool) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace argus
