// A Seega position: two bitboards, the pieces in hand, whose turn it is, the clocks and an
// incremental Zobrist key. Copying is cheap (no heap), so search copies positions.
//
// Turns. `turn()` is the player whose turn it is; `to_move()` the player who acts now. They
// differ only in the forced state: under blocked.rule OPPONENT_MOVES, when the player whose turn
// it is has no move, the opponent moves one of that player's pieces for them (forced move, no
// capture unless the rules say so), and then takes its own turn. When no forced move exists, or
// under PASS, the blocked player's turn passes: the position is normalized so that turn() is the
// opponent. Under LOSES the blocked player loses. Neither side able to move is a draw ("locked").
#pragma once

#include <array>
#include <cstdint>

#include "engine/seega/rules.h"

namespace pincer::seega {

// Actions: placements are the square index [0, N*N); steps are N*N + from * 8 + direction, for
// every square and all eight directions (diagonal steps occur only as forced moves).
inline int num_actions(const Rules& r) { return r.num_squares * 9; }
inline bool is_placement(const Rules& r, int action) { return action < r.num_squares; }
inline int step_action(const Rules& r, int from, int dir) { return r.num_squares + from * 8 + dir; }
inline int action_from(const Rules& r, int action) { return (action - r.num_squares) >> 3; }
inline int action_dir(const Rules& r, int action) { return (action - r.num_squares) & 7; }

struct ActionList {
  std::array<int16_t, kMaxSquares * 8> actions;
  int size = 0;
  const int16_t* begin() const { return actions.data(); }
  const int16_t* end() const { return actions.data() + size; }
};

enum class Reason : uint8_t { kNone, kAll, kReduced, kLocked, kBlocked, kLimit };
const char* reason_name(Reason r);

struct Result {
  Reason reason = Reason::kNone;
  int winner = -1;  // player, or -1 for a draw
  bool over() const { return reason != Reason::kNone; }
};

class Position {
 public:
  // The start position of `rules` (empty board, every piece in hand, dark to place); `rules`
  // must outlive the position.
  static Position start(const Rules& rules);
  // An empty board, every piece in hand, dark's turn; set it up with the setters, then finish().
  static Position empty(const Rules& rules);

  const Rules& rules() const { return *rules_; }
  int turn() const { return turn_; }
  int to_move() const { return actor_; }
  // True when to_move() acts for the blocked player turn() (its actions move turn()'s pieces).
  bool forced() const { return actor_ != turn_; }
  bool placing() const { return (hand_[0] | hand_[1]) != 0; }
  uint64_t key() const { return key_; }

  Bitboard pieces(int player) const { return occ_[player]; }
  Bitboard occupied() const { return occ_[0] | occ_[1]; }
  Bitboard empty_squares() const { return rules_->board & ~occupied(); }
  int owner(int sq) const { return (occ_[0] & bit(sq)) ? 0 : (occ_[1] & bit(sq)) ? 1 : -1; }
  int hand(int player) const { return hand_[player]; }
  int halfmove() const { return halfmove_; }
  int ply() const { return ply_; }
  Bitboard last_captured() const { return last_captured_; }
  // Placements the player to move still makes in this turn, counting the next one (placement
  // phase only).
  int placements_left_in_turn() const;

  // Setters for parsers and tests; they keep the key in step. Call finish() after them.
  void put(int sq, int player);  // player -1 empties the square
  void set_hands(int dark, int light);
  void set_turn(int player);
  void set_counters(int halfmove, int ply);
  // Works out who acts and whether the game is over (normalizing a passed turn, see above).
  void finish();

  // Legal actions of to_move(); none when the game is over.
  void generate(ActionList& out) const;
  int count_actions() const;
  bool is_legal(int action) const;
  // Plays a legal action.
  void apply(int action);

  Result result() const { return {reason_, winner_}; }
  bool over() const { return reason_ != Reason::kNone; }

  // Whether `player` has a step of its own (the movement rule, ignoring whose turn it is).
  bool can_step(int player) const;

  bool operator==(const Position& o) const;

 private:
  Bitboard forced_targets_any() const;

  const Rules* rules_ = nullptr;
  Bitboard occ_[2] = {0, 0};
  Bitboard last_captured_ = 0;
  uint64_t key_ = 0;
  uint16_t halfmove_ = 0;
  uint16_t ply_ = 0;
  uint8_t hand_[2] = {0, 0};
  uint8_t turn_ = kDark;
  uint8_t actor_ = kDark;
  Reason reason_ = Reason::kNone;
  int8_t winner_ = -1;
};

// Leaf count to `depth` plies with bulk counting at the last ply.
uint64_t perft(const Position& pos, int depth);

}  // namespace pincer::seega
