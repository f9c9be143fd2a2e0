#include "mcts/search.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>

namespace pincer::mcts {

namespace {

// Player 0's win and the draw probability from a value for the player to move.
inline void absolute(const std::array<float, 3>& wdl, int to_move, float& w0, float& d) {
  w0 = to_move == 0 ? wdl[0] : wdl[2];
  d = wdl[1];
}

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

void check(bool ok, const char* field, const std::string& why) {
  if (!ok) throw std::invalid_argument(std::string("search config: ") + field + " " + why);
}

}  // namespace

float TemperatureSchedule::at(int ply) const {
  if (halflife_moves > 0) {
    return final + (initial - final) * std::pow(0.5f, static_cast<float>(ply) / halflife_moves);
  }
  return ply < moves ? initial : final;
}

void SearchConfig::validate() const {
  check(simulations >= 1, "simulations", "must be at least 1");
  check(c_puct >= 0 && c_puct_log >= 0, "c_puct", "must not be negative");
  check(c_puct_base > 0, "c_puct_base", "must be positive");
  check(leaves_per_batch >= 1, "leaves_per_batch", "must be at least 1");
  check(virtual_loss >= 0, "virtual_loss", "must not be negative");
  check(max_nodes >= 2, "max_nodes", "must be at least 2");
  check(dirichlet_alpha > 0, "dirichlet_alpha", "must be positive");
  check(dirichlet_epsilon >= 0 && dirichlet_epsilon <= 1, "dirichlet_epsilon", "must be in [0, 1]");
  check(full_search_probability >= 0 && full_search_probability <= 1, "full_search_probability",
        "must be in [0, 1]");
  check(fast_simulations >= 1, "fast_simulations", "must be at least 1");
  check(gumbel_actions >= 0, "gumbel_actions", "must not be negative");
  check(gumbel_c_visit >= 0 && gumbel_c_scale >= 0, "gumbel_c_visit", "must not be negative");
  check(temperature.initial >= 0 && temperature.final >= 0, "temperature", "must not be negative");
  check(temperature.moves >= 0 && temperature.halflife_moves >= 0, "temperature.moves",
        "must not be negative");
}

// ---------------------------------------------------------------------------------------------
// LeafBatch

void LeafBatch::clear() {
  count_ = 0;
  requests_.clear();
}

LeafBatch::Leaf& LeafBatch::add() {
  if (count_ == leaves_.size()) leaves_.push_back(std::make_unique<Leaf>());
  return *leaves_[count_++];
}

// ---------------------------------------------------------------------------------------------
// Search

struct Search::Gumbel {
  std::vector<float> noise;            // Gumbel(0, 1) per root edge (0 outside self-play)
  std::vector<float> logits;           // log prior per root edge
  std::vector<uint32_t> base;          // root child visits when the move began (tree reuse)
  std::vector<int> sequence;           // considered visit count per simulation
  std::vector<float> improved, score;  // scratch of select_gumbel_root()
};

Search::Search(GamePtr game, SearchConfig config, EvalCache* cache)
    : game_(std::move(game)), config_(config), cache_(cache), rng_(config.seed) {
  config_.validate();
  if (game_->num_actions() > kMaxActions) {
    throw std::invalid_argument("mcts: " + game_->game_name() + " has " +
                                std::to_string(game_->num_actions()) +
                                " actions; the search supports " + std::to_string(kMaxActions));
  }
  tree_.set_num_actions(game_->num_actions());
  root_state_ = game_->initial_state();
  tree_.clear(root_state_->to_move());
  begin_move();
}

Search::~Search() = default;

void Search::seed(uint64_t seed) {
  std::lock_guard<std::mutex> lock(mutex_);
  rng_.seed(seed);
}

void Search::reset(const State& root) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (in_flight_ > 0) throw std::logic_error("mcts: reset() with leaves in flight");
  root_state_ = root.clone();
  tree_.clear(root_state_->to_move());
  move_number_ = 0;
  begin_move();
}

