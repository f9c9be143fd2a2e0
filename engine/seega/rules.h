// The Seega rules of one ruleset, compiled from its protobuf message into the board geometry
// (bitboard masks and neighbour tables for a 3x3, 5x5 or 7x7 board) and the flags the move
// generator reads.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/bits.h"
#include "engine/seega/seega_rules.pb.h"

namespace pincer::seega {

using ::pincer::Bitboard;

// Players: dark places first; light second. Their names are fixed.
constexpr int kDark = 0;
constexpr int kLight = 1;
extern const char* const kSideName[2];

constexpr int kMaxSize = 7;
constexpr int kMaxSquares = kMaxSize * kMaxSize;

enum class BlockedRule : uint8_t { kOpponentMoves, kPass, kLoses };

struct Rules {
  // Geometry. Square index is file + size * rank (a1 = 0).
  int size = 5;
  int num_squares = 25;
  int centre = 12;
  Bitboard board = 0;          // every square
  Bitboard placeable = 0;      // squares a piece may be placed on
  int delta[8] = {};           // index change of a step in each direction
  Bitboard step_from[8] = {};  // squares from which a step in a direction stays on the board
  int8_t neighbour[kMaxSquares][8] = {};  // the square one step away, or -1

  // Placement.
  int pieces = 12;
  int per_turn = 2;
  int movement_starter = kDark;

  // The blocked player.
  BlockedRule blocked = BlockedRule::kOpponentMoves;
  int forced_dirs_step = 2;  // 1: the forced step may be diagonal; 2: orthogonal only
  bool forced_move_captures = false;

  int reduced_to = 0;
  int capture_free_plies = 200;

  int file_of(int sq) const { return sq % size; }
  int rank_of(int sq) const { return sq / size; }
  int make_square(int file, int rank) const { return file + size * rank; }
  bool on_board(int file, int rank) const {
    return file >= 0 && file < size && rank >= 0 && rank < size;
  }
  // Pieces of `b` moved one step in direction `dir` (steps off the board dropped).
  Bitboard shift(Bitboard b, int dir) const {
    b &= step_from[dir];
    return delta[dir] > 0 ? b << delta[dir] : b >> -delta[dir];
  }
  // The player who makes placement number `index` (0-based) of the game.
  int placement_actor(int index) const { return (index / per_turn) & 1 ? kLight : kDark; }

  std::string square_name(int sq) const;
  // "b2" -> index; -1 for text that is not a square of this board.
  int parse_square(std::string_view text) const;
};

// Checks and compiles; throws GameError naming the field for values the engine does not
// implement or that make no sense.
Rules compile_rules(const SeegaRules& proto);

}  // namespace pincer::seega
