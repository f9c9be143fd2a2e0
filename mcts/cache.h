// A bounded, thread-safe cache of network results keyed by position hash, shared by any number
// of searches. Direct-mapped: a new entry replaces whatever held its slot, so memory stays at
// `capacity` entries. Keyed by State::hash() alone, which leaves out move counters; a network
// that reads counters gets answers for the same position at another count (an accepted
// approximation). Clear it when the network changes.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "mcts/evaluator.h"

namespace pincer::mcts {

struct CacheStats {
  uint64_t lookups = 0;
  uint64_t hits = 0;
  uint64_t inserts = 0;
  double hit_rate() const { return lookups ? double(hits) / lookups : 0.0; }
};

class EvalCache {
 public:
  // `capacity` entries (rounded up to a power of two; 0 makes a cache that never hits).
  explicit EvalCache(size_t capacity);

  // Fills `out` and returns true when `key` is cached with `num_actions` priors.
  bool lookup(uint64_t key, size_t num_actions, Evaluation& out);
  void insert(uint64_t key, const Evaluation& eval);
  void clear();

  size_t capacity() const { return slots_.size(); }
  CacheStats stats() const;

 private:
  struct Slot {
    uint64_t key = 0;
    bool used = false;
    std::array<float, 3> wdl{};
    std::vector<float> priors;
  };
  static constexpr size_t kShards = 64;
  std::mutex& shard(size_t slot) { return shards_[slot & (kShards - 1)]; }

  std::vector<Slot> slots_;
  std::array<std::mutex, kShards> shards_;
  std::atomic<uint64_t> lookups_{0}, hits_{0}, inserts_{0};
};

}  // namespace pincer::mcts
