// A few threads kept for the life of one fit, to split the work of single coordinates.
//
// Cross-validation and the bootstrap parallelize over whole fits (selection/task_runner.h);
// one large fit can only use a second core inside each coordinate, thousands of times per
// cycle, so starting threads per call would cost more than the work. A WorkerTeam starts
// size() - 1 workers once; run(job) calls job(m) for every member m, member 0 on the calling
// thread, and returns when all are done. Between calls the workers spin for a short while
// (coordinates follow each other within microseconds), then sleep until the next call.
//
// Results must not depend on the team's size: callers split their work into pieces fixed by
// the data alone, let member m take a contiguous block of pieces, and combine the pieces'
// results in piece order on the calling thread (survival_likelihood.cpp does this).
// A job that throws on the calling thread is rethrown once every worker is done; jobs run on
// workers must not throw.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace argus {

class WorkerTeam {
 public:
  explicit WorkerTeam(int threads);
  ~WorkerTeam();
  WorkerTeam(const WorkerTeam&) = delete;
  WorkerTeam& operator=(const WorkerTeam&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }
  void run(const std::function<void(int member)>& job);

  // Pieces [first, last) of `pieces` that member m of `members` takes: contiguous blocks, as
  // even as possible.
  static std::pair<int, int> share(int pieces, int members, int m) {
    return {pieces * m / members, pieces * (m + 1) / members};
  }

 private:
  void loop(int member);
  void stopAll();

  std::vector<std::thread> workers_;
  const std::function<void(int)>* job_ = nullptr;
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<int> pending_{0};
  bool stop_ = false;  // guarded by mutex_
  std::mutex mutex_;
  std::condition_variable wake_;
};

}  // namespace argus
