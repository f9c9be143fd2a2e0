// The trainer: ingests self-play records into a sliding window, trains the network on random
// batches of it (with the game's symmetries as augmentation), and writes checkpoints and models
// atomically. Its state (weights, optimiser, step, window contents as the list of ingested
// chunks) lives in <run dir>/trainer.ckpt, so a killed trainer resumes exactly: the batch of
// step n depends only on the seed, n and the window, never on when the process started.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/game.h"
#include "nn/model.h"
#include "proto/run_config.pb.h"
#include "store/run_dir.h"

namespace pincer {

class DataParallel;

// Throws ConfigError unless `config`'s growth stages (if any) can train with `shards` shards a
// step: growth needs one (data-parallel training refuses it).
void check_growth_shards(const RunConfig& config, int shards);

// "5x64": a network's residual blocks x channels ("5x64 conv" with a conv policy head); no commas,
// so that metrics.csv can hold it.
std::string network_shape(const NetworkConfig& network);

// A growth stage's new network taking over (RunConfig.growth; docs/training.md, "Growing the
// network"), with both networks' losses over the distillation's last steps (up to 100), on the
// same batches.
struct GrowthTakeover {
  int stage = 0;           // index in RunConfig.growth
  int64_t start_step = 0;  // distillation began here
  int64_t step = 0;        // and the new network took over here
  double core_hours = 0;   // the run's, at the take-over
  NetworkConfig before, after;
  int64_t parameters_before = 0, parameters_after = 0;
  double old_policy_loss = 0, old_value_loss = 0, old_points_loss = 0, old_ownership_loss = 0;
  double new_policy_loss = 0, new_value_loss = 0, new_points_loss = 0, new_ownership_loss = 0;
  int steps_averaged = 0;
};

struct TrainStepResult {
  int64_t step = 0;  // steps done after this one
  double policy_loss = 0;
  double value_loss = 0;
  double points_loss = 0;     // 0 without a points head
  double ownership_loss = 0;  // 0 without an ownership head
  double lr = 0;
  int batch = 0;
  // While a growth stage's new network learns beside this one: its losses on this step's batch.
  bool distilling = false;
  double new_policy_loss = 0, new_value_loss = 0, new_points_loss = 0, new_ownership_loss = 0;
  // Set on the step after which a grown network took over: from the next step on, the trainer
  // trains it, and write_model() writes it (its NetworkConfig in the file's metadata).
  std::optional<GrowthTakeover> takeover;
};

class Trainer {
 public:
  // Resumes from the run dir's checkpoint, or starts from models/model-000000.pt.
  //
  // Growth (RunConfig.growth): when the run reaches a stage's trigger, train_step() also trains a
  // fresh network of the stage's shape on the same batches (its own optimizer) until it takes
  // over, distill_steps later; the checkpoint holds both networks and optimizers meanwhile.
  // Refused (ConfigError) with more than one shard (data-parallel ranks or micro-batches).
  //
  // Data-parallel training (train/distributed.h): each step's batch is `shards` shards of
  // batch_size positions, each drawn from its own part of the window with its own seed (shard 0
  // is today's batch), and the gradient is the mean of the shards' gradients. With a `group` of
  // N ranks each rank computes `micro_batches` shards and the gradients are all-reduced; every
  // rank starts from rank 0's checkpoint and ingests the chunks rank 0 ingests (rank 0 sends
  // them: the others' run dirs are local copies), so their models stay identical. Without a group,
  // micro_batches > 1 accumulates the shards in one process (the same step as that many ranks). The
  // defaults are today's single-process trainer.
  Trainer(GamePtr game, const RunConfig& config, const RunDir& dir, DataParallel* group = nullptr,
          int micro_batches = 1);
  ~Trainer();

  // Reads record chunks not yet ingested; returns the number of games added (reanalyses of
  // games, train/reanalyse.h, replace targets and are not counted).
  int ingest_new_records();
  // Whether the window holds enough positions to train.
  bool ready() const;
  // Steps the samples_per_position ratio allows before more self-play is needed (and before
  // total_steps).
  int64_t steps_allowed() const;
  TrainStepResult train_step();
  // Writes trainer.ckpt atomically.
  void save_checkpoint();
  // Writes models/model-<step>.pt (a candidate for the gatekeeper); returns its path.
  std::string write_model();

  int64_t step() const;
  // The run's CPU time so far, all sessions, in core-hours (train/cpu_time.h).
  double core_hours() const;
  int64_t games_seen() const;
  int64_t positions_seen() const;
  // Positions whose targets reanalyses replaced in the window (selfplay.reanalyse_share), over
  // the run; trainer.samples_per_position counts them as new positions.
  int64_t reanalysed_positions() const;
  size_t window_size() const;
  // Record chunks (file names) the trainer has read, in order: its window is rebuilt from them.
  std::vector<std::string> ingested_chunks() const;
  double learning_rate(int64_t step) const;
  // The network being trained (in training mode; do not run it from other threads).
  const ModelMetadata& model_metadata() const;
  // XXH64 of the weights, batch-norm statistics and step: equal on every rank of a group.
  uint64_t state_hash() const;

  // Growth (RunConfig.growth): whether a stage's new network is learning beside this one, the
  // stages that have taken over, and a few words for the status line: "growing 3x32->5x64
  // 1200/3000" while one learns, "net 5x64 since step 9000" after, "" before.
  bool distilling() const;
  int growth_stages_done() const;
  std::string growth_status() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pincer
