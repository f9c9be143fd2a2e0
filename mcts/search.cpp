// The Search's life cycle: configuration, moves (reset, advance, begin_move), the root's set-up,
// the end of a move and its result. The descent is in puct.cpp and gumbel_root.cpp, the
// collect/deliver protocol in collect.cpp, the drivers in drivers.cpp.
#include "mcts/search.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

#include "engine/heuristic.h"
#include "mcts/forced_playouts.h"
#include "mcts/gumbel_root.h"

namespace pincer::mcts {

namespace {

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
  check(std::isfinite(policy_temperature) && policy_temperature >= 0.1f && policy_temperature <= 10,
        "policy_temperature", "must be in [0.1, 10]");
  check(max_nodes >= 2, "max_nodes", "must be at least 2");
  check(dirichlet_alpha > 0, "dirichlet_alpha", "must be positive");
  check(dirichlet_epsilon >= 0 && dirichlet_epsilon <= 1, "dirichlet_epsilon", "must be in [0, 1]");
  check(full_search_probability >= 0 && full_search_probability <= 1, "full_search_probability",
        "must be in [0, 1]");
  check(fast_simulations >= 1, "fast_simulations", "must be at least 1");
  check(std::isfinite(forced_playouts) && forced_playouts >= 0 && forced_playouts <= 100,
        "forced_playouts", "must be in [0, 100]");
  check(tactics >= 0 && tactics <= 2, "tactics", "must be 0, 1 or 2");
  check(quiescence_weight >= 0 && quiescence_weight <= 1, "quiescence_weight", "must be in [0, 1]");
  check(std::isfinite(quiescence_scale) && quiescence_scale > 0, "quiescence_scale",
        "must be positive");
  check(quiescence_depth >= 0 && quiescence_depth <= 32, "quiescence_depth", "must be in [0, 32]");
  check(quiescence_plies >= 0 && quiescence_plies <= 4, "quiescence_plies", "must be in [0, 4]");
  check(minimax_weight >= 0 && minimax_weight <= 1, "minimax_weight", "must be in [0, 1]");
  check(capture_prior >= 0 && capture_prior <= 1, "capture_prior", "must be in [0, 1]");
  check(heuristic_prior >= 0 && heuristic_prior <= 1, "heuristic_prior", "must be in [0, 1]");
  check(std::isfinite(heuristic_prior_scale) && heuristic_prior_scale > 0, "heuristic_prior_scale",
        "must be positive");
  check(heuristic_prior_root_plies >= 0 && heuristic_prior_root_plies <= 4,
        "heuristic_prior_root_plies", "must be in [0, 4]");
  check(gumbel_actions >= 0, "gumbel_actions", "must not be negative");
  check(gumbel_c_visit >= 0 && gumbel_c_scale >= 0, "gumbel_c_visit", "must not be negative");
  check(gumbel_noise_moves >= 0, "gumbel_noise_moves", "must not be negative");
  check(temperature.initial >= 0 && temperature.final >= 0, "temperature", "must not be negative");
  check(temperature.moves >= 0 && temperature.halflife_moves >= 0, "temperature.moves",
        "must not be negative");
}

Search::Search(GamePtr game, SearchConfig config, EvalCache* cache)
    : game_(std::move(game)), config_(config), cache_(cache), rng_(config.seed) {
  config_.validate();
  if (game_->num_actions() > kMaxActions) {
    throw std::invalid_argument("mcts: " + game_->game_name() + " has " +
                                std::to_string(game_->num_actions()) +
                                " actions; the search supports " + std::to_string(kMaxActions));
  }
  tree_.set_num_actions(game_->num_actions());
  if (config_.quiescence_weight > 0 || config_.capture_prior > 0 || config_.minimax_weight > 0 ||
      config_.heuristic_prior > 0) {
    heuristic_ = game_->heuristic();
    if (!heuristic_) {
      spdlog::debug(
          "mcts: {} has no heuristic; quiescence_weight, capture_prior, minimax_weight and "
          "heuristic_prior are ignored",
          game_->game_name());
    } else if (config_.quiescence_weight > 0 || config_.minimax_weight > 0 ||
               config_.heuristic_prior > 0) {
      capture_ = std::make_unique<CaptureSearch>(*heuristic_, config_.quiescence_depth);
      shape_by_heuristic_ = config_.heuristic_prior > 0;
    }
  }
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
  raw_root_priors_.clear();
  raw_child_priors_.clear();
  move_number_ = 0;
  begin_move();
}

void Search::advance(Action action) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (in_flight_ > 0) throw std::logic_error("mcts: advance() with leaves in flight");
  std::unique_ptr<State> next = root_state_->clone();
  next->apply(action);
  raw_root_priors_.clear();
  if (config_.reuse_tree && tree_.promote(action)) {
    for (auto& [a, priors] : raw_child_priors_) {
      if (a == action) raw_root_priors_ = std::move(priors);
    }
  } else {
    tree_.clear(next->to_move());
  }
  raw_child_priors_.clear();
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
    root.proof = proof_of(o.winner);
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
  // Before any noise, so that the noise keeps its share.
  if (shape_by_heuristic_) shape_root_priors_by_heuristic();
  if (config_.gumbel_actions > 0) {
    gumbel_ = std::make_unique<Gumbel>();
    gumbel_->noise.assign(n, 0.0f);
    if (config_.self_play &&
        (config_.gumbel_noise_moves == 0 || move_number_ < config_.gumbel_noise_moves)) {
      std::uniform_real_distribution<double> u(std::numeric_limits<double>::min(), 1.0);
      for (float& g : gumbel_->noise) g = static_cast<float>(-std::log(-std::log(u(rng_))));
    }
    gumbel_->logits.resize(n);
    gumbel_->base.resize(n);
    for (int i = 0; i < n; ++i) {
      gumbel_->logits[i] = std::log(std::max(edges[i].prior(), 1e-20f));
      gumbel_->base[i] = edges[i].child ? tree_.node(edges[i].child).visits : 0;
    }
    gumbel_->target_logits = gumbel_->logits;
    if (config_.gumbel_raw_policy_target && raw_root_priors_.size() == static_cast<size_t>(n)) {
      for (int i = 0; i < n; ++i) {
        gumbel_->target_logits[i] = std::log(std::max(raw_root_priors_[i], 1e-20f));
      }
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
  r.proven.assign(n, Proven::kUnknown);
  r.visit_policy.resize(n);
  auto proven_for_p = [p](uint8_t proof) {
    return proof == kUnproven     ? Proven::kUnknown
           : proof == kProvenDraw ? Proven::kDraw
           : proof == proof_of(p) ? Proven::kWin
                                  : Proven::kLoss;
  };
  r.root_proven = proven_for_p(root.proof);
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
      r.proven[i] = proven_for_p(ch.proof);
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
    // sigma(completed Q) once: the halving's score is noise + logits + sigma, the target
    // softmax(target logits + sigma), the network's own logits where gumbel_raw_policy_target is
    // set.
    std::vector<float> sigma, completed, score(n);
    gumbel_sigma(sigma, completed);
    for (int i = 0; i < n; ++i) {
      score[i] = gumbel_->noise[i] + (gumbel_->logits[i] + sigma[i]);  // as gumbel_scores()
      sigma[i] += gumbel_->target_logits[i];
    }
    const float mx = *std::max_element(sigma.begin(), sigma.end());
    double z = 0, value = 0;
    r.improved_policy.resize(n);
    for (int i = 0; i < n; ++i) z += (r.improved_policy[i] = std::exp(sigma[i] - mx));
    for (int i = 0; i < n; ++i) {
      r.improved_policy[i] = static_cast<float>(r.improved_policy[i] / z);
      value += r.improved_policy[i] * completed[i];
    }
    r.improved_value = static_cast<float>(value);
    // The halving's winner: the best score among the most visited (this move) actions.
    uint32_t most = 0;
    std::vector<uint32_t> added(n);
    for (int i = 0; i < n; ++i) most = std::max(most, added[i] = r.visits[i] - gumbel_->base[i]);
    int best = -1;
    for (int i = 0; i < n; ++i) {
      if (added[i] == most && (best < 0 || score[i] > score[best])) best = i;
    }
    if (config_.solver) best = solver_choice(r, best);
    r.action = r.actions[best];
  } else {
    if (forcing()) {
      r.visit_policy = pruned_visit_policy(r.visits, r.q, r.prior,
                                           exploration_scale(static_cast<float>(r.root_visits)),
                                           config_.forced_playouts);
    }
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
    if (config_.solver) best = solver_choice(r, best);
    r.action = r.actions[best];
  }
  if (config_.solver) apply_proofs_to_targets(r);
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

SearchStats Search::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

TreeStats Search::tree_stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return tree_.stats();
}

}  // namespace pincer::mcts
