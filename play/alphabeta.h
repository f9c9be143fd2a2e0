// A classical game-tree search over any Game: iterative-deepening negamax with principal
// variation search, a transposition table, move ordering (hash move, captures by points,
// killers, history), late-move reductions and a capture-only quiescence search, over the game's
// Heuristic. Never assumes that players alternate: a child whose mover is the same player is
// searched with the same window instead of the negated one.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/capture_search.h"
#include "engine/heuristic.h"

namespace pincer {

struct AlphaBetaOptions {
  int max_depth = 0;   // plies; 0: until time runs out
  double seconds = 0;  // per move; 0: until max_depth
  // Nodes per move (negamax and capture-search nodes); 0: no limit. A node budget, unlike a time
  // budget, plays the same moves on any machine under any load: training's anchors use it.
  uint64_t max_nodes = 0;
  int hash_mb = 16;       // transposition table size
  int max_qdepth = 16;    // plies of captures past the horizon
  bool selective = true;  // futility pruning and deeper late-move reductions
  // Set: the search ends soon after it turns true (checked with the clock, every 1024 nodes).
  const std::atomic<bool>* stop = nullptr;
};

struct SearchInfo {
  Action best = -1;
  int score = 0;  // for the player to move at the root; see AlphaBeta::kWin
  int depth = 0;  // last completed iteration
  uint64_t nodes = 0;
  double seconds = 0;
  std::vector<Action> pv;
};

class AlphaBeta {
 public:
  // Scores above kWin - kMaxPly are won games (kWin - plies to the win).
  static constexpr int kWin = kWinScore;
  static constexpr int kMaxPly = kMaxSearchPly;
  static bool is_win(int score) { return is_win_score(score); }

  AlphaBeta(const Game& game, AlphaBetaOptions options);
  // `root` is not over.
  SearchInfo search(const State& root);
  // Forgets the transposition table, killers and history (a new game).
  void clear();
  // The time limit of the next searches (0: until max_depth), e.g. from a clock.
  void set_seconds(double seconds) { options_.seconds = seconds; }
  // The depth limit of the next searches (0: until time runs out).
  void set_max_depth(int plies) { options_.max_depth = plies; }
  // The stop flag of the next searches (null: none).
  void set_stop(const std::atomic<bool>* stop) { options_.stop = stop; }
  const AlphaBetaOptions& options() const { return options_; }

 private:
  struct TTEntry {
    uint64_t key = 0;
    int32_t score = 0;
    int32_t move = -1;
    int16_t depth = 0;
    uint8_t bound = 0;
    uint8_t age = 0;
  };

  int negamax(const State& s, int depth, int alpha, int beta, int ply);
  // The capture search (engine/capture_search.h); ends the PV at `ply`.
  int quiesce(const State& s, int alpha, int beta, int ply, int qdepth);
  int child_value(const State& child, bool same, int depth, int alpha, int beta, int ply) {
    return same ? negamax(child, depth, alpha, beta, ply)
                : -negamax(child, depth, -beta, -alpha, ply);
  }
  void poll_time();
  void update_pv(int ply, Action a);

  const Game& game_;
  const Heuristic& heuristic_;
  AlphaBetaOptions options_;
  CaptureSearch capture_;
  std::vector<TTEntry> tt_;
  uint64_t mask_ = 0;
  uint8_t age_ = 0;
  std::vector<int> history_;
  Action killers_[kMaxPly][2];
  std::vector<Action> moves_[kMaxPly];
  std::vector<int> caps_[kMaxPly];
  std::vector<int> order_[kMaxPly];
  Action pv_[kMaxPly][kMaxPly];
  int pv_len_[kMaxPly];
  uint64_t nodes_ = 0;
  bool stopped_ = false;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace pincer
