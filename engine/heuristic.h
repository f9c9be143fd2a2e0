// Hand-made game knowledge for the classical players (alphabeta, greedy, the MCTS rollout
// cut-off). A game offers one through Game::heuristic(); everything here is game-specific, so it
// lives with the game in engine/<game>/, while the searches that use it stay generic in play/.
#pragma once

#include <vector>

#include "engine/game.h"

namespace pincer {

class Heuristic {
 public:
  virtual ~Heuristic() = default;

  // Static value of `state` (not over) for the player to move, in hundredths of a plain piece:
  // positive is good for that player. Called at every leaf of a search, so it must be fast.
  // Stay well inside +-100000; the searches use larger numbers for won and lost games.
  virtual int evaluate(const State& state) const = 0;

  // What each action of `actions` (legal in `state`) captures at once, in the game's points (for
  // SE!ZE 1 a guard, 2 a capped guard, 3 a boss), net of what the same action costs the mover
  // where captures can remove the mover's own pieces too: negative for an action that loses more
  // than it takes, 0 for a quiet move or an even trade. `out` gets one value per action. Used for
  // move ordering (negative ones last), the quiescence search (which follows the positive ones
  // only) and the greedy player (which takes the highest, negative included).
  virtual void capture_points(const State& state, const std::vector<Action>& actions,
                              std::vector<int>& out) const = 0;
};

}  // namespace pincer
