#include "engine/dice/notation.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <vector>

#include "engine/game.h"
#include "engine/text.h"

namespace pincer::dice {

namespace {

[[noreturn]] void fail(const std::string& what) { throw GameError(what); }

const char* const kRole[kKinds] = {"King", "pawn", "pawn", "knight", "bishop", "rook", "queen"};

char die_letter(int side, int kind) {
  const char c = kind == kKing ? 'K' : static_cast<char>('A' + kind - 1);
  return side == kWhite ? c : static_cast<char>(std::tolower(c));
}

std::string board_name(const Rules& r) {
  return std::to_string(r.size) + "x" + std::to_string(r.size) + " board";
}

}  // namespace

std::string action_text(const Rules& r, int action) {
  if (action < 0 || action >= num_actions(r))
    fail("action " + std::to_string(action) + " is outside the action space 0-" +
         std::to_string(num_actions(r) - 1));
  return r.square_name(action_from(r, action)) + "-" + r.square_name(action_to(r, action));
}

int parse_action(const Position& pos, std::string_view raw) {
  const Rules& r = pos.rules();
  std::string text;
  for (char c : raw)
    if (!std::isspace(static_cast<unsigned char>(c)))
      text += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::string shown = quoted(raw);
  if (pos.over()) fail("the game is over; no move can follow");
  const size_t dash = text.find_first_of("-x");
  if (dash == std::string::npos || dash != 2 || text.size() != 5)
    fail("cannot read move " + shown + " (form: a1-b3, the square a die leaves and where it goes)");
  const int from = r.parse_square(text.substr(0, 2)), to = r.parse_square(text.substr(3));
  if (from < 0 || to < 0)
    fail("cannot read move " + shown + ": '" + (from < 0 ? text.substr(0, 2) : text.substr(3)) +
         "' is not a square of the " + board_name(r));
  const int us = pos.to_move();
  if (pos.owner(from) != us)
    fail("illegal move " + shown + ": " + text.substr(0, 2) + " holds no die of " + kSideName[us]);
  if (pos.owner(to) == us)
    fail("illegal move " + shown + ": " + text.substr(3) + " holds a die of " + kSideName[us]);
  const int action = make_action(r, from, to);
  if (!pos.is_legal(action)) {
    const int kind = pos.kind_at(from);
    fail("illegal move " + shown + ": the " + kRole[kind] +
         (kind == kKing ? "" : " (face " + std::to_string(kind) + ")") + " on " +
         text.substr(0, 2) + " cannot go to " + text.substr(3));
  }
  return action;
}

std::string to_text(const Position& pos) {
  const Rules& r = pos.rules();
  std::ostringstream out;
  for (int rank = r.size - 1; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < r.size; ++file) {
      const int sq = r.make_square(file, rank);
      const int side = pos.owner(sq);
      if (side < 0) {
        ++empty;
        continue;
      }
      if (empty) out << empty, empty = 0;
      out << die_letter(side, pos.kind_at(sq));
    }
    if (empty) out << empty;
    if (rank) out << '/';
  }
  out << ' ' << (pos.to_move() == kWhite ? 'w' : 'b') << ' ' << pos.ply() << ' ' << pos.halfmove()
      << ' ' << pos.points(kWhite) << '-' << pos.points(kBlack);
  return out.str();
}

