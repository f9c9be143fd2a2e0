#include "engine/capture_search.h"

#include <algorithm>
#include <cmath>

namespace pincer {

void pick_next_move(std::vector<Action>& moves, std::vector<int>& caps, std::vector<int>& keys,
                    size_t i) {
  size_t best = i;
  for (size_t j = i + 1; j < moves.size(); ++j) {
    if (keys[j] > keys[best]) best = j;
  }
  if (best != i) {
    std::swap(moves[i], moves[best]);
    std::swap(caps[i], caps[best]);
    std::swap(keys[i], keys[best]);
  }
}

double score_win_probability(int score, double scale) {
  if (is_win_score(score)) return score > 0 ? 1.0 : 0.0;
  return 1.0 / (1.0 + std::exp(-score / scale));
}

CaptureSearch::CaptureSearch(const Heuristic& heuristic, int max_qdepth)
    : heuristic_(heuristic), max_qdepth_(std::clamp(max_qdepth, 0, 32)) {}

template <class SearchChild>
int CaptureSearch::best_of_moves(const State& s, int ply, int best, int alpha, int beta,
                                 SearchChild search_child) {
  std::vector<Action>& moves = moves_[ply];
  std::vector<int>& caps = caps_[ply];
  std::vector<int>& keys = keys_[ply];
  for (size_t i = 0; i < moves.size(); ++i) {
    pick_next_move(moves, caps, keys, i);
    auto child = s.clone();
    child->apply(moves[i]);
    // A child whose mover is the same player keeps the window; otherwise it is negated.
    const int v = child->to_move() == s.to_move() ? search_child(*child, alpha, beta)
                                                  : -search_child(*child, -beta, -alpha);
    if (stopped_) return 0;
    if (v > best) {
      best = v;
      if (v > alpha) {
        alpha = v;
        if (alpha >= beta) break;
      }
    }
  }
  return best;
}

int CaptureSearch::quiesce(const State& s, int alpha, int beta, int ply, int qdepth) {
  if (tick()) return 0;
  const Outcome o = s.outcome();
  if (o.over) return terminal_score(o, s.to_move(), ply);
  const int stand = heuristic_.evaluate(s);
  if (qdepth >= max_qdepth_ || ply >= kMaxSearchPly - 1) return stand;
  if (stand >= beta) return stand;
  if (stand > alpha) alpha = stand;

  std::vector<Action>& moves = moves_[ply];
  std::vector<int>& caps = caps_[ply];
  std::vector<int>& keys = keys_[ply];
  s.legal_actions(moves);
  heuristic_.capture_points(s, moves, caps);
  // Keep the captures only.
  size_t n = 0;
  for (size_t i = 0; i < moves.size(); ++i) {
    if (caps[i] > 0) moves[n] = moves[i], caps[n] = caps[i], ++n;
  }
  moves.resize(n);
  caps.resize(n);
  keys.assign(caps.begin(), caps.end());
  return best_of_moves(s, ply, stand, alpha, beta, [&](const State& child, int a, int b) {
    return quiesce(child, a, b, ply + 1, qdepth + 1);
  });
}

int CaptureSearch::search(const State& s, int depth, int alpha, int beta, int ply) {
  if (depth <= 0 || ply >= kMaxSearchPly - max_qdepth_ - 2) return quiesce(s, alpha, beta, ply);
  if (tick()) return 0;
  const Outcome o = s.outcome();
  if (o.over) return terminal_score(o, s.to_move(), ply);
  std::vector<Action>& moves = moves_[ply];
  std::vector<int>& caps = caps_[ply];
  std::vector<int>& keys = keys_[ply];
  s.legal_actions(moves);
  if (moves.empty()) return heuristic_.evaluate(s);
  heuristic_.capture_points(s, moves, caps);
  keys.assign(caps.begin(), caps.end());  // captures first, costly moves last
  return best_of_moves(s, ply, -2 * kWinScore, alpha, beta, [&](const State& child, int a, int b) {
    return search(child, depth - 1, a, b, ply + 1);
  });
}

}  // namespace pincer
