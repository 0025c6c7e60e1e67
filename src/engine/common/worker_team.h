// A few threads kept for the life of one fit, to split the work of single coordinates.
//
// Cross-validation and the bootstrap parallelize over whole fits (common/task_runner.h);
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
// briefly, then yields its core. The caller also times its calls with the team and alone, in
// turns, and runs the next calls the faster way (TeamPacing): a second thread never costs
// more than the probes.
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
  // f(i) for i in [0, pieces), pieces <= kMaxPieces: on the team, or in piece order on the
  // calling thread when the current round runs alone.
  void run(int pieces, const std::function<void(int piece)>& f);

  // A round: a unit of work of one or more run() calls (a coordinate's scan; its step and the
  // refresh after it) that runs either all on the team or all alone, as TeamPacing decides
  // at its start, and is timed as a whole. Without a round, run() uses the team.
  class Round {
   public:
    explicit Round(WorkerTeam* team);
    ~Round();
    Round(const Round&) = delete;
    Round& operator=(const Round&) = delete;

   private:
    WorkerTeam* team_;
    std::chrono::steady_clock::time_point start_;
  };
  // Whether run() calls of the current round use the team.
  bool together() const { return together_; }

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
  // Whether the team pays (worker_team.cpp, TeamPacing): the caller times its calls with the
  // team and alone, in turns, and runs the next many calls the faster way. Per fit the
  // answer depends on the machine (cores busy with other work, caches shared or not) and on
  // the work per call, which no constant foresees; the results are the same either way.
  class TeamPacing {
   public:
    // Probe rounds alternate in pairs (a coordinate's scan and step together), with the team
    // and alone, so that both see the same mix of columns.
    static constexpr int kProbeRounds = 600;
    static constexpr int kExploitRounds = 20000;
    bool teamNow() const {
      if (probing_) return (left_ / 2) % 2 == 0;
      return teamWins_ && !starved_;
    }
    // After each round: its time, and whether a worker kept the caller waiting well beyond
    // its own share (three rounds in a row: alone until the next probe).
    void record(std::chrono::nanoseconds took, bool starvedCall);

   private:
    bool probing_ = true;
    int left_ = kProbeRounds;
    std::chrono::nanoseconds team_{0}, solo_{0};
    bool teamWins_ = true;
    int strikes_ = 0;
    bool starved_ = false;
  };
  TeamPacing pacing_;
  bool together_ = true;
  bool starvedInRound_ = false;
  bool stop_ = false;  // guarded by mutex_
  std::mutex mutex_;
  std::condition_variable wake_;
};

}  // namespace argus
