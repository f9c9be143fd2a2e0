// An independent, deliberately simple SE!ZE move generator for tests: an 8x8 array, loops over
// directions, rules read straight from the ruleset flags. It shares nothing with the bitboard
// engine but the compiled Rules and the Position accessors used to copy a position in and out.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "engine/seize/position.h"

namespace pincer::testing {

struct SlowSeize {
  struct Cell {
    int owner = -1;  // -1 empty, 0 bottom, 1 top
    bool boss = false;
    int power = 0;  // 0 none, 1 plus, 2 cross, 3 crown
  };
  const seize::Rules* rules = nullptr;
  Cell cell[8][8];  // [file][rank]
  bool token[8][8] = {};
  int stm = 0, halfmove = 0, ply = 0;
  int points[2] = {0, 0};

  static SlowSeize from(const seize::Position& pos);
  // Legal moves as (from, to) square indices (file + 8 * rank), empty when the game is over.
  std::vector<std::pair<int, int>> moves() const;
  void play(int from, int to);
  // "" while the game goes on, else "<winner>:<reason>" with winner 0, 1 or "draw".
  std::string result() const;
  // Compares every rule-relevant field with a fast position; returns "" or the first difference.
  std::string difference(const seize::Position& pos) const;
};

uint64_t slow_perft(const SlowSeize& s, int depth);

}  // namespace pincer::testing
