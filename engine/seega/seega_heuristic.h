// The hand-made Seega evaluation behind Game::heuristic(), for the classical players (alphabeta,
// greedy, rollout cut-offs): material, pieces the opponent can sandwich next move, mobility and
// blocked players, with the ruleset's win and blocked rules taken into account.
#pragma once

#include "engine/heuristic.h"
#include "engine/seega/position.h"

namespace pincer::seega {

// Value for the player to move (Position::to_move()), in hundredths of a piece.
int evaluate(const Position& pos);
// The enemy squares `action` (legal in `pos`) captures, without changing `pos`.
Bitboard captures_of(const Position& pos, int action);

class SeegaHeuristic : public Heuristic {
 public:
  int evaluate(const State& state) const override;
  // One point per piece captured; 0 for placements and for forced moves that capture nothing.
  void capture_points(const State& state, const std::vector<Action>& actions,
                      std::vector<int>& out) const override;
};

const SeegaHeuristic& seega_heuristic();

}  // namespace pincer::seega
