#include "train/alphabeta_labels.h"

#include "engine/capture_search.h"

namespace pincer {

void label_with_alphabeta(const std::vector<Action>& legal, const SearchInfo& info,
                          float policy_smoothing, double value_scale, MoveRecord& m) {
  const bool alone = legal.size() <= 1;
  const float rest = alone ? 0.0f : policy_smoothing / static_cast<float>(legal.size() - 1);
  for (Action a : legal) {
    m.add_policy_actions(a);
    m.add_policy(a == info.best ? (alone ? 1.0f : 1 - policy_smoothing) : rest);
  }
  m.set_root_value(static_cast<float>(score_win_probability(info.score, value_scale)));
  m.set_full_search(true);
}

}  // namespace pincer