Position parse_text(const Rules& r, std::string_view text) {
  const std::vector<std::string> f = split_words(text);
  if (f.size() != 5)
    fail("position text has 5 fields (board side ply capture-free-plies points), got " +
         std::to_string(f.size()));
  Position pos = Position::empty(r);
  const std::string n = std::to_string(r.size);
  int rank = r.size - 1, file = 0;
  int kings[2] = {0, 0};
  bool last_digit = false;
  for (char c : f[0]) {
    if (c == '/') {
      if (file != r.size)
        fail("board rank " + std::to_string(rank + 1) + " has " + std::to_string(file) +
             " squares, not " + n);
      if (--rank < 0) fail("board has more than " + n + " ranks");
      file = 0;
      last_digit = false;
      continue;
    }
    if (c >= '1' && c <= '9') {
      if (last_digit) fail("board rank " + std::to_string(rank + 1) + ": two digits in a row");
      file += c - '0';
      last_digit = true;
      if (file > r.size)
        fail("board rank " + std::to_string(rank + 1) + " has more than " + n + " squares");
      continue;
    }
    last_digit = false;
    const char up = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const int side = std::isupper(static_cast<unsigned char>(c)) ? kWhite : kBlack;
    int kind = -1;
    if (up == 'K') kind = kKing;
    if (up >= 'A' && up <= 'F') kind = up - 'A' + 1;
    if (kind < 0 || !std::isalpha(static_cast<unsigned char>(c)))
      fail("board: " + quoted(std::string(1, c)) +
           " is not a die (A-F faces 1-6 and K, lower case for black) or a digit");
    if (file >= r.size)
      fail("board rank " + std::to_string(rank + 1) + " has more than " + n + " squares");
    if (kind == kKing && ++kings[side] > 1) fail(std::string(kSideName[side]) + " has two Kings");
    pos.put(r.make_square(file, rank), side, kind);
    ++file;
  }
  if (file != r.size)
    fail("board rank " + std::to_string(rank + 1) + " has " + std::to_string(file) +
         " squares, not " + n);
  if (rank != 0) fail("board has " + std::to_string(r.size - rank) + " ranks, not " + n);

  if (f[1] != "w" && f[1] != "b") fail("side to move " + quoted(f[1]) + " is not w or b");
  const int side = f[1] == "w" ? kWhite : kBlack;
  pos.set_side(side);
  int ply = 0, halfmove = 0, wp = 0, bp = 0;
  if (!parse_uint(f[2], 60000, ply)) fail("ply " + quoted(f[2]) + " is not a number 0-60000");
  if (!parse_uint(f[3], 60000, halfmove))
    fail("capture-free plies " + quoted(f[3]) + " is not a number 0-60000");
  if (halfmove > ply) fail("capture-free plies " + f[3] + " exceed the ply number " + f[2]);
  const size_t dash = f[4].find('-');
  if (dash == std::string::npos || !parse_uint(f[4].substr(0, dash), 60000, wp) ||
      !parse_uint(f[4].substr(dash + 1), 60000, bp))
    fail("points " + quoted(f[4]) + " are not W-B, like 0-0");
  if (!r.scored() && (wp || bp)) fail("points " + f[4] + ": this ruleset counts no points (0-0)");
  if (r.scored() && std::max(wp, bp) >= r.score_target + r.king_points + r.die_points)
    fail("points " + f[4] + " are beyond what one move past the target can reach");
  if (r.scored() && (side == kWhite ? wp : bp) >= r.score_target)
    fail("points " + f[4] + ": " + kSideName[side] + " to move has already won");
  if (!r.scored() && !kings[side ^ 1])
    fail(std::string(kSideName[side ^ 1]) + " has no King, but it has just moved");
  if (r.timed_plies > 0 && ply > r.timed_plies)
    fail("ply " + f[2] + " is past the end of timed play (" + std::to_string(r.timed_plies) + ")");
  if (halfmove > r.capture_free_plies)
    fail("capture-free plies " + f[3] + " are past the limit (" +
         std::to_string(r.capture_free_plies) + ")");
  pos.set_counters(ply, halfmove, wp, bp);
  pos.finish();
  return pos;
}

std::string setup_text(const Rules& r, const Setup& setup) {
  std::string out;
  for (int side = 0; side < 2; ++side) {
    if (side) out += '/';
    for (int f = 0; f < r.size; ++f)
      out += f == r.king_file ? 'K' : static_cast<char>('0' + setup.back[side][f]);
  }
  if (setup.first == kBlack) out += " b";
  return out;
}

Setup parse_setup(const Rules& r, std::string_view raw) {
  const std::vector<std::string> w = split_words(raw);
  const std::string shown = quoted(raw);
  const std::string n = std::to_string(r.size);
  const std::string king(1, static_cast<char>('a' + r.king_file));
  if (w.empty() || w.size() > 2)
    fail("setup " + shown + " is two back rows and an optional side, like " +
         (r.size == 7 ? "354K612/216K543 b" : "the rows of " + board_name(r)));
  Setup s;
  if (w.size() == 2) {
    if (w[1] != "w" && w[1] != "b") fail("setup " + shown + ": the side to move is w or b");
    s.first = w[1] == "w" ? kWhite : kBlack;
  }
  const size_t slash = w[0].find('/');
  if (slash == std::string::npos) fail("setup " + shown + ": white's back row, '/', then black's");
  const std::string rows[2] = {w[0].substr(0, slash), w[0].substr(slash + 1)};
  for (int side = 0; side < 2; ++side) {
    const std::string& row = rows[side];
    if (row.size() != static_cast<size_t>(r.size))
      fail("setup " + shown + ": " + kSideName[side] + "'s back row has " +
           std::to_string(row.size()) + " dice, not " + n);
    for (int f = 0; f < r.size; ++f) {
      const char c = row[f];
      if (f == r.king_file) {
        if (c != 'K' && c != 'k')
          fail("setup " + shown + ": " + kSideName[side] + "'s King stands on file " + king +
               " (K)");
      } else if (c < '1' || c > '6') {
        fail("setup " + shown + ": " + kSideName[side] + "'s die on file " +
             std::string(1, static_cast<char>('a' + f)) + " must show 1-6" +
             (c == 'K' || c == 'k' ? " (the King stands on file " + king + ")" : ""));
      }
      s.back[side][f] = f == r.king_file ? 0 : static_cast<uint8_t>(c - '0');
    }
  }
  return s;
}

Setup draw_setup(const Rules& r, uint64_t seed) {
  KeyStream rolls(seed ^ 0x5e7d1ce5a11dULL);
  auto roll = [&rolls] { return static_cast<uint8_t>(1 + rolls.next() % 6); };
  Setup s;
  for (int side = 0; side < 2; ++side)
    for (int f = 0; f < r.size; ++f) s.back[side][f] = f == r.king_file ? 0 : roll();
  if (r.roll_first_mover) {
    // Both roll a die; higher begins, ties roll again.
    while (true) {
      const int a = roll(), b = roll();
      if (a != b) {
        s.first = a > b ? kWhite : kBlack;
        break;
      }
    }
  }
  return s;
}

}  // namespace pincer::dice
