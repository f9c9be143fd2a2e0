// A corners position: square pieces and point pieces of each side as four 64-bit boards (points
// on the shared 8x8 index, see rules.h), the reserves, the side to move, the ply and an
// incremental Zobrist key. Copying is cheap (no heap), so search copies positions.
#pragma once

#include <array>
#include <cstdint>

#include "engine/corners/rules.h"

namespace pincer::corners {

// The action space (3328 ids):
//   runs            from * 28 + dir * 7 + (distance - 1)          [0, 1792)
//   square to point 1792 + from * 4 + k  (to the point from - kCornerOffset[k])
//   point to square 2048 + point * 4 + k (to the square point + kCornerOffset[k])
//   divides         2304 + point * 16 + mask (bit k: a piece on point + kCornerOffset[k])
constexpr int kCornerBase = 1792;
constexpr int kStepBase = 2048;
constexpr int kDivideBase = 2304;
constexpr int kNumActions = 3328;

enum class Kind : uint8_t { kRun, kToPoint, kToSquare, kDivide };

inline int run_action(int from, int dir, int dist) { return from * 28 + dir * 7 + dist - 1; }
inline int to_point_action(int from, int k) { return kCornerBase + from * 4 + k; }
inline int to_square_action(int point, int k) { return kStepBase + point * 4 + k; }
inline int divide_action(int point, int mask) { return kDivideBase + point * 16 + mask; }

// An action taken apart. For runs `to` is the landing square; for moves to a point or square the
// destination; for divides `mask` holds the placements.
struct Move {
  Kind kind = Kind::kRun;
  int from = 0;
  int to = 0;
  int mask = 0;
};
// Any id in [0, kNumActions); `to` may be off the board for ids no position makes legal.
Move decode(int action);
// The action an action becomes when the board is mirrored (files) and/or turned (ranks); -1 when
// the image is not an action (never for a legal action).
int transform_action(int action, bool mirror_files, bool flip_ranks);

struct ActionList {
  std::array<int16_t, 640> actions;
  int size = 0;
  const int16_t* begin() const { return actions.data(); }
  const int16_t* end() const { return actions.data() + size; }
};

enum class Reason : uint8_t { kNone, kCrossed, kNoMoves, kLimit };
const char* reason_name(Reason r);

struct Result {
  Reason reason = Reason::kNone;
  int winner = -1;
  bool over() const { return reason != Reason::kNone; }
};

class Position {
 public:
  // The start of `rules`, which must outlive the position.
  static Position start(const Rules& rules);
  // An empty board, empty reserves, `rules.first` to move; set up with put()/set_*, then finish().
  static Position empty(const Rules& rules);

  const Rules& rules() const { return *rules_; }
  int to_move() const { return side_; }
  uint64_t key() const { return key_; }
  Bitboard squares(int player) const { return sq_[player]; }
  Bitboard points(int player) const { return pt_[player]; }
  Bitboard empty_squares() const { return ~(sq_[0] | sq_[1]); }
  Bitboard empty_points() const { return kPoints & ~(pt_[0] | pt_[1]); }
  // Squares where `player` has a point piece on a corner and the other side none.
  Bitboard own_guarded(int player) const {
    return guarded(pt_[player]) & ~guarded(pt_[player ^ 1]);
  }
  int reserve(int player) const { return reserve_[player]; }
  int ply() const { return ply_; }
  Bitboard last_captured_squares() const { return cap_sq_; }
  Bitboard last_captured_points() const { return cap_pt_; }
  // Pieces of `player` on the board plus its reserve.
  int total(int player) const {
    return popcount(sq_[player]) + popcount(pt_[player]) + reserve_[player];
  }

  // Setters for parsers and tests; they keep the key in step. Call finish() after them.
  void put_square(int sq, int player);  // -1 empties the square
  void put_point(int pt, int player);   // -1 empties the point
  void set_reserves(int white, int black);
  void set_side(int player);
  void set_ply(int ply) { ply_ = static_cast<uint16_t>(ply); }
  // Works out the result as it stands after a move by the other side.
  void finish();

  // The squares and points any capture pattern holds now (a reachable position has none).
  void capture_patterns(Bitboard& squares, Bitboard& points) const;

  void generate(ActionList& out) const;
  int count_actions() const;
  bool is_legal(int action) const;
  void apply(int action);

  Result result() const { return {reason_, winner_}; }
  bool over() const { return reason_ != Reason::kNone; }

  bool operator==(const Position& o) const;

 private:
  bool has_move() const;
  void toggle_squares(int player, Bitboard b);
  void toggle_points(int player, Bitboard b);

  const Rules* rules_ = nullptr;
  Bitboard sq_[2] = {0, 0};
  Bitboard pt_[2] = {0, 0};
  Bitboard cap_sq_ = 0;
  Bitboard cap_pt_ = 0;
  uint64_t key_ = 0;
  uint16_t ply_ = 0;
  uint8_t reserve_[2] = {0, 0};
  uint8_t side_ = kWhite;
  Reason reason_ = Reason::kNone;
  int8_t winner_ = -1;
};

// Leaf count to `depth` plies with bulk counting at the last ply.
uint64_t perft(const Position& pos, int depth);

}  // namespace pincer::corners
