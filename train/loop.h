// `pincer train`: self-play, trainer and gatekeeper together on one machine, against one run
// directory. Self-play runs in background threads; the trainer and the gatekeeper share the
// main thread (a gate pauses training, never self-play). The trainer runs only as many steps as
// the records allow (trainer.samples_per_position), so the loop's balance does not depend on
// the machine's speed. Everything it writes is atomic, so a killed run resumes where it was.
#pragma once

#include <atomic>
#include <string>

#include "proto/run_config.pb.h"
#include "store/run_dir.h"
#include "train/status_line.h"

namespace pincer {

struct LoopOptions {
  // Set from another thread (or a signal handler) to stop cleanly: a last checkpoint, the
  // finished games written, the report updated.
  const std::atomic<bool>* stop = nullptr;
  // A live status line on stderr ('\r'-updated when it is a terminal, else a log line every 30 s).
  bool status_line = true;
  // >= 0: stop after this many minutes of this session, instead of the config's max_minutes
  // (the saved config keeps its own value).
  double max_minutes = -1;
  // > 0: stop once the run's core-hours (its CPU time over every session, the warm start and a
  // --from model's included) reach this many, so a budget in core-hours does not depend on the
  // machine's load.
  double max_core_hours = -1;
};

struct LoopSummary {
  int64_t steps = 0;
  int64_t games = 0;
  int64_t positions = 0;
  int gates = 0;
  int promotions = 0;
  double seconds = 0;
  std::string best_model;
};

// Checks that `config` fits the run dir (its models and checkpoint) before saving it as the
// run's config.textproto; throws (ModelError, ConfigError, ...) with self-play stopped and
// joined, and stops at self-play's first failure, rethrowing it.
LoopSummary run_training_loop(const RunConfig& config, const RunDir& dir,
                              const LoopOptions& options);

}  // namespace pincer
