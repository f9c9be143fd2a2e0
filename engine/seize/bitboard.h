// Bitboards for the SE!ZE board: an 8x8 grid without its four corners. Square index is
// file + 8 * rank (a1 = 0, h8 = 63); the corners are never occupied and act as walls.
#pragma once

#include <cstdint>
#include <string>

#include "engine/bits.h"

namespace pincer::seize {

using ::pincer::Bitboard;

constexpr int kNumSquares = 64;
constexpr Bitboard kCorners = bit(0) | bit(7) | bit(56) | bit(63);
constexpr Bitboard kBoard = ~kCorners;

constexpr int file_of(int sq) { return sq & 7; }
constexpr int rank_of(int sq) { return sq >> 3; }
constexpr int make_square(int file, int rank) { return file + 8 * rank; }
inline bool on_board(int file, int rank) {
  return file >= 0 && file < 8 && rank >= 0 && rank < 8 && (kBoard & bit(make_square(file, rank)));
}

// Directions in which square indices grow (north, east and the two northern diagonals).
constexpr bool kDirPositive[8] = {true, true, true, false, false, false, false, true};
// Square index change of one step in each direction.
constexpr int kDirDelta[8] = {8, 9, 1, -7, -8, -9, -1, 7};
constexpr Bitboard kFileA = 0x0101010101010101ULL;
constexpr Bitboard kFileH = kFileA << 7;

// Every bit of `b` moved one step in direction D (bits leaving the 8x8 grid vanish; the
// corners still need masking by the caller).
template <int D>
constexpr Bitboard shift(Bitboard b) {
  if constexpr (D == kNorth) return b << 8;
  if constexpr (D == kNorthEast) return (b << 9) & ~kFileA;
  if constexpr (D == kEast) return (b << 1) & ~kFileA;
  if constexpr (D == kSouthEast) return (b >> 7) & ~kFileA;
  if constexpr (D == kSouth) return b >> 8;
  if constexpr (D == kSouthWest) return (b >> 9) & ~kFileH;
  if constexpr (D == kWest) return (b >> 1) & ~kFileH;
  return (b << 7) & ~kFileH;  // kNorthWest
}

constexpr int opposite(int dir) { return (dir + 4) & 7; }
constexpr bool is_orthogonal(int dir) { return (dir & 1) == 0; }

struct Tables {
  Bitboard step[64][8];  // the neighbour in a direction, or 0 off the board
  Bitboard jump[64][8];  // the square two steps away, or 0 off the board
  Bitboard ray[64][8];   // every board square in a direction up to the edge
  Bitboard near[64][8];  // the first two squares of ray (a boss of range 2)
  Bitboard king[64];     // all eight neighbours on the board
  Bitboard orth[64];     // the four orthogonal neighbours on the board
};
// Built once at program start-up (no lazy-initialisation check on the hot path).
extern const Tables kTables;
inline const Tables& tables() { return kTables; }

// Squares a slider on `sq` reaches in direction `dir` through empty squares (`occ` blocks).
inline Bitboard slide(const Tables& t, int sq, int dir, Bitboard occ) {
  Bitboard r = t.ray[sq][dir];
  const Bitboard blockers = r & occ;
  if (blockers) r ^= t.ray[kDirPositive[dir] ? lsb(blockers) : msb(blockers)][dir];
  return r & ~occ;
}

inline Bitboard rook_targets(const Tables& t, int sq, Bitboard occ) {
  return slide(t, sq, kNorth, occ) | slide(t, sq, kEast, occ) | slide(t, sq, kSouth, occ) |
         slide(t, sq, kWest, occ);
}
inline Bitboard bishop_targets(const Tables& t, int sq, Bitboard occ) {
  return slide(t, sq, kNorthEast, occ) | slide(t, sq, kSouthEast, occ) |
         slide(t, sq, kSouthWest, occ) | slide(t, sq, kNorthWest, occ);
}

// "c3" <-> index; parse returns -1 for text that is not a board square (corners included).
std::string square_name(int sq);
int parse_square(const std::string& text);

}  // namespace pincer::seize
