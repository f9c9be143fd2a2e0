#include "tests/support/seega_slow.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace pincer::seega::testing {

namespace {

char piece_of(int player) { return player == 0 ? 'D' : 'L'; }

}  // namespace

SlowSeega::SlowSeega(const SeegaRules& rules) : rules_(rules) {
  n_ = rules.board().size();
  board_.assign(n_ * n_, '.');
  hand_[0] = hand_[1] = rules.placement().pieces();
  turn_ = 0;  // dark places first
}

SlowSeega::SlowSeega(const SeegaRules& rules, const std::string& text) : SlowSeega(rules) {
  std::istringstream in(text);
  std::string board, hands, phase, turn;
  in >> board >> hands >> phase >> turn >> halfmove_;
  int f = 0, r = n_ - 1;
  for (char c : board) {
    if (c == '/') {
      --r, f = 0;
    } else if (c >= '1' && c <= '9') {
      f += c - '0';
    } else {
      board_[r * n_ + f] = c;
      ++f;
    }
  }
  hand_[0] = std::stoi(hands.substr(0, hands.find('-')));
  hand_[1] = std::stoi(hands.substr(hands.find('-') + 1));
  turn_ = turn[0] == 'd' ? 0 : 1;
  const int placed = 2 * rules.placement().pieces() - hand_[0] - hand_[1];
  placed_in_turn_ = placed % rules.placement().per_turn();
}

std::string SlowSeega::name(int f, int r) const {
  return std::string(1, static_cast<char>('a' + f)) + std::to_string(r + 1);
}

std::vector<std::string> SlowSeega::steps(int player, bool diagonals) const {
  std::vector<std::string> out;
  for (int r = 0; r < n_; ++r) {
    for (int f = 0; f < n_; ++f) {
      if (at(f, r) != piece_of(player)) continue;
      for (int df = -1; df <= 1; ++df) {
        for (int dr = -1; dr <= 1; ++dr) {
          if (df == 0 && dr == 0) continue;
          if (df != 0 && dr != 0 && !diagonals) continue;
          if (on(f + df, r + dr) && at(f + df, r + dr) == '.')
            out.push_back(name(f, r) + "-" + name(f + df, r + dr));
        }
      }
    }
  }
  return out;
}

SlowResult SlowSeega::result() const {
  SlowResult res;
  if (placing()) return res;
  for (int p : {turn_, 1 - turn_}) {
    const int left = static_cast<int>(std::count(board_.begin(), board_.end(), piece_of(p)));
    if (left <= rules_.wins().reduced_to()) {
      return {true, 1 - p, left == 0 ? "all" : "reduced"};
    }
  }
  if (steps(turn_, false).empty()) {
    if (steps(1 - turn_, false).empty()) return {true, -1, "locked"};
    if (rules_.blocked().rule() == SeegaRules::LOSES) return {true, 1 - turn_, "blocked"};
  }
  if (halfmove_ >= rules_.draw().capture_free_plies()) return {true, -1, "limit"};
  return res;
}

int SlowSeega::to_move() const {
  if (placing() || result().over || !steps(turn_, false).empty()) return turn_;
  return 1 - turn_;  // forced move or pass: the other player acts
}

std::vector<std::string> SlowSeega::legal() const {
  std::vector<std::string> out;
  if (result().over) return out;
  if (placing()) {
    for (int r = 0; r < n_; ++r) {
      for (int f = 0; f < n_; ++f) {
        const bool centre = f == n_ / 2 && r == n_ / 2;
        if (at(f, r) == '.' && !(centre && rules_.placement().centre_free()))
          out.push_back(name(f, r));
      }
    }
  } else if (!steps(turn_, false).empty()) {
    out = steps(turn_, false);
  } else {
    if (rules_.blocked().rule() == SeegaRules::OPPONENT_MOVES)
      out = steps(turn_, rules_.blocked().forced_step() == SeegaRules::ALL_EIGHT);
    if (out.empty()) out = steps(1 - turn_, false);  // the blocked player passes
  }
  std::sort(out.begin(), out.end());
  return out;
}

void SlowSeega::play(const std::string& move) {
  const std::vector<std::string> moves = legal();
  if (std::find(moves.begin(), moves.end(), move) == moves.end())
    throw std::logic_error("slow referee: illegal move " + move);
  last_captured_.clear();
  if (placing()) {
    board_[(move[1] - '1') * n_ + (move[0] - 'a')] = piece_of(turn_);
    --hand_[turn_];
    if (++placed_in_turn_ == rules_.placement().per_turn()) {
      placed_in_turn_ = 0;
      turn_ = 1 - turn_;
    }
    if (!placing() && rules_.movement().starter() == SeegaRules::SECOND_PLAYER) turn_ = 1;
    return;
  }
  // Who moves which piece.
  int owner = turn_, next_turn = 1 - turn_;
  bool may_capture = true;
  if (steps(turn_, false).empty()) {
    std::vector<std::string> forced;
    if (rules_.blocked().rule() == SeegaRules::OPPONENT_MOVES)
      forced = steps(turn_, rules_.blocked().forced_step() == SeegaRules::ALL_EIGHT);
    if (!forced.empty()) {
      may_capture = rules_.blocked().forced_move_captures();  // then the opponent's own turn
    } else {
      owner = 1 - turn_;  // the blocked player passed; its turn comes after this move
      next_turn = turn_;
    }
  }
  const int ff = move[0] - 'a', fr = move[1] - '1', tf = move[3] - 'a', tr = move[4] - '1';
  board_[fr * n_ + ff] = '.';
  board_[tr * n_ + tf] = piece_of(owner);
  if (may_capture) {
    const int d[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    for (const auto& v : d) {
      const int af = tf + v[0], ar = tr + v[1], bf = tf + 2 * v[0], br = tr + 2 * v[1];
      if (on(bf, br) && at(af, ar) == piece_of(1 - owner) && at(bf, br) == piece_of(owner)) {
        board_[ar * n_ + af] = '.';
        last_captured_.push_back(name(af, ar));
      }
    }
  }
  halfmove_ = last_captured_.empty() ? halfmove_ + 1 : 0;
  turn_ = next_turn;
}

uint64_t SlowSeega::perft(int depth) const {
  if (depth == 0) return 1;
  uint64_t n = 0;
  for (const std::string& m : legal()) {
    SlowSeega child = *this;
    child.play(m);
    n += child.perft(depth - 1);
  }
  return n;
}

}  // namespace pincer::seega::testing
