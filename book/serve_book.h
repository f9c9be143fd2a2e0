// `pincer serve --book PATH`: the analysis of every position the book holds carries the book's
// view of it ("book": book/report.h's position_report), and with bot_plays_book the bot's moves
// come from the book while the game is in it. A decorator of serve/'s Analyzer: serve/ itself
// knows nothing of books.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "book/book.h"
#include "serve/analyzer.h"

namespace pincer::book {

// `inner` with the book's view added (and, with bot_plays_book, the bot's move taken from it).
std::shared_ptr<serve::Analyzer> analyzer_with_book(std::shared_ptr<serve::Analyzer> inner,
                                                    std::shared_ptr<const OpeningBook> book,
                                                    const std::string& path, bool bot_plays_book);

// Loads each book and wraps the analyser of its ruleset (found by fingerprint). Throws BookError
// for a bad book file and std::invalid_argument for a book of a ruleset not served.
void add_books(std::vector<std::shared_ptr<serve::Analyzer>>& analyzers,
               const std::vector<std::string>& paths, bool bot_plays_book);

}  // namespace pincer::book
