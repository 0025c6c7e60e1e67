// The worker team (common/worker_team.h): every piece runs exactly once per call, whoever
// takes it, for teams larger than the machine (workers then often not scheduled, and the
// caller runs their pieces); a piece that throws on the calling thread is rethrown after the
// started pieces are done, and the team stays usable.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "common/worker_team.h"

namespace argus {
namespace {

TEST(WorkerTeam, RunsEveryPieceExactlyOnceForAnyTeamSize) {
  for (const int threads : {2, 3, 8}) {
    WorkerTeam team(threads);
    for (const int pieces : {0, 1, 2, 3, 5, 64}) {
      for (int call = 0; call < 200; ++call) {
        std::vector<std::atomic<int>> runs(static_cast<std::size_t>(pieces));
        for (auto& r : runs) r.store(0);
        team.run(pieces, [&](int i) { runs[static_cast<std::size_t>(i)].fetch_add(1); });
        for (int i = 0; i < pieces; ++i)
          ASSERT_EQ(runs[static_cast<std::size_t>(i)].load(), 1)
              << threads << " threads, " << pieces << " pieces, call " << call << ", piece " << i;
      }
    }
  }
}

TEST(WorkerTeam, ResultsCombinedInPieceOrderDoNotDependOnTheTeam) {
  // Sums of many small terms per piece, combined in piece order: bit-identical for any team.
  auto total = [](int threads) {
    WorkerTeam team(threads);
    std::vector<double> part(16, 0.0);
    team.run(16, [&](int i) {
      for (int k = 0; k < 10000; ++k) part[static_cast<std::size_t>(i)] += 1.0 / (1.0 + i * 10000 + k);
    });
    double sum = 0.0;
    for (const double v : part) sum += v;
    return sum;
  };
  const double one = total(1);
  EXPECT_EQ(one, total(2));
  EXPECT_EQ(one, total(3));
  EXPECT_EQ(one, total(7));
}

TEST(WorkerTeam, AThrowingPieceOnTheCallerIsRethrownAndTheTeamStaysUsable) {
  WorkerTeam team(2);
  const std::thread::id caller = std::this_thread::get_id();
  // Only the calling thread may throw; it nearly always runs piece 0 (its own block), but a
  // fast worker may take every piece, so try until the caller has thrown.
  int thrown = 0;
  for (int call = 0; call < 100 && thrown == 0; ++call) {
    try {
      team.run(2, [&](int) {
        if (std::this_thread::get_id() == caller) throw std::runtime_error("caller's piece");
      });
    } catch (const std::runtime_error&) {
      ++thrown;
    }
    std::atomic<int> ran{0};
    team.run(4, [&](int) { ran.fetch_add(1); });
    ASSERT_EQ(ran.load(), 4) << "call " << call;
  }
  EXPECT_EQ(thrown, 1);
}

TEST(WorkerTeam, RejectsMorePiecesThanItTracks) {
  WorkerTeam team(2);
  EXPECT_ANY_THROW(team.run(WorkerTeam::kMaxPieces + 1, [](int) {}));
}

}  // namespace
}  // namespace argus
