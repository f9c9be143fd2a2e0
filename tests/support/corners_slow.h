// An independent, deliberately simple corners referee for the tests: arrays of characters for
// the 64 squares and the 7x7 points, moves as text, every rule written out the plain way from
// issue 9 and seed 003. It shares no code with engine/corners/ beyond reading the same rules
// message, so the fast bitboard engine can be checked against it (legal moves, captures,
// results, successors, perft).
#pragma once

#include <string>
#include <vector>

#include "engine/corners/corners_rules.pb.h"

namespace pincer::corners::testing {

struct SlowResult {
  bool over = false;
  int winner = -1;  // 0 white, 1 black, -1 draw
  std::string reason;
};

class SlowCorners {
 public:
  explicit SlowCorners(const CornersRules& rules);  // the start
  // A position from its text; only the well-formed texts the tests give it.
  SlowCorners(const CornersRules& rules, const std::string& text);

  int to_move() const { return side_; }
  // Legal moves as text, sorted; none when the game is over.
  std::vector<std::string> legal() const;
  void play(const std::string& move);
  SlowResult result() const;
  // Names of the squares and points the last move's captures emptied, sorted.
  std::vector<std::string> last_captured() const { return last_captured_; }
  std::string text() const;
  uint64_t perft(int depth) const;

 private:
  char square(int f, int r) const { return sq_[r][f]; }
  // Whether a point piece of side `c` ('W'/'B') stands on a corner of square (f, r).
  bool guarded_by(char c, int f, int r) const;
  bool own_guarded(char c, int f, int r) const;
  std::vector<std::string> moves() const;
  void captures();

  CornersRules rules_;
  char sq_[8][8];  // [rank][file]
  char pt_[7][7];  // [point row][point file]
  int reserve_[2] = {0, 0};
  int side_ = 0;
  int ply_ = 0;
  std::vector<std::string> last_captured_;
};

}  // namespace pincer::corners::testing
