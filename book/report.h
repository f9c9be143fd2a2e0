// `pincer book report`: one self-contained HTML page to explore a book. The tree of positions with
// the book's value, win/draw/loss and visits of each, the candidate moves with their values and
// game statistics (95% Wilson intervals), clicking a move descends and a breadcrumb goes back, a
// chart of the moves' values; boards drawn by the web pages' own drawing code (serve/board.h).
#pragma once

#include <functional>
#include <string>

#include "book/book.h"
#include "serve/query.h"

namespace pincer::book {

struct ReportOptions {
  // Positions known only from games are shown when at least this many games reached them
  // (searched positions always are): self-play statistics reach far more positions than a page
  // should carry.
  uint64_t min_games = 10;
  // Only positions at most this many plies from the root (by the shortest line through the book's
  // moves) are shown when >= 0: a page grows by 4 to 8 KB a position (16 MB for 2,000 SE!ZE
  // positions, 7.7 MB for 2,000 Seega ones).
  int max_plies = -1;
};

// The data the page shows: {header, sides, layout, root, firstMover (book/advantage.h
// advantage_json), positions: {hash hex: position}}.
// Throws BookError for a position whose text does not parse or whose hash does not match.
serve::Json report_data(const OpeningBook& book, const Game& game, const ReportOptions& options);

// One position as the report shows it: {text, toMove, view, searched, terminal, games, value,
// proved, wdl, visits, moves [{move, cells, games, value, q, visits, prior, child, inBook,
// proved}]}, moves best first. `state` is the position; `linked` says which children get a
// "child" key (their hash in hex).
serve::Json position_report(const OpeningBook& book, const BookPosition& pos, const State& state,
                            const std::function<bool(const BookPosition*)>& linked);

// The page: report_data inlined as JSON, with board.js and the report's script and style, and a
// top box with the first mover's advantage (advantage_text).
std::string report_html(const OpeningBook& book, const Game& game, const ReportOptions& options);

}  // namespace pincer::book
