// redis://HOST:PORT/RUN: the store on a Redis 7 server (Debian's redis-server), every key
// prefixed with pincer:RUN: so that several runs share one server.
//
//   fingerprint                 the run's ruleset fingerprint (set by the first bind)
//   config                      hash {text, fp}
//   records                     stream of {name, fp}: the order chunks arrived in; stream ids
//                               are the cursors
//   chunk:NAME                  hash {fp, data}
//   cursor:CONSUMER             a consumer's acknowledged stream id
//   models                      sorted set of published model names
//   model:NAME                  hash {fp, meta, gen, parts, size}; its weights in
//                               model:NAME:GEN:I (parts of at most 8 MiB), written before the
//                               hash, so a model is listed only once whole
//   best                        hash {name, model_id, fp, version}
//   checkpoint                  hash {fp, gen, parts, size}, parts in checkpoint:GEN:I
//   gates, gated                list of fp + '\n' + GateResult bytes; set of gated candidates
//   events                      stream of {fp, row}
//   workers                     hash NAME -> "unix_ms\nstatus"
//
// Multi-key changes run as Lua scripts (atomic on the server, safe to retry).
#pragma once

#include "store/redis_client.h"
#include "store/store.h"

namespace pincer {

struct RedisStoreOptions {
  RedisOptions redis;
  std::string run;
};

// Parses redis://HOST:PORT/RUN[?retry=S&timeout=S]; throws StoreError.
RedisStoreOptions parse_redis_url(const std::string& url);

// What a server with these persistence settings (CONFIG GET appendonly, appendfsync) can lose
// of the writes it answered, when it is killed: "" for none (appendonly yes, appendfsync
// always), else a warning naming the setting. With everysec, Redis 7.0 answers writes it holds
// back for up to 2 s while a slow fsync runs: the fault soak (scripts/soak.sh) lost a chunk so.
std::string redis_durability_warning(const std::string& appendonly, const std::string& appendfsync);

class RedisStore : public Store {
 public:
  // Connects (retrying as the options say); throws StoreUnavailable. Logs a warning (once per
  // process) when the server's persistence can lose answered writes
  // (redis_durability_warning).
  explicit RedisStore(RedisStoreOptions options);
  std::string url() const override;
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
  std::string key(const std::string& k) const { return prefix_ + k; }
  // A blob in parts under BASE:GEN:I, described by the hash BASE (with `fields` added); the
  // previous generation's parts are deleted after the hash points to the new ones.
  // `list_name` (unless empty) is added to the models listed.
  void write_blob(const std::string& base, const std::string& bytes,
                  const std::vector<std::string>& fields, const std::string& list_name);
  std::string read_blob(const std::string& base, const std::string& what);

  RedisStoreOptions options_;
  std::string prefix_;
  RedisClient redis_;
};

}  // namespace pincer
