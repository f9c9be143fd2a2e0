// The store: what the parts of a training run exchange (self-play workers, trainer, gatekeeper),
// behind one interface with two implementations:
//
//   dir://PATH                  the run directory (store/run_dir.h), layout unchanged; a bare
//                               path means the same. Every part on one machine (or a shared
//                               file system).
//   redis://HOST:PORT/RUN       a Redis 7 server (store/store_redis.h); keys prefixed with
//                               pincer:RUN: so several runs share one server. Options after '?':
//                               retry=SECONDS (how long an operation retries an unreachable
//                               server before it fails; default 600), timeout=SECONDS (connect
//                               and command timeout; default 5).
//
// Items: record chunks (append, list the new ones since a cursor, read), consumer cursors,
// models (publish a candidate, promote a best, fetch by name, the current best with a version
// that grows at each promotion), the trainer's checkpoint, gating results, metrics events, the
// run's config and workers' heartbeats. Models and checkpoints are byte blobs: the store knows
// no torch. Every item carries the ruleset fingerprint the store is bound to, and an item made
// under another is refused (FingerprintError) when it is read.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "proto/train_state.pb.h"

namespace pincer {

class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// The store cannot be reached (after retrying for as long as the store's retry option says).
class StoreUnavailable : public StoreError {
 public:
  using StoreError::StoreError;
};
// An item made under another ruleset fingerprint.
class FingerprintError : public StoreError {
 public:
  using StoreError::StoreError;
};

struct ChunkEntry {
  std::string name;    // <unix ms>-<writer>-<seq>.chunk (store/records.h)
  std::string cursor;  // pass to list_chunks to get the chunks after this one
};

// A model as files: the weights (.pt) and its metadata (.meta.textproto, proto ModelMetadata).
struct ModelBlob {
  std::string weights;
  std::string metadata;
};

struct BestModel {
  std::string name;  // model-NNNNNN.pt
  std::string model_id;
  int64_t version = 0;  // grows with every promotion (dir store: the file's modification time)
};

struct WorkerInfo {
  std::string name;
  int64_t last_seen_ms = 0;  // unix ms of its latest heartbeat
  std::string status;        // one line, e.g. "12 games, 340 games/h, model ..."
};

struct ConfigItem {
  std::string text;         // proto RunConfig in text format
  std::string fingerprint;  // of the ruleset the config names, as the writer computed it
};

class Store {
 public:
  virtual ~Store() = default;
  virtual std::string url() const = 0;

  // Binds the store to a ruleset fingerprint: items are written with it and items under
  // another are refused. Needed before any item but the config.
  virtual void bind(const std::string& fingerprint);
  const std::string& fingerprint() const { return fingerprint_; }
  // The fingerprint of the run the store holds ("" for an empty store): what to bind to when
  // the game is not known yet (`pincer store copy`).
  virtual std::string run_fingerprint() = 0;

  // The run's config; nullopt when the run has none yet.
  virtual std::optional<ConfigItem> read_config() = 0;
  virtual void write_config(const std::string& text) = 0;

  // Record chunks (zstd-compressed proto RecordChunk, store/records.h). Appending a name that is
  // already there does nothing (a retried append is not a duplicate).
  virtual void append_chunk(const std::string& name, const std::string& bytes) = 0;
  // Chunks appended after `cursor` ("" for all), oldest first, at most `max`. The dir store may
  // also return chunks listed before (its cursor allows for writers' clocks and slow renames);
  // callers skip names they have.
  virtual std::vector<ChunkEntry> list_chunks(const std::string& cursor, size_t max) = 0;
  // Throws StoreError when missing or damaged, FingerprintError under another ruleset.
  virtual std::string read_chunk(const std::string& name) = 0;

  // A consumer's cursor (its acknowledged position in the records): "" when it has none.
  virtual std::string read_cursor(const std::string& consumer) = 0;
  virtual void write_cursor(const std::string& consumer, const std::string& cursor) = 0;

  // Models, by file name (model-NNNNNN.pt). Publishing is atomic: a model is listed only once
  // whole.
  virtual void publish_model(const std::string& name, const ModelBlob& blob) = 0;
  virtual std::vector<std::string> list_models() = 0;
  virtual ModelBlob fetch_model(const std::string& name) = 0;
  // Makes a published model the best (atomically).
  virtual void promote_best(const std::string& name) = 0;
  virtual std::optional<BestModel> best() = 0;
  virtual ModelBlob fetch_best() = 0;

  // The trainer's checkpoint (replaced atomically).
  virtual void write_checkpoint(const std::string& bytes) = 0;
  virtual std::optional<std::string> read_checkpoint() = 0;

  // Gating results, oldest first. Appending a result for a candidate already gated replaces
  // nothing and adds nothing (a retried append is not a duplicate).
  virtual void append_gate_result(const GateResult& result) = 0;
  virtual GateLog read_gate_log() = 0;

  // Metrics events: rows of metrics.csv (columns: kMetricsColumns in store/run_dir.h).
  virtual void append_event(const std::string& row) = 0;
  virtual std::vector<std::string> read_events() = 0;

  // Workers' heartbeats, newest status per name.
  virtual void heartbeat(const WorkerInfo& info) = 0;
  virtual std::vector<WorkerInfo> workers() = 0;

 protected:
  void require_bound() const;
  // Throws FingerprintError unless `fp` is the bound fingerprint.
  void check_fingerprint(const std::string& fp, const std::string& what) const;
  std::string fingerprint_;
};

// Opens dir://PATH, PATH or redis://HOST:PORT/RUN[?retry=S&timeout=S]; throws StoreError for a
// URL it cannot parse and StoreUnavailable for a server it cannot reach.
std::unique_ptr<Store> open_store(const std::string& url);
// Whether `url` names a dir store (dir://PATH or a plain path), and its path.
bool is_dir_store(const std::string& url, std::string* path = nullptr);

// Copies a whole run (config, records, models, best, checkpoint, gates, events) from one store
// to another; items already in `to` are kept. Both bound to the same fingerprint. Returns the
// number of items copied.
int64_t copy_store(Store& from, Store& to);

// Unix time in milliseconds.
int64_t store_now_ms();

}  // namespace pincer
