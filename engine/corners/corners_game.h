// The corners game (seed 003) behind the generic game interface.
#pragma once

#include <vector>

#include "engine/corners/corners_rules.pb.h"
#include "engine/corners/position.h"
#include "engine/game.h"
#include "engine/position_state.h"
#include "engine/ruleset.h"

namespace pincer::corners {

class CornersGame : public Game {
 public:
  explicit CornersGame(CornersRuleset ruleset);

  std::string game_name() const override { return "corners"; }
  std::string ruleset_name() const override { return ruleset_.name(); }
  std::string fingerprint() const override { return fingerprint_; }
  const google::protobuf::Message& ruleset() const override { return ruleset_; }
  std::string side_name(int player) const override { return kSideName[player]; }
  int parse_side(std::string_view text) const override;

  int num_actions() const override { return kNumActions; }
  std::unique_ptr<State> initial_state() const override;
  std::unique_ptr<State> parse_state(std::string_view text) const override;
  // Every move has one name, so both forms are the same.
  std::string action_text(const State& state, Action action, bool short_form) const override;
  Action parse_action(const State& state, std::string_view text) const override;

  InputShape input_shape() const override { return {kPlanes, 8, 8}; }
  int encoding_version() const override { return 1; }
  // Identity and the mirror of the files (the rules and the start are symmetric left-right).
  int num_symmetries() const override { return 2; }
  void apply_symmetry(int sym, float* planes, float* policy) const override;
  uint64_t perft(const State& state, int depth) const override;
  const Heuristic* heuristic() const override;
  BoardLayout board_layout() const override;  // board_layout.cpp

  const Rules& rules() const { return rules_; }
  std::unique_ptr<State> wrap(const Position& pos) const;

  // Planes on the 8x8 grid from the mover's view (ranks turned for black; a point sits on the
  // cell of the square whose top-right corner it is, in the mover's view): 0/1 square pieces
  // (mover, other), 2/3 point pieces, 4/5 squares own-guarded by each, 6/7 reserves over the
  // pieces a side has, 8 ply over the limit, 9 the cells that are points, 10 the mover is white.
  static constexpr int kPlanes = 11;

 private:
  CornersRuleset ruleset_;
  Rules rules_;
  std::string fingerprint_;
  std::vector<int> mirror_action_;
};

class CornersState : public PositionState<CornersState, CornersGame, Position, ActionList> {
 public:
  using PositionState::PositionState;

  uint64_t hash() const override { return pos_.key(); }
  std::string to_text() const override;
  std::string to_diagram() const override;
  std::vector<std::string> last_captured() const override;
  std::array<int, 2> points() const override { return {0, 0}; }
  void encode(float* planes) const override;
  int policy_index(Action action) const override;
  BoardView board_view() const override;                   // board_layout.cpp
  ActionCells action_cells(Action action) const override;  // board_layout.cpp
};

// Registry entry: builds the game from a ruleset file of game "corners".
GamePtr make_game(const RulesetSource& source);

}  // namespace pincer::corners
