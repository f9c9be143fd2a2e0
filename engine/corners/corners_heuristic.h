// The hand-made corners evaluation behind Game::heuristic(), for the classical players:
// material (pieces on the board, the reserve a little less), advance towards the far rank,
// squares each side guards on its own, and the crossings each side could make at once.
// Captures are counted net: a move that also removes the mover's own pieces scores less, and
// below zero when it loses more than it takes.
#pragma once

#include "engine/corners/position.h"
#include "engine/heuristic.h"

namespace pincer::corners {

// Value for the player to move, in hundredths of a piece.
int evaluate(const Position& pos);
// Enemy pieces `action` (legal in `pos`) removes minus the mover's own pieces it removes.
int net_capture(const Position& pos, int action);
// Squares on `player`'s far rank one of its moves lands on now (runs, point steps, divides).
Bitboard crossings(const Position& pos, int player);

class CornersHeuristic : public Heuristic {
 public:
  int evaluate(const State& state) const override;
  void capture_points(const State& state, const std::vector<Action>& actions,
                      std::vector<int>& out) const override;
};

const CornersHeuristic& corners_heuristic();

}  // namespace pincer::corners
