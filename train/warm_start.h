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
#include <functional>
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
// `total_games` (when larger) is the size of the whole set, for the progress log.
WarmStartData generate_warm_start_data(const Game& game, const WarmStartConfig& config,
                                       uint64_t seed, const std::atomic<bool>* stop = nullptr,
                                       int first_game = 0, int total_games = 0);

// The training positions of one labelled game: policy as recorded, value target
// result_weight x result + (1 - result_weight) x root value. Throws RecordError if it does not
// replay.
void add_warm_start_samples(const Game& game, const GameRecord& record, double result_weight,
                            std::vector<Sample>& out);

// The warm start's games: those in the chunks of config.records() (when set; a bad chunk or game
// throws RecordError), then config.games() minus those, generated.
WarmStartData warm_start_data(const Game& game, const WarmStartConfig& config, uint64_t seed,
                              const std::atomic<bool>* stop = nullptr);

// Like warm_start_data, but (unless config.records() is set) the games are played in rounds and
// each round is written into `labels_dir` as a record chunk of writer "warmstart" as soon as it
// is played: a warm start that is stopped or killed resumes with the games already there (the
// same games a fresh start plays, from the same seeds). The games all come from `labels_dir` in
// the end. An empty `labels_dir` is warm_start_data.
WarmStartData resumable_warm_start_data(const Game& game, const WarmStartConfig& config,
                                        uint64_t seed, const std::string& labels_dir,
                                        const std::atomic<bool>* stop = nullptr);

// Sets the auxiliary targets of data.samples (set_aux_targets of train/window.h, each game's
// samples read off in the order of data.records): the points target, and the ownership target
// `ownership_plies` ahead (0: none). Throws std::logic_error when the samples are not the
// records' positions in order.
void set_warm_start_aux_targets(const Game& game, WarmStartData& data, int ownership_plies);

// The weights of the auxiliary heads' losses in pretraining (those of the run's trainer config);
// 0 leaves a head untrained. A sample without a target adds nothing.
struct AuxLossWeights {
  double points = 0;
  double ownership = 0;
};

struct PretrainStats {
  int steps = 0;
  double policy_loss = 0, value_loss = 0;  // over the last 10% of the steps
  // On the held-out positions (every 20th game): how often the net's top legal move is the
  // search's, and the value cross-entropy.
  double holdout_top1 = 0, holdout_value_loss = 0;
  int holdout_positions = 0;
  double seconds = 0;
};

// Called every `every` steps (0: never) during a pretraining, with the stats so far (the
// held-out ones measured at that step), e.g. to save the model as it goes.
struct PretrainProgress {
  int every = 0;
  std::function<void(const PretrainStats&)> on_progress;
};

// Trains `model` on `data` (every 20th game held out for the stats) with Adam and a cosine
// schedule, using the game's symmetries as augmentation, its passes in `precision`
// (trainer.precision of the run). The model's points and ownership heads (if any) learn the
// samples' targets with the weights `aux`.
PretrainStats pretrain_model(Model& model, const Game& game, const WarmStartData& data,
                             const WarmStartConfig& config, uint64_t seed, Precision precision,
                             const std::atomic<bool>* stop = nullptr,
                             const PretrainProgress& progress = {}, const AuxLossWeights& aux = {});

// The pretraining's auxiliary weights for a run: its trainer's loss weights.
AuxLossWeights aux_loss_weights(const TrainerConfig& trainer);

// Writes labelled games into `dir` as record chunks of writer "warmstart" (64 games each),
// after removing the chunks of that writer already there (a warm start that was cut short).
// Returns the number of chunks written.
int write_warm_start_records(const std::string& dir, const Game& game,
                             const std::vector<GameRecord>& records);

// The first network of a run: random, or warm-started when config.warm_start().enabled().
// Throws std::runtime_error when `stop` is set during the warm start. With `records`, the warm
// start's labelled games are moved there. With `labels_dir`, the games are generated through
// resumable_warm_start_data into that directory.
std::unique_ptr<Model> make_initial_model(const Game& game, const RunConfig& config,
                                          const std::atomic<bool>* stop = nullptr,
                                          std::vector<GameRecord>* records = nullptr,
                                          const std::string& labels_dir = "");

}  // namespace pincer