void Search::advance(Action action) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (in_flight_ > 0) throw std::logic_error("mcts: advance() with leaves in flight");
  std::unique_ptr<State> next = root_state_->clone();
  next->apply(action);
  if (!(config_.reuse_tree && tree_.promote(action))) tree_.clear(next->to_move());
  root_state_ = std::move(next);
  ++move_number_;
  begin_move();
}

void Search::begin_move() {
  started_ = completed_ = 0;
  have_result_ = false;
  root_prepared_ = false;
  tree_full_ = false;
  stopped_ = false;
  gumbel_.reset();
  full_search_ = true;
  Node& root = tree_.node(tree_.root());
  if (root.state == NodeState::kNew && root_state_->outcome().over) {
    const Outcome o = root_state_->outcome();
    root.state = NodeState::kTerminal;
    root.nn_w0 = o.winner == 0 ? 1.0f : 0.0f;
    root.nn_d = o.winner < 0 ? 1.0f : 0.0f;
    return;
  }
  if (config_.self_play && config_.full_search_probability < 1.0f) {
    full_search_ =
        std::uniform_real_distribution<float>(0.0f, 1.0f)(rng_) < config_.full_search_probability;
  }
  if (root.state == NodeState::kExpanded) prepare_root();
}

void Search::prepare_root() {
  root_prepared_ = true;
  Node& root = tree_.node(tree_.root());
  Edge* edges = tree_.edges(root);
  const int n = root.num_edges;
  if (config_.gumbel_actions > 0) {
    gumbel_ = std::make_unique<Gumbel>();
    gumbel_->noise.assign(n, 0.0f);
    if (config_.self_play) {
      std::uniform_real_distribution<double> u(std::numeric_limits<double>::min(), 1.0);
      for (float& g : gumbel_->noise) g = static_cast<float>(-std::log(-std::log(u(rng_))));
    }
    gumbel_->logits.resize(n);
    gumbel_->base.resize(n);
    for (int i = 0; i < n; ++i) {
      gumbel_->logits[i] = std::log(std::max(edges[i].prior(), 1e-20f));
      gumbel_->base[i] = edges[i].child ? tree_.node(edges[i].child).visits : 0;
    }
    gumbel_->sequence = considered_visit_sequence(std::min(config_.gumbel_actions, n), budget());
  } else if (config_.self_play && full_search_ && config_.dirichlet_epsilon > 0 && n > 0) {
    std::gamma_distribution<double> gamma(config_.dirichlet_alpha, 1.0);
    std::vector<double> noise(n);
    double sum = 0;
    for (double& x : noise) sum += (x = gamma(rng_));
    if (sum > 0) {
      const float eps = config_.dirichlet_epsilon;
      for (int i = 0; i < n; ++i) {
        edges[i].set_prior((1 - eps) * edges[i].prior() + eps * static_cast<float>(noise[i] / sum));
      }
    }
  }
}

bool Search::done() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return done_locked();
}

bool Search::done_locked() const {
  const Node& root = tree_.node(tree_.root());
  if (root.state == NodeState::kTerminal) return true;
  if (in_flight_ > 0 || !root_prepared_) return false;
  return completed_ >= budget() || tree_full_ || stopped_;
}

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
}

void Search::expand(NodeIndex n, const std::vector<Action>& legal, const Evaluation& eval) {
  if (eval.priors.size() != legal.size()) {
    throw std::runtime_error("mcts: the evaluator returned " + std::to_string(eval.priors.size()) +
                             " priors for " + std::to_string(legal.size()) + " legal actions");
  }
  Edge* edges = tree_.new_edges(n, static_cast<int>(legal.size()));
  double sum = 0;
  for (float p : eval.priors) sum += (std::isfinite(p) && p > 0) ? p : 0;
  const float uniform = 1.0f / legal.size();
  for (size_t i = 0; i < legal.size(); ++i) {
    const float p = eval.priors[i];
    edges[i].action = static_cast<uint16_t>(legal[i]);
    edges[i].child = kNoNode;
    edges[i].set_prior(sum > 0 ? ((std::isfinite(p) && p > 0) ? static_cast<float>(p / sum) : 0.0f)
                               : uniform);
  }
  Node& node = tree_.node(n);
  absolute(eval.wdl, node.to_move, node.nn_w0, node.nn_d);
  node.state = NodeState::kExpanded;
}

