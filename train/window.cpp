#include "train/window.h"

#include "train/records.h"

namespace pincer {

int Window::add_game(const Game& game, const GameRecord& record) {
  int added = 0;
  replay_record(game, record, [&](const State& state, int i) {
    const MoveRecord& m = record.moves(i);
    Sample s;
    s.state = state.clone();
    if (m.full_search() && m.policy_actions_size() > 0 &&
        m.policy_actions_size() == m.policy_size()) {
      s.policy_index.reserve(m.policy_actions_size());
      for (int k = 0; k < m.policy_actions_size(); ++k) {
        s.policy_index.push_back(state.policy_index(m.policy_actions(k)));
      }
      s.policy.assign(m.policy().begin(), m.policy().end());
    }
    if (record.winner() < 0) {
      s.wdl = {0, 1, 0};
    } else if (record.winner() == state.to_move()) {
      s.wdl = {1, 0, 0};
    } else {
      s.wdl = {0, 0, 1};
    }
    samples_.push_back(std::move(s));
    ++added;
  });
  while (samples_.size() > capacity_) samples_.pop_front();
  return added;
}

}  // namespace pincer
