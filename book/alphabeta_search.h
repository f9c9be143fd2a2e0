// Searching a book position with the classical alpha-beta search instead of MCTS: every legal
// move's child is searched to a fixed depth (play/alphabeta.h), so each move gets its own exact
// minimax score at that depth. For games where the classical search is the stronger player.
#pragma once

#include <memory>

#include "mcts/search.h"
#include "play/alphabeta.h"

namespace pincer::book {

struct AlphaBetaBookOptions {
  int depth = 4;             // plies from the position (each move's child is searched depth - 1)
  int hash_mb = 64;          // transposition table, kept across positions
  float scale = 300.0f;      // a score s (hundredths of a piece) maps to the value tanh(s / scale)
  float temperature = 0.1f;  // the "policy" (visit shares the book's selection uses): a
                             // softmax of the move values at this temperature
};

// Searches positions one at a time; the result has the shape of an MCTS result (actions, visits
// as 1000 * the softmax share (at least 1), prior = that share, q, root wdl) so the book stores it
// alike.
class AlphaBetaBookSearch {
 public:
  AlphaBetaBookSearch(const Game& game, AlphaBetaBookOptions options);
  // `state` is not over.
  mcts::SearchResult search(const State& state);
  // The map from an alpha-beta score (for the player to move) to a value in [-1, 1].
  float value_of(int score) const;

 private:
  const Game& game_;
  AlphaBetaBookOptions options_;
  AlphaBeta search_;
};

}  // namespace pincer::book
