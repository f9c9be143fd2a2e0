// Fakes for the search tests: a scripted evaluator and a tiny explicit-tree game in which the same
// player acts twice in a row.
#pragma once

#include <algorithm>
#include <atomic>
#include <functional>
#include <string>

#include "engine/game.h"
#include "mcts/evaluator.h"
#include "mcts/search.h"
#include "proto/ruleset.pb.h"

namespace pincer::testing {

// Tic-tac-toe positions (tests/support/tictactoe.h): x to move and wins at c3 (8) while o
// threatens c2 (5); x to move, no win at once, and must block o at c2 (5).
constexpr const char* kWinInOne = "xx./oo./... x";
constexpr const char* kBlock = "x../oo./..x x";

// Where action `a` stands in a search result's actions (size() when absent).
inline size_t index_of(const mcts::SearchResult& r, Action a) {
  return std::find(r.actions.begin(), r.actions.end(), a) - r.actions.begin();
}

// Priors and values from functions of the position; counts what it was asked.
class ScriptedEvaluator : public Evaluator {
 public:
  using ValueFn = std::function<std::array<float, 3>(const State&)>;
  using PriorFn = std::function<std::vector<float>(const State&, const std::vector<Action>&)>;
  explicit ScriptedEvaluator(ValueFn value = nullptr, PriorFn prior = nullptr)
      : value_(std::move(value)), prior_(std::move(prior)) {}
  void evaluate(const std::vector<EvalRequest>& requests, std::vector<Evaluation>& out) override {
    calls += 1;
    positions += requests.size();
    out.resize(requests.size());
    for (size_t i = 0; i < requests.size(); ++i) {
      const auto& legal = *requests[i].legal;
      out[i].priors = prior_ ? prior_(*requests[i].state, legal)
                             : std::vector<float>(legal.size(), 1.0f / legal.size());
      out[i].wdl = value_ ? value_(*requests[i].state) : std::array<float, 3>{0, 1, 0};
    }
  }
  std::atomic<uint64_t> calls{0}, positions{0};

 private:
  ValueFn value_;
  PriorFn prior_;
};

// An explicit game tree with two actions per inner node. Relative to the first player F:
//   node 0: F to move. a0 -> node 1, a1 -> node 2
//   node 1: F to move AGAIN. a0 -> node 3 (F wins), a1 -> node 4 (F loses)
//   node 2: the other player to move. a0 -> node 5 (draw), a1 -> node 6 (draw)
// Best play: F plays a0 then a0 and wins. A search that assumed alternation would think node 1's
// mover is the opponent, expect a1 there, and prefer the safe draw of node 2.
class TwiceGame;

class TwiceState : public State {
 public:
  TwiceState(const TwiceGame& g, int node) : game_(&g), node_(node) {}
  const Game& game() const override;
  std::unique_ptr<State> clone() const override { return std::make_unique<TwiceState>(*this); }
  int to_move() const override;
  void legal_actions(std::vector<Action>& out) const override {
    out.clear();
    if (node_ <= 2) out = {0, 1};
  }
  void apply(Action a) override { node_ = node_ == 0 ? 1 + a : (node_ == 1 ? 3 + a : 5 + a); }
  Outcome outcome() const override;
  uint64_t hash() const override { return 0x1234567ull * (node_ + 1); }
  std::string to_text() const override { return std::to_string(node_); }
  std::string to_diagram() const override { return to_text(); }
  std::vector<std::string> last_captured() const override { return {}; }
  std::array<int, 2> points() const override { return {0, 0}; }
  void encode(float* planes) const override { planes[0] = static_cast<float>(node_); }
  bool equals(const State& o) const override {
    auto* t = dynamic_cast<const TwiceState*>(&o);
    return t && t->node_ == node_;
  }
  int node() const { return node_; }

 private:
  const TwiceGame* game_;
  int node_;
};

class TwiceGame : public Game {
 public:
  explicit TwiceGame(int first) : first_(first) {}
  std::string game_name() const override { return "twice"; }
  std::string ruleset_name() const override { return "twice"; }
  std::string fingerprint() const override { return "0000000000000000"; }
  const google::protobuf::Message& ruleset() const override { return header_; }
  std::string side_name(int p) const override { return p ? "second" : "first"; }
  int parse_side(std::string_view) const override { return -1; }
  int num_actions() const override { return 2; }
  std::unique_ptr<State> initial_state() const override {
    return std::make_unique<TwiceState>(*this, 0);
  }
  std::unique_ptr<State> parse_state(std::string_view t) const override {
    return std::make_unique<TwiceState>(*this, std::stoi(std::string(t)));
  }
  std::string action_text(const State&, Action a, bool) const override { return std::to_string(a); }
  Action parse_action(const State&, std::string_view t) const override {
    return std::stoi(std::string(t));
  }
  InputShape input_shape() const override { return {1, 1, 1}; }
  int encoding_version() const override { return 1; }
  int first() const { return first_; }

 private:
  int first_;
  RulesetHeader header_;
};

inline const Game& TwiceState::game() const { return *game_; }
inline int TwiceState::to_move() const { return node_ == 2 ? game_->first() ^ 1 : game_->first(); }
inline Outcome TwiceState::outcome() const {
  const int f = game_->first();
  if (node_ == 3) return Outcome{true, f, "win"};
  if (node_ == 4) return Outcome{true, f ^ 1, "win"};
  if (node_ >= 5) return Outcome{true, -1, "draw"};
  return Outcome{};
}

}  // namespace pincer::testing
