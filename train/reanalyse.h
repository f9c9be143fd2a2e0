// Reanalyse (selfplay.reanalyse_share), after MuZero Reanalyse (Schrittwieser et al., "Online and
// Offline Reinforcement Learning by Planning with a Learned Model", 2021): a share of self-play's
// search effort goes to searching the positions of stored games again with the current best
// network, so that the trainer learns those positions from today's search instead of the search
// of the older network that played them.
//
// How it flows: self-play (train/selfplay.h) draws a game from the newest record chunks
// (ReanalysePool), follows its moves with the same search it plays with (a GameReanalysis: one full
// search per position, the tree kept along the game's own moves) and writes the result as a
// record of its own, marked as a reanalysis of that game (GameRecord.reanalysis), in its next
// record chunk. The trainer's window (train/window.h) then puts the record's targets in place of
// the game's own at those positions. A record is a whole game that replays by itself, so nothing
// reads half of one, a record that does not match its game is refused, and a resumed trainer
// rebuilds the same window from the same chunks.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/game.h"
#include "engine/random.h"
#include "mcts/search.h"
#include "proto/record.pb.h"

namespace pincer {

// Whether game `record` of chunk `chunk` (a file name) is one to reanalyse: a game the network
// played on both sides. Not a reanalysis itself, not a warm start's labelled game (chunks of
// writer "warmstart") and not an expert game: their labels are alpha-beta's, kept as they are.
bool reanalysable(const std::string& chunk, const GameRecord& record);

// A move record's search fields from a move's search, as self-play records them (reanalysis
// too): full_search, simulations, the root value (the improved policy's value with
// `improved_root_value` and a Gumbel root, else the mean over the root's visits) and, for a full
// search, the policy target over the root's actions. The action and an alpha-beta value are
// left alone.
void record_search(const mcts::SearchResult& r, bool improved_root_value, MoveRecord& m);

// One game's reanalysis, position by position: state() is the position to search, action() the
// move the game played there; record() takes the search's result and steps to the next
// position. The caller's search follows the game (Search::reset(state()) first, then
// Search::advance(action()) after each record() but the last).
class GameReanalysis {
 public:
  // Game `index` of chunk `chunk`, to be searched by the network `model_id` names. Throws
  // RecordError for a game that does not replay or has no moves.
  GameReanalysis(const Game& game, GameRecord original, const std::string& chunk, int index,
                 const std::string& model_id);
  bool done() const { return ply_ == record_.moves_size(); }
  // Plies recorded so far, and the game's length.
  int ply() const { return ply_; }
  int moves() const { return record_.moves_size(); }
  const State& state() const { return *state_; }
  Action action() const { return record_.moves(ply_).action(); }
  // The search of state(): its targets replace the game's at this position.
  void record(const mcts::SearchResult& r, bool improved_root_value);
  // The reanalysis record, once done(): the game's start, moves and result with the new
  // search's targets, model_id the searching network's, finished now.
  GameRecord take();

 private:
  GameRecord record_;
  std::unique_ptr<State> state_;
  int ply_ = 0;
};

// The games reanalysis draws from: the reanalysable games of the newest `positions` positions of
// a records/ folder (counted as the trainer's window counts them, newest chunk first), read as
// chunks appear. Thread-safe.
class ReanalysePool {
 public:
  struct Pick {
    std::string chunk;
    int index = 0;
  };
  // Looks for new chunks at most every `refresh_seconds` (0: at every pick).
  ReanalysePool(GamePtr game, std::string records_dir, int64_t positions,
                double refresh_seconds = 5);
  // A game to reanalyse with the network `model_id`, drawn uniformly: one that network did not
  // play and has not reanalysed yet (here, or in a reanalysis record of the folder); nullopt
  // when there is none. The game is then marked as reanalysed with it.
  std::optional<Pick> pick(Rng& rng, const std::string& model_id);
  // The record of a pick, read from its chunk; throws RecordError (e.g. the chunk is gone).
  GameRecord read(const Pick& pick) const;
  // Reanalysable games in the pool now.
  size_t games() const;

 private:
  struct Entry {
    int index = 0;
    std::string played_by;      // the model that played it
    std::string reanalysed_by;  // the last model that reanalysed it ("" none)
  };
  struct Chunk {
    int64_t positions = 0;  // of every game in it (as the window counts them)
    std::vector<Entry> games;
  };
  void refresh_locked();

  GamePtr game_;
  std::string dir_;
  int64_t positions_;
  double refresh_seconds_;
  double last_refresh_ = -1e300;
  mutable std::mutex mu_;
  std::map<std::string, Chunk> chunks_;  // by name: oldest first
  std::set<std::string> seen_;           // every chunk name read (or found unreadable)
};

}  // namespace pincer
