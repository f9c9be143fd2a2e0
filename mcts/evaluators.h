// Evaluators that need no network: a free uniform one (tests, benchmarks of search overhead) and
// random rollouts (a classical baseline opponent). Both work for any game.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>

#include "mcts/evaluator.h"

namespace pincer::mcts {

// Uniform priors and a fixed value (a draw by default) for every position.
class UniformEvaluator : public Evaluator {
 public:
  explicit UniformEvaluator(std::array<float, 3> wdl = {0.0f, 1.0f, 0.0f}) : wdl_(wdl) {}
  void evaluate(const std::vector<EvalRequest>& requests, std::vector<Evaluation>& out) override;
  uint64_t calls() const { return calls_.load(); }
  uint64_t positions() const { return positions_.load(); }

 private:
  std::array<float, 3> wdl_;
  std::atomic<uint64_t> calls_{0}, positions_{0};
};

// Uniform priors; the value is the mean result of `rollouts` uniformly random playouts of at most
// `max_plies` plies (unfinished playouts count as draws). Thread-safe; deterministic per position
// for a given seed.
class RolloutEvaluator : public Evaluator {
 public:
  explicit RolloutEvaluator(int rollouts = 1, int max_plies = 200, uint64_t seed = 1)
      : rollouts_(rollouts), max_plies_(max_plies), seed_(seed) {}
  void evaluate(const std::vector<EvalRequest>& requests, std::vector<Evaluation>& out) override;

 private:
  int rollouts_;
  int max_plies_;
  uint64_t seed_;
};

}  // namespace pincer::mcts
