// Playing from a book: a player that plays the book's move while the position is a searched book
// position, and asks another player (a search) once the game has left the book. Any player kind
// takes it through with_book(): the spec arguments book=PATH and book_temperature=T (default 0:
// the best move; T > 0 samples among the near-best moves, docs/openings.md).
#pragma once

#include <memory>
#include <string>

#include "book/book.h"
#include "play/player.h"

namespace pincer::book {

struct BookPlayOptions {
  // 0: the best move by book value (ties: the more visited). > 0: a move is drawn with weight
  // exp((value - best) / temperature) among the moves within 4 * temperature of the best.
  double temperature = 0;
  uint64_t seed = 0;
};

// The book's move in `state`, or -1 when the state is not a searched position of the book (or
// the book's move is not legal there: a damaged or foreign book is never played into).
// `uniform` in [0, 1) draws the move when options.temperature > 0.
Action book_move(const OpeningBook& book, const State& state, const BookPlayOptions& options,
                 double uniform);

// Plays `book`'s moves, then `inner`'s. `spec` is what spec() answers.
std::unique_ptr<Player> make_book_player(std::shared_ptr<const OpeningBook> book,
                                         std::unique_ptr<Player> inner, BookPlayOptions options,
                                         std::string spec);

// Loads a book for `game`, shared by every player made from the same file in this process.
// Throws BookError naming the file.
std::shared_ptr<const OpeningBook> shared_book(const std::string& path, const Game& game);

// A player kind that understands book=PATH and book_temperature=T; the other arguments go to
// `inner`. Without book= it is `inner` itself.
PlayerFactory with_book(PlayerFactory inner);
// Replaces a registered kind by its with_book() version; no-op for an unknown kind.
void add_book_to_player_kind(const std::string& kind);

}  // namespace pincer::book
