#include "mcts/cache.h"

namespace pincer::mcts {

namespace {
size_t round_up_pow2(size_t n) {
  size_t p = 1;
  while (p < n) p <<= 1;
  return p;
}
}  // namespace

EvalCache::EvalCache(size_t capacity) : slots_(capacity ? round_up_pow2(capacity) : 0) {}

bool EvalCache::lookup(uint64_t key, size_t num_actions, Evaluation& out) {
  lookups_.fetch_add(1, std::memory_order_relaxed);
  if (slots_.empty()) return false;
  const size_t i = key & (slots_.size() - 1);
  std::lock_guard<std::mutex> lock(shard(i));
  const Slot& s = slots_[i];
  if (!s.used || s.key != key || s.generation != generation() || s.priors.size() != num_actions) {
    return false;
  }
  out.priors.assign(s.priors.begin(), s.priors.end());
  out.wdl = s.wdl;
  out.points = s.points;
  hits_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

void EvalCache::insert(uint64_t key, uint64_t generation, const Evaluation& eval) {
  if (slots_.empty()) return;
  const size_t i = key & (slots_.size() - 1);
  std::lock_guard<std::mutex> lock(shard(i));
  // Checked under the slot's lock: a clear() that begins after this check wipes the slot after
  // the write, and one that began before it has already moved the generation on.
  if (generation != this->generation()) return;
  Slot& s = slots_[i];
  s.key = key;
  s.generation = generation;
  s.used = true;
  s.wdl = eval.wdl;
  s.points = eval.points;
  s.priors.assign(eval.priors.begin(), eval.priors.end());
  inserts_.fetch_add(1, std::memory_order_relaxed);
}

void EvalCache::clear() {
  generation_.fetch_add(1, std::memory_order_acq_rel);
  for (size_t i = 0; i < slots_.size(); ++i) {
    std::lock_guard<std::mutex> lock(shard(i));
    slots_[i].used = false;
    slots_[i].priors.clear();
    slots_[i].priors.shrink_to_fit();
  }
}

CacheStats EvalCache::stats() const {
  CacheStats s;
  s.lookups = lookups_.load();
  s.hits = hits_.load();
  s.inserts = inserts_.load();
  return s;
}

}  // namespace pincer::mcts
