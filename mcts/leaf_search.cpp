// Leaf values mixed with a capture search over the game's Heuristic (SearchConfig::
// quiescence_weight): an MCTS-minimax hybrid with state evaluations after Baier and Winands
// (2015), in the way AlphaGo mixed its value network with rollouts; and priors shaped toward
// captures (SearchConfig::capture_prior).
#include <algorithm>
#include <cmath>

#include "engine/heuristic.h"
#include "mcts/search.h"

namespace pincer::mcts {

void Search::capture_search_leaf(LeafBatch::Leaf& leaf, bool value) {
  leaf.capture_win = -1.0f;
  leaf.captures.clear();
  if (capture_ && value && (config_.quiescence_weight > 0 || config_.minimax_weight > 0)) {
    const uint64_t before = capture_->nodes();
    const int score = capture_->value(*leaf.state, config_.quiescence_plies);
    stats_.capture_nodes += capture_->nodes() - before;
    leaf.capture_win = static_cast<float>(score_win_probability(score, config_.quiescence_scale));
  }
  if (heuristic_ && config_.capture_prior > 0) {
    heuristic_->capture_points(*leaf.state, leaf.legal, leaf.captures);
  }
}

void Search::heuristic_shares(const Node& node, const State& state, int plies,
                              std::vector<float>& p) {
  const int mover = state.to_move();
  // Scores beyond a few dozen scales only saturate the softmax; wins and losses clamp to that.
  const float limit = 30.0f * config_.heuristic_prior_scale;
  const Edge* edges = tree_.edges(node);
  p.resize(node.num_edges);
  float best = -limit;
  const uint64_t before = capture_->nodes();
  for (int i = 0; i < node.num_edges; ++i) {
    std::unique_ptr<State> child = state.clone();
    child->apply(edges[i].action);
    const int v = capture_->value(*child, plies);
    p[i] = std::clamp(static_cast<float>(child->to_move() == mover ? v : -v), -limit, limit);
    best = std::max(best, p[i]);
  }
  stats_.capture_nodes += capture_->nodes() - before;
  float sum = 0;
  for (float& x : p) sum += (x = std::exp((x - best) / config_.heuristic_prior_scale));
  for (float& x : p) x /= sum;
  // The node's priors already hold the capture share (mix_leaf_value); the heuristic's share gets
  // it too, so that P' = (1 - c) * ((1 - h) * P + h * softmax) + c * [capture] / captures.
  if (config_.capture_prior > 0) {
    std::vector<Action>& actions = heuristic_actions_;
    actions.resize(node.num_edges);
    for (int i = 0; i < node.num_edges; ++i) actions[i] = edges[i].action;
    heuristic_->capture_points(state, actions, heuristic_captures_);
    int count = 0;
    for (int c : heuristic_captures_) count += c > 0;
    if (count > 0) {
      const float keep = 1 - config_.capture_prior, add = config_.capture_prior / count;
      for (int i = 0; i < node.num_edges; ++i) {
        p[i] = keep * p[i] + (heuristic_captures_[i] > 0 ? add : 0.0f);
      }
    }
  }
}

void Search::shape_priors_by_heuristic(NodeIndex n, const State& state) {
  Node& node = tree_.node(n);
  if (node.heuristic_shaped || node.state != NodeState::kExpanded) return;
  node.heuristic_shaped = 1;
  std::vector<float>& p = heuristic_scratch_;
  heuristic_shares(node, state, 0, p);
  const float h = config_.heuristic_prior;
  Edge* edges = tree_.edges(node);
  for (int i = 0; i < node.num_edges; ++i) {
    edges[i].set_prior((1 - h) * edges[i].prior() + h * p[i]);
  }
}

void Search::shape_root_priors_by_heuristic() {
  const int plies = config_.heuristic_prior_root_plies;
  if (plies == 0) {
    shape_priors_by_heuristic(tree_.root(), *root_state_);
    return;
  }
  Node& root = tree_.node(tree_.root());
  if (root.heuristic_root_shaped || root.state != NodeState::kExpanded) return;
  std::vector<float>& deep = heuristic_scratch_;
  heuristic_shares(root, *root_state_, plies, deep);
  const float h = config_.heuristic_prior;
  Edge* edges = tree_.edges(root);
  if (root.heuristic_shaped) {
    // Shaped as an inner node of the kept subtree: its priors are (1 - h) * P + h * shallow, so
    // swapping the shallow share for the deep one gives (1 - h) * P + h * deep.
    std::vector<float>& shallow = heuristic_shallow_;
    heuristic_shares(root, *root_state_, 0, shallow);
    for (int i = 0; i < root.num_edges; ++i) {
      edges[i].set_prior(std::max(0.0f, edges[i].prior() + h * (deep[i] - shallow[i])));
    }
  } else {
    for (int i = 0; i < root.num_edges; ++i) {
      edges[i].set_prior((1 - h) * edges[i].prior() + h * deep[i]);
    }
  }
  root.heuristic_shaped = 1;
  root.heuristic_root_shaped = 1;
}

void Search::mix_leaf_value(NodeIndex n, const LeafBatch::Leaf& leaf) {
  Node& node = tree_.node(n);
  if (leaf.capture_win >= 0) {
    const float w = config_.quiescence_weight;
    const float w0 = node.to_move == 0 ? leaf.capture_win : 1.0f - leaf.capture_win;
    if (config_.minimax_weight > 0) node.minimax = encode_minimax(2 * w0 - 1);
    node.nn_w0 = (1 - w) * node.nn_w0 + w * w0;
    node.nn_d = (1 - w) * node.nn_d;
  }
  if (leaf.captures.size() == static_cast<size_t>(node.num_edges)) {
    int count = 0;
    for (int c : leaf.captures) count += c > 0;
    if (count == 0) return;
    const float keep = 1 - config_.capture_prior, add = config_.capture_prior / count;
    Edge* edges = tree_.edges(node);
    for (int i = 0; i < node.num_edges; ++i) {
      edges[i].set_prior(keep * edges[i].prior() + (leaf.captures[i] > 0 ? add : 0.0f));
    }
  }
}

void Search::minimax_backup(const std::vector<NodeIndex>& path) {
  for (size_t k = path.size() - 1; k-- > 0;) {
    Node& node = tree_.node(path[k]);
    if (node.state != NodeState::kExpanded) return;
    const Edge* edges = tree_.edges(node);
    const int p = node.to_move;
    float best = -2.0f;
    for (int i = 0; i < node.num_edges; ++i) {
      if (!edges[i].child) continue;
      const Node& ch = tree_.node(edges[i].child);
      float v;
      if (ch.proof != kUnproven) {
        v = ch.proof == kProvenDraw ? 0.0f : (ch.proof == proof_of(p) ? 1.0f : -1.0f);
      } else if (ch.has_minimax()) {
        v = ch.minimax_for(p);
      } else {
        continue;
      }
      if (v > best) best = v;
    }
    if (best < -1.5f) return;
    const int16_t m = encode_minimax(p == 0 ? best : -best);
    if (m == node.minimax) return;  // nothing above changes
    node.minimax = m;
  }
}

}  // namespace pincer::mcts
