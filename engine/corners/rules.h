// The corners rules of one ruleset, compiled from its protobuf message, and the board geometry
// the move generator reads: squares and points share one 8x8 index (a point has the index of the
// square whose top-right corner it is, so the 49 points are the squares off file h and rank 8),
// which turns "the corners of a square" and "the squares of a point" into shifts by 0, 1, 8, 9.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/bits.h"
#include "engine/corners/corners_rules.pb.h"

namespace pincer::corners {

using ::pincer::Bitboard;

constexpr int kWhite = 0;
constexpr int kBlack = 1;
extern const char* const kSideName[2];

constexpr Bitboard kAllSquares = ~Bitboard{0};
constexpr Bitboard kFileA = 0x0101010101010101ULL;
constexpr Bitboard kFileH = kFileA << 7;
constexpr Bitboard kRank1 = 0xffULL;
constexpr Bitboard kRank8 = kRank1 << 56;
// The 49 points: every index off file h and rank 8.
constexpr Bitboard kPoints = ~kFileH & ~kRank8;
// b2..g7: the squares a cross can stand on.
constexpr Bitboard kInner = ~kFileA & ~kFileH & ~kRank1 & ~kRank8;

// The four squares of a point and the four corners of a square, numbered alike: a point p has
// square p + kCornerOffset[k]; a square s has corner point s - kCornerOffset[k] (when it exists).
// k: 0 the point's south-west square (the square's north-east corner), 1 south-east (north-west
// corner), 2 north-west (south-east corner), 3 north-east (south-west corner).
constexpr int kCornerOffset[4] = {0, 1, 8, 9};

// Run directions: 0 north, 1 east, 2 south, 3 west.
constexpr int kRunDelta[4] = {8, 1, -8, -1};

// Squares guarded by point pieces `pts`: the four squares of each.
inline Bitboard guarded(Bitboard pts) { return pts | pts << 1 | pts << 8 | pts << 9; }
// Squares with two or more of their corners in `pts`.
inline Bitboard guarded_twice(Bitboard pts) {
  const Bitboard a = pts, b = pts << 1, c = pts << 8, d = pts << 9;
  return (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d);
}
// Points with a corner square in `sqs`.
inline Bitboard corners_of(Bitboard sqs) {
  return (sqs | sqs >> 1 | sqs >> 8 | sqs >> 9) & kPoints;
}
// Points with two or more of their four squares in `sqs`.
inline Bitboard corners_twice(Bitboard sqs) {
  const Bitboard a = sqs, b = sqs >> 1, c = sqs >> 8, d = sqs >> 9;
  return ((a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)) & kPoints;
}

struct Rules {
  int first = kWhite;
  int back_rows = 1;
  int rows = 2;
  int pieces = 16;  // per side: 8 * rows
  bool no_overlap = true;
  int max_placements = 4;
  bool empty_allowed = true;
  bool divider_to_reserve = true;
  bool cross = true;
  bool no_moves_loses = true;
  int limit = 400;

  Bitboard start[2] = {0, 0};
  Bitboard far_rank[2] = {kRank8, kRank1};
  // Squares strictly beyond `sq` in run direction `dir`, nearest first.
  Bitboard ray[4][64] = {};
  // Divides of a point with `n` empty squares and `reserve` pieces in reserve (capped at 4).
  int divide_count[5][5] = {};

  static std::string square_name(int sq);
  static std::string point_name(int pt);
  // "b2" -> index; -1 for anything else.
  static int parse_square(std::string_view text);
  // "b2'" -> index; -1 for anything else.
  static int parse_point(std::string_view text);
};

// Checks and compiles; throws GameError naming the field for values the engine does not
// implement or that make no sense.
Rules compile_rules(const CornersRules& proto);

}  // namespace pincer::corners