int Search::select_child(NodeIndex n, bool at_root) {
  const Node& node = tree_.node(n);
  const Edge* edges = tree_.edges(node);
  const int p = node.to_move;
  const float parent_n = static_cast<float>(node.visits + node.in_flight);
  const float c = config_.c_puct +
                  (config_.c_puct_log > 0
                       ? config_.c_puct_log *
                             std::log((parent_n + config_.c_puct_base + 1) / config_.c_puct_base)
                       : 0.0f);
  const float cs = c * std::sqrt(std::max(parent_n, 1.0f));
  const float vl = config_.virtual_loss;
  // One pass. Children valued by first-play urgency all share one Q (the FPU value, known only
  // after the pass), so among them only the largest exploration term matters.
  float visited_policy = 0;
  int best = -1, best_fpu = -1;
  float best_score = -std::numeric_limits<float>::infinity(), best_u = -1.0f;
  for (int i = 0; i < node.num_edges; ++i) {
    const float prior = edges[i].prior();
    if (edges[i].child) {
      const Node& ch = tree_.node(edges[i].child);
      const uint32_t visits = ch.visits + ch.in_flight;
      if (visits > 0) {
        visited_policy += prior;
        if (ch.visits > 0 || vl > 0) {
          float q = ch.visits > 0 ? ch.q(p) : 0.0f;
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
  return best;
}

void Search::gumbel_scores(std::vector<float>& improved, std::vector<float>& score) const {
  const Node& root = tree_.node(tree_.root());
  const Edge* edges = tree_.edges(root);
  const int n = root.num_edges, p = root.to_move;
  // The root network value for p, in [0, 1].
  const float nn_win = p == 0 ? root.nn_w0 : 1.0f - root.nn_w0 - root.nn_d;
  const float v_hat = nn_win + 0.5f * root.nn_d;
  double sum_n = 0, visited_prior = 0, weighted_q = 0;
  uint32_t max_n = 0;
  improved.assign(n, 0.0f);
  for (int i = 0; i < n; ++i) {
    if (!edges[i].child) continue;
    const Node& ch = tree_.node(edges[i].child);
    if (ch.visits == 0) continue;
    improved[i] = 0.5f * (ch.q(p) + 1.0f);  // q in [0, 1] for p
    sum_n += ch.visits;
    max_n = std::max(max_n, ch.visits);
    visited_prior += edges[i].prior();
    weighted_q += edges[i].prior() * improved[i];
  }
  float v_mix = v_hat;
  if (sum_n > 0 && visited_prior > 0) {
    v_mix = static_cast<float>((v_hat + sum_n * weighted_q / visited_prior) / (1.0 + sum_n));
  }
  const float scale = (config_.gumbel_c_visit + max_n) * config_.gumbel_c_scale;
  score.resize(n);
  for (int i = 0; i < n; ++i) {
    const bool visited = edges[i].child && tree_.node(edges[i].child).visits > 0;
    const float completed = visited ? improved[i] : v_mix;
    improved[i] = gumbel_->logits[i] + scale * completed;
    score[i] = gumbel_->noise[i] + improved[i];
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

Search::Descent Search::select_leaf(LeafBatch::Leaf& leaf) {
  leaf.path.clear();
  leaf.state = root_state_->clone();
  NodeIndex n = tree_.root();
  enter(leaf.path, n);
  while (true) {
    Node& node = tree_.node(n);
    if (node.state == NodeState::kTerminal) {
      backup(leaf.path, node.nn_w0, node.nn_d);
      ++stats_.terminals;
      return Descent::kDone;
    }
    if (node.state == NodeState::kPending || node.state == NodeState::kNew) {
      undo_virtual_loss(leaf.path);
      return Descent::kCollision;
    }
    const bool at_root = n == tree_.root();
    const int i = at_root && gumbel_ ? select_gumbel_root() : select_child(n, at_root);
    if (i < 0) {
      undo_virtual_loss(leaf.path);
      return Descent::kCollision;
    }
    Edge& edge = tree_.edges(node)[i];
    leaf.state->apply(edge.action);
    if (edge.child != kNoNode) {
      n = edge.child;
      enter(leaf.path, n);
      continue;
    }
    // A new node.
    const NodeIndex c = tree_.new_node(leaf.state->to_move());
    tree_.edges(tree_.node(n))[i].child = c;
    enter(leaf.path, c);
    Node& child = tree_.node(c);
    const Outcome outcome = leaf.state->outcome();
    leaf.state->legal_actions(leaf.legal);
    if (outcome.over || leaf.legal.empty()) {
      child.state = NodeState::kTerminal;
      child.nn_w0 = outcome.over && outcome.winner == 0 ? 1.0f : 0.0f;
      child.nn_d = !outcome.over || outcome.winner < 0 ? 1.0f : 0.0f;
      backup(leaf.path, child.nn_w0, child.nn_d);
      ++stats_.terminals;
      return Descent::kDone;
    }
    if (cache_ && cache_->lookup(leaf.state->hash(), leaf.legal.size(), scratch_)) {
      expand(c, leaf.legal, scratch_);
      const Node& expanded = tree_.node(c);
      backup(leaf.path, expanded.nn_w0, expanded.nn_d);
      ++stats_.cache_hits;
      return Descent::kDone;
    }
    child.state = NodeState::kPending;
    return Descent::kNeedsEval;
  }
}

size_t Search::collect(LeafBatch& batch, int max_leaves) {
  std::lock_guard<std::mutex> lock(mutex_);
  batch.clear();
  ++stats_.steps;
  have_result_ = false;  // the tree is about to change
  const NodeIndex root_index = tree_.root();
  Node& root = tree_.node(root_index);
  if (root.state == NodeState::kTerminal) return 0;
  if (root.state == NodeState::kPending) return 0;
  if (root.state == NodeState::kNew) {
    // The root itself needs the network first (not counted as a simulation).
    LeafBatch::Leaf& leaf = batch.add();
    leaf.path.assign(1, root_index);
    leaf.state = root_state_->clone();
    leaf.state->legal_actions(leaf.legal);
    ++root.in_flight;
    if (leaf.legal.empty()) {
      root.state = NodeState::kTerminal;  // a finished game
      const Outcome o = leaf.state->outcome();
      root.nn_w0 = o.winner == 0 ? 1.0f : 0.0f;
      root.nn_d = o.winner < 0 ? 1.0f : 0.0f;
      backup(leaf.path, root.nn_w0, root.nn_d);
      batch.pop();
      return 0;
    }
    if (cache_ && cache_->lookup(leaf.state->hash(), leaf.legal.size(), scratch_)) {
      expand(root_index, leaf.legal, scratch_);
      backup(leaf.path, tree_.node(root_index).nn_w0, tree_.node(root_index).nn_d);
      ++stats_.cache_hits;
      batch.pop();
      prepare_root();
    } else {
      root.state = NodeState::kPending;
      ++in_flight_;
      batch.requests_.push_back(EvalRequest{leaf.state.get(), &leaf.legal});
      return 1;
    }
  }
  if (!root_prepared_) prepare_root();
  while (static_cast<int>(batch.size()) < max_leaves && started_ < budget() && !stopped_) {
    if (tree_.num_nodes() >= config_.max_nodes) {
      if (!tree_full_) {
        spdlog::debug("mcts: tree full at {} nodes; the move's search stops after {} simulations",
                      tree_.num_nodes(), started_);
      }
      tree_full_ = true;
      break;
    }
    LeafBatch::Leaf& leaf = batch.add();
    const Descent d = select_leaf(leaf);
    if (d == Descent::kNeedsEval) {
      ++started_;
      ++in_flight_;
    } else {
      batch.pop();
      if (d == Descent::kCollision) {
        ++stats_.collisions;
        break;
      }
      ++started_;
      ++completed_;
      ++stats_.simulations;
    }
  }
  for (size_t i = 0; i < batch.size(); ++i) {
    LeafBatch::Leaf& leaf = *batch.leaves_[i];
    batch.requests_.push_back(EvalRequest{leaf.state.get(), &leaf.legal});
  }
  return batch.size();
}

void Search::deliver(LeafBatch& batch, const std::vector<Evaluation>& evals) {
  if (evals.size() < batch.size()) {
    throw std::runtime_error("mcts: " + std::to_string(evals.size()) + " evaluations for " +
                             std::to_string(batch.size()) + " requests");
  }
  deliver(batch, evals.data());
}

void Search::deliver(LeafBatch& batch, const Evaluation* evals) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    // Check every answer before changing anything, so that a bad batch can still be cancelled.
    for (size_t i = 0; i < batch.size(); ++i) {
      const size_t n = batch.leaves_[i]->legal.size();
      if (evals[i].priors.size() != n) {
        throw std::runtime_error("mcts: the evaluator returned " +
                                 std::to_string(evals[i].priors.size()) + " priors for " +
                                 std::to_string(n) + " legal actions");
      }
    }
    const NodeIndex root = tree_.root();
    for (size_t i = 0; i < batch.size(); ++i) {
      LeafBatch::Leaf& leaf = *batch.leaves_[i];
      const NodeIndex n = leaf.path.back();
      expand(n, leaf.legal, evals[i]);
      if (cache_) cache_->insert(leaf.state->hash(), evals[i]);
      const Node& node = tree_.node(n);
      backup(leaf.path, node.nn_w0, node.nn_d);
      --in_flight_;
      if (n != root) {
        ++completed_;
        ++stats_.simulations;
      }
    }
    stats_.evaluations += batch.size();
    if (!root_prepared_ && tree_.node(root).state == NodeState::kExpanded) prepare_root();
    batch.clear();
  }
  delivered_.notify_all();
}

void Search::cancel(LeafBatch& batch) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (size_t i = 0; i < batch.size(); ++i) {
      LeafBatch::Leaf& leaf = *batch.leaves_[i];
      undo_virtual_loss(leaf.path);
      const NodeIndex n = leaf.path.back();
      if (leaf.path.size() == 1) {
        tree_.node(n).state = NodeState::kNew;  // the root: evaluate it again later
      } else {
        // Unlink the leaf (its node stays unused in the arena until the tree is rebuilt).
        const Node& parent = tree_.node(leaf.path[leaf.path.size() - 2]);
        Edge* edges = tree_.edges(parent);
        for (int e = 0; e < parent.num_edges; ++e) {
          if (edges[e].child == n) edges[e].child = kNoNode;
        }
        --started_;
      }
      --in_flight_;
    }
    batch.clear();
  }
  delivered_.notify_all();
}

SearchResult Search::summary_locked() const {
  const Node& root = tree_.node(tree_.root());
  if (root.state == NodeState::kTerminal)
    throw std::logic_error("mcts: no search at a finished game");
  if (root.state != NodeState::kExpanded)
    throw std::logic_error("mcts: result() before the root was evaluated");
  const Edge* edges = tree_.edges(root);
  const int n = root.num_edges, p = root.to_move;
  SearchResult r;
  r.to_move = p;
  r.actions.resize(n);
  r.visits.resize(n);
  r.prior.resize(n);
  r.q.resize(n);
  r.visit_policy.resize(n);
  r.child_wdl.resize(n);
  double total = 0;
  for (int i = 0; i < n; ++i) {
    r.actions[i] = edges[i].action;
    r.prior[i] = edges[i].prior();
    r.child_wdl[i] = {0.0f, 1.0f, 0.0f};
    if (edges[i].child) {
      const Node& ch = tree_.node(edges[i].child);
      r.visits[i] = ch.visits;
      r.q[i] = ch.q(p);
      if (ch.visits > 0) {
        const float cv = static_cast<float>(ch.visits);
        const float cw = (p == 0 ? ch.w0_sum : cv - ch.w0_sum - ch.d_sum) / cv;
        r.child_wdl[i] = {cw, ch.d_sum / cv, std::max(0.0f, 1.0f - cw - ch.d_sum / cv)};
      }
    }
    total += r.visits[i];
  }
  for (int i = 0; i < n; ++i) {
    r.visit_policy[i] = total > 0 ? static_cast<float>(r.visits[i] / total) : r.prior[i];
  }
  const float v = std::max<float>(root.visits, 1.0f);
  const float w = (p == 0 ? root.w0_sum : root.visits - root.w0_sum - root.d_sum) / v;
  r.wdl = {w, root.d_sum / v, std::max(0.0f, 1.0f - w - root.d_sum / v)};
  const float nn_w = p == 0 ? root.nn_w0 : 1.0f - root.nn_w0 - root.nn_d;
  r.nn_wdl = {nn_w, root.nn_d, std::max(0.0f, 1.0f - nn_w - root.nn_d)};
  r.full_search = full_search_;
  r.simulations = completed_;
  r.root_visits = root.visits;

  return r;
}

SearchResult Search::snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return summary_locked();
}

std::vector<Action> Search::principal_variation(Action first, int max_len) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<Action> pv{first};
  const Node& root = tree_.node(tree_.root());
  if (root.state != NodeState::kExpanded) return pv;
  NodeIndex node = kNoNode;
  const Edge* edges = tree_.edges(root);
  for (int i = 0; i < root.num_edges; ++i) {
    if (edges[i].action == first) node = edges[i].child;
  }
  while (node != kNoNode && static_cast<int>(pv.size()) < max_len) {
    const Node& n = tree_.node(node);
    if (n.state != NodeState::kExpanded) break;
    const Edge* e = tree_.edges(n);
    int best = -1;
    uint32_t most = 0;
    for (int i = 0; i < n.num_edges; ++i) {
      const uint32_t v = e[i].child ? tree_.node(e[i].child).visits : 0;
      if (v > most) most = v, best = i;
    }
    if (best < 0) break;
    pv.push_back(e[best].action);
    node = e[best].child;
  }
  return pv;
}

