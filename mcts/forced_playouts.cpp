// Forced playouts and policy target pruning: the arithmetic (mcts/forced_playouts.h).
#include "mcts/forced_playouts.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace pincer::mcts {

float forced_visits(float k, float prior, float parent_visits) {
  if (k <= 0 || prior <= 0 || parent_visits <= 0) return 0.0f;
  return std::sqrt(k * prior * parent_visits);
}

std::vector<float> pruned_visit_policy(const std::vector<uint32_t>& visits,
                                       const std::vector<float>& q, const std::vector<float>& prior,
                                       float c_scaled, float k) {
  const size_t n = visits.size();
  if (q.size() != n || prior.size() != n) {
    throw std::invalid_argument("pruned_visit_policy: visits, q and prior differ in length");
  }
  std::vector<float> policy(n, 0.0f);
  size_t best = 0;
  double parent = 0;
  for (size_t i = 0; i < n; ++i) {
    parent += visits[i];
    if (visits[i] > visits[best]) best = i;
  }
  if (parent <= 0) return policy;
  const double best_score =
      q[best] + static_cast<double>(c_scaled) * prior[best] / (1.0 + visits[best]);
  double total = 0;
  for (size_t i = 0; i < n; ++i) {
    double kept = visits[i];
    if (i != best && visits[i] > 0) {
      const double owed = std::floor(forced_visits(k, prior[i], static_cast<float>(parent)));
      // The fewest visits at which the child's score is still below the best's:
      // q + c_scaled * P / (1 + m) < best_score  <=>  m > c_scaled * P / (best_score - q) - 1.
      double fewest = kept;
      if (best_score > q[i]) {
        const double x = static_cast<double>(c_scaled) * prior[i] / (best_score - q[i]);
        fewest = std::max(0.0, std::floor(x));
      }
      kept = std::max(kept - owed, std::min(kept, fewest));
      if (kept <= 1) kept = 0;
    }
    policy[i] = static_cast<float>(kept);
    total += kept;
  }
  for (float& p : policy) p = static_cast<float>(p / total);
  return policy;
}

}  // namespace pincer::mcts
