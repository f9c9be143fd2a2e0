// The SE!ZE rules of one ruleset, compiled from its protobuf message into bitboards and flags
// that the move generator reads.
#pragma once

#include <string>

#include "engine/seize/bitboard.h"
#include "engine/seize/seize_rules.pb.h"

namespace pincer::seize {

// Players: 0 is the bottom side (ranks 1-4 at the start), 1 the top side.
constexpr int kBottom = 0;
constexpr int kTop = 1;

// Powers a piece can carry; kCrown is the reference rules' boss cap.
enum Power : int { kNoPower = 0, kPlus = 1, kCross = 2, kCrown = 3 };

struct Rules {
  std::string side_name[2];
  int first_player = kBottom;

  Bitboard plus_squares = 0, cross_squares = 0, crown_squares = 0;
  Bitboard start_bosses[2] = {0, 0}, start_guards[2] = {0, 0};

  int boss_range = 2;
  bool boss_takes_power = false;
  bool guard_steps_diagonally = true;

  bool power_adds = false;            // else a power replaces the piece's own movement
  bool second_power_replaces = true;  // else a powered piece takes nothing
  bool tokens_consumed = false;
  bool crown_cap = false;

  bool capture_diagonally = true;
  bool pin = true;

  bool win_crowns = true, win_bosses = true;
  int force_max_pieces = 2;

  int total_plies = 0;  // 0: no points limit
  int ties_to = kBottom;
  int halfmove_limit = 0;  // 0: no capture-free draw

  int score_guard = 0, score_capped_guard = 0, score_boss = 0;

  bool keeps_points() const { return score_guard || score_capped_guard || score_boss; }
  // The squares that hand out a power at the start of a game.
  Bitboard marked_squares() const { return plus_squares | cross_squares; }
};

// Checks and compiles; throws GameError naming the field for values the engine does not
// implement or that make no sense (e.g. a marked square off the board).
Rules compile_rules(const SeizeRules& proto);

}  // namespace pincer::seize
