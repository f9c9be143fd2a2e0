// Tic-tac-toe behind the generic game interface: a tiny, fully solved game for tests of search
// and of the training loop. Not shipped: tests register it with register_tictactoe().
//
// Actions 0..8 are the squares, index = (rank - 1) * 3 + file, written "a1".."c3" (file letter,
// rank digit). Player 0 is "x" and moves first. Position text: the three ranks from rank 3 down
// to rank 1, separated by '/', each cell 'x', 'o' or '.', then a space and the side to move,
// e.g. "x.o/.x./... o". Input planes (3 x 3 x 3): the mover's marks, the opponent's marks, ones.
// Ownership: +1 a mark of the player asked about, -1 the other's.
// Eight symmetries (the dihedral group of the square).
#pragma once

#include <array>
#include <cstdint>

#include "engine/game.h"

namespace pincer::testing {

class TicTacToeGame;

class TicTacToeState : public State {
 public:
  explicit TicTacToeState(const TicTacToeGame& game);

  const Game& game() const override;
  std::unique_ptr<State> clone() const override { return std::make_unique<TicTacToeState>(*this); }
  int to_move() const override { return to_move_; }
  void legal_actions(std::vector<Action>& out) const override;
  void apply(Action action) override;
  Outcome outcome() const override;
  uint64_t hash() const override { return hash_; }
  std::string to_text() const override;
  std::string to_diagram() const override;
  std::vector<std::string> last_captured() const override { return {}; }
  std::array<int, 2> points() const override { return {0, 0}; }
  void encode(float* planes) const override;
  bool ownership(int player, float* cells) const override;
  bool equals(const State& other) const override;

  // -1 empty, else the player (0 or 1) whose mark is on the square.
  int cell(int square) const { return cells_[square]; }
  // Puts `player`'s mark (or -1 to clear) on a square and sets the side to move; no legality
  // checks (for building test positions).
  void set(int square, int player);
  void set_to_move(int player);

 private:
  int winner() const;  // -1 if no line

  const TicTacToeGame* game_;
  std::array<int8_t, 9> cells_;
  int to_move_ = 0;
  uint64_t hash_ = 0;
};

class TicTacToeGame : public Game {
 public:
  TicTacToeGame();

  std::string game_name() const override { return "tictactoe"; }
  std::string ruleset_name() const override { return "tictactoe"; }
  std::string fingerprint() const override { return fingerprint_; }
  const google::protobuf::Message& ruleset() const override;
  std::string side_name(int player) const override { return player == 0 ? "x" : "o"; }
  int parse_side(std::string_view text) const override;

  int num_actions() const override { return 9; }
  std::unique_ptr<State> initial_state() const override;
  std::unique_ptr<State> parse_state(std::string_view text) const override;
  std::string action_text(const State& state, Action action, bool short_form) const override;
  Action parse_action(const State& state, std::string_view text) const override;

  InputShape input_shape() const override { return {3, 3, 3}; }
  int encoding_version() const override { return 1; }
  int num_symmetries() const override { return 8; }
  void apply_symmetry(int sym, float* planes, float* policy) const override;

  // Square that symmetry `sym` maps `square` to.
  static int map_square(int sym, int square);

 private:
  std::string fingerprint_;
};

GamePtr make_tictactoe();
// Registers the game under "tictactoe" (its factory ignores the ruleset file).
void register_tictactoe();

}  // namespace pincer::testing
