// Seega's board description for drawing: size x size cells, the centre marked, one piece kind
// per side. A placement goes to a cell; a step goes from one cell to its neighbour.
#include "engine/seega/seega_game.h"

namespace pincer::seega {

BoardLayout SeegaGame::board_layout() const {
  BoardLayout layout;
  const Rules& r = rules_;
  layout.columns = r.size;
  layout.rows = r.size;
  // Cells are the square indices (a1 = 0), so the view and actions need no mapping.
  for (int sq = 0; sq < r.num_squares; ++sq) {
    BoardCell c;
    c.name = r.square_name(sq);
    c.column = r.file_of(sq);
    c.row = r.size - 1 - r.rank_of(sq);
    c.mark = sq == r.centre ? "centre" : "";
    layout.cells.push_back(c);
  }
  layout.kinds.push_back(PieceKind{"piece", kDark, "", 0, "", 0});
  layout.kinds.push_back(PieceKind{"piece", kLight, "", 0, "", 0});
  layout.marks.push_back({"centre", "stays empty during placement"});
  layout.side_colors[kDark] = "#333333";
  layout.side_colors[kLight] = "#f3ecd8";
  return layout;
}

BoardView SeegaState::board_view() const {
  const Rules& r = pos_.rules();
  BoardView view;
  view.piece.assign(r.num_squares, -1);
  for (int sq = 0; sq < r.num_squares; ++sq) view.piece[sq] = pos_.owner(sq);
  return view;
}

ActionCells SeegaState::action_cells(Action action) const {
  const Rules& r = pos_.rules();
  if (is_placement(r, action)) return {-1, action, {}};
  const int from = action_from(r, action);
  return {from, r.neighbour[from][action_dir(r, action)], {}};
}

}  // namespace pincer::seega
