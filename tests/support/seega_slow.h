// An independent, deliberately simple Seega referee for the tests: a board of characters, moves
// as text, every rule written out the plain way from issue 3 and seed 002. It shares no code with
// engine/seega/ beyond reading the same rules message, so the fast engine can be checked
// against it (legal move sets, who acts, results, perft).
#pragma once

#include <string>
#include <vector>

#include "engine/seega/seega_rules.pb.h"

namespace pincer::seega::testing {

struct SlowResult {
  bool over = false;
  int winner = -1;  // 0 dark, 1 light, -1 draw
  std::string reason;
};

class SlowSeega {
 public:
  // The start of a game.
  explicit SlowSeega(const SeegaRules& rules);
  // A position from its text ("<board> <hands> <phase> <turn> <capture-free> <ply>"); only the
  // well-formed texts the tests give it.
  SlowSeega(const SeegaRules& rules, const std::string& text);

  // The player who acts now.
  int to_move() const;
  // Legal moves as text ("b2", "b2-b3"), sorted.
  std::vector<std::string> legal() const;
  void play(const std::string& move);
  SlowResult result() const;
  // The game goes on and the player whose turn it is has no step of its own.
  bool blocked() const { return !placing() && !result().over && steps(turn_, false).empty(); }

  // 'D', 'L' or '.' at file f, rank r (0-based).
  char at(int f, int r) const { return board_[r * n_ + f]; }
  int size() const { return n_; }
  int hand(int player) const { return hand_[player]; }
  int halfmove() const { return halfmove_; }
  std::vector<std::string> last_captured() const { return last_captured_; }

  uint64_t perft(int depth) const;

 private:
  bool on(int f, int r) const { return f >= 0 && f < n_ && r >= 0 && r < n_; }
  bool placing() const { return hand_[0] > 0 || hand_[1] > 0; }
  // Steps of `player`'s pieces to empty squares, straight only or diagonals too.
  std::vector<std::string> steps(int player, bool diagonals) const;
  std::string name(int f, int r) const;

  SeegaRules rules_;
  int n_ = 5;
  std::vector<char> board_;
  int hand_[2] = {0, 0};
  int turn_ = 0;
  int placed_in_turn_ = 0;
  int halfmove_ = 0;
  std::vector<std::string> last_captured_;
};

}  // namespace pincer::seega::testing
