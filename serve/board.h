// The board as the web pages draw it (serve/web/board.js): a game's layout and a position's view
// as JSON, and the drawing script itself, for every page that shows boards (the pages of
// `pincer serve` and the report of `pincer book report`).
#pragma once

#include <string>

#include "engine/game.h"
#include "serve/query.h"

namespace pincer::serve {

// {columns, rows, cells [{name, column, row, mark}], kinds [{name, owner, glyph, points}], marks,
// sideColors}: drawBoard's `layout`.
Json layout_json(const Game& game);
// {piece [...], marker [...] when the game has markers}: drawBoard's `view`.
Json view_json(const State& state);
// {from, to}: the cells an action moves between (-1: none).
Json cells_json(const ActionCells& cells);
// The text of serve/web/board.js (an ES module exporting drawBoard and drawGraph).
const std::string& board_script();

}  // namespace pincer::serve
