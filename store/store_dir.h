// dir://PATH: the store as a run directory (store/run_dir.h), in today's layout: records/*.chunk,
// models/model-NNNNNN.pt (+ .meta.textproto), models/best.pt, trainer.ckpt, gating.textproto,
// metrics.csv, config.textproto; plus cursors/CONSUMER and workers/NAME for the store's
// consumer cursors and heartbeats. Every write is atomic (engine/atomic_file.h). Chunks and
// models carry their fingerprint inside (RecordChunk, ModelMetadata) and are checked when read;
// the run-level files (config, checkpoint, gates, metrics) belong to the one run of the folder.
#pragma once

#include "store/run_dir.h"
#include "store/store.h"

namespace pincer {

class DirStore : public Store {
 public:
  explicit DirStore(std::string path);
  std::string url() const override { return "dir://" + dir_.root; }
  const RunDir& dir() const { return dir_; }

  void bind(const std::string& fingerprint) override;
  std::string run_fingerprint() override;
  std::optional<ConfigItem> read_config() override;
  void write_config(const std::string& text) override;
  void append_chunk(const std::string& name, const std::string& bytes) override;
  std::vector<ChunkEntry> list_chunks(const std::string& cursor, size_t max) override;
  std::string read_chunk(const std::string& name) override;
  std::string read_cursor(const std::string& consumer) override;
  void write_cursor(const std::string& consumer, const std::string& cursor) override;
  void publish_model(const std::string& name, const ModelBlob& blob) override;
  std::vector<std::string> list_models() override;
  ModelBlob fetch_model(const std::string& name) override;
  void promote_best(const std::string& name) override;
  std::optional<BestModel> best() override;
  ModelBlob fetch_best() override;
  void write_checkpoint(const std::string& bytes) override;
  std::optional<std::string> read_checkpoint() override;
  void append_gate_result(const GateResult& result) override;
  GateLog read_gate_log() override;
  void append_event(const std::string& row) override;
  std::vector<std::string> read_events() override;
  void heartbeat(const WorkerInfo& info) override;
  std::vector<WorkerInfo> workers() override;

 private:
  ModelBlob read_model_files(const std::string& pt_path, const std::string& what);
  static void make_folder(const std::string& folder);
  RunDir dir_;
};

// Checks a name used as a file name in a store (chunk, model, consumer, worker): letters,
// digits, '-', '_', '.', not starting with '.'; throws StoreError.
void check_store_name(const std::string& name, const std::string& what);
// The fingerprint inside a record chunk's bytes (zstd-compressed RecordChunk); throws
// StoreError when they do not decode.
std::string record_chunk_fingerprint(const std::string& bytes, const std::string& origin);
// The fingerprint in a model's metadata text; throws StoreError when it does not parse.
std::string model_metadata_fingerprint(const std::string& text, const std::string& origin);

}  // namespace pincer
