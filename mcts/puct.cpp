// PUCT: the tree policy below the root (and at a PUCT root), virtual loss, expansion of an
// evaluated leaf and the backup of values, per player.
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "mcts/forced_playouts.h"
#include "mcts/search.h"

namespace pincer::mcts {

namespace {

// Player 0's win and the draw probability from a value for the player to move.
inline void absolute(const std::array<float, 3>& wdl, int to_move, float& w0, float& d) {
  w0 = to_move == 0 ? wdl[0] : wdl[2];
  d = wdl[1];
}

}  // namespace

void Search::enter(std::vector<NodeIndex>& path, NodeIndex node) {
  path.push_back(node);
  ++tree_.node(node).in_flight;
}

void Search::undo_virtual_loss(const std::vector<NodeIndex>& path) {
  for (NodeIndex n : path) --tree_.node(n).in_flight;
}

void Search::backup(const std::vector<NodeIndex>& path, float w0, float d) {
  for (NodeIndex n : path) {
    Node& node = tree_.node(n);
    ++node.visits;
    --node.in_flight;
    node.w0_sum += w0;
    node.d_sum += d;
  }
  if (config_.minimax_weight > 0) minimax_backup(path);
}

void Search::expand(NodeIndex n, const std::vector<Action>& legal, const Evaluation& eval) {
  if (eval.priors.size() != legal.size()) {
    throw std::runtime_error("mcts: the evaluator returned " + std::to_string(eval.priors.size()) +
                             " priors for " + std::to_string(legal.size()) + " legal actions");
  }
  Edge* edges = tree_.new_edges(n, static_cast<int>(legal.size()));
  // A prior that is not a positive finite number counts as 0; with a policy temperature T the
  // rest are raised to 1/T (relative to the largest, so that none underflows) before they are
  // normalised.
  const float t = config_.policy_temperature;
  float largest = 0;
  if (t != 1.0f) {
    for (float p : eval.priors) largest = (std::isfinite(p) && p > largest) ? p : largest;
  }
  auto shaped = [&](float p) -> double {
    if (!(std::isfinite(p) && p > 0)) return 0.0;
    return t == 1.0f ? p : std::pow(static_cast<double>(p) / largest, 1.0 / t);
  };
  double sum = 0;
  for (float p : eval.priors) sum += shaped(p);
  const float uniform = 1.0f / legal.size();
  for (size_t i = 0; i < legal.size(); ++i) {
    edges[i].action = static_cast<uint16_t>(legal[i]);
    edges[i].child = kNoNode;
    edges[i].set_prior(sum > 0 ? static_cast<float>(shaped(eval.priors[i]) / sum) : uniform);
  }
  Node& node = tree_.node(n);
  absolute(eval.wdl, node.to_move, node.nn_w0, node.nn_d);
  node.state = NodeState::kExpanded;
}

float Search::exploration_scale(float parent_visits) const {
  const float c = config_.c_puct +
                  (config_.c_puct_log > 0
                       ? config_.c_puct_log * std::log((parent_visits + config_.c_puct_base + 1) /
                                                       config_.c_puct_base)
                       : 0.0f);
  return c * std::sqrt(std::max(parent_visits, 1.0f));
}

int Search::select_child(NodeIndex n, bool at_root, bool skip_lost) {
  const Node& node = tree_.node(n);
  const Edge* edges = tree_.edges(node);
  const int p = node.to_move;
  const float parent_n = static_cast<float>(node.visits + node.in_flight);
  const float cs = exploration_scale(parent_n);
  const float vl = config_.virtual_loss;
  const float mw = config_.minimax_weight;
  // One pass. Children valued by first-play urgency all share one Q (the FPU value, known only
  // after the pass), so among them only the largest exploration term matters.
  float visited_policy = 0;
  int best = -1, best_fpu = -1;
  float best_score = -std::numeric_limits<float>::infinity(), best_u = -1.0f;
  const uint8_t lost = loss_for(p);
  if (at_root && forcing()) {
    const int forced = forced_root_child(node, parent_n, skip_lost);
    if (forced >= 0) return forced;
  }
  bool skipped = false;
  for (int i = 0; i < node.num_edges; ++i) {
    const float prior = edges[i].prior();
    if (edges[i].child) {
      const Node& ch = tree_.node(edges[i].child);
      if (skip_lost && ch.proof == lost) {
        skipped = true;
        continue;
      }
      const uint32_t visits = ch.visits + ch.in_flight;
      if (visits > 0) {
        visited_policy += prior;
        if (ch.visits > 0 || vl > 0) {
          float q = ch.visits > 0 ? ch.q(p) : 0.0f;
          if (mw > 0 && ch.visits > 0) {
            if (ch.proof != kUnproven) {
              q = ch.proof == kProvenDraw ? 0.0f : (ch.proof == proof_of(p) ? 1.0f : -1.0f);
            } else if (ch.has_minimax()) {
              q = (1 - mw) * q + mw * ch.minimax_for(p);
            }
          }
          if (ch.in_flight > 0) {
            q = (q * ch.visits - vl * ch.in_flight) / (ch.visits + vl * ch.in_flight);
          }
          const float score = q + cs * prior / (1.0f + visits);
          if (score > best_score) best_score = score, best = i;
          continue;
        }
      }
      const float u = prior / (1.0f + visits);
      if (u > best_u) best_u = u, best_fpu = i;
    } else if (prior > best_u) {
      best_u = prior, best_fpu = i;
    }
  }
  if (best_fpu >= 0) {
    const float reduction = at_root ? config_.fpu_reduction_root : config_.fpu_reduction;
    const float fpu = node.q(p) - reduction * std::sqrt(visited_policy);
    const float score = fpu + cs * best_u;
    if (best < 0 || score > best_score || (score == best_score && best_fpu < best)) best = best_fpu;
  }
  // Only proven-lost children (a lost root): choose among them as if nothing were proven.
  if (best < 0 && skipped) return select_child(n, at_root, false);
  return best;
}

int Search::forced_root_child(const Node& root, float parent_visits, bool skip_lost) const {
  const Edge* edges = tree_.edges(root);
  const uint8_t lost = loss_for(root.to_move);
  int chosen = -1;
  float largest_shortfall = 0;
  for (int i = 0; i < root.num_edges; ++i) {
    if (!edges[i].child) continue;
    const Node& ch = tree_.node(edges[i].child);
    if (skip_lost && ch.proof == lost) continue;
    const float visits = static_cast<float>(ch.visits + ch.in_flight);
    if (visits <= 0) continue;  // only children already chosen once are forced
    const float shortfall =
        forced_visits(config_.forced_playouts, edges[i].prior(), parent_visits) - visits;
    if (shortfall > largest_shortfall) largest_shortfall = shortfall, chosen = i;
  }
  return chosen;
}

}  // namespace pincer::mcts
