#include "engine/capture_search.h"

#include <algorithm>
#include <cmath>

namespace pincer {

namespace {

// Moves the highest-keyed of [i, n) to i.
void pick(std::vector<Action>& moves, std::vector<int>& caps, std::vector<int>& keys, size_t i) {
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

}  // namespace

double score_win_probability(int score, double scale) {
  if (is_win_score(score)) return score > 0 ? 1.0 : 0.0;
  return 1.0 / (1.0 + std::exp(-score / scale));
}

CaptureSearch::CaptureSearch(const Heuristic& heuristic, int max_qdepth)
    : heuristic_(heuristic), max_qdepth_(std::clamp(max_qdepth, 0, 32)) {}

int CaptureSearch::quiesce(const State& s, int alpha, int beta, int ply, int qdepth) {
  if (tick()) return 0;
  const Outcome o = s.outcome();
  if (o.over) return terminal_score(o, s.to_move(), ply);
  const int stand = heuristic_.evaluate(s);
  if (qdepth >= max_qdepth_ || ply >= kMaxSearchPly - 1) return stand;
  if (stand >= beta) return stand;
  if (stand > alpha) alpha = stand;
  int best = stand;

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
  for (size_t i = 0; i < n; ++i) {
    pick(moves, caps, keys, i);
    auto child = s.clone();
    child->apply(moves[i]);
    const bool same = child->to_move() == s.to_move();
    const int v = same ? quiesce(*child, alpha, beta, ply + 1, qdepth + 1)
                       : -quiesce(*child, -beta, -alpha, ply + 1, qdepth + 1);
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

int CaptureSearch::child_value(const State& parent, const State& child, int depth, int alpha,
                               int beta, int ply) {
  return child.to_move() == parent.to_move() ? search(child, depth, alpha, beta, ply)
                                             : -search(child, depth, -beta, -alpha, ply);
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
  int best = -2 * kWinScore;
  for (size_t i = 0; i < moves.size(); ++i) {
    pick(moves, caps, keys, i);
    auto child = s.clone();
    child->apply(moves[i]);
    const int v = child_value(s, *child, depth - 1, alpha, beta, ply + 1);
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

}  // namespace pincer
