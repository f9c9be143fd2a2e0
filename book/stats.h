// Game statistics in a book: every position a game passed through (up to a ply limit) counts the
// game and its result, and each move played there counts too. Positions are created as needed.
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "book/book.h"
#include "proto/record.pb.h"

namespace pincer::book {

// Wilson score interval (95% for z = 1.96) of a proportion k / n; {0, 1} when n == 0.
std::pair<double, double> wilson_interval(uint64_t k, uint64_t n, double z = 1.96);

struct StatsOptions {
  int max_plies = 40;      // positions after more plies than this are not counted
  uint64_t min_games = 1;  // a position not yet in the book is added only with this many games
};

// Collects games, then adds them to a book. A game counts once per position even if it passes
// through it twice. Every game also counts, whatever its length, in the book's every-start results
// (BookHeader.every_start: from the view of the side to move at its start) and its start's hash
// (BookHeader.start_hashes): the first mover's advantage over all starts of a random-start game.
class StatsCollector {
 public:
  StatsCollector(const Game& game, StatsOptions options) : game_(game), options_(options) {}
  // One game: its start, its moves, and its winner (0, 1, -1 draw; `finished` false: unknown).
  void add_game(const State& start, const std::vector<Action>& actions, bool finished, int winner);
  // Every record of an SGN text (engine/record.h); a record that fails to replay is skipped and
  // its error appended to `errors` ("game N (line L): ..."). Returns the games added.
  int add_sgn(const std::string& text, const std::string& origin, std::vector<std::string>& errors);
  // One self-play or match record (proto/record.proto). A game cut at the move limit counts as
  // the draw the trainer scored it as. Throws GameError for another fingerprint or a bad move.
  // A reanalysis record (GameRecord.reanalysis: a stored game searched again, not a new one) is
  // not counted.
  void add_record(const GameRecord& record);
  // Adds the counts to `book`, creating positions with at least min_games games; adds the
  // every-start results to its header and the starts to its header's start hashes.
  void merge_into(OpeningBook& book) const;
  uint64_t games() const { return games_; }
  // The games so far from the view of the side to move at each game's start.
  const MoverStats& every_start() const { return every_start_; }
  // The distinct starts of the games so far.
  size_t starts() const { return start_hashes_.size(); }

 private:
  struct Entry {
    std::string text;
    int to_move = 0;
    GameStats stats;
    std::vector<std::pair<BookMove, GameStats>> moves;  // action, text, child hash; stats
  };
  const Game& game_;
  StatsOptions options_;
  std::unordered_map<uint64_t, Entry> entries_;
  uint64_t games_ = 0;
  MoverStats every_start_;
  std::unordered_set<uint64_t> start_hashes_;
};

void add_result(GameStats& s, bool finished, int winner);
void add_stats(GameStats& into, const GameStats& from);
void add_mover_stats(MoverStats& into, const MoverStats& from);
// One game's result from player `mover`'s view (winner 0, 1, -1 draw; `finished` false: counted
// in games only).
void add_mover_result(MoverStats& s, int mover, bool finished, int winner);

}  // namespace pincer::book
