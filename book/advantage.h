// The first mover's advantage from a book: how the side to move at the book's root scores in the
// games the book holds (with a 95% interval), what the search says of the root, and the best first
// moves by the search and by the games. The side's name comes from the game (Game::side_name).
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "book/book.h"
#include "play/elo.h"
#include "serve/query.h"

namespace pincer::book {

// Rounded to 4 decimals: the values and scores of the book's JSON and pages.
inline double round4(double x) { return std::round(x * 1e4) / 1e4; }

// Games from the first mover's view: wins, draws, losses of the finished games, their score with
// its 95% interval (play/elo.h estimate_score: normal over the per-game variance, Wilson where
// every game ended alike), and the games counted without a result (unfinished SGN games).
struct MoverGames {
  uint64_t wins = 0, draws = 0, losses = 0, unfinished = 0;
  ScoreEstimate score;  // score.games == wins + draws + losses; 0: no finished game
};

// From `stats` for player `mover`. Throws BookError when the counts do not add up (damaged book).
MoverGames mover_games(const GameStats& stats, int mover);
// From results already counted from the first mover's view (BookHeader.every_start). Throws
// BookError when the counts do not add up.
MoverGames mover_games(const MoverStats& stats);

struct FirstMove {
  std::string move;
  std::optional<double> value;  // book value (book/book.h move_value), [-1, 1], when searched
  bool proved = false;          // the value is the game's result under best play
  MoverGames games;             // the games that played it, for the first mover
};

struct FirstMoverAdvantage {
  bool has_root = false;  // the root position is in the book
  std::string root;       // its text
  int mover = 0;          // the side to move at the root
  std::string side;       // its name
  MoverGames games;       // the games through the root
  // The search's own root win/draw/loss as a score W + D/2, and the book's minimax value as a
  // score (value + 1) / 2, when the root was searched (or is a finished position).
  std::optional<double> search_score, book_score;
  bool proved = false;
  // Best book value first: the moves of a searched root that have a value (visited by the search
  // or in the book).
  std::vector<FirstMove> by_search;
  std::vector<FirstMove> by_games;  // most played first (ties: better score first)
  size_t moves_played = 0;          // first moves with a finished game (by_games holds `top`)
  // Every game `book stats` added, whatever its start, each from the view of the side to move at
  // its own start (BookHeader.every_start), and how many distinct starts they came from: the
  // advantage over all starts of a random-start game, whose root holds one start's games only.
  // Zero for books whose statistics predate it; known with or without a root.
  MoverGames every_start;
  uint64_t starts = 0;
};

// The advantage at the book's root (the header's root; for a book without one, the game's start).
// At most `top` moves in each ranking. Throws BookError for damaged counts.
FirstMoverAdvantage first_mover_advantage(const OpeningBook& book, const Game& game,
                                          size_t top = 5);

// One line: "First mover: red scores 55.1% [53.5–56.6] over 3915 games (...); search says 53.5%
// (book minimax 53.6%); best first moves by search: g4 53.6%, ...; by games: g4 55.0% [53.1–56.9]
// in 2643 games, ..." (moves with fewer than 10 games are only counted there). When the games
// came from more than one start it ends "; over every start (N starts): the first mover scores
// 53.2% [51.0–55.4] over 1920 games (...)".
std::string advantage_text(const FirstMoverAdvantage& a);

// For tools: {side, mover, root, hasRoot, games: {games, wins, draws, losses, unfinished, score,
// low, high, interval}, searchScore, bookScore, proved, bySearch, byGames, text}, and
// everyStart: {the same as games, starts} when the book counted games over every start.
serve::Json advantage_json(const FirstMoverAdvantage& a);

}  // namespace pincer::book
