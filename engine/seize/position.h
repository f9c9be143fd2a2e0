// A SE!ZE position: bitboards, counters and an incremental Zobrist key. Copying is cheap
// (about 100 bytes, no heap), so search copies positions instead of undoing moves.
#pragma once

#include <array>
#include <cstdint>

#include "engine/seize/bitboard.h"
#include "engine/seize/rules.h"

namespace pincer::seize {

struct Move {
  uint8_t from = 0;
  uint8_t to = 0;
  bool operator==(const Move& o) const { return from == o.from && to == o.to; }
};

struct MoveList {
  std::array<Move, 256> moves;
  int size = 0;
  const Move* begin() const { return moves.data(); }
  const Move* end() const { return moves.data() + size; }
};

enum class Reason : uint8_t { kNone, kCrowns, kBosses, kForce, kStalemate, kLimit, kDraw };
const char* reason_name(Reason r);

struct Result {
  Reason reason = Reason::kNone;
  int winner = -1;  // player, or -1 for a draw
  bool over() const { return reason != Reason::kNone; }
};

class Position {
 public:
  // The start position of `rules`; `rules` must outlive the position.
  static Position start(const Rules& rules);
  // An empty board with `to_move` to play; fill it with put() (used by the parsers and tests).
  static Position empty(const Rules& rules, int to_move);

  const Rules& rules() const { return *rules_; }
  int to_move() const { return stm_; }
  uint64_t key() const { return key_; }

  Bitboard pieces(int player) const { return occ_[player]; }
  Bitboard occupied() const { return occ_[0] | occ_[1]; }
  Bitboard bosses() const { return boss_; }
  Bitboard powered(Power p) const { return power_[p]; }
  Bitboard tokens() const { return tokens_; }
  int halfmove() const { return halfmove_; }
  int ply() const { return ply_; }
  int points(int player) const { return points_[player]; }
  Bitboard last_captured() const { return last_captured_; }

  // Owner of the piece on sq (-1 if empty), whether it is a boss, and its power.
  int owner(int sq) const { return (occ_[0] & bit(sq)) ? 0 : (occ_[1] & bit(sq)) ? 1 : -1; }
  bool is_boss(int sq) const { return boss_ & bit(sq); }
  Power power_at(int sq) const;

  // Setters for parsers and tests; they keep the key in step.
  void put(int sq, int player, bool boss, Power power);
  void set_tokens(Bitboard tokens);
  void set_counters(int halfmove, int ply, int points_bottom, int points_top);

  // Target squares of the piece on `sq` (which belongs to the side to move).
  Bitboard targets(int sq) const;
  void generate(MoveList& out) const;
  bool has_legal_move() const;
  // Number of legal moves, without building the list.
  int count_moves() const;

  // Plays a legal move: power pickup, captures, counters, side to move.
  void apply(Move m);

  // Wins a player holds on the board now (crowns, bosses, force), checked bottom side first;
  // then stalemate, the points limit and the capture-free draw.
  Result result() const;
  // True when the game is over for a reason other than stalemate (cheap; used by perft).
  bool decided_without_stalemate() const;

  bool operator==(const Position& o) const;

 private:
  // The side to move's pieces split by how they move: a one-square step, a boss move of range
  // 2 (both counted and generated for all pieces at once by shifts), and the rest piece by piece.
  struct Groups {
    Bitboard steppers, bosslike, others;
  };
  Groups groups() const;
  Bitboard boss_targets(int sq, Bitboard occ) const;
  Bitboard guard_steps(int sq, Bitboard occ) const;
  Reason board_win(int player) const;
  uint64_t piece_key(int sq) const;

  const Rules* rules_ = nullptr;
  Bitboard occ_[2] = {0, 0};
  Bitboard boss_ = 0;
  Bitboard power_[4] = {0, 0, 0, 0};  // [kPlus], [kCross], [kCrown]; [0] unused
  Bitboard tokens_ = 0;
  Bitboard last_captured_ = 0;
  uint64_t key_ = 0;
  uint16_t halfmove_ = 0;
  uint16_t ply_ = 0;
  uint8_t points_[2] = {0, 0};
  uint8_t stm_ = 0;
};

// Leaf count to `depth` plies with bulk counting at the last ply.
uint64_t perft(const Position& pos, int depth);

}  // namespace pincer::seize
