// The hand-made SE!ZE evaluation behind Game::heuristic(): material (pieces, caps, bosses),
// points, crown control, boss safety, pieces left en prise, mobility. Knows every ruleset through
// its compiled Rules (capture lines, pins, scoring, ply limit).
#pragma once

#include "engine/heuristic.h"
#include "engine/seize/position.h"

namespace pincer::seize {

// Squares of the enemy pieces that `m` captures in `pos` (what Position::apply would remove),
// without playing it.
Bitboard captures_of(const Position& pos, Move m);
// The points a capture of `captured` (enemy squares in `pos`) scores under the ruleset: its own
// scoring where it keeps points, else the reference values 1 guard, 2 capped guard, 3 boss.
int capture_points(const Position& pos, Bitboard captured);
// Value for the side to move, in hundredths of a plain guard.
int evaluate(const Position& pos);

class SeizeHeuristic : public Heuristic {
 public:
  int evaluate(const State& state) const override;
  void capture_points(const State& state, const std::vector<Action>& actions,
                      std::vector<int>& out) const override;
};

// The one shared instance (it holds no state).
const SeizeHeuristic& seize_heuristic();

}  // namespace pincer::seize
