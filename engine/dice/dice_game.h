// The dice game behind the generic game interface.
#pragma once

#include <vector>

#include "engine/dice/dice_rules.pb.h"
#include "engine/dice/position.h"
#include "engine/game.h"
#include "engine/position_state.h"
#include "engine/ruleset.h"

namespace pincer::dice {

class DiceGame : public Game {
 public:
  explicit DiceGame(DiceRuleset ruleset);

  std::string game_name() const override { return "dice"; }
  std::string ruleset_name() const override { return ruleset_.name(); }
  std::string fingerprint() const override { return fingerprint_; }
  const google::protobuf::Message& ruleset() const override { return ruleset_; }
  std::string side_name(int player) const override { return kSideName[player]; }
  int parse_side(std::string_view text) const override;

  int num_actions() const override { return dice::num_actions(rules_); }
  // The start of seed 0's setup (every real game draws its own: start_state(seed)).
  std::unique_ptr<State> initial_state() const override { return start_state(0); }
  bool random_start() const override { return true; }
  std::string draw_setup(uint64_t seed) const override;
  std::unique_ptr<State> setup_state(std::string_view setup) const override;
  std::unique_ptr<State> parse_state(std::string_view text) const override;
  // Always the long form "a1-b3".
  std::string action_text(const State& state, Action action, bool short_form) const override;
  Action parse_action(const State& state, std::string_view text) const override;

  PolicyPlanes policy_planes() const override;
  InputShape input_shape() const override { return {kPlanes, rules_.size, rules_.size}; }
  int encoding_version() const override { return 1; }
  // The board mirrored left to right moves every die alike (the King file only matters for the
  // setup), so augmentation may mirror the files.
  int num_symmetries() const override { return 2; }
  void apply_symmetry(int sym, float* planes, float* policy) const override;
  uint64_t perft(const State& state, int depth) const override;
  const Heuristic* heuristic() const override;
  BoardLayout board_layout() const override;  // board_layout.cpp

  const Rules& rules() const { return rules_; }
  std::unique_ptr<State> wrap(const Position& pos) const;

  // Planes, from the view of the side to move (ranks turned for black, so it always moves up):
  // 0-6 the mover's King and faces 1-6, 7-13 the other side's, 14 capture-free plies over the
  // limit, 15 ply over timed.plies (0 untimed), 16 and 17 points (mover, other) over the target
  // (0 unscored), 18 the mover is white, 19 promotion is on.
  static constexpr int kPlanes = 20;

 private:
  DiceRuleset ruleset_;
  Rules rules_;
  std::string fingerprint_;
  std::vector<int> mirror_square_;
};

class DiceState : public PositionState<DiceState, DiceGame, Position, ActionList> {
 public:
  using PositionState::PositionState;

  uint64_t hash() const override { return pos_.hash(); }
  std::string to_text() const override;
  std::string to_diagram() const override;
  std::vector<std::string> last_captured() const override;
  std::array<int, 2> points() const override { return {pos_.points(0), pos_.points(1)}; }
  void encode(float* planes) const override;
  // Dice and Kings alike.
  bool ownership(int player, float* cells) const override;
  int policy_index(Action action) const override;
  BoardView board_view() const override;                   // board_layout.cpp
  ActionCells action_cells(Action action) const override;  // board_layout.cpp
};

// Registry entry: builds the game from a ruleset file of game "dice".
GamePtr make_game(const RulesetSource& source);

}  // namespace pincer::dice