SearchResult Search::result() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (have_result_) return result_;
  SearchResult r = summary_locked();
  const int n = static_cast<int>(r.actions.size());
  if (gumbel_) {
    r.gumbel = true;
    std::vector<float> improved, score;
    gumbel_scores(improved, score);
    const float mx = *std::max_element(improved.begin(), improved.end());
    double z = 0;
    r.improved_policy.resize(n);
    for (int i = 0; i < n; ++i) z += (r.improved_policy[i] = std::exp(improved[i] - mx));
    for (float& x : r.improved_policy) x = static_cast<float>(x / z);
    // The halving's winner: the best score among the most visited (this move) actions.
    uint32_t most = 0;
    std::vector<uint32_t> added(n);
    for (int i = 0; i < n; ++i) most = std::max(most, added[i] = r.visits[i] - gumbel_->base[i]);
    int best = -1;
    for (int i = 0; i < n; ++i) {
      if (added[i] == most && (best < 0 || score[i] > score[best])) best = i;
    }
    r.action = r.actions[best];
  } else {
    r.improved_policy = r.visit_policy;
    const float t = config_.temperature.at(move_number_);
    int best = 0;
    for (int i = 1; i < n; ++i) {
      if (r.visits[i] > r.visits[best] ||
          (r.visits[i] == r.visits[best] && r.prior[i] > r.prior[best])) {
        best = i;
      }
    }
    if (t > 1e-3f && r.visits[best] > 0) {
      std::vector<double> weight(n, 0.0);
      const double top = std::log(static_cast<double>(r.visits[best]));
      for (int i = 0; i < n; ++i) {
        if (r.visits[i] > 0) weight[i] = std::exp((std::log(double(r.visits[i])) - top) / t);
      }
      best = static_cast<int>(std::discrete_distribution<int>(weight.begin(), weight.end())(rng_));
    }
    r.action = r.actions[best];
  }
  result_ = std::move(r);
  have_result_ = true;
  return result_;
}

