// A bounded, thread-safe cache of network results shared by any number of searches, keyed by
// State::eval_key() (everything the network input reads) and a model generation.
// Direct-mapped: a new entry replaces whatever held its slot, so memory stays at `capacity`
// entries. When the network changes, clear() starts a new generation: entries of earlier
// generations never answer again, and an insert made for a request collected under an earlier
// generation (an answer of the old model still in flight at the switch) is dropped.
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

  // Fills `out` and returns true when `key` is cached in this generation with `num_actions`
  // priors.
  bool lookup(uint64_t key, size_t num_actions, Evaluation& out);
  // Stores `eval` for `key` if `generation` (generation() when the request was made) is still
  // the current one.
  void insert(uint64_t key, uint64_t generation, const Evaluation& eval);
  void insert(uint64_t key, const Evaluation& eval) { insert(key, generation(), eval); }
  // Forgets every entry: a new generation begins (call it when the network changes).
  void clear();
  uint64_t generation() const { return generation_.load(std::memory_order_acquire); }

  size_t capacity() const { return slots_.size(); }
  CacheStats stats() const;

 private:
  struct Slot {
    uint64_t key = 0;
    uint64_t generation = 0;
    bool used = false;
    std::array<float, 3> wdl{};
    std::optional<float> points;
    std::vector<float> priors;
  };
  static constexpr size_t kShards = 64;
  std::mutex& shard(size_t slot) { return shards_[slot & (kShards - 1)]; }

  std::vector<Slot> slots_;
  std::array<std::mutex, kShards> shards_;
  std::atomic<uint64_t> generation_{1};
  std::atomic<uint64_t> lookups_{0}, hits_{0}, inserts_{0};
};

}  // namespace pincer::mcts
