// A capture-only quiescence search (and a small fixed-depth alpha-beta over it) on a game's
// Heuristic: the shared core of the alpha-beta player (play/alphabeta) and of the search's leaf
// evaluation (mcts/, SearchConfig::quiescence_weight). Generic: it knows games only through
// engine/game.h and engine/heuristic.h, and never assumes that players alternate (a child whose
// mover is the same player is searched with the same window instead of the negated one).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "engine/heuristic.h"

namespace pincer {

// Scores of searches over a Heuristic, for the player to move: a won game scores
// kWinScore - plies to the win, a lost one the negation; anything else is the heuristic's.
constexpr int kWinScore = 1000000;
constexpr int kMaxSearchPly = 128;
inline bool is_win_score(int score) {
  return score > kWinScore - 1000 || score < -kWinScore + 1000;
}
// The score of a finished game for `to_move`, `ply` plies from the search's root.
inline int terminal_score(const Outcome& o, int to_move, int ply) {
  if (o.winner < 0) return 0;
  return o.winner == to_move ? kWinScore - ply : -(kWinScore - ply);
}
// A score as the probability that the player to move wins: 1 / (1 + exp(-score / scale)), and
// exactly 1 or 0 for a found win or loss. `scale` > 0, in the heuristic's units.
double score_win_probability(int score, double scale);

// Move ordering by selection: swaps the highest-keyed of moves[i..] (with its caps and keys) to i.
void pick_next_move(std::vector<Action>& moves, std::vector<int>& caps, std::vector<int>& keys,
                    size_t i);

class CaptureSearch {
 public:
  // `max_qdepth`: plies of captures followed (clamped to [0, 32]).
  CaptureSearch(const Heuristic& heuristic, int max_qdepth);

  // Quiescence: the static value, or better by following the captures (positive
  // capture_points) with alpha-beta, at most max_qdepth plies. `ply` is the distance from the
  // caller's root (win scores count from it; must be below kMaxSearchPly), `qdepth` the capture
  // plies already followed.
  int quiesce(const State& s, int alpha, int beta, int ply, int qdepth = 0);
  // Full-width alpha-beta `depth` plies deep (no transposition table, captures first), then
  // quiesce(). depth 0 is quiesce().
  int search(const State& s, int depth, int alpha, int beta, int ply = 0);
  // The value of `s` (any state; a finished game gets its result) with a full window.
  int value(const State& s, int depth = 0) {
    return search(s, depth, -2 * kWinScore, 2 * kWinScore, 0);
  }

  // Nodes visited since construction (or reset_nodes()).
  uint64_t nodes() const { return nodes_; }
  void reset_nodes() { nodes_ = 0; }
  // Called every 1024 nodes; returning true stops the search: every call then returns 0 until
  // resume(). For time limits of the caller.
  void set_poll(std::function<bool()> poll) { poll_ = std::move(poll); }
  bool stopped() const { return stopped_; }
  void resume() { stopped_ = false; }

 private:
  bool tick() {
    if ((++nodes_ & 1023) == 0 && poll_ && poll_()) stopped_ = true;
    return stopped_;
  }
  // The best value for `s`'s mover of moves_[ply] (tried in keys_[ply] order), starting from
  // `best`, within (alpha, beta); `search_child(child, alpha, beta)` scores a child for its mover.
  template <class SearchChild>
  int best_of_moves(const State& s, int ply, int best, int alpha, int beta,
                    SearchChild search_child);

  const Heuristic& heuristic_;
  int max_qdepth_;
  uint64_t nodes_ = 0;
  bool stopped_ = false;
  std::function<bool()> poll_;
  // Per-ply scratch: moves, their capture points, ordering keys.
  std::vector<Action> moves_[kMaxSearchPly];
  std::vector<int> caps_[kMaxSearchPly];
  std::vector<int> keys_[kMaxSearchPly];
};

}  // namespace pincer
