// Random games over the generic interface, for property tests.
#pragma once

#include <functional>
#include <random>

#include "engine/game.h"

namespace pincer::testing {

// Plays uniformly random legal actions from `start` until the game ends or `max_plies` pass,
// calling `visit(state_before, action)` before each action and `visit(final, -1)` at the end.
inline void play_random_game(const State& start, uint64_t seed, int max_plies,
                             const std::function<void(const State&, Action)>& visit) {
  std::mt19937_64 rng(seed);
  std::unique_ptr<State> s = start.clone();
  std::vector<Action> legal;
  for (int ply = 0; ply < max_plies; ++ply) {
    s->legal_actions(legal);
    if (legal.empty()) break;
    const Action a = legal[std::uniform_int_distribution<size_t>(0, legal.size() - 1)(rng)];
    visit(*s, a);
    s->apply(a);
  }
  visit(*s, -1);
}

}  // namespace pincer::testing
