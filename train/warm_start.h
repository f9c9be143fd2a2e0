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
#include <vector>

#include "engine/game.h"
#include "nn/model.h"
#include "proto/run_config.pb.h"
#include "train/window.h"

namespace pincer {

// Search score (for the side to move, AlphaBeta's scale) to a win probability.
double warm_start_win_probability(int score, double scale);

struct WarmStartData {
  std::vector<Sample> samples;  // in game order, deterministic for a seed
  int games = 0;
  int64_t plies = 0;
  double seconds = 0;
  double mean_depth = 0;  // of the labelling searches
};

// Plays config.games() games on config.threads() threads; reproducible from `seed` (the
// searches have a fixed depth). Stops early, keeping finished games, when `stop` is set.
WarmStartData generate_warm_start_data(const Game& game, const WarmStartConfig& config,
                                       uint64_t seed, const std::atomic<bool>* stop = nullptr);

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

// The first network of a run: random, or warm-started when config.warm_start().enabled().
// Throws std::runtime_error when `stop` is set during the warm start.
std::unique_ptr<Model> make_initial_model(const Game& game, const RunConfig& config,
                                          const std::atomic<bool>* stop = nullptr);

}  // namespace pincer
