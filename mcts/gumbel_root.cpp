// The Gumbel root (Danihelka et al. 2022): Gumbel-top-k sampling, sequential halving over the
// considered actions, completed Q values and the improved policy.
#include "mcts/gumbel_root.h"

#include <algorithm>
#include <cmath>

namespace pincer::mcts {

// For each simulation of a Gumbel root, the visit count (this move) that the action it goes to
// must have: sequential halving over m actions with n simulations, as in Danihelka et al. 2022.
std::vector<int> considered_visit_sequence(int m, int n) {
  std::vector<int> seq;
  seq.reserve(n);
  if (m <= 1) {
    for (int i = 0; i < n; ++i) seq.push_back(i);
    return seq;
  }
  const int log2m = static_cast<int>(std::ceil(std::log2(m)));
  std::vector<int> visits(m, 0);
  int considered = m;
  while (static_cast<int>(seq.size()) < n) {
    const int extra = std::max(1, n / (log2m * considered));
    for (int e = 0; e < extra; ++e) {
      for (int i = 0; i < considered; ++i) seq.push_back(visits[i]++);
    }
    considered = std::max(2, considered / 2);
  }
  seq.resize(n);
  return seq;
}

void Search::gumbel_sigma(std::vector<float>& sigma, std::vector<float>& completed) const {
  const Node& root = tree_.node(tree_.root());
  const Edge* edges = tree_.edges(root);
  const int n = root.num_edges, p = root.to_move;
  // The root network value for p, in [0, 1].
  const float nn_win = p == 0 ? root.nn_w0 : 1.0f - root.nn_w0 - root.nn_d;
  const float v_hat = nn_win + 0.5f * root.nn_d;
  double sum_n = 0, visited_prior = 0, weighted_q = 0;
  uint32_t max_n = 0;
  completed.assign(n, 0.0f);
  std::vector<char> visited(n, 0);
  for (int i = 0; i < n; ++i) {
    if (!edges[i].child) continue;
    const Node& ch = tree_.node(edges[i].child);
    if (ch.visits == 0) continue;
    visited[i] = 1;
    completed[i] = 0.5f * (ch.q(p) + 1.0f);  // q in [0, 1] for p
    sum_n += ch.visits;
    max_n = std::max(max_n, ch.visits);
    visited_prior += edges[i].prior();
    weighted_q += edges[i].prior() * completed[i];
  }
  float v_mix = v_hat;
  if (sum_n > 0 && visited_prior > 0) {
    v_mix = static_cast<float>((v_hat + sum_n * weighted_q / visited_prior) / (1.0 + sum_n));
  }
  for (int i = 0; i < n; ++i) {
    if (!visited[i]) completed[i] = v_mix;
  }
  const float scale = (config_.gumbel_c_visit + max_n) * config_.gumbel_c_scale;
  sigma.resize(n);
  float lo = 0, span = 1;
  if (config_.gumbel_rescale_q && n > 0) {
    lo = *std::min_element(completed.begin(), completed.end());
    const float hi = *std::max_element(completed.begin(), completed.end());
    span = std::max(hi - lo, 1e-8f);
  }
  for (int i = 0; i < n; ++i) sigma[i] = scale * (completed[i] - lo) / span;
}

void Search::gumbel_scores(std::vector<float>& improved, std::vector<float>& score) const {
  std::vector<float> completed;
  gumbel_sigma(improved, completed);
  const int n = static_cast<int>(improved.size());
  score.resize(n);
  for (int i = 0; i < n; ++i) {
    improved[i] += gumbel_->logits[i];
    score[i] = gumbel_->noise[i] + improved[i];
  }
}

void Search::remember_raw_priors(const std::vector<NodeIndex>& path, const Evaluation& eval) {
  if (!config_.gumbel_raw_policy_target || config_.gumbel_actions <= 0 || path.empty() ||
      path.size() > 2) {
    return;
  }
  std::vector<float> raw(eval.priors.size());
  double sum = 0;
  for (size_t i = 0; i < raw.size(); ++i) {
    const float x = eval.priors[i];
    sum += (raw[i] = std::isfinite(x) && x > 0 ? x : 0.0f);
  }
  for (float& x : raw) x = sum > 0 ? static_cast<float>(x / sum) : 1.0f / raw.size();
  if (path.size() == 1) {
    raw_root_priors_ = std::move(raw);
    return;
  }
  const Node& root = tree_.node(path[0]);
  const Edge* edges = tree_.edges(root);
  for (int i = 0; i < root.num_edges; ++i) {
    if (edges[i].child == path[1]) {
      raw_child_priors_.emplace_back(edges[i].action, std::move(raw));
      return;
    }
  }
}

int Search::select_gumbel_root() {
  if (started_ >= static_cast<int>(gumbel_->sequence.size())) return -1;
  const int target = gumbel_->sequence[started_];
  std::vector<float>& score = gumbel_->score;
  gumbel_scores(gumbel_->improved, score);
  const Node& root = tree_.node(tree_.root());
  const Edge* edges = tree_.edges(root);
  int best = -1, fallback = -1;
  for (int i = 0; i < root.num_edges; ++i) {
    uint32_t added = 0;
    if (edges[i].child) {
      const Node& ch = tree_.node(edges[i].child);
      added = ch.visits + ch.in_flight - gumbel_->base[i];
    }
    if (static_cast<int>(added) == target && (best < 0 || score[i] > score[best])) best = i;
    if (fallback < 0 || score[i] > score[fallback]) fallback = i;
  }
  return best >= 0 ? best : fallback;
}

}  // namespace pincer::mcts
