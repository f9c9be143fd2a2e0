// Defaults of the game interface (engine/game.h) that work through the interface itself.
#include "engine/game.h"

#include <xxhash.h>

#include <vector>

namespace pincer {

uint64_t State::eval_key() const {
  std::vector<float> planes(static_cast<size_t>(game().input_shape().size()));
  encode(planes.data());
  return XXH64(planes.data(), planes.size() * sizeof(float), hash());
}

void State::winning_actions(std::vector<Action>& out) const {
  std::vector<Action> legal;
  legal_actions(legal);
  out.clear();
  const int us = to_move();
  for (Action a : legal) {
    std::unique_ptr<State> next = clone();
    next->apply(a);
    const Outcome o = next->outcome();
    if (o.over && o.winner == us) out.push_back(a);
  }
}

bool State::has_winning_action() const {
  std::vector<Action> wins;
  winning_actions(wins);
  return !wins.empty();
}

}  // namespace pincer
