// The trainer's sliding window: the most recent positions of self-play, each with its training
// targets. Positions are kept as game states (small, cheap to copy) and encoded when sampled.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/game.h"
#include "proto/record.pb.h"

namespace pincer {

struct Sample {
  std::unique_ptr<State> state;
  // Policy target over the legal actions, as policy indices (State::policy_index) and shares;
  // empty when the move had no full search (playout-cap randomization).
  std::vector<int> policy_index;
  std::vector<float> policy;
  // Outcome for the player to move: win, draw, loss.
  std::array<float, 3> wdl{0, 1, 0};
  // Final points difference for the player to move (their points minus the opponent's).
  float points = 0;
  // Ownership target over the input grid (H x W, State::ownership's layout for the player to
  // move here): who holds each cell some plies later, +1 the player to move, -1 the opponent,
  // 0 nobody. Empty where there is none (not asked for, or the game provides no ownership).
  std::vector<int8_t> ownership;
};

// Sets the auxiliary targets of one game's n samples, `samples[i]` the position before move i of
// `record` and `final_state` the position after its last move (its start without moves): the
// points target from the record's final_points (or, where it has none, final_state's points),
// and with ownership_plies > 0 the ownership target, read from the position ownership_plies
// later (final_state where the game ends sooner) for the player to move at each sample. Throws
// RecordError for final_points that are not two numbers.
void set_aux_targets(const Game& game, const GameRecord& record, const State& final_state,
                     int ownership_plies, Sample* samples, size_t n);

// The value target (win, draw, loss for `to_move`): the game's result, blended with the recorded
// root value (the search's expected score for the player to move, in [0, 1]) by
// `root_value_weight` in [0, 1]: (1 - w) x result + w x (q, 0, 1 - q). The window passes a
// move's alpha-beta value (MoveRecord.alphabeta_value) as q where self-play recorded one.
// A game cut without a winner gets `cut_score` (player 0's expected score where it was cut)
// as its result when given: the win, draw, loss with the most draw that has that score.
std::array<float, 3> value_target(const GameRecord& record, int to_move, float root_value,
                                  double root_value_weight,
                                  std::optional<float> cut_score = std::nullopt);

// How many of a cut game's last positions cut_game_score averages.
inline constexpr int kCutGamePositions = 8;

// Player 0's expected score where `record` was cut (reason "max_moves", no winner): the mean of
// the last kCutGamePositions recorded values (alpha-beta value, else the root value of a move
// searched), each turned to player 0's view with `movers[i]`, the player to move before move i.
// nullopt for a game that ended, or with no such value among them.
std::optional<float> cut_game_score(const GameRecord& record, const std::vector<int>& movers);

// The name of game `index` (0-based) of the record chunk `chunk` (a file name under records/):
// how a reanalysis record names the game it re-searched, and how the window finds it.
std::string record_game_key(const std::string& chunk, int index);

class Window {
 public:
  // ownership_plies > 0: the games added get ownership targets that many plies ahead (where the
  // game provides ownership); 0: none (the network to train has no ownership head).
  // cut_games_from_root: a game cut without a winner takes cut_game_score as its result
  // (trainer.cut_game_result "root_value"), else it is a draw.
  explicit Window(size_t capacity, double root_value_weight = 0, int ownership_plies = 0,
                  bool cut_games_from_root = false)
      : capacity_(capacity),
        root_value_weight_(root_value_weight),
        ownership_plies_(ownership_plies),
        cut_games_from_root_(cut_games_from_root) {}
  // Adds every position of a finished game; the oldest fall out beyond the capacity. Returns the
  // number of positions added. Throws RecordError, leaving the window unchanged, for a record
  // that does not replay or whose policy targets name illegal or out-of-range actions. The
  // points target is the record's final_points, or where it has none (older records) the
  // points of the replayed final position. Ownership targets as set_aux_targets. `key`
  // (record_game_key) names the game so that a reanalysis of it finds its positions; "" for none.
  int add_game(const Game& game, const GameRecord& record, const std::string& key = "");
  // A reanalysis record (GameRecord.reanalysis, train/reanalyse.h): its policy and value targets
  // replace those of the game it names, at that game's positions still in the window, as MuZero
  // Reanalyse replaces stale targets (the positions stay where they are: a game is trained on
  // once per position, with its newest targets; a later reanalysis replaces an earlier one).
  // Returns the number of positions whose targets were replaced: 0 when the game is not in the
  // window (it has left, or was never added under its key). Throws RecordError naming the game,
  // leaving the window unchanged, for a record that is not a reanalysis, whose moves, start or
  // result are not the game's, or whose targets are bad.
  int apply_reanalysis(const Game& game, const GameRecord& record);
  size_t size() const { return samples_.size(); }
  size_t capacity() const { return capacity_; }
  const Sample& operator[](size_t i) const { return samples_[i]; }

 private:
  // Where a keyed game's positions are: samples first .. first + count - 1, counted from the
  // first sample ever added (samples_[i] is sample dropped_ + i).
  struct GameSpan {
    uint64_t first = 0;
    int count = 0;
    int winner = -1;
  };
  void drop_front();
  // The value targets of a replayed game's positions, `movers[i]` the player to move before move i.
  std::vector<std::array<float, 3>> value_targets(const GameRecord& record,
                                                  const std::vector<int>& movers) const;

  size_t capacity_;
  double root_value_weight_;
  int ownership_plies_;
  bool cut_games_from_root_;
  std::deque<Sample> samples_;
  uint64_t dropped_ = 0;  // samples that have left the window
  std::unordered_map<std::string, GameSpan> spans_;
  std::deque<std::string> span_order_;  // keys of spans_, oldest game first
};

}  // namespace pincer
