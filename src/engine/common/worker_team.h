// A few threads kept for the life of one fit, to split the work of single coordinates.
//
// Cross-validation and the bootstrap parallelize over whole fits (selection/task_runner.h);
// one large fit can only use a second core inside each coordinate, thousands of times per
// cycle, so starting threads per call would cost more than the work. A WorkerTeam starts
// size() - 1 workers once; run(pieces, f) calls f(i) once for every piece i and returns when
// all are done. Member m (0 is the calling thread) first takes the pieces of its own block
// share(pieces, size(), m), so that a member keeps touching the same data from call to call,
// then claims whatever piece nobody has started. So the caller never waits on a worker that
// the machine has not scheduled (another process on the core, or fewer cores than threads):
// it runs the unstarted pieces itself and waits only for pieces already running. Between
// calls the workers spin for a short while (coordinates follow each other within
// microseconds), then sleep until the next call; a caller waiting on a running piece spins
// briefly, then yields its core. When the workers keep finishing far behind the caller (their
// cores are busy with other work), the caller runs the next calls alone for a while.
//
// Results must not depend on the team's size or on who ran a piece: callers cut their work
// into pieces fixed by the data alone and combine the pieces' results in piece order on the
// calling thread (survival_likelihood.cpp, survival_refresh.cpp). A piece that throws on the
// calling thread is rethrown once every started piece is done (the rest are skipped); pieces
// run on workers must not throw.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace argus {

class WorkerTeam {
 public:
  static constexpr int kMaxPieces = 64;

  explicit WorkerTeam(int threads);
  ~WorkerTeam();
  WorkerTeam(const WorkerTeam&) = delete;
  WorkerTeam& operator=(const WorkerTeam&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }
  // f(i) for i in [0, pieces), pieces <= kMaxPieces.
  void run(int pieces, const std::function<void(int piece)>& f);

  // Pieces [first, last) of `pieces` that member m of `members` takes first: contiguous
  // blocks, as even as possible.
  static std::pair<int, int> share(int pieces, int members, int m) {
    return {pieces * m / members, pieces * (m + 1) / members};
  }

 private:
  void loop(int member);
  void stopAll();
  // Claims and runs pieces for member m, its own block first; false once f threw.
  void takePieces(int member, std::exception_ptr* error);
  void noteWait(std::chrono::nanoseconds own, std::chrono::nanoseconds wait);

  std::vector<std::thread> workers_;
  const std::function<void(int)>* job_ = nullptr;
  int pieces_ = 0;
  std::array<std::atomic<unsigned char>, kMaxPieces> claimed_{};
  std::atomic<int> done_{0};
  // The call in progress: its generation in the high 32 bits, kClosed once the caller no longer
  // admits workers, and in the low bits the workers inside it. A worker enters by a
  // compare-exchange that fails once the call is closed or over, so none touches a job whose
  // run() has returned.
  static constexpr std::uint64_t kClosed = std::uint64_t{1} << 31;
  static constexpr std::uint64_t kInside = kClosed - 1;
  std::atomic<std::uint64_t> gate_{kClosed};
  std::atomic<std::uint64_t> generation_{0};
  // The caller's record of starved calls (worker_team.cpp, noteWait): consecutive ones, and
  // how many calls it still runs alone.
  static constexpr int kStrikes = 3;
  static constexpr int kSoloCalls = 1000;
  int strikes_ = 0;
  int solo_ = 0;
  bool stop_ = false;  // guarded by mutex_
  std::mutex mutex_;
  std::condition_variable wake_;
};

}  // namespace argus
