// The dice rules of one ruleset, compiled from its protobuf message into the board geometry
// (masks, knight and king tables, rays for a 6x6, 7x7 or 8x8 board: at most 64 squares, one
// uint64) and the flags the move generator reads.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/bits.h"
#include "engine/dice/dice_rules.pb.h"

namespace pincer::dice {

using ::pincer::Bitboard;

constexpr int kWhite = 0;
constexpr int kBlack = 1;
extern const char* const kSideName[2];

constexpr int kMaxSize = 8;
constexpr int kMaxSquares = kMaxSize * kMaxSize;

// Kinds of dice: the King, then the faces 1-6 (1-2 pawn, 3 knight, 4 bishop, 5 rook, 6 queen).
constexpr int kKing = 0;
constexpr int kKinds = 7;
// The face a die shows after it moves (the King never changes): 6 5 4 3 2 1 6 ...
constexpr int decayed(int face) { return face == 1 ? 6 : face - 1; }

enum class NoMoves : uint8_t { kLoses, kDraw };

struct Rules {
  // Geometry. Square index is file + size * rank (a1 = 0).
  int size = 7;
  int num_squares = 49;
  Bitboard board = 0;
  Bitboard rank_mask[kMaxSize] = {};
  Bitboard knight[kMaxSquares] = {};
  Bitboard king[kMaxSquares] = {};
  // Squares along a direction from a square, nearest first in index order for the directions
  // that raise the index (north, north-east, east, north-west) and last for the others.
  Bitboard ray[8][kMaxSquares] = {};

  // Setup.
  int pawn_face = 2;
  int king_file = 3;
  bool roll_first_mover = false;

  bool pawn_wall = true;
  bool promotion = false;
  int score_target = 0;  // 0: no scored play
  int die_points = 1;
  int king_points = 5;
  int timed_plies = 0;
  NoMoves no_moves = NoMoves::kLoses;
  int capture_free_plies = 100;

  int file_of(int sq) const { return sq % size; }
  int rank_of(int sq) const { return sq / size; }
  int make_square(int file, int rank) const { return file + size * rank; }
  // The rank a side's pawns move towards and stop on.
  int last_rank(int side) const { return side == kWhite ? size - 1 : 0; }
  // The square `sq` of the other side's view (ranks mirrored).
  int flip(int sq) const { return make_square(file_of(sq), size - 1 - rank_of(sq)); }
  bool scored() const { return score_target > 0; }

  std::string square_name(int sq) const;
  // "b2" -> index; -1 for text that is not a square of this board.
  int parse_square(std::string_view text) const;
};

// Checks and compiles; throws GameError naming the field for values the engine does not
// implement or that make no sense.
Rules compile_rules(const DiceRules& proto);

}  // namespace pincer::dice
