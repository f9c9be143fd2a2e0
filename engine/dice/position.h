// A dice position: one bitboard per side and kind of die (the King and faces 1-6), the side to
// move, the clocks, the points and an incremental Zobrist key. Copying is cheap (no heap, about
// 150 bytes), so search copies positions.
#pragma once

#include <array>
#include <cstdint>

#include "engine/dice/rules.h"

namespace pincer::dice {

// Actions: from * N*N + to, for every pair of squares (most pairs are never legal).
inline int num_actions(const Rules& r) { return r.num_squares * r.num_squares; }
inline int make_action(const Rules& r, int from, int to) { return from * r.num_squares + to; }
inline int action_from(const Rules& r, int action) { return action / r.num_squares; }
inline int action_to(const Rules& r, int action) { return action % r.num_squares; }

// Enough for any position: 16 dice, each at most a queen's 4 * 7 targets (or fewer), plus
// headroom.
struct ActionList {
  std::array<int16_t, 512> actions;
  int size = 0;
  const int16_t* begin() const { return actions.data(); }
  const int16_t* end() const { return actions.data() + size; }
};

// In the order the results are checked after a move.
enum class Reason : uint8_t { kNone, kKing, kPoints, kTimed, kNoMoves, kLimit };
const char* reason_name(Reason r);

struct Result {
  Reason reason = Reason::kNone;
  int winner = -1;  // player, or -1 for a draw
  bool over() const { return reason != Reason::kNone; }
};

// The rolled back rows of a start: faces 1-6 per file (the King's file holds 0), and who moves
// first. Setup strings ("354K612/216K543 b") are this in text (notation.h).
struct Setup {
  std::array<std::array<uint8_t, kMaxSize>, 2> back{};
  int first = kWhite;
};

class Position {
 public:
  // The start of `setup`: pawns on the front rows, the rolled back rows, the Kings. `rules` must
  // outlive the position.
  static Position start(const Rules& rules, const Setup& setup);
  // An empty board, white to move; set it up with put() and the setters, then finish().
  static Position empty(const Rules& rules);

  const Rules& rules() const { return *rules_; }
  int to_move() const { return side_; }
  uint64_t key() const { return key_; }
  // The key with the points mixed in (they decide the result of scored play).
  uint64_t hash() const {
    return key_ ^ (uint64_t{points_[0]} * 0x9e3779b97f4a7c15ULL) ^
           (uint64_t{points_[1]} * 0xc2b2ae3d27d4eb4fULL);
  }

  Bitboard pieces(int side) const { return occ_[side]; }
  Bitboard dice(int side, int kind) const { return dice_[side][kind]; }
  Bitboard occupied() const { return occ_[0] | occ_[1]; }
  // The side owning a die on `sq` (-1 if empty) and its kind (kKing or a face 1-6).
  int owner(int sq) const { return (occ_[0] & bit(sq)) ? 0 : (occ_[1] & bit(sq)) ? 1 : -1; }
  int kind_at(int sq) const;
  int halfmove() const { return halfmove_; }
  int ply() const { return ply_; }
  int points(int side) const { return points_[side]; }
  int last_captured() const { return last_captured_; }  // square, or -1

  // Setters for parsers and tests; they keep the key in step. Call finish() after them.
  void put(int sq, int side, int kind);  // side -1 empties the square
  void set_side(int side);
  void set_counters(int ply, int halfmove, int white_points, int black_points);
  // Works out the result of the position as it stands (counting as if the last move led here).
  void finish();

  // Legal actions of the side to move; none when the game is over.
  void generate(ActionList& out) const;
  int count_actions() const;
  bool has_action() const;
  bool is_legal(int action) const;
  // The number of moves `side` would have if it were to move, and the squares they reach.
  int mobility(int side, Bitboard& reach) const;
  // Plays a legal action.
  void apply(int action) { play(action, true); }
  // For perft: plays without asking whether the side to move is left without moves (such a
  // position counts no leaves whether or not it is marked as over, so the answer is the same).
  void apply_for_perft(int action) { play(action, false); }

  Result result() const { return {reason_, winner_}; }
  bool over() const { return reason_ != Reason::kNone; }

  bool operator==(const Position& o) const;

 private:
  template <typename Visit>
  bool visit_targets(int us, Visit&& visit) const;
  void toggle(int sq, int side, int kind);
  void play(int action, bool check_moves);
  void decide(bool king_taken, bool check_moves = true);

  const Rules* rules_ = nullptr;
  Bitboard dice_[2][kKinds] = {};
  Bitboard occ_[2] = {0, 0};
  uint64_t key_ = 0;
  uint16_t ply_ = 0;
  uint16_t halfmove_ = 0;
  uint16_t points_[2] = {0, 0};
  uint8_t side_ = kWhite;
  int8_t last_captured_ = -1;
  Reason reason_ = Reason::kNone;
  int8_t winner_ = -1;
};

// Leaf count to `depth` plies with bulk counting at the last ply.
uint64_t perft(const Position& pos, int depth);

}  // namespace pincer::dice
