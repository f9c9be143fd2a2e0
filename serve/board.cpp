#include "serve/board.h"

#include <stdexcept>

#include "serve/web.h"

namespace pincer::serve {

Json layout_json(const Game& game) {
  const BoardLayout l = game.board_layout();
  Json cells = Json::array();
  for (const BoardCell& c : l.cells) {
    Json cell{{"name", c.name}, {"column", c.column}, {"row", c.row}, {"mark", c.mark}};
    if (!c.shape.empty()) cell["shape"] = c.shape;
    cells.push_back(std::move(cell));
  }
  Json kinds = Json::array();
  for (const PieceKind& k : l.kinds) {
    Json kind{{"name", k.name}, {"owner", k.owner}, {"glyph", k.glyph}, {"points", k.points}};
    if (!k.shape.empty()) kind["shape"] = k.shape;
    if (k.pips > 0) kind["pips"] = k.pips;
    kinds.push_back(std::move(kind));
  }
  Json marks = Json::object();
  for (const auto& [name, meaning] : l.marks) marks[name] = meaning;
  return {{"columns", l.columns}, {"rows", l.rows},
          {"cells", cells},       {"kinds", kinds},
          {"marks", marks},       {"sideColors", {l.side_colors[0], l.side_colors[1]}}};
}

Json view_json(const State& s) {
  const BoardView v = s.board_view();
  Json out{{"piece", v.piece}};
  if (!v.marker.empty()) out["marker"] = v.marker;
  return out;
}

Json cells_json(const ActionCells& c) {
  Json j{{"from", c.from}, {"to", c.to}};
  if (!c.also.empty()) j["also"] = c.also;
  return j;
}

const std::string& board_script() {
  static const std::string text = [] {
    for (const EmbeddedFile& f : embedded_web()) {
      if (std::string(f.name) == "board") return std::string(f.text);
    }
    throw std::logic_error("serve/web/board.js is not embedded");
  }();
  return text;
}

}  // namespace pincer::serve
