#include "common/worker_team.h"

#include <chrono>
#include <exception>

#include "common/errors.h"

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

// Some tens of microseconds of pause instructions: longer than the gap between two
// coordinates, short enough that an idle team leaves the cores to others.
constexpr int kSpins = 2000;

// Waits for done(): spins, then yields the core (the piece it waits on may need it).
template <typename Done>
void await(Done&& done) {
  for (int spins = 0; !done(); ++spins) {
    if (spins < kSpins) relax(); else std::this_thread::yield();
  }
}

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

void WorkerTeam::takePieces(int member, std::exception_ptr* error) {
  const auto own = share(pieces_, size(), member);
  auto take = [&](int i) {
    if (claimed_[i].exchange(1, std::memory_order_acq_rel) != 0) return;
    if (error && !*error) {
      try {
        (*job_)(i);
      } catch (...) {
        *error = std::current_exception();
      }
    } else if (!error) {
      (*job_)(i);
    }
    done_.fetch_add(1, std::memory_order_release);
  };
  for (int i = own.first; i < own.second; ++i) take(i);
  // Then the others' pieces, from the far end (their owners start at the near one).
  for (int i = pieces_ - 1; i >= 0; --i)
    if (i < own.first || i >= own.second) take(i);
}

void WorkerTeam::run(int pieces, const std::function<void(int)>& f) {
  ARGUS_REQUIRE(pieces >= 0 && pieces <= kMaxPieces, "too many pieces for a worker team");
  if (workers_.empty() || pieces <= 1) {
    for (int i = 0; i < pieces; ++i) f(i);
    return;
  }
  if (!together_) {
    for (int i = 0; i < pieces; ++i) f(i);
    return;
  }
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  job_ = &f;
  pieces_ = pieces;
  for (int i = 0; i < pieces; ++i) claimed_[i].store(0, std::memory_order_relaxed);
  done_.store(0, std::memory_order_relaxed);
  const std::uint64_t generation = generation_.load(std::memory_order_relaxed) + 1;
  gate_.store((generation & 0xffffffffu) << 32, std::memory_order_release);
  {
    // Under the lock, so that a worker about to sleep cannot miss the new generation.
    std::lock_guard<std::mutex> lock(mutex_);
    generation_.store(generation, std::memory_order_release);
  }
  wake_.notify_all();
  std::exception_ptr error;
  takePieces(0, &error);
  const Clock::time_point ownDone = Clock::now();
  await([&] { return done_.load(std::memory_order_acquire) == pieces; });
  const Clock::time_point allDone = Clock::now();
  // A worker whose pieces finish long after the caller's own (of the same size) was not
  // running: another process has its core.
  if (allDone - ownDone > ownDone - start + std::chrono::microseconds(20)) starvedInRound_ = true;
  // Close the call, then wait for the workers inside it: they read job_ and the claims.
  std::uint64_t g = gate_.load(std::memory_order_relaxed);
  while (!gate_.compare_exchange_weak(g, g | kClosed, std::memory_order_acq_rel)) {
  }
  await([&] { return (gate_.load(std::memory_order_acquire) & kInside) == 0; });
  if (error) std::rethrow_exception(error);
}

WorkerTeam::Round::Round(WorkerTeam* team) : team_(team) {
  if (!team_) return;
  team_->together_ = team_->pacing_.teamNow();
  team_->starvedInRound_ = false;
  start_ = std::chrono::steady_clock::now();
}

WorkerTeam::Round::~Round() {
  if (!team_) return;
  team_->pacing_.record(std::chrono::steady_clock::now() - start_, team_->starvedInRound_);
  team_->together_ = true;
}

void WorkerTeam::TeamPacing::record(std::chrono::nanoseconds took, bool starvedCall) {
  if (probing_) {
    (teamNow() ? team_ : solo_) += took;
    if (--left_ == 0) {
      teamWins_ = team_ < solo_;
      probing_ = false;
      left_ = kExploitRounds;
      strikes_ = 0;
      starved_ = false;
    }
    return;
  }
  strikes_ = starvedCall ? strikes_ + 1 : 0;
  if (strikes_ >= 3) starved_ = true;
  if (--left_ == 0) {
    probing_ = true;
    left_ = kProbeRounds;
    team_ = solo_ = std::chrono::nanoseconds{0};
  }
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
    const std::uint64_t mine = (seen & 0xffffffffu) << 32;
    std::uint64_t g = gate_.load(std::memory_order_acquire);
    bool inside = false;
    while ((g & ~kInside) == mine) {  // this call, not closed
      if (gate_.compare_exchange_weak(g, g + 1, std::memory_order_acq_rel)) {
        inside = true;
        break;
      }
    }
    if (!inside) continue;
    takePieces(member, nullptr);
    gate_.fetch_sub(1, std::memory_order_release);
  }
}

}  // namespace argus
