#include "book/alphabeta_search.h"

#include <algorithm>
#include <cmath>

namespace pincer::book {

AlphaBetaBookSearch::AlphaBetaBookSearch(const Game& game, AlphaBetaBookOptions options)
    : game_(game), options_(options), search_(game, [&] {
        AlphaBetaOptions o;
        o.max_depth = std::max(1, options.depth - 1);
        o.hash_mb = options.hash_mb;
        return o;
      }()) {}

float AlphaBetaBookSearch::value_of(int score) const {
  if (AlphaBeta::is_win(score)) return score > 0 ? 1.0f : -1.0f;
  return std::tanh(static_cast<float>(score) / options_.scale);
}

mcts::SearchResult AlphaBetaBookSearch::search(const State& state) {
  mcts::SearchResult r;
  r.to_move = state.to_move();
  state.legal_actions(r.actions);
  const size_t n = r.actions.size();
  r.q.resize(n);
  for (size_t i = 0; i < n; ++i) {
    std::unique_ptr<State> child = state.clone();
    child->apply(r.actions[i]);
    const Outcome o = child->outcome();
    if (o.over) {
      r.q[i] = o.winner < 0 ? 0.0f : (o.winner == r.to_move ? 1.0f : -1.0f);
      continue;
    }
    const SearchInfo info = search_.search(*child);
    const float v = value_of(info.score);
    r.q[i] = child->to_move() == r.to_move ? v : -v;
  }
  // Shares: a softmax of the values (the best move gets the most), as visit counts out of 1000.
  const float best = n ? *std::max_element(r.q.begin(), r.q.end()) : 0.0f;
  float total = 0;
  r.prior.resize(n);
  for (size_t i = 0; i < n; ++i) {
    r.prior[i] = std::exp((r.q[i] - best) / options_.temperature);
    total += r.prior[i];
  }
  r.visits.resize(n);
  r.child_wdl.resize(n);
  for (size_t i = 0; i < n; ++i) {
    r.prior[i] /= total;
    r.visits[i] = static_cast<uint32_t>(std::max(1L, std::lround(1000.0f * r.prior[i])));
    r.child_wdl[i] = {(1 + r.q[i]) / 2, 0.0f, (1 - r.q[i]) / 2};
  }
  r.visit_policy = r.prior;
  r.wdl = {(1 + best) / 2, 0.0f, (1 - best) / 2};
  r.root_visits = 1000;
  for (size_t i = 0; i < n; ++i) {
    if (r.q[i] == best) {
      r.action = r.actions[i];
      break;
    }
  }
  return r;
}

}  // namespace pincer::book
