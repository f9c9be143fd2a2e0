// Bit operations on 64-bit boards, shared by the games.
#pragma once

#include <cstdint>

#include "engine/random.h"  // KeyStream for the games' Zobrist tables

namespace pincer {

using Bitboard = uint64_t;

constexpr Bitboard bit(int sq) { return Bitboard{1} << sq; }
inline int popcount(Bitboard b) { return __builtin_popcountll(b); }
inline int lsb(Bitboard b) { return __builtin_ctzll(b); }
inline int msb(Bitboard b) { return 63 - __builtin_clzll(b); }
// Index of the lowest set bit, which is cleared.
inline int pop_lsb(Bitboard& b) {
  const int sq = lsb(b);
  b &= b - 1;
  return sq;
}

// The eight compass directions of a square grid, clockwise from north: even indices are
// orthogonal, odd ones diagonal. kDirFile/kDirRank give one step's change of file and rank.
enum Direction : int {
  kNorth,
  kNorthEast,
  kEast,
  kSouthEast,
  kSouth,
  kSouthWest,
  kWest,
  kNorthWest
};
constexpr int kDirFile[8] = {0, 1, 1, 1, 0, -1, -1, -1};
constexpr int kDirRank[8] = {1, 1, 0, -1, -1, -1, 0, 1};

}  // namespace pincer
