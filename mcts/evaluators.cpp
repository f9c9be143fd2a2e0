#include "mcts/evaluators.h"

#include <random>

namespace pincer::mcts {

void UniformEvaluator::evaluate(const std::vector<EvalRequest>& requests,
                                std::vector<Evaluation>& out) {
  calls_.fetch_add(1, std::memory_order_relaxed);
  positions_.fetch_add(requests.size(), std::memory_order_relaxed);
  out.resize(requests.size());
  for (size_t i = 0; i < requests.size(); ++i) {
    const size_t n = requests[i].legal->size();
    out[i].priors.assign(n, 1.0f / static_cast<float>(n));
    out[i].wdl = wdl_;
  }
}

void RolloutEvaluator::evaluate(const std::vector<EvalRequest>& requests,
                                std::vector<Evaluation>& out) {
  out.resize(requests.size());
  std::vector<Action> legal;
  for (size_t i = 0; i < requests.size(); ++i) {
    const State& start = *requests[i].state;
    const size_t n = requests[i].legal->size();
    out[i].priors.assign(n, 1.0f / static_cast<float>(n));
    std::mt19937_64 rng(seed_ ^ (start.hash() * 0x9E3779B97F4A7C15ull));
    const int me = start.to_move();
    float win = 0, draw = 0;
    for (int r = 0; r < rollouts_; ++r) {
      std::unique_ptr<State> s = start.clone();
      for (int ply = 0; ply < max_plies_; ++ply) {
        s->legal_actions(legal);
        if (legal.empty()) break;
        s->apply(legal[std::uniform_int_distribution<size_t>(0, legal.size() - 1)(rng)]);
      }
      const Outcome o = s->outcome();
      if (!o.over || o.winner < 0) {
        draw += 1;
      } else if (o.winner == me) {
        win += 1;
      }
    }
    const float k = static_cast<float>(rollouts_);
    out[i].wdl = {win / k, draw / k, (rollouts_ - win - draw) / k};
  }
}

}  // namespace pincer::mcts
