// `pincer train`: self-play, trainer and gatekeeper together on one machine, against one run
// directory. Self-play runs in background threads; the trainer and the gatekeeper share the
// main thread (a gate pauses training, never self-play). The trainer runs only as many steps as
// the records allow (trainer.samples_per_position), so the loop's balance does not depend on
// the machine's speed. Everything it writes is atomic, so a killed run resumes where it was.
#pragma once

#include <atomic>
#include <string>

#include "proto/run_config.pb.h"
#include "train/run_dir.h"

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

LoopSummary run_training_loop(const RunConfig& config, const RunDir& dir,
                              const LoopOptions& options);

// One line on the state of a run dir for people (used by the standalone commands too).
std::string status_text(int64_t step, int64_t games, int64_t positions, double samples_per_s,
                        double policy_loss, double value_loss, const std::string& best,
                        const std::string& last_gate);

}  // namespace pincer
