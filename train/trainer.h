// The trainer: ingests self-play records into a sliding window, trains the network on random
// batches of it (with the game's symmetries as augmentation), and writes checkpoints and models
// atomically. Its state (weights, optimiser, step, window contents as the list of ingested
// chunks) lives in <run dir>/trainer.ckpt, so a killed trainer resumes exactly: the batch of
// step n depends only on the seed, n and the window, never on when the process started.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/game.h"
#include "nn/model.h"
#include "proto/run_config.pb.h"
#include "store/run_dir.h"

namespace pincer {

class DataParallel;

struct TrainStepResult {
  int64_t step = 0;  // steps done after this one
  double policy_loss = 0;
  double value_loss = 0;
  double points_loss = 0;     // 0 without a points head
  double ownership_loss = 0;  // 0 without an ownership head
  double lr = 0;
  int batch = 0;
};

class Trainer {
 public:
  // Resumes from the run dir's checkpoint, or starts from models/model-000000.pt.
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

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pincer
