// Growing a book by search, in the spirit of KataGo's book generation: repeatedly pick the leaf
// where more search matters most (reached by good play, value not yet proved), search it with an
// Evaluator, store the results, and back values up by minimax of the searched values.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "book/book.h"
#include "mcts/evaluator.h"
#include "mcts/search.h"

namespace pincer::book {

struct BuildOptions {
  // Stop once the book holds this many searched (or terminal) positions in all: a later build
  // with a larger number continues the same book.
  int64_t positions = 100;
  mcts::SearchConfig search;  // simulations = visits per position
  int threads = 1;
  // Where to save, and after how many new positions ("" = the caller saves). 1 (the default)
  // means a killed build loses at most the position being searched.
  std::string path;
  int save_every = 1;
  // Selection: a move's cost is regret_weight * (best value - its value) plus
  // policy_weight * -ln(its share of the visits); the cheapest path to an unexpanded move wins.
  float regret_weight = 4.0f;
  float policy_weight = 0.5f;
  // The evaluator, as the header records it (a model id, "uniform", "rollout", "alphabeta:...").
  std::string evaluator_id;
  // When set, searches each position instead of MCTS over the evaluator (the classical search,
  // book/alphabeta_search.h); the result is stored as an MCTS result would be.
  std::function<mcts::SearchResult(const State&)> searcher;
  // Called after each new position (and its save); may throw to stop the build.
  std::function<void(const OpeningBook&, const BookPosition& added)> on_position;
};

struct BuildSummary {
  int64_t added = 0;       // positions searched or stored as terminal in this build
  bool exhausted = false;  // no position left to expand (e.g. the root is proved)
};

// Grows `book` from `root` until options.positions. Throws BookError if the book was built with
// another evaluator (naming both).
BuildSummary build(OpeningBook& book, const GamePtr& game, const State& root, Evaluator& evaluator,
                   const BuildOptions& options);

// Recomputes every searched position's value (minimax of move values, book/book.h move_value)
// and whether it is proved. A move into a cycle counts with its searched q.
void back_up(OpeningBook& book);

// The principal variation from `hash`: best moves while they stay in the book (at most max_plies).
std::vector<const BookMove*> main_line(const OpeningBook& book, uint64_t hash, int max_plies = 64);

}  // namespace pincer::book
