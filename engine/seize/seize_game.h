// SE!ZE behind the generic game interface.
#pragma once

#include "engine/game.h"
#include "engine/ruleset.h"
#include "engine/seize/position.h"
#include "engine/seize/seize_rules.pb.h"

namespace pincer::seize {

// Actions: (direction * 7 + distance - 1) * 64 + from, for every straight line a piece can
// move along: 8 directions x 7 distances x 64 squares.
constexpr int kNumActions = 8 * 7 * 64;
int move_to_action(Move m);
Move action_to_move(Action a);

class SeizeGame : public Game {
 public:
  explicit SeizeGame(SeizeRuleset ruleset);

  std::string game_name() const override { return "seize"; }
  std::string ruleset_name() const override { return ruleset_.name(); }
  std::string fingerprint() const override { return fingerprint_; }
  const google::protobuf::Message& ruleset() const override { return ruleset_; }
  std::string side_name(int player) const override { return rules_.side_name[player]; }
  int parse_side(std::string_view text) const override;

  int num_actions() const override { return kNumActions; }
  std::unique_ptr<State> initial_state() const override;
  std::unique_ptr<State> parse_state(std::string_view text) const override;
  std::string action_text(const State& state, Action action, bool short_form) const override;
  Action parse_action(const State& state, std::string_view text) const override;

  PolicyPlanes policy_planes() const override;
  InputShape input_shape() const override { return {kPlanes, 8, 8}; }
  int encoding_version() const override { return 1; }
  uint64_t perft(const State& state, int depth) const override;
  const Heuristic* heuristic() const override;
  BoardLayout board_layout() const override;  // board_layout.cpp
  int points_tie_winner() const override { return rules_.total_plies ? rules_.ties_to : -1; }

  const Rules& rules() const { return rules_; }
  std::unique_ptr<State> wrap(const Position& pos) const;
  static constexpr int kPlanes = 20;

 private:
  SeizeRuleset ruleset_;
  Rules rules_;
  std::string fingerprint_;
};

class SeizeState : public State {
 public:
  SeizeState(const SeizeGame& game, const Position& pos) : game_(&game), pos_(pos) {}

  const Game& game() const override { return *game_; }
  std::unique_ptr<State> clone() const override { return std::make_unique<SeizeState>(*this); }
  int to_move() const override { return pos_.to_move(); }
  void legal_actions(std::vector<Action>& out) const override;
  void apply(Action action) override;
  Outcome outcome() const override;
  void winning_actions(std::vector<Action>& out) const override;
  bool has_winning_action() const override;
  uint64_t hash() const override { return pos_.key(); }
  uint64_t eval_key() const override;
  std::string to_text() const override;
  std::string to_diagram() const override;
  std::string to_compact() const override;
  std::vector<std::string> last_captured() const override;
  std::array<int, 2> points() const override { return {pos_.points(0), pos_.points(1)}; }
  void encode(float* planes) const override;
  int policy_index(Action action) const override;
  // Bosses and guards alike; tokens are nobody's.
  bool ownership(int player, float* cells) const override;
  bool equals(const State& other) const override;
  BoardView board_view() const override;                   // board_layout.cpp
  ActionCells action_cells(Action action) const override;  // board_layout.cpp

  const Position& position() const { return pos_; }

 private:
  const SeizeGame* game_;
  Position pos_;
};

// Registry entry: builds the game from a ruleset file of game "seize".
GamePtr make_game(const RulesetSource& source);

}  // namespace pincer::seize
