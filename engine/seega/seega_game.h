// Seega behind the generic game interface.
#pragma once

#include <vector>

#include "engine/game.h"
#include "engine/position_state.h"
#include "engine/ruleset.h"
#include "engine/seega/position.h"
#include "engine/seega/seega_rules.pb.h"

namespace pincer::seega {

class SeegaGame : public Game {
 public:
  explicit SeegaGame(SeegaRuleset ruleset);

  std::string game_name() const override { return "seega"; }
  std::string ruleset_name() const override { return ruleset_.name(); }
  std::string fingerprint() const override { return fingerprint_; }
  const google::protobuf::Message& ruleset() const override { return ruleset_; }
  std::string side_name(int player) const override { return kSideName[player]; }
  int parse_side(std::string_view text) const override;

  int num_actions() const override { return seega::num_actions(rules_); }
  std::unique_ptr<State> initial_state() const override;
  std::unique_ptr<State> parse_state(std::string_view text) const override;
  // There is no short form: both forms are "b2" (placement) or "b2-b3" (step).
  std::string action_text(const State& state, Action action, bool short_form) const override;
  Action parse_action(const State& state, std::string_view text) const override;

  PolicyPlanes policy_planes() const override;
  InputShape input_shape() const override { return {kPlanes, rules_.size, rules_.size}; }
  int encoding_version() const override { return 1; }
  int num_symmetries() const override { return 8; }
  void apply_symmetry(int sym, float* planes, float* policy) const override;
  uint64_t perft(const State& state, int depth) const override;
  const Heuristic* heuristic() const override;
  BoardLayout board_layout() const override;  // board_layout.cpp

  const Rules& rules() const { return rules_; }
  std::unique_ptr<State> wrap(const Position& pos) const;
  // The square `sq` maps to under symmetry `sym` (0 identity; bit 2 transposes, then bit 0
  // mirrors the files and bit 1 the ranks), and the action `action` maps to.
  int map_square(int sym, int sq) const { return square_map_[sym][sq]; }
  int map_action(int sym, int action) const { return action_map_[sym][action]; }

  // Planes: 0 the mover's pieces, 1 the other side's, 2 the centre square, 3 placement phase,
  // 4 the mover acts for the blocked other side, 5 and 6 pieces in hand (mover, other) over
  // placement.pieces, 7 the mover also takes the next action, 8 capture-free plies over the
  // limit, 9 the mover is dark.
  static constexpr int kPlanes = 10;

 private:
  SeegaRuleset ruleset_;
  Rules rules_;
  std::string fingerprint_;
  std::vector<int> square_map_[8];
  std::vector<int> action_map_[8];
};

class SeegaState : public PositionState<SeegaState, SeegaGame, Position, ActionList> {
 public:
  using PositionState::PositionState;

  uint64_t hash() const override { return pos_.key(); }
  uint64_t eval_key() const override;
  std::string to_text() const override;
  std::string to_diagram() const override;
  std::vector<std::string> last_captured() const override;
  std::array<int, 2> points() const override { return {0, 0}; }
  void encode(float* planes) const override;
  bool ownership(int player, float* cells) const override;
  BoardView board_view() const override;                   // board_layout.cpp
  ActionCells action_cells(Action action) const override;  // board_layout.cpp
};

// Registry entry: builds the game from a ruleset file of game "seega".
GamePtr make_game(const RulesetSource& source);

}  // namespace pincer::seega
