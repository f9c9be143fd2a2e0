// The run directory: one training run's files, shared by `pincer train`, `selfplay`, `trainer`
// and `gate`. Its paths and the files every part reads and writes; making a new run's first model
// and checking a config against the run are train/run_setup.h's.
//
//   config.textproto     the run config (written at the start of each `pincer train`)
//   models/best.pt       the current best model (+ best.meta.textproto); self-play plays it
//   models/model-NNNNNN.pt  every model the trainer wrote (NNNNNN = training step)
//   records/*.chunk      self-play games (store/records.h)
//   trainer.ckpt         the trainer's weights, optimiser and window state
//   gating.textproto     every gate's result (proto GateLog)
//   metrics.csv          one row per event (train, gate, selfplay)
//   report.html          the report with plots
#pragma once

#include <string>

#include "proto/train_state.pb.h"

namespace pincer {

struct RunDir {
  std::string root;
  explicit RunDir(std::string dir) : root(std::move(dir)) {}
  std::string path(const std::string& rel) const { return root + "/" + rel; }
  std::string config() const { return path("config.textproto"); }
  std::string models() const { return path("models"); }
  std::string best() const { return path("models/best.pt"); }
  std::string model(int64_t step) const;
  std::string records() const { return path("records"); }
  std::string checkpoint() const { return path("trainer.ckpt"); }
  std::string gating() const { return path("gating.textproto"); }
  std::string metrics() const { return path("metrics.csv"); }
  std::string report() const { return path("report.html"); }
};

// Removes the temporary files of atomic writes whose process is gone (a killed run leaves them);
// returns how many.
int remove_stale_temporaries(const RunDir& dir);

GateLog read_gate_log(const RunDir& dir);
void write_gate_log(const RunDir& dir, const GateLog& log);

// Appends a row to metrics.csv (writing the header first when the file is new). Fields in the
// order of kMetricsColumns; missing ones are empty.
extern const char* const kMetricsColumns;
void append_metrics_row(const RunDir& dir, const std::string& row);

}  // namespace pincer
