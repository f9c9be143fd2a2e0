// Warm start: the first network of a run learns from the game's classical alpha-beta player
// (play/alphabeta.h over Game::heuristic()) before self-play begins. Games are played from
// random openings by an alpha-beta search of fixed depth (with a share of random moves for
// variety); every position is labelled with that search's value (mapped to win/draw/loss and
// blended with the game's result) and its best move (the policy target, lightly smoothed over
// the other legal moves). A fresh network is then trained on them. Generic over the game
// interface; switched on by the run config's `warm_start` (proto/run_config.proto).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/game.h"
#include "nn/model.h"
#include "proto/run_config.pb.h"
#include "train/window.h"

namespace pincer {

struct WarmStartData {
  std::vector<GameRecord> records;  // the labelled games (policy and root value per move)
  std::vector<Sample> samples;      // their positions in game order, deterministic for a seed
  int games = 0;
  int64_t plies = 0;
  double seconds = 0;
  double mean_depth = 0;  // of the labelling searches
};

// Plays config.games() games on config.threads() threads; reproducible from `seed` (the
// searches have a fixed depth; game g of the set plays from mix_seed(seed, first_game + g)).
// Stops early, keeping finished games, when `stop` is set.
WarmStartData generate_warm_start_data(const Game& game, const WarmStartConfig& config,
                                       uint64_t seed, const std::atomic<bool>* stop = nullptr,
                                       int first_game = 0);

// The training positions of one labelled game: policy as recorded, value target
// result_weight x result + (1 - result_weight) x root value. Throws RecordError if it does not
// replay.
void add_warm_start_samples(const Game& game, const GameRecord& record, double result_weight,
                            std::vector<Sample>& out);

// The warm start's games: those in the chunks of config.records() (when set; a bad chunk or game
// throws RecordError), then config.games() minus those, generated.
WarmStartData warm_start_data(const Game& game, const WarmStartConfig& config, uint64_t seed,
                              const std::atomic<bool>* stop = nullptr);

struct PretrainStats {
  int steps = 0;
  double policy_loss = 0, value_loss = 0;  // over the last 10% of the steps
  // On the held-out positions (every 20th game): how often the net's top legal move is the
  // search's, and the value cross-entropy.
  double holdout_top1 = 0, holdout_value_loss = 0;
  int holdout_positions = 0;
  double seconds = 0;
};

// Trains `model` on `data` (every 20th game held out for the stats) with Adam and a cosine
// schedule, using the game's symmetries as augmentation.
PretrainStats pretrain_model(Model& model, const Game& game, const WarmStartData& data,
                             const WarmStartConfig& config, uint64_t seed,
                             const std::atomic<bool>* stop = nullptr);

// Writes labelled games into `dir` as record chunks of writer "warmstart" (64 games each),
// after removing the chunks of that writer already there (a warm start that was cut short).
// Returns the number of chunks written.
int write_warm_start_records(const std::string& dir, const Game& game,
                             const std::vector<GameRecord>& records);

// The first network of a run: random, or warm-started when config.warm_start().enabled().
// Throws std::runtime_error when `stop` is set during the warm start. With `records`, the warm
// start's labelled games are moved there.
std::unique_ptr<Model> make_initial_model(const Game& game, const RunConfig& config,
                                          const std::atomic<bool>* stop = nullptr,
                                          std::vector<GameRecord>* records = nullptr);

}  // namespace pincer
