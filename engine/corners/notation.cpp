#include "engine/corners/notation.h"

#include <algorithm>
#include <vector>

#include "engine/game.h"
#include "engine/text.h"

namespace pincer::corners {

namespace {

[[noreturn]] void fail(const std::string& what) { throw GameError(what); }

const char* const kForms =
    "forms: b2-b4 run, b2-b2' square to point, b2'-c3 point to square, d4'*d4e5 or d4'* divide";

std::string placements_text(int point, int mask) {
  std::vector<std::string> names;
  for (int k = 0; k < 4; ++k)
    if (mask & (1 << k)) names.push_back(Rules::square_name(point + kCornerOffset[k]));
  std::sort(names.begin(), names.end());
  std::string out;
  for (const auto& n : names) out += n;
  return out;
}

}  // namespace

std::string action_text(int action) {
  if (action < 0 || action >= kNumActions)
    fail("action " + std::to_string(action) + " is outside the action space 0-" +
         std::to_string(kNumActions - 1));
  const Move m = decode(action);
  auto square = [](int sq) { return sq >= 0 && sq < 64 ? Rules::square_name(sq) : "??"; };
  auto point = [](int pt) {
    return pt >= 0 && pt < 64 && (kPoints & bit(pt)) ? Rules::point_name(pt)
                                                     : "?"
                                                       "?'";
  };
  switch (m.kind) {
    case Kind::kRun:
      return square(m.from) + "-" + square(m.to);
    case Kind::kToPoint:
      return square(m.from) + "-" + point(m.to);
    case Kind::kToSquare:
      return point(m.from) + "-" + square(m.to);
    case Kind::kDivide:
      if (!(kPoints & bit(m.from))) return point(m.from) + "*";
      return point(m.from) + "*" + placements_text(m.from, m.mask);
  }
  return "";
}

int parse_action(const Position& pos, std::string_view raw) {
  std::string text;
  for (char c : raw)
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') text += c;
  const std::string shown = quoted(raw);
  if (pos.over()) fail("the game is over; no move can follow");
  const int us = pos.to_move();
  const std::string who = kSideName[us];
  const size_t star = text.find('*');
  if (star != std::string::npos) {
    const int p = Rules::parse_point(text.substr(0, star));
    if (p < 0)
      fail("cannot read move " + shown + ": a divide starts with a point like d4' (" + kForms +
           ")");
    const std::string rest = text.substr(star + 1);
    if (rest.size() % 2 || rest.size() > 8)
      fail("cannot read move " + shown + ": after '*' come up to four squares, like d4e5");
    int mask = 0;
    for (size_t i = 0; i < rest.size(); i += 2) {
      const int sq = Rules::parse_square(rest.substr(i, 2));
      int k = -1;
      for (int j = 0; j < 4; ++j)
        if (sq == p + kCornerOffset[j]) k = j;
      if (sq < 0)
        fail("cannot read move " + shown + ": '" + rest.substr(i, 2) + "' is not a square");
      if (k < 0)
        fail("illegal move " + shown + ": " + rest.substr(i, 2) + " is not one of the squares of " +
             Rules::point_name(p));
      if (mask & (1 << k))
        fail("illegal move " + shown + ": " + rest.substr(i, 2) + " is named twice");
      mask |= 1 << k;
    }
    const int action = divide_action(p, mask);
    if (action_text(action) != text)
      fail("cannot read move " + shown + ": write the placements sorted, as " +
           action_text(action));
    if (!(pos.points(us) & bit(p)))
      fail("illegal move " + shown + ": " + Rules::point_name(p) + " holds no point piece of " +
           who);
    if (mask & ~[&] {
          int open = 0;
          for (int k = 0; k < 4; ++k)
            if (pos.empty_squares() & bit(p + kCornerOffset[k])) open |= 1 << k;
          return open;
        }())
      fail("illegal move " + shown + ": a divide places pieces on empty squares only");
    const int n = popcount(static_cast<Bitboard>(mask));
    if (n > pos.reserve(us))
      fail("illegal move " + shown + ": " + who + " has " + std::to_string(pos.reserve(us)) +
           " pieces in reserve");
    if (!pos.is_legal(action))
      fail("illegal move " + shown +
           (n == 0 ? ": a divide must place at least one piece here"
                   : ": too many placements for these rules"));
    return action;
  }
  const size_t dash = text.find('-');
  if (dash == std::string::npos) fail("cannot read move " + shown + " (" + kForms + ")");
  const std::string a = text.substr(0, dash), b = text.substr(dash + 1);
  const int from_sq = Rules::parse_square(a), from_pt = Rules::parse_point(a);
  const int to_sq = Rules::parse_square(b), to_pt = Rules::parse_point(b);
  if ((from_sq < 0 && from_pt < 0) || (to_sq < 0 && to_pt < 0))
    fail("cannot read move " + shown + ": '" + (from_sq < 0 && from_pt < 0 ? a : b) +
         "' is neither a square (a1..h8) nor a point (a1'..g7')");
  int action = -1;
  if (from_pt >= 0) {
    if (to_sq < 0) fail("illegal move " + shown + ": a point piece moves to one of its squares");
    if (!(pos.points(us) & bit(from_pt)))
      fail("illegal move " + shown + ": " + a + " holds no point piece of " + who);
    for (int k = 0; k < 4; ++k)
      if (from_pt + kCornerOffset[k] == to_sq) action = to_square_action(from_pt, k);
    if (action < 0) fail("illegal move " + shown + ": " + b + " is not one of the squares of " + a);
    if (!(pos.empty_squares() & bit(to_sq)))
      fail("illegal move " + shown + ": " + b + " is occupied");
  } else {
    if (!(pos.squares(us) & bit(from_sq)))
      fail("illegal move " + shown + ": " + a + " holds no square piece of " + who);
    if (to_pt >= 0) {
      for (int k = 0; k < 4; ++k)
        if (from_sq - kCornerOffset[k] == to_pt) action = to_point_action(from_sq, k);
      if (action < 0) fail("illegal move " + shown + ": " + b + " is not a corner of " + a);
      if (!(pos.empty_points() & bit(to_pt)))
        fail("illegal move " + shown + ": " + b + " is occupied");
      if (!pos.is_legal(action))
        fail("illegal move " + shown + ": a square of " + b +
             " is guarded by an enemy point piece (guard zones may not overlap)");
    } else {
      const int df = to_sq % 8 - from_sq % 8, dr = to_sq / 8 - from_sq / 8;
      if ((df && dr) || (!df && !dr))
        fail("illegal move " + shown + ": a square piece runs along a rank or a file");
      const int dir = dr > 0 ? 0 : df > 0 ? 1 : dr < 0 ? 2 : 3;
      action = run_action(from_sq, dir, std::abs(df + dr));
      if (!(pos.empty_squares() & bit(to_sq)))
        fail("illegal move " + shown + ": " + b + " is occupied");
      if (!pos.is_legal(action))
        fail("illegal move " + shown +
             ": a run passes only own pieces and own-guarded empty squares on its way");
    }
  }
  if (!pos.is_legal(action)) fail("illegal move " + shown);
  return action;
}

std::string to_text(const Position& pos) {
  std::string out;
  for (int rank = 7; rank >= 0; --rank) {
    for (int file = 0; file < 8; ++file) {
      const Bitboard b = bit(file + 8 * rank);
      out += pos.squares(kWhite) & b ? 'W' : pos.squares(kBlack) & b ? 'B' : '.';
    }
    out += rank ? '/' : ' ';
  }
  for (int rank = 6; rank >= 0; --rank) {
    for (int file = 0; file < 7; ++file) {
      const Bitboard b = bit(file + 8 * rank);
      out += pos.points(kWhite) & b ? 'W' : pos.points(kBlack) & b ? 'B' : '.';
    }
    out += rank ? '/' : ' ';
  }
  out += pos.to_move() == kWhite ? 'w' : 'b';
  out += ' ' + std::to_string(pos.reserve(kWhite)) + ' ' + std::to_string(pos.reserve(kBlack)) +
         ' ' + std::to_string(pos.ply());
  return out;
}

namespace {

// Reads `n` groups of `n` characters separated by '/', top row first, into the places of the
// 8x8 index; `what` names the field in errors.
void read_grid(const std::string& text, int n, const char* what, Bitboard out[2]) {
  const std::string size = std::to_string(n);
  if (text.size() != static_cast<size_t>(n * (n + 1) - 1))
    fail(std::string(what) + " field " + quoted(text) + " must be " + size + " groups of " + size +
         " characters separated by '/'");
  for (int row = 0; row < n; ++row) {
    for (int col = 0; col <= n; ++col) {
      const char c = text[row * (n + 1) + col];
      if (col == n) {
        if (row + 1 < n && c != '/')
          fail(std::string(what) + " field: expected '/' after group " + std::to_string(row + 1));
        continue;
      }
      const int index = col + 8 * (n - 1 - row);
      if (c == 'W')
        out[kWhite] |= bit(index);
      else if (c == 'B')
        out[kBlack] |= bit(index);
      else if (c != '.')
        fail(std::string(what) + " field has an unexpected character " +
             quoted(std::string_view(&c, 1)) + " (W white, B black, . empty, / between groups)");
    }
  }
}

}  // namespace

Position parse_text(const Rules& r, std::string_view text) {
  const std::vector<std::string> f = split_words(text);
  if (f.size() != 6)
    fail("position text has 6 fields (squares points side white-reserve black-reserve ply), got " +
         std::to_string(f.size()));
  Bitboard sq[2] = {0, 0}, pt[2] = {0, 0};
  read_grid(f[0], 8, "squares", sq);
  read_grid(f[1], 7, "points", pt);
  int side = -1;
  if (f[2] == "w") side = kWhite;
  if (f[2] == "b") side = kBlack;
  if (side < 0) fail("side to move " + quoted(f[2]) + " must be 'w' or 'b'");
  int reserve[2] = {0, 0};
  for (int p = 0; p < 2; ++p) {
    if (!parse_uint(f[3 + p], r.pieces, reserve[p]))
      fail(std::string(kSideName[p]) + " reserve " + quoted(f[3 + p]) +
           " must be a number from 0 to " + std::to_string(r.pieces));
  }
  int ply = 0;
  if (!parse_uint(f[5], r.limit, ply))
    fail("ply " + quoted(f[5]) + " must be a number from 0 to " + std::to_string(r.limit));
  Position pos = Position::empty(r);
  for (int p = 0; p < 2; ++p) {
    for (Bitboard b = sq[p]; b;) pos.put_square(pop_lsb(b), p);
    for (Bitboard b = pt[p]; b;) pos.put_point(pop_lsb(b), p);
  }
  pos.set_reserves(reserve[0], reserve[1]);
  pos.set_side(side);
  pos.set_ply(ply);
  for (int p = 0; p < 2; ++p) {
    if (pos.total(p) > r.pieces)
      fail(std::string(kSideName[p]) + " has " + std::to_string(pos.total(p) - reserve[p]) +
           " pieces on the board and " + std::to_string(reserve[p]) +
           " in reserve; the rules give " + std::to_string(r.pieces));
  }
  if (sq[side] & r.far_rank[side])
    fail(std::string(kSideName[side]) +
         " to move has a piece on its farthest rank; it would have "
         "won with the move that put it there");
  Bitboard cs, cp;
  pos.capture_patterns(cs, cp);
  if (cs | cp) {
    std::string places;
    for (Bitboard b = cs; b;) places += " " + Rules::square_name(pop_lsb(b));
    for (Bitboard b = cp; b;) places += " " + Rules::point_name(pop_lsb(b));
    fail("the board holds capture patterns (" + places.substr(1) +
         "); the captures after every move leave none");
  }
  pos.finish();
  return pos;
}

}  // namespace pincer::corners
