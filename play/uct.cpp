#include "play/uct.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "play/levels.h"

namespace pincer {

Uct::Uct(const Game& game, UctOptions options, uint64_t seed)
    : game_(game), heuristic_(heuristic_for(game)), options_(options), rng_(seed) {}

std::array<double, 2> Uct::rollout(State& state) {
  for (int ply = 0;; ++ply) {
    const Outcome o = state.outcome();
    if (o.over) return {o.score_for(0), o.score_for(1)};
    if (ply >= options_.rollout_plies) break;
    if (options_.tactics) {  // decisive moves: a win at once is always played
      state.winning_actions(scratch_);
      if (!scratch_.empty()) {
        state.apply(scratch_[0]);
        continue;
      }
    }
    state.legal_actions(scratch_);
    state.apply(scratch_[rng_.below(scratch_.size())]);
  }
  const int v = heuristic_.evaluate(state);
  const int p = state.to_move();
  std::array<double, 2> out{0.5, 0.5};
  if (v != 0) out[p] = v > 0 ? 1.0 : 0.0, out[p ^ 1] = 1.0 - out[p];
  return out;
}

Action Uct::search(const State& root) {
  const auto start = std::chrono::steady_clock::now();
  nodes_.clear();
  nodes_.reserve(std::min(options_.simulations, 1 << 16) + 1);
  Node r;
  r.to_move = root.to_move();
  root.legal_actions(r.untried);
  if (r.untried.empty()) throw std::logic_error("mcts: no legal action");
  nodes_.push_back(std::move(r));

  // A move that wins at once is played without searching.
  for (Action a : nodes_[0].untried) {
    auto child = root.clone();
    child->apply(a);
    const Outcome o = child->outcome();
    if (o.over && o.winner == root.to_move()) {
      last_sims_ = 0;
      last_value_ = 1.0;
      return a;
    }
  }
  if (nodes_[0].untried.size() == 1) {
    last_sims_ = 0;
    return nodes_[0].untried[0];
  }

  int sims = 0;
  for (; sims < options_.simulations; ++sims) {
    if (options_.seconds > 0 && (sims & 15) == 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >=
            options_.seconds) {
      break;
    }
    auto state = root.clone();
    int n = 0;
    // Selection.
    while (nodes_[n].untried.empty() && !nodes_[n].children.empty() && !nodes_[n].terminal) {
      const double log_n = std::log(static_cast<double>(nodes_[n].visits));
      int best = -1;
      double best_ucb = -1;
      for (int c : nodes_[n].children) {
        const Node& ch = nodes_[c];
        const double ucb =
            ch.wins / ch.visits + options_.exploration * std::sqrt(log_n / ch.visits);
        if (ucb > best_ucb) best_ucb = ucb, best = c;
      }
      n = best;
      state->apply(nodes_[n].action);
    }
    // Expansion.
    if (!nodes_[n].terminal && !nodes_[n].untried.empty()) {
      std::vector<Action>& untried = nodes_[n].untried;
      const size_t pick = rng_.below(untried.size());
      const Action a = untried[pick];
      untried[pick] = untried.back();
      untried.pop_back();
      Node child;
      child.parent = n;
      child.action = a;
      child.mover = state->to_move();
      state->apply(a);
      child.to_move = state->to_move();
      const Outcome o = state->outcome();
      if (o.over) {
        child.terminal = true;
        child.terminal_value = o.score_for(child.mover);
      } else if (options_.tactics && state->has_winning_action()) {
        // Whoever moves next wins at once: as good as over.
        child.terminal = true;
        child.terminal_value = state->to_move() == child.mover ? 1.0 : 0.0;
      } else {
        state->legal_actions(child.untried);
      }
      const int id = static_cast<int>(nodes_.size());
      nodes_[n].children.push_back(id);
      nodes_.push_back(std::move(child));
      n = id;
    }
    // Simulation.
    std::array<double, 2> value;
    if (nodes_[n].terminal) {
      const int m = nodes_[n].mover;
      value[m] = nodes_[n].terminal_value;
      value[m ^ 1] = 1.0 - value[m];
    } else {
      value = rollout(*state);
    }
    // Backpropagation.
    for (int k = n; k >= 0; k = nodes_[k].parent) {
      nodes_[k].visits += 1;
      if (k > 0) nodes_[k].wins += value[nodes_[k].mover];
    }
  }
  last_sims_ = sims;

  // Never a move that loses at once while another is left.
  const auto lost = [&](int c) { return nodes_[c].terminal && nodes_[c].terminal_value == 0.0; };
  bool all_lost = nodes_[0].untried.empty();
  for (int c : nodes_[0].children) all_lost = all_lost && lost(c);
  int best = -1;
  for (int c : nodes_[0].children) {
    if (!all_lost && lost(c)) continue;
    if (best < 0 || nodes_[c].visits > nodes_[best].visits ||
        (nodes_[c].visits == nodes_[best].visits && nodes_[c].wins > nodes_[best].wins)) {
      best = c;
    }
  }
  if (best < 0) return nodes_[0].untried[0];
  last_value_ = nodes_[best].wins / std::max(1, nodes_[best].visits);
  return nodes_[best].action;
}

std::vector<Uct::RootMove> Uct::root_moves() const {
  std::vector<RootMove> out;
  if (nodes_.empty()) return out;
  const auto lost = [&](int c) { return nodes_[c].terminal && nodes_[c].terminal_value == 0.0; };
  bool all_lost = nodes_[0].untried.empty();
  for (int c : nodes_[0].children) all_lost = all_lost && lost(c);
  for (int c : nodes_[0].children) {
    if (all_lost || !lost(c)) out.push_back({nodes_[c].action, nodes_[c].visits});
  }
  for (Action a : nodes_[0].untried) out.push_back({a, 0});
  std::stable_sort(out.begin(), out.end(),
                   [](const RootMove& x, const RootMove& y) { return x.visits > y.visits; });
  return out;
}

namespace {

class UctPlayer : public Player {
 public:
  UctPlayer(const Game& game, std::string spec, UctOptions options, uint64_t seed, int level)
      : spec_(std::move(spec)), uct_(game, options, seed), level_(level), rng_(mix_seed(seed, 7)) {}
  std::string spec() const override { return spec_; }
  Action choose(const State& state) override {
    const Action best = uct_.search(state);
    if (level_ >= kMaxLevel) return best;
    // A lower level (play/levels.h): a pick among the root's moves by visits with the level's
    // temperature, or now and then (policy noise) any move, all moves equally likely.
    const std::vector<Uct::RootMove> moves = uct_.root_moves();
    if (moves.empty()) return best;
    std::vector<Candidate> candidates;
    for (const Uct::RootMove& m : moves) {
      candidates.push_back({static_cast<double>(m.visits), 0.0, 1.0 / moves.size()});
    }
    if (candidates[0].visits <= 0) return best;
    const int pick =
        pick_candidate(level_setting(level_), candidates, rng_.uniform(), rng_.uniform());
    return moves[pick].action;
  }
  std::string last_info() const override {
    char buf[96];
    std::snprintf(buf, sizeof buf, "simulations %d value %.3f", uct_.last_simulations(),
                  uct_.last_value());
    return buf;
  }

 private:
  std::string spec_;
  Uct uct_;
  int level_ = kMaxLevel;
  Rng rng_;
};

}  // namespace

std::unique_ptr<Player> make_uct_player(const GamePtr& game, const PlayerSpec& spec,
                                        uint64_t seed) {
  SpecArgs args(spec);
  UctOptions options;
  options.simulations = args.get_int("sims", 400, 1, 100000000);
  options.exploration = args.get_double("c", 1.0, 0.0, 100.0);
  options.rollout_plies = args.get_int("rollout", 200, 0, 100000);
  options.seconds = args.get_double("time", 0, 0.001, 86400);
  options.tactics = args.get_int("tactics", 1, 0, 1) != 0;
  const int level = args.get_int("level", kMaxLevel, kMinLevel, kMaxLevel);
  args.finish();
  if (options.seconds > 0 && !spec.args.count("sims")) options.simulations = 100000000;
  options.simulations = level_visits(level_setting(level), options.simulations);
  return std::make_unique<UctPlayer>(*game, to_string(spec), options, seed, level);
}

}  // namespace pincer
