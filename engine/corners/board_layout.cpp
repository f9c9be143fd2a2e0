// The corners board for drawing: the 64 squares as tiles, then the 49 points as crossings (a
// point is the top-right corner of the square with its index, so it sits at the top-left corner
// of the tile to that square's right). Square pieces and point pieces of each side; a divide
// goes from its point to itself and puts its pieces on the squares in `also`.
#include "engine/corners/corners_game.h"

namespace pincer::corners {
namespace {

// Cells: square sq is cell sq; the points follow in index order.
struct PointCells {
  int cell[64];
  int point[49];
  PointCells() {
    int n = 64;
    for (int p = 0; p < 64; ++p) {
      cell[p] = (kPoints & bit(p)) ? n : -1;
      if (cell[p] >= 0) point[n++ - 64] = p;
    }
  }
};
const PointCells kPointCells;

// Piece kinds: 0/1 square pieces of white/black, 2/3 point pieces.
constexpr int kSquareKind = 0, kPointKind = 2;

}  // namespace

BoardLayout CornersGame::board_layout() const {
  BoardLayout layout;
  layout.columns = 8;
  layout.rows = 8;
  for (int sq = 0; sq < 64; ++sq) {
    BoardCell c;
    c.name = Rules::square_name(sq);
    c.column = sq % 8;
    c.row = 7 - sq / 8;
    layout.cells.push_back(c);
  }
  for (int p : kPointCells.point) {
    BoardCell c;
    c.name = Rules::point_name(p);
    c.column = p % 8 + 1;
    c.row = 7 - p / 8;
    c.shape = "point";
    layout.cells.push_back(c);
  }
  for (int player = 0; player < 2; ++player) {
    layout.kinds.push_back(PieceKind{"square piece", player, "", 0, "", 0});
  }
  for (int player = 0; player < 2; ++player) {
    layout.kinds.push_back(PieceKind{"point piece", player, "", 0, "", 0});
  }
  layout.side_colors = {"#f3ecd8", "#333333"};
  return layout;
}

BoardView CornersState::board_view() const {
  BoardView view;
  view.piece.assign(64 + 49, -1);
  for (int player = 0; player < 2; ++player) {
    for (Bitboard b = pos_.squares(player); b;) view.piece[pop_lsb(b)] = kSquareKind + player;
    for (Bitboard b = pos_.points(player); b;) {
      view.piece[kPointCells.cell[pop_lsb(b)]] = kPointKind + player;
    }
  }
  return view;
}

ActionCells CornersState::action_cells(Action action) const {
  const Move m = decode(action);
  switch (m.kind) {
    case Kind::kRun:
      return {m.from, m.to, {}};
    case Kind::kToPoint:
      return {m.from, kPointCells.cell[m.to], {}};
    case Kind::kToSquare:
      return {kPointCells.cell[m.from], m.to, {}};
    case Kind::kDivide: {
      ActionCells c{kPointCells.cell[m.from], kPointCells.cell[m.from], {}};
      for (int k = 0; k < 4; ++k) {
        if (m.mask & (1 << k)) c.also.push_back(m.from + kCornerOffset[k]);
      }
      return c;
    }
  }
  return {};
}

}  // namespace pincer::corners
