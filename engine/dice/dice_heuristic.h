// The hand-made dice evaluation behind Game::heuristic(): material by face (what a die is now
// and what it decays into next), King safety (enemy dice that reach the King, own dice around
// it), mobility, and the decay cycle (a pawn showing 1 becomes a queen when it moves).
#pragma once

#include "engine/dice/position.h"
#include "engine/heuristic.h"

namespace pincer::dice {

// Value of a die of `kind` for its side, in hundredths of a pawn (the King excluded).
int die_value(int kind);
// What capturing the die on `to` is worth for move ordering and the greedy player: the King
// most of all (it wins outside scored play), then by die_value.
int capture_value(const Position& pos, int to);
// Value for the side to move, in hundredths of a pawn.
int evaluate(const Position& pos);

class DiceHeuristic : public Heuristic {
 public:
  int evaluate(const State& state) const override;
  void capture_points(const State& state, const std::vector<Action>& actions,
                      std::vector<int>& out) const override;
};

// The one shared instance (it holds no state).
const DiceHeuristic& dice_heuristic();

}  // namespace pincer::dice