void Search::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopped_ = true;
  }
  delivered_.notify_all();
}

SearchResult Search::run(Evaluator& evaluator, int threads, double max_seconds) {
  const int leaves = config_.leaves_per_batch;
  const auto start = std::chrono::steady_clock::now();
  std::mutex error_mutex;
  std::exception_ptr error;
  auto worker = [&] {
    LeafBatch batch;
    std::vector<Evaluation> out;
    while (true) {
      if (max_seconds > 0 &&
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >
              max_seconds) {
        stop();
      }
      if (collect(batch, leaves) == 0) {
        std::unique_lock<std::mutex> lock(mutex_);
        if (done_locked()) return;
        if (in_flight_ == 0) {
          // Nothing in flight and nothing collected: only possible if the tree cannot grow.
          tree_full_ = true;
          if (done_locked()) return;
        }
        delivered_.wait_for(lock, std::chrono::milliseconds(1));
        continue;
      }
      try {
        evaluator.evaluate(batch.requests(), out);
        deliver(batch, out);
      } catch (...) {
        cancel(batch);
        stop();  // the other threads finish their leaves and return
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
        return;
      }
    }
  };
  if (threads <= 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
    for (std::thread& t : pool) t.join();
  }
  if (error) {
    std::lock_guard<std::mutex> lock(mutex_);
    stopped_ = false;  // stopped only to end the other threads; the move can go on
  }
  if (error) std::rethrow_exception(error);
  return result();
}

