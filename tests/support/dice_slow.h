// An independent, deliberately simple dice referee for the tests: an array of characters (the
// position text's letters), moves as text, every rule written out the plain way from issue 10
// and seed 004. It shares no code with engine/dice/ beyond reading the same rules message, so
// the fast engine can be checked against it (legal moves, boards, results, perft).
#pragma once

#include <string>
#include <vector>

#include "engine/dice/dice_rules.pb.h"

namespace pincer::dice::testing {

struct SlowResult {
  bool over = false;
  int winner = -1;  // 0 white, 1 black, -1 draw
  std::string reason;
};

class SlowDice {
 public:
  // The start of a setup string ("354K612/216K543" or "... b").
  SlowDice(const DiceRules& rules, const std::string& setup, bool is_setup);

  int to_move() const { return side_; }
  // Legal moves as text ("a1-b3"), sorted; none when the game is over.
  std::vector<std::string> legal() const;
  void play(const std::string& move);
  SlowResult result() const { return result_; }
  // The position text ("<board> <side> <ply> <capture-free> <W-B>").
  std::string text() const;
  std::string last_captured() const { return last_captured_; }

  uint64_t perft(int depth) const;

 private:
  char& at(int f, int r) { return board_[r * n_ + f]; }
  char at(int f, int r) const { return board_[r * n_ + f]; }
  bool on(int f, int r) const { return f >= 0 && f < n_ && r >= 0 && r < n_; }
  static int owner(char c) { return c == '.' ? -1 : (c >= 'A' && c <= 'Z') ? 0 : 1; }
  static bool is_pawn(char c) { return c == 'A' || c == 'B' || c == 'a' || c == 'b'; }
  std::string name(int f, int r) const;
  std::vector<std::string> moves_of(int side) const;
  void judge(bool king_taken);

  DiceRules rules_;
  int n_ = 7;
  std::vector<char> board_;
  int side_ = 0;
  int ply_ = 0;
  int halfmove_ = 0;
  int points_[2] = {0, 0};
  std::string last_captured_;
  SlowResult result_;
};

}  // namespace pincer::dice::testing
