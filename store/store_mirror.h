// A process's local working copy of a run kept in a remote store (redis://): self-play, the
// trainer and the gatekeeper keep working on a run directory (store/run_dir.h) as they do with
// dir://, and the mirror moves what they exchange between that folder and the store:
//
//   self-play worker   push_chunks (and remove them locally), pull_best, heartbeat
//   trainer            pull_chunks, then after each checkpoint push_models, push_checkpoint and
//                      acknowledge the chunks that checkpoint holds (ack)
//   gatekeeper         pull_candidates, pull_gates, pull_best; after a gate push_gate (and
//                      promote)
//
// Everything written locally is written atomically, and everything written to the store is
// atomic there (store/store_redis.h), so a process killed at any moment leaves both whole.
// Torch-free: models travel as files.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "store/run_dir.h"
#include "store/store.h"

namespace pincer {

class StoreMirror {
 public:
  StoreMirror(Store& store, RunDir local);
  Store& store() { return store_; }
  const RunDir& local() const { return local_; }

  // The run's config from the store into the local config.textproto; false when the store has
  // none.
  bool pull_config();
  // The local config.textproto into the store (replacing the store's).
  void push_config();

  // Local record chunks not yet in the store: uploaded (and removed locally if asked, once the
  // store has them). Returns how many.
  int push_chunks(bool remove_after);
  // Chunks the store has after the mirror's cursor: written into the local records/ (those not
  // there yet). Returns how many were new. The cursor starts at the consumer's acknowledged one.
  int pull_chunks();
  // Fetches the named chunks that are not in the local records/ (a trainer's checkpoint lists
  // the chunks of its window). Returns how many were fetched; missing ones are logged.
  int fetch_chunks(const std::vector<std::string>& names);
  // Acknowledges for `consumer` the pulled chunks that `ingested` holds: the store's cursor moves
  // up to the last pulled chunk before the first one not ingested.
  void ack(const std::string& consumer, const std::vector<std::string>& ingested);
  // Sets the cursor pull_chunks starts from to `consumer`'s acknowledged one.
  void start_from_ack(const std::string& consumer);

  // Local models/model-*.pt the store does not have: published. Returns how many.
  int push_models();
  // Models in the store newer than the local best (by step) that are not local: fetched.
  int pull_candidates();
  // The store's best model into local models/best.pt when it changed (also as its model file);
  // true if it did.
  bool pull_best();
  // Makes `name` (a local models/ file, published first if needed) the store's best.
  void promote(const std::string& name);
  // When the local models/best.pt is another model than the store's best: promotes it there
  // (by its training step's file name). For a process that gates locally (`pincer train`).
  void push_best();
  // Every local gate result the store does not have.
  void push_gates();

  // The local trainer.ckpt into the store, when it changed since the last push.
  void push_checkpoint();
  // The store's checkpoint into the local trainer.ckpt when there is none locally; true if
  // written.
  bool pull_checkpoint();

  // Gate results: the store's log into the local gating.textproto (the store's is the truth).
  void pull_gates();
  void push_gate(const GateResult& result);

  // Rows appended to the local metrics.csv since the last push (or since the mirror started).
  int push_events();

  // A new run: when the store has no best model yet, the local models/model-000000.pt is
  // published and made the best; else the store's best and model-000000.pt are fetched first.
  // Call before prepare_run_dir (pull) and after it (push): `after_prepare` says which.
  void sync_initial_model(bool after_prepare);

 private:
  Store& store_;
  RunDir local_;
  std::string cursor_;
  std::vector<ChunkEntry> pulled_;  // pulled since the last ack, in stream order
  std::set<std::string> pushed_chunks_;
  int64_t best_version_ = -1;
  size_t checkpoint_hash_ = 0;  // of the checkpoint last pushed or pulled
  bool pushed_checkpoint_ = false;
  size_t metrics_offset_ = 0;
};

}  // namespace pincer
