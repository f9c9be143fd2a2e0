// Defaults of the game interface (engine/game.h) that work through the interface itself.
#include "engine/game.h"

#include <xxhash.h>

#include <algorithm>
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

void Game::apply_symmetry_plane(int sym, float* plane) const {
  const InputShape shape = input_shape();
  const size_t cells = static_cast<size_t>(shape.height) * shape.width;
  // The plane as plane 0 of an otherwise empty input: every game's symmetry is a permutation of
  // each plane's cells, so the other planes' zeros do not leak into it.
  thread_local std::vector<float> input;
  input.assign(static_cast<size_t>(shape.size()), 0.0f);
  std::copy(plane, plane + cells, input.begin());
  apply_symmetry(sym, input.data(), nullptr);
  std::copy(input.begin(), input.begin() + static_cast<std::ptrdiff_t>(cells), plane);
}

bool Game::provides_ownership() const {
  const InputShape shape = input_shape();
  std::vector<float> cells(static_cast<size_t>(shape.height) * shape.width);
  return initial_state()->ownership(0, cells.data());
}

}  // namespace pincer
