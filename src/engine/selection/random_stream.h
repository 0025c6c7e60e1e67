// The engine's own random numbers, for fold assignment and bootstrap resampling.
//
// Results must depend on the seed the caller passes and on nothing else: not on the
// platform's <random> distributions (their algorithms are unspecified), not on R's RNG, and
// not on the number of threads. So:
//  - RandomStream is xoshiro256** (Blackman and Vigna), seeded by expanding one 64-bit value
//    with splitmix64; both are fully specified integer recurrences.
//  - streamSeed(seed, index) derives an independent seed for each repetition or replicate,
//    so replicate b draws the same numbers whichever thread runs it, and in whatever order.
//  - uniformBelow(n) is exact (rejection, no modulo bias), and shuffle() is Fisher-Yates.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace argus {

// One step of splitmix64: a bijective mix of a 64-bit state.
inline std::uint64_t splitMix64(std::uint64_t* state) {
  std::uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// The seed of stream `index` derived from a user seed (two rounds of mixing, so nearby seeds
// and nearby indices give unrelated streams).
inline std::uint64_t streamSeed(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t state = seed;
  const std::uint64_t mixedSeed = splitMix64(&state);
  state = mixedSeed ^ (index * 0xD1B54A32D192ED03ULL + 0x8CB92BA72F3D8DD7ULL);
  return splitMix64(&state);
}

class RandomStream {
 public:
  explicit RandomStream(std::uint64_t seed) {
    std::uint64_t state = seed;
    for (std::uint64_t& word : s_) word = splitMix64(&state);
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform on 0..n-1 (n >= 1), exactly: draws falling in the incomplete last block of
  // 2^64 mod n values are rejected.
  std::uint64_t uniformBelow(std::uint64_t n) {
    const std::uint64_t max = ~std::uint64_t{0};
    const std::uint64_t remainder = (max % n + 1) % n;  // 2^64 mod n
    const std::uint64_t accept = max - remainder;       // accept x <= accept
    std::uint64_t x = next();
    while (remainder != 0 && x > accept) x = next();
    return x % n;
  }

  template <typename T>
  void shuffle(std::vector<T>* values) {
    for (std::size_t i = values->size(); i > 1; --i) {
      const std::size_t j = static_cast<std::size_t>(uniformBelow(i));
      std::swap((*values)[i - 1], (*values)[j]);
    }
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

}  // namespace argus
