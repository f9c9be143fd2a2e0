// Game review: one analysis of every turn of a game at a fixed budget, then each move judged by
// how much it dropped the mover's expected score (win + draw / 2, in [0, 1]), as lichess judges
// moves by their drop in winning chances. Used by `pincer review`, by the server's
// POST /api/review and by the page's Review button (docs/analysis.md, "Game review").
//
// A move's drop is the mover's expected score before it (the analysis of the position it was
// played in) minus the mover's expected score after it (the analysis of the next position, or
// the exact result when the game ended). The analyser's own best move and a forced move (the only
// legal one) drop nothing by definition, so the noise of two searches never marks them. Marks:
// drop >= 0.30 blunder, >= 0.20 mistake, >= 0.10 inaccuracy (lichess uses 0.3, 0.2 and 0.1 of its
// winning chances, which run from -1 to 1, so twice as strict: a search at a small budget is
// noisier than its Stockfish). A move's accuracy is lichess's 103.1668 exp(-0.04354 d) - 3.1669
// with d the drop in percent (100 for no drop), a side's accuracy the mean over its judged moves.
#pragma once

#include <string>
#include <vector>

#include "engine/game.h"
#include "engine/record.h"
#include "serve/engine.h"
#include "serve/query.h"

namespace pincer::serve {

struct ReviewOptions {
  int visits = 200;      // maxVisits of each turn's analysis (MCTS; alpha-beta ignores it)
  double seconds = 1.0;  // maxTime of each turn (0: none; alpha-beta takes its depth or half)
  double inaccuracy = 0.10;
  double mistake = 0.20;
  double blunder = 0.30;
  int priority = -1;  // of the review's analysis query: below a page's live analysis
};

// The game to review: a ruleset (name or fingerprint, "" = the engine's only one), a start
// (position text or setup, "" = the initial position) and the moves in any form the game reads.
struct ReviewGame {
  std::string rules;
  std::string position;
  std::vector<std::string> moves;
};

// The review as JSON (docs/analysis.md) from the analyses of turns 0..actions.size()
// (`analyses[t]`: the engine's final response for turn t; null or a response without rootInfo
// when that turn has none, which leaves the moves next to it unjudged).
Json review_from_analyses(const Game& game, const State& start, const std::vector<Action>& actions,
                          const std::vector<Json>& analyses, const ReviewOptions& options);

// Analyses every turn of `g` on `engine` (one query) and reviews it. Waits at most
// `wait_seconds`, then stops the analyses still running and reviews what came back. Throws
// QueryError for a bad game (unknown rules, illegal move) and std::runtime_error when the engine
// refuses the query (busy).
Json review_game(AnalysisEngine& engine, const ReviewGame& g, const ReviewOptions& options,
                 double wait_seconds);

// The game as an SGN record with the review in comments: a summary before the first move, and
// after each marked move its mark, its drop and the best move (docs/notation.md: `{comments}`).
std::string annotated_sgn(const Game& game, const State& start, const std::vector<Action>& actions,
                          const Json& review, const Headers& headers = {});

}  // namespace pincer::serve