SearchStats Search::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

TreeStats Search::tree_stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return tree_.stats();
}

// ---------------------------------------------------------------------------------------------
// BatchStepper

size_t BatchStepper::step(const std::vector<Search*>& searches, int leaves_per_search) {
  if (batches_.size() < searches.size()) batches_.resize(searches.size());
  requests_.clear();
  for (size_t i = 0; i < searches.size(); ++i) {
    batches_[i].clear();
    if (searches[i]->done()) continue;
    searches[i]->collect(batches_[i], leaves_per_search);
    const auto& r = batches_[i].requests();
    requests_.insert(requests_.end(), r.begin(), r.end());
  }
  if (requests_.empty()) return 0;
  try {
    evaluator_.evaluate(requests_, out_);
    if (out_.size() < requests_.size()) {
      throw std::runtime_error("mcts: the evaluator answered " + std::to_string(out_.size()) +
                               " of " + std::to_string(requests_.size()) + " requests");
    }
  } catch (...) {
    for (size_t i = 0; i < searches.size(); ++i) {
      if (!batches_[i].empty()) searches[i]->cancel(batches_[i]);
    }
    throw;
  }
  size_t offset = 0;
  for (size_t i = 0; i < searches.size(); ++i) {
    const size_t n = batches_[i].size();
    if (n == 0) continue;
    searches[i]->deliver(batches_[i], out_.data() + offset);
    offset += n;
  }
  return requests_.size();
}

}  // namespace pincer::mcts
