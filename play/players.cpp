#include "play/players.h"

#include <cstdio>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

namespace pincer {

namespace {

class GenericHeuristic : public Heuristic {
 public:
  int evaluate(const State& state) const override {
    thread_local std::vector<Action> actions;
    state.legal_actions(actions);
    const auto points = state.points();
    const int us = state.to_move();
    return (points[us] - points[us ^ 1]) * 100 + static_cast<int>(actions.size()) * 2;
  }
  void capture_points(const State& state, const std::vector<Action>& actions,
                      std::vector<int>& out) const override {
    out.assign(actions.size(), 0);
    const int us = state.to_move();
    const int before = state.points()[us];
    for (size_t i = 0; i < actions.size(); ++i) {
      auto child = state.clone();
      child->apply(actions[i]);
      const int gained = child->points()[us] - before;
      out[i] = gained > 0 ? gained : static_cast<int>(child->last_captured().size());
    }
  }
};

class RandomPlayer : public Player {
 public:
  RandomPlayer(std::string spec, uint64_t seed) : spec_(std::move(spec)), rng_(seed) {}
  std::string spec() const override { return spec_; }
  Action choose(const State& state) override {
    state.legal_actions(actions_);
    if (actions_.empty()) throw std::logic_error("random: no legal action");
    return actions_[rng_.below(actions_.size())];
  }

 private:
  std::string spec_;
  Rng rng_;
  std::vector<Action> actions_;
};

class GreedyPlayer : public Player {
 public:
  GreedyPlayer(const Game& game, std::string spec, uint64_t seed)
      : heuristic_(heuristic_for(game)), spec_(std::move(spec)), rng_(seed) {}
  std::string spec() const override { return spec_; }
  Action choose(const State& state) override {
    state.legal_actions(actions_);
    if (actions_.empty()) throw std::logic_error("greedy: no legal action");
    const int us = state.to_move();
    heuristic_.capture_points(state, actions_, points_);
    best_.clear();
    int best_value = std::numeric_limits<int>::min();  // capture points may be negative
    bool winning = false;
    for (size_t i = 0; i < actions_.size(); ++i) {
      auto child = state.clone();
      child->apply(actions_[i]);
      const Outcome o = child->outcome();
      const bool wins = o.over && o.winner == us;
      if (wins && !winning) best_.clear(), winning = true;
      if (winning) {
        if (wins) best_.push_back(actions_[i]);
        continue;
      }
      if (points_[i] > best_value) best_.clear(), best_value = points_[i];
      if (points_[i] == best_value) best_.push_back(actions_[i]);
    }
    return best_[rng_.below(best_.size())];
  }

 private:
  const Heuristic& heuristic_;
  std::string spec_;
  Rng rng_;
  std::vector<Action> actions_, best_;
  std::vector<int> points_;
};

// Reads moves from standard input, in any form the game accepts; shows the board first.
class HumanPlayer : public Player {
 public:
  HumanPlayer(const Game& game, std::string spec) : game_(game), spec_(std::move(spec)) {}
  std::string spec() const override { return spec_; }
  Action choose(const State& state) override {
    std::printf("\n%s", state.to_diagram().c_str());
    while (true) {
      std::printf("%s to move (a move, 'moves' to list them): ",
                  game_.side_name(state.to_move()).c_str());
      std::fflush(stdout);
      std::string line;
      if (!std::getline(std::cin, line)) throw std::runtime_error("human: no more input");
      const size_t a = line.find_first_not_of(" \t"), b = line.find_last_not_of(" \t\r");
      if (a == std::string::npos) continue;
      line = line.substr(a, b - a + 1);
      if (line == "moves") {
        std::vector<Action> legal;
        state.legal_actions(legal);
        for (Action m : legal) std::printf("%s ", game_.action_text(state, m, true).c_str());
        std::printf("\n");
        continue;
      }
      try {
        return game_.parse_action(state, line);
      } catch (const GameError& e) {
        std::printf("%s\n", e.what());
      }
    }
  }

 private:
  const Game& game_;
  std::string spec_;
};

}  // namespace

std::unique_ptr<Player> make_human_player(const GamePtr& game, const PlayerSpec& spec, uint64_t) {
  SpecArgs(spec).finish();
  return std::make_unique<HumanPlayer>(*game, to_string(spec));
}

const Heuristic& heuristic_for(const Game& game) {
  static const GenericHeuristic generic;
  const Heuristic* own = game.heuristic();
  return own ? *own : generic;
}

std::unique_ptr<Player> make_random_player(const GamePtr&, const PlayerSpec& spec, uint64_t seed) {
  SpecArgs(spec).finish();
  return std::make_unique<RandomPlayer>(to_string(spec), seed);
}

std::unique_ptr<Player> make_greedy_player(const GamePtr& game, const PlayerSpec& spec,
                                           uint64_t seed) {
  SpecArgs(spec).finish();
  return std::make_unique<GreedyPlayer>(*game, to_string(spec), seed);
}

}  // namespace pincer
