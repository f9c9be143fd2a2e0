// The dice board for drawing: size x size tiles (cells are the square indices, a1 = 0), and a
// die kind per side and face: the King (glyph "K") and faces 1-6 drawn as pips. Where the ruleset
// scores captures, each kind carries the points capturing it gives.
#include "engine/dice/dice_game.h"

namespace pincer::dice {

BoardLayout DiceGame::board_layout() const {
  const Rules& r = rules_;
  BoardLayout layout;
  layout.columns = r.size;
  layout.rows = r.size;
  for (int sq = 0; sq < r.num_squares; ++sq) {
    BoardCell c;
    c.name = r.square_name(sq);
    c.column = r.file_of(sq);
    c.row = r.size - 1 - r.rank_of(sq);
    layout.cells.push_back(c);
  }
  // Kinds: side * kKinds + kind (kKing, then faces 1-6), as Position::kind_at numbers them.
  for (int side = 0; side < 2; ++side) {
    for (int kind = 0; kind < kKinds; ++kind) {
      PieceKind k;
      k.owner = side;
      k.name = kind == kKing ? "King" : "die " + std::to_string(kind);
      k.glyph = kind == kKing ? "K" : std::to_string(kind);
      k.points = !r.scored() ? 0 : kind == kKing ? r.king_points : r.die_points;
      k.shape = "die";
      k.pips = kind == kKing ? 0 : kind;
      layout.kinds.push_back(k);
    }
  }
  layout.side_colors = {"#f3ecd8", "#7b1e3a"};
  return layout;
}

BoardView DiceState::board_view() const {
  const Rules& r = pos_.rules();
  BoardView view;
  view.piece.assign(r.num_squares, -1);
  for (int sq = 0; sq < r.num_squares; ++sq) {
    const int side = pos_.owner(sq);
    if (side >= 0) view.piece[sq] = side * kKinds + pos_.kind_at(sq);
  }
  return view;
}

ActionCells DiceState::action_cells(Action action) const {
  const Rules& r = pos_.rules();
  return {action_from(r, action), action_to(r, action), {}};
}

}  // namespace pincer::dice
