#include "engine/seega/notation.h"

#include <cctype>
#include <sstream>
#include <vector>

#include "engine/game.h"
#include "engine/text.h"

namespace pincer::seega {

namespace {

[[noreturn]] void fail(const std::string& what) { throw GameError(what); }

}  // namespace

std::string action_text(const Rules& r, int action) {
  if (action < 0 || action >= num_actions(r))
    fail("action " + std::to_string(action) + " is outside the action space 0-" +
         std::to_string(num_actions(r) - 1));
  if (is_placement(r, action)) return r.square_name(action);
  const int from = action_from(r, action), to = r.neighbour[from][action_dir(r, action)];
  return r.square_name(from) + "-" + (to >= 0 ? r.square_name(to) : "??");
}

int parse_action(const Position& pos, std::string_view raw) {
  const Rules& r = pos.rules();
  std::string text;
  for (char c : raw) {
    if (!std::isspace(static_cast<unsigned char>(c)))
      text += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  const std::string shown = quoted(raw);
  const std::string who = kSideName[pos.to_move()];
  if (pos.over()) fail("the game is over; no move can follow");
  if (text.size() == 2) {
    const int sq = r.parse_square(text);
    if (sq < 0)
      fail("cannot read move " + shown + ": not a square of the " + std::to_string(r.size) + "x" +
           std::to_string(r.size) + " board");
    if (!pos.placing())
      fail("illegal move " + shown + ": placement is over; move a piece one step, like b2-b3");
    if (pos.owner(sq) >= 0) fail("illegal move " + shown + ": " + text + " is occupied");
    if (!(r.placeable & bit(sq)))
      fail("illegal move " + shown + ": the centre square stays empty during placement");
    return sq;
  }
  if (text.size() != 5 || text[2] != '-')
    fail("cannot read move " + shown + " (forms: b2 to place a piece, b2-b3 to move one)");
  const int from = r.parse_square(text.substr(0, 2)), to = r.parse_square(text.substr(3));
  if (from < 0 || to < 0)
    fail("cannot read move " + shown + ": '" + (from < 0 ? text.substr(0, 2) : text.substr(3)) +
         "' is not a square of the " + std::to_string(r.size) + "x" + std::to_string(r.size) +
         " board");
  if (pos.placing())
    fail("illegal move " + shown + ": it is the placement phase; place a piece, like b2");
  int dir = -1;
  for (int d = 0; d < 8; ++d)
    if (r.neighbour[from][d] == to) dir = d;
  const int mover = pos.turn();
  if (pos.owner(from) != mover) {
    if (pos.forced())
      fail("illegal move " + shown + ": " + kSideName[mover] + " is blocked, so " + who +
           " moves one of " + kSideName[mover] + "'s pieces, and " + text.substr(0, 2) +
           " holds none");
    fail("illegal move " + shown + ": " + text.substr(0, 2) + " holds no piece of " + who);
  }
  if (pos.owner(to) >= 0) fail("illegal move " + shown + ": " + text.substr(3) + " is occupied");
  const int action = dir < 0 ? -1 : step_action(r, from, dir);
  if (action < 0 || !pos.is_legal(action)) {
    const bool diagonal_ok = pos.forced() && r.forced_dirs_step == 1;
    fail("illegal move " + shown + ": a piece moves one step " +
         (diagonal_ok ? "to any of its eight neighbours" : "along a rank or file"));
  }
  return action;
}

std::string to_text(const Position& pos) {
  const Rules& r = pos.rules();
  std::ostringstream out;
  for (int rank = r.size - 1; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < r.size; ++file) {
      const int owner = pos.owner(r.make_square(file, rank));
      if (owner < 0) {
        ++empty;
        continue;
      }
      if (empty) out << empty, empty = 0;
      out << (owner == kDark ? 'D' : 'L');
    }
    if (empty) out << empty;
    if (rank) out << '/';
  }
  out << ' ' << pos.hand(kDark) << '-' << pos.hand(kLight);
  out << ' ' << (pos.placing() ? "place" : "move");
  out << ' ' << kSideName[pos.turn()];
  out << ' ' << pos.halfmove() << ' ' << pos.ply();
  return out.str();
}

Position parse_text(const Rules& r, std::string_view text) {
  const std::vector<std::string> f = split_words(text);
  if (f.size() != 6)
    fail("position text has 6 fields (board hands phase turn capture-free-plies ply), got " +
         std::to_string(f.size()));
  Position pos = Position::empty(r);

  // Board: ranks from the top, '/' between them; D dark, L light, digits for empty squares.
  const std::string& board = f[0];
  const std::string n = std::to_string(r.size);
  int rank = r.size - 1, file = 0;
  int count[2] = {0, 0};
  for (char c : board) {
    if (c == '/') {
      if (file != r.size)
        fail("board rank " + std::to_string(rank + 1) + " has " + std::to_string(file) +
             " squares, not " + n);
      if (--rank < 0) fail("board has more than " + n + " ranks");
      file = 0;
    } else if (c >= '1' && c <= '9') {
      file += c - '0';
      if (file > r.size)
        fail("board rank " + std::to_string(rank + 1) + " has more than " + n + " squares");
    } else if (c == 'D' || c == 'L') {
      if (file >= r.size)
        fail("board rank " + std::to_string(rank + 1) + " has more than " + n + " squares");
      const int player = c == 'D' ? kDark : kLight;
      pos.put(r.make_square(file, rank), player);
      ++count[player];
      ++file;
    } else {
      fail("board has an unexpected character " + quoted(std::string_view(&c, 1)) +
           " (D dark, L light, digits for empty squares, / between ranks)");
    }
  }
  if (rank != 0 || file != r.size) fail("board must have " + n + " ranks of " + n + " squares");

  // Pieces in hand.
  const std::string& hands = f[1];
  const size_t dash = hands.find('-');
  int hand[2] = {0, 0};
  if (dash == std::string::npos || !parse_uint(hands.substr(0, dash), r.pieces, hand[0]) ||
      !parse_uint(hands.substr(dash + 1), r.pieces, hand[1]))
    fail("pieces in hand " + quoted(hands) + " must be two numbers from 0 to " +
         std::to_string(r.pieces) + " like 12-11 (dark first)");
  for (int p = 0; p < 2; ++p) {
    if (count[p] + hand[p] > r.pieces)
      fail(std::string(kSideName[p]) + " has " + std::to_string(count[p]) +
           " pieces on the board and " + std::to_string(hand[p]) + " in hand; the rules give " +
           std::to_string(r.pieces));
  }
  pos.set_hands(hand[0], hand[1]);
  const bool placing = hand[0] || hand[1];

  // Phase.
  if (f[2] != "place" && f[2] != "move")
    fail("phase " + quoted(f[2]) + " must be 'place' or 'move'");
  if (placing && f[2] == "move") fail("phase is 'move' but pieces remain in hand");
  if (!placing && f[2] == "place") fail("phase is 'place' but no piece remains in hand");

  // Whose turn.
  int turn = -1;
  for (int p = 0; p < 2; ++p)
    if (f[3] == kSideName[p] || f[3] == std::string(1, kSideName[p][0])) turn = p;
  if (turn < 0) fail("turn " + quoted(f[3]) + " must be 'dark' or 'light'");
  pos.set_turn(turn);

  // Clocks.
  int halfmove = 0, ply = 0;
  if (!parse_uint(f[4], r.capture_free_plies, halfmove))
    fail("capture-free plies " + quoted(f[4]) + " must be a number from 0 to " +
         std::to_string(r.capture_free_plies));
  if (!parse_uint(f[5], 65535, ply))
    fail("ply " + quoted(f[5]) + " must be a number from 0 to 65535");
  pos.set_counters(halfmove, ply);

  if (placing) {
    const int placed = 2 * r.pieces - hand[0] - hand[1];
    for (int p = 0; p < 2; ++p) {
      if (count[p] + hand[p] != r.pieces)
        fail(std::string(kSideName[p]) + " has " + std::to_string(count[p] + hand[p]) +
             " pieces on the board and in hand; nothing is captured during placement, so it must "
             "be " +
             std::to_string(r.pieces));
    }
    int want[2] = {0, 0};
    for (int i = 0; i < placed; ++i) ++want[r.placement_actor(i)];
    if (want[0] != count[0] || want[1] != count[1])
      fail("after " + std::to_string(placed) + " placements dark has placed " +
           std::to_string(want[0]) + " and light " + std::to_string(want[1]) + ", not " +
           std::to_string(count[0]) + " and " + std::to_string(count[1]));
    if (r.placement_actor(placed) != turn)
      fail(std::string("placement number ") + std::to_string(placed + 1) + " is " +
           kSideName[r.placement_actor(placed)] + "'s, not " + kSideName[turn] + "'s");
    if (pos.occupied() & ~r.placeable) fail("the centre square stays empty during placement");
    if (halfmove) fail("the capture-free plies count only in the movement phase; must be 0 here");
    if (ply != placed)
      fail("ply must be " + std::to_string(placed) + ", the number of pieces placed so far");
  } else {
    if (count[0] <= r.reduced_to && count[1] <= r.reduced_to)
      fail("both sides are down to " + std::to_string(r.reduced_to) +
           " pieces or fewer; no game reaches this");
    if (ply < 2 * r.pieces + halfmove)
      fail("ply " + std::to_string(ply) + " is too small: the " + std::to_string(2 * r.pieces) +
           " placements and the " + std::to_string(halfmove) +
           " capture-free plies come before it");
  }
  pos.finish();
  if (pos.turn() != turn)
    fail(std::string(kSideName[turn]) +
         " cannot move and its turn passes under these rules; write " + kSideName[pos.turn()] +
         " as the turn");
  return pos;
}

}  // namespace pincer::seega
