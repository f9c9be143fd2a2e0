#include "store/store.h"

#include <algorithm>
#include <chrono>
#include <set>

#include "store/store_dir.h"
#include "store/store_redis.h"

namespace pincer {

int64_t store_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void Store::bind(const std::string& fingerprint) {
  if (fingerprint.empty()) throw StoreError("a store cannot be bound to an empty fingerprint");
  fingerprint_ = fingerprint;
}

void Store::require_bound() const {
  if (fingerprint_.empty()) {
    throw std::logic_error("store " + url() + " used before bind(fingerprint)");
  }
}

void Store::check_fingerprint(const std::string& fp, const std::string& what) const {
  require_bound();
  if (fp != fingerprint_) {
    throw FingerprintError(url() + ": " + what + " was made under ruleset fingerprint " +
                           (fp.empty() ? "(none)" : fp) + ", but this store is bound to " +
                           fingerprint_ + "; refusing it");
  }
}

bool is_dir_store(const std::string& url, std::string* path) {
  if (url.rfind("redis://", 0) == 0) return false;
  if (url.rfind("dir://", 0) == 0) {
    if (path) *path = url.substr(6);
    return true;
  }
  if (url.find("://") != std::string::npos) return false;
  if (path) *path = url;
  return true;
}

std::unique_ptr<Store> open_store(const std::string& url) {
  std::string path;
  if (is_dir_store(url, &path)) {
    if (path.empty()) throw StoreError("store URL " + url + " names no directory");
    return std::make_unique<DirStore>(path);
  }
  if (url.rfind("redis://", 0) == 0) return std::make_unique<RedisStore>(parse_redis_url(url));
  throw StoreError("unknown store URL " + url + " (want dir://PATH or redis://HOST:PORT/RUN)");
}

int64_t copy_store(Store& from, Store& to) {
  int64_t copied = 0;
  if (auto config = from.read_config()) {
    if (!to.read_config()) {
      to.write_config(config->text);
      ++copied;
    }
  }
  // Records, in their order.
  std::set<std::string> have;
  for (const ChunkEntry& e : to.list_chunks("", 0)) have.insert(e.name);
  for (const ChunkEntry& e : from.list_chunks("", 0)) {
    if (have.count(e.name)) continue;
    to.append_chunk(e.name, from.read_chunk(e.name));
    have.insert(e.name);
    ++copied;
  }
  std::set<std::string> models;
  for (const std::string& m : to.list_models()) models.insert(m);
  for (const std::string& m : from.list_models()) {
    if (models.count(m)) continue;
    to.publish_model(m, from.fetch_model(m));
    ++copied;
  }
  if (auto best = from.best()) {
    const auto to_best = to.best();
    if (!to_best || to_best->model_id != best->model_id) {
      const std::vector<std::string> now = to.list_models();
      if (std::find(now.begin(), now.end(), best->name) == now.end()) {
        // A best that is not among the listed models: copy its blob under its name.
        to.publish_model(best->name, from.fetch_best());
      }
      to.promote_best(best->name);
      ++copied;
    }
  }
  if (auto ckpt = from.read_checkpoint()) {
    to.write_checkpoint(*ckpt);
    ++copied;
  }
  const GateLog have_gates = to.read_gate_log();
  std::set<std::string> gated;
  for (const GateResult& g : have_gates.gates()) gated.insert(g.candidate());
  const GateLog from_gates = from.read_gate_log();
  for (const GateResult& g : from_gates.gates()) {
    if (gated.count(g.candidate())) continue;
    to.append_gate_result(g);
    ++copied;
  }
  if (to.read_events().empty()) {
    for (const std::string& row : from.read_events()) {
      to.append_event(row);
      ++copied;
    }
  }
  return copied;
}

}  // namespace pincer
