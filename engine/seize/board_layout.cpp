// SE!ZE's board description for drawing: 60 cells (the corners are off the board), the marked
// squares of the ruleset, and a piece kind for every owner, rank (guard, boss) and power.
#include <cctype>

#include "engine/seize/bitboard.h"
#include "engine/seize/seize_game.h"

namespace pincer::seize {
namespace {

constexpr const char* kPowerName[4] = {"", "plus", "cross", "crown"};
constexpr const char* kPowerGlyph[4] = {"", "+", "\u00d7", "\u265b"};
// Piece kinds: owner * 8 + boss * 4 + power; then the two token markers.
constexpr int kTokenPlus = 16, kTokenCross = 17;
int piece_kind(int owner, bool boss, int power) { return owner * 8 + (boss ? 4 : 0) + power; }

// Cell index of each square (-1 for the corners), cells numbered row by row from the top.
struct CellMap {
  int cell[64];
  int square[64];
  int count = 0;
  CellMap() {
    for (int rank = 7; rank >= 0; --rank) {
      for (int file = 0; file < 8; ++file) {
        const int sq = make_square(file, rank);
        cell[sq] = (kBoard & bit(sq)) ? count : -1;
        if (cell[sq] >= 0) square[count++] = sq;
      }
    }
  }
};
const CellMap kCells;

std::string colour_of(const std::string& side, int player) {
  static const std::pair<const char*, const char*> known[] = {
      {"red", "#c0392b"}, {"gold", "#d4a017"}, {"ivory", "#f3ecd8"}, {"burgundy", "#7b1e3a"}};
  std::string lower;
  for (char c : side) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const auto& [name, colour] : known) {
    if (lower == name) return colour;
  }
  return player == 0 ? "#f3ecd8" : "#333333";
}

}  // namespace

BoardLayout SeizeGame::board_layout() const {
  BoardLayout layout;
  layout.columns = 8;
  layout.rows = 8;
  const Rules& r = rules_;
  for (int i = 0; i < kCells.count; ++i) {
    const int sq = kCells.square[i];
    BoardCell c;
    c.name = square_name(sq);
    c.column = file_of(sq);
    c.row = 7 - rank_of(sq);
    const Bitboard b = bit(sq);
    c.mark = (r.crown_squares & b)   ? "crown"
             : (r.plus_squares & b)  ? "plus"
             : (r.cross_squares & b) ? "cross"
                                     : "";
    layout.cells.push_back(c);
  }
  for (int owner = 0; owner < 2; ++owner) {
    for (int boss = 0; boss < 2; ++boss) {
      for (int power = 0; power < 4; ++power) {
        PieceKind k;
        k.owner = owner;
        k.name = std::string(boss ? "boss" : "guard") + (power ? "+" : "") + kPowerName[power];
        k.glyph = std::string(boss ? "B" : "") + kPowerGlyph[power];
        k.points = boss ? r.score_boss : power ? r.score_capped_guard : r.score_guard;
        layout.kinds.push_back(k);
      }
    }
  }
  layout.kinds.push_back(PieceKind{"token-plus", -1, "+", 0, "", 0});
  layout.kinds.push_back(PieceKind{"token-cross", -1, "\u00d7", 0, "", 0});
  if (r.crown_squares) layout.marks.push_back({"crown", "a boss that reaches it wins"});
  if (r.plus_squares) layout.marks.push_back({"plus", "hands out the plus power"});
  if (r.cross_squares) layout.marks.push_back({"cross", "hands out the cross power"});
  layout.side_colors = {colour_of(r.side_name[0], 0), colour_of(r.side_name[1], 1)};
  return layout;
}

BoardView SeizeState::board_view() const {
  BoardView view;
  view.piece.assign(kCells.count, -1);
  view.marker.assign(kCells.count, -1);
  const Rules& r = pos_.rules();
  for (int i = 0; i < kCells.count; ++i) {
    const int sq = kCells.square[i];
    const int owner = pos_.owner(sq);
    if (owner >= 0) {
      view.piece[i] = piece_kind(owner, pos_.is_boss(sq), pos_.power_at(sq));
    } else if (pos_.tokens() & bit(sq)) {
      view.marker[i] = (r.plus_squares & bit(sq)) ? kTokenPlus : kTokenCross;
    }
  }
  return view;
}

ActionCells SeizeState::action_cells(Action action) const {
  const Move m = action_to_move(action);
  return {kCells.cell[m.from], kCells.cell[m.to], {}};
}

}  // namespace pincer::seize
