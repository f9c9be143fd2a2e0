// Random numbers for every layer, in one place: splitmix64 (the mixing step behind seeds and
// Zobrist keys), seed mixing, the fixed key stream for Zobrist tables and a small fast generator.
#pragma once

#include <cstdint>

namespace pincer {

// One splitmix64 step: advances `state` and returns a well-mixed 64-bit value.
inline uint64_t splitmix64(uint64_t& state) {
  uint64_t x = (state += 0x9e3779b97f4a7c15ULL);
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// A well-mixed seed from two values (seeds for games, players, batches).
inline uint64_t mix_seed(uint64_t a, uint64_t b = 0) {
  uint64_t state = a + 0x9e3779b97f4a7c15ULL * b;
  return splitmix64(state);
}

// A fixed, well-mixed sequence for Zobrist keys (the same keys on every run).
class KeyStream {
 public:
  explicit KeyStream(uint64_t seed) : state_(seed) {}
  uint64_t next() { return splitmix64(state_); }

 private:
  uint64_t state_;
};

// Small fast generator (xoshiro256**), seeded through splitmix64.
class Rng {
 public:
  explicit Rng(uint64_t seed) {
    for (int i = 0; i < 4; ++i) s_[i] = mix_seed(seed, i);
  }
  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, n), n > 0.
  uint32_t below(uint32_t n) { return static_cast<uint32_t>((next() >> 32) * n >> 32); }
  // Uniform in [0, 1).
  double uniform() { return (next() >> 11) * 0x1.0p-53; }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace pincer
