#include "tests/support/dice_slow.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <stdexcept>

namespace pincer::dice::testing {

SlowDice::SlowDice(const DiceRules& rules, const std::string& text, bool is_setup)
    : rules_(rules), n_(rules.board().size()), board_(n_ * n_, '.') {
  if (is_setup) {
    // "<white back row>/<black back row>[ b]": digits for faces, K for the King.
    const size_t slash = text.find('/');
    const std::string rows[2] = {text.substr(0, slash), text.substr(slash + 1, n_)};
    for (int f = 0; f < n_; ++f) {
      const char pawn = static_cast<char>('A' + rules.setup().pawn_face() - 1);
      at(f, 1) = pawn;
      at(f, n_ - 2) = static_cast<char>(std::tolower(pawn));
      for (int s = 0; s < 2; ++s) {
        const char c = rows[s][f];
        char letter = c == 'K' ? 'K' : static_cast<char>('A' + (c - '1'));
        if (s == 1) letter = static_cast<char>(std::tolower(letter));
        at(f, s == 0 ? 0 : n_ - 1) = letter;
      }
    }
    side_ = text.size() > slash + 1 + n_ && text.back() == 'b' ? 1 : 0;
  } else {
    std::istringstream in(text);
    std::string board, side, points;
    in >> board >> side >> ply_ >> halfmove_ >> points;
    int f = 0, r = n_ - 1;
    for (char c : board) {
      if (c == '/') {
        --r, f = 0;
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        f += c - '0';
      } else {
        at(f++, r) = c;
      }
    }
    side_ = side == "b";
    points_[0] = std::stoi(points.substr(0, points.find('-')));
    points_[1] = std::stoi(points.substr(points.find('-') + 1));
  }
  bool has_king = false;
  for (char c : board_) has_king |= c == (side_ ? 'k' : 'K');
  judge(rules_.scoring().target() == 0 && !has_king);
}

std::string SlowDice::name(int f, int r) const {
  return std::string(1, static_cast<char>('a' + f)) + std::to_string(r + 1);
}

std::vector<std::string> SlowDice::moves_of(int side) const {
  std::vector<std::string> out;
  const int forward = side == 0 ? 1 : -1;
  auto add = [&](int f, int r, int tf, int tr) { out.push_back(name(f, r) + "-" + name(tf, tr)); };
  for (int r = 0; r < n_; ++r) {
    for (int f = 0; f < n_; ++f) {
      const char c = at(f, r);
      if (owner(c) != side) continue;
      const char up = static_cast<char>(std::toupper(c));
      if (up == 'A' || up == 'B') {
        // A pawn: one square straight ahead, onto an empty square or an enemy that is not a pawn
        // (under the pawn wall); never onto its own side's die.
        const int tr = r + forward;
        if (!on(f, tr)) continue;
        const char t = at(f, tr);
        if (t == '.')
          add(f, r, f, tr);
        else if (owner(t) != side && !(rules_.moves().pawn_wall() && is_pawn(t)))
          add(f, r, f, tr);
        continue;
      }
      if (up == 'C' || up == 'K') {
        const int knight[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                  {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
        for (int i = 0; i < 8; ++i) {
          int df = knight[i][0], dr = knight[i][1];
          if (up == 'K') {
            const int king[8][2] = {{0, 1},  {1, 1},   {1, 0},  {1, -1},
                                    {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}};
            df = king[i][0], dr = king[i][1];
          }
          if (on(f + df, r + dr) && owner(at(f + df, r + dr)) != side) add(f, r, f + df, r + dr);
        }
        continue;
      }
      // Sliders: bishop (D) diagonals, rook (E) lines, queen (F) both.
      for (int df = -1; df <= 1; ++df) {
        for (int dr = -1; dr <= 1; ++dr) {
          if (!df && !dr) continue;
          const bool diag = df && dr;
          if (up == 'D' && !diag) continue;
          if (up == 'E' && diag) continue;
          for (int s = 1; on(f + s * df, r + s * dr); ++s) {
            const char t = at(f + s * df, r + s * dr);
            if (owner(t) == side) break;
            add(f, r, f + s * df, r + s * dr);
            if (t != '.') break;
          }
        }
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> SlowDice::legal() const {
  if (result_.over) return {};
  return moves_of(side_);
}

void SlowDice::play(const std::string& move) {
  const std::vector<std::string> moves = legal();
  if (std::find(moves.begin(), moves.end(), move) == moves.end())
    throw std::runtime_error("slow referee: illegal move " + move);
  const int f = move[0] - 'a', r = std::stoi(move.substr(1, move.find('-') - 1)) - 1;
  const std::string to = move.substr(move.find('-') + 1);
  const int tf = to[0] - 'a', tr = std::stoi(to.substr(1)) - 1;
  const char die = at(f, r), target = at(tf, tr);
  bool king_taken = false;
  last_captured_.clear();
  const bool scored = rules_.scoring().target() > 0;
  if (target != '.') {
    king_taken = std::toupper(target) == 'K';
    last_captured_ = to;
    halfmove_ = 0;
    if (scored)
      points_[side_] += king_taken ? rules_.scoring().king_points() : rules_.scoring().die_points();
  } else {
    ++halfmove_;
  }
  char next = die;
  const char up = static_cast<char>(std::toupper(die));
  if (up != 'K') {
    int face = up - 'A' + 1;
    const int far_rank = side_ == 0 ? n_ - 1 : 0;
    if (rules_.moves().promotion() && face <= 2 && tr == far_rank)
      face = 6;
    else
      face = face == 1 ? 6 : face - 1;
    next = static_cast<char>('A' + face - 1);
    if (side_ == 1) next = static_cast<char>(std::tolower(next));
  }
  at(f, r) = '.';
  at(tf, tr) = next;
  ++ply_;
  side_ ^= 1;
  judge(king_taken && !scored);
}

void SlowDice::judge(bool king_taken) {
  const int mover = side_ ^ 1;
  const DiceRules& r = rules_;
  result_ = SlowResult{};
  if (king_taken) {
    result_ = {true, mover, "king"};
  } else if (r.scoring().target() > 0 && points_[mover] >= r.scoring().target()) {
    result_ = {true, mover, "points"};
  } else if (r.timed().plies() > 0 && ply_ >= r.timed().plies()) {
    int count[2] = {0, 0};
    for (char c : board_)
      if (c != '.') ++count[owner(c)];
    result_ = {true, count[0] > count[1] ? 0 : count[1] > count[0] ? 1 : -1, "timed"};
  } else if (moves_of(side_).empty()) {
    result_ = {true, r.end().no_moves() == DiceRules::LOSES ? mover : -1, "no-moves"};
  } else if (halfmove_ >= r.end().capture_free_plies()) {
    result_ = {true, -1, "limit"};
  }
}

std::string SlowDice::text() const {
  std::string out;
  for (int r = n_ - 1; r >= 0; --r) {
    int empty = 0;
    for (int f = 0; f < n_; ++f) {
      if (at(f, r) == '.') {
        ++empty;
        continue;
      }
      if (empty) out += std::to_string(empty), empty = 0;
      out += at(f, r);
    }
    if (empty) out += std::to_string(empty);
    if (r) out += '/';
  }
  return out + " " + (side_ ? "b" : "w") + " " + std::to_string(ply_) + " " +
         std::to_string(halfmove_) + " " + std::to_string(points_[0]) + "-" +
         std::to_string(points_[1]);
}

uint64_t SlowDice::perft(int depth) const {
  if (depth == 0) return 1;
  uint64_t nodes = 0;
  for (const std::string& m : legal()) {
    SlowDice child = *this;
    child.play(m);
    nodes += child.perft(depth - 1);
  }
  return nodes;
}

}  // namespace pincer::dice::testing
