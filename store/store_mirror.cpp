#include "store/store_mirror.h"

#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>

#include "engine/atomic_file.h"
#include "engine/model_paths.h"
#include "engine/text.h"
#include "engine/text_format.h"
#include "proto/model.pb.h"
#include "store/store_dir.h"

namespace fs = std::filesystem;

namespace pincer {
namespace {

constexpr size_t kPullBatch = 256;

// The metadata first, the weights last: a reader that sees the new .pt sees its metadata.
void write_model_files(const std::string& pt, const ModelBlob& blob) {
  atomic_write_file(model_meta_path(pt), blob.metadata);
  atomic_write_file(pt, blob.weights);
}

ModelBlob read_model_files(const std::string& pt) {
  ModelBlob blob;
  blob.metadata = read_whole_file(model_meta_path(pt));
  blob.weights = read_whole_file(pt);
  return blob;
}

// model-000123.pt -> 123; -1 for other names.
int64_t model_step(const std::string& name) {
  if (name.rfind("model-", 0) != 0 || !ends_with(name, ".pt")) return -1;
  const std::string digits = name.substr(6, name.size() - 9);
  if (digits.empty() || !std::all_of(digits.begin(), digits.end(), ::isdigit)) return -1;
  return std::atoll(digits.c_str());
}

}  // namespace

StoreMirror::StoreMirror(Store& store, RunDir local) : store_(store), local_(std::move(local)) {
  fs::create_directories(local_.models());
  fs::create_directories(local_.records());
  std::error_code ec;
  metrics_offset_ = fs::exists(local_.metrics()) ? fs::file_size(local_.metrics(), ec) : 0;
}

bool StoreMirror::pull_config() {
  const auto config = store_.read_config();
  if (!config) return false;
  atomic_write_file(local_.config(), config->text);
  return true;
}

void StoreMirror::push_config() { store_.write_config(read_whole_file(local_.config())); }

int StoreMirror::push_chunks(bool remove_after) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(local_.records(), ec)) {
    const std::string name = e.path().filename().string();
    if (ends_with(name, ".chunk") && !pushed_chunks_.count(name)) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  int pushed = 0;
  for (const std::string& name : names) {
    const std::string path = (fs::path(local_.records()) / name).string();
    const std::string bytes = read_whole_file(path);
    try {
      // Checked here, before the store is asked: a chunk refused for what it is (damaged,
      // another ruleset) is set aside; any other failure is retried later.
      const std::string fp = record_chunk_fingerprint(bytes, name);
      if (fp != store_.fingerprint()) {
        throw FingerprintError("made under ruleset fingerprint " + fp + ", the store's is " +
                               store_.fingerprint());
      }
    } catch (const StoreError& e) {
      spdlog::error("record chunk {} cannot go to {}: {}; kept as {}.refused", name, store_.url(),
                    e.what(), name);
      fs::rename(path, path + ".refused", ec);
      continue;
    }
    store_.append_chunk(name, bytes);
    // The store has it (it answered): what a worker was told was stored, for a fault test to
    // check against the store (scripts/soak.sh).
    spdlog::info("stored record chunk {} ({} bytes) in {}", name, bytes.size(), store_.url());
    ++pushed;
    if (remove_after) {
      fs::remove(path, ec);
    } else {
      pushed_chunks_.insert(name);
    }
  }
  return pushed;
}

int StoreMirror::pull_chunks() {
  int fetched = 0;
  for (;;) {
    const std::vector<ChunkEntry> entries = store_.list_chunks(cursor_, kPullBatch);
    for (const ChunkEntry& e : entries) {
      const std::string path = (fs::path(local_.records()) / e.name).string();
      if (!fs::exists(path)) {
        check_store_name(e.name, "record chunk");
        atomic_write_file(path, store_.read_chunk(e.name));
        ++fetched;
      }
      pulled_.push_back(e);
      cursor_ = e.cursor;
    }
    if (entries.size() < kPullBatch) break;
  }
  return fetched;
}

int StoreMirror::fetch_chunks(const std::vector<std::string>& names) {
  int fetched = 0;
  for (const std::string& name : names) {
    const std::string path = (fs::path(local_.records()) / name).string();
    if (fs::exists(path)) continue;
    try {
      check_store_name(name, "record chunk");
      atomic_write_file(path, store_.read_chunk(name));
      ++fetched;
    } catch (const StoreUnavailable&) {
      throw;
    } catch (const StoreError& e) {
      spdlog::warn("cannot fetch record chunk {}: {}", name, e.what());
    }
  }
  return fetched;
}

void StoreMirror::start_from_ack(const std::string& consumer) {
  cursor_ = store_.read_cursor(consumer);
  pulled_.clear();
}

void StoreMirror::ack(const std::string& consumer, const std::vector<std::string>& ingested) {
  const std::set<std::string> have(ingested.begin(), ingested.end());
  size_t n = 0;
  while (n < pulled_.size() && have.count(pulled_[n].name)) ++n;
  if (n == 0) return;
  store_.write_cursor(consumer, pulled_[n - 1].cursor);
  pulled_.erase(pulled_.begin(), pulled_.begin() + static_cast<long>(n));
}

int StoreMirror::push_models() {
  const std::vector<std::string> listed = store_.list_models();
  const std::set<std::string> have(listed.begin(), listed.end());
  int pushed = 0;
  std::error_code ec;
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(local_.models(), ec)) {
    const std::string name = e.path().filename().string();
    if (model_step(name) >= 0 && !have.count(name) &&
        fs::exists(model_meta_path(e.path().string()))) {
      names.push_back(name);
    }
  }
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    store_.publish_model(name, read_model_files((fs::path(local_.models()) / name).string()));
    ++pushed;
  }
  return pushed;
}

int StoreMirror::pull_candidates() {
  int64_t best_step = -1;
  if (const auto b = store_.best()) best_step = model_step(b->name);
  int fetched = 0;
  for (const std::string& name : store_.list_models()) {
    const std::string path = (fs::path(local_.models()) / name).string();
    if (model_step(name) <= best_step || fs::exists(path)) continue;
    write_model_files(path, store_.fetch_model(name));
    ++fetched;
  }
  return fetched;
}

bool StoreMirror::pull_best() {
  const auto b = store_.best();
  if (!b || b->version == best_version_) return false;
  const ModelBlob blob = store_.fetch_model(b->name);
  const std::string path = (fs::path(local_.models()) / b->name).string();
  if (!fs::exists(path)) write_model_files(path, blob);
  write_model_files(local_.best(), blob);
  best_version_ = b->version;
  return true;
}

void StoreMirror::promote(const std::string& name) {
  const std::vector<std::string> listed = store_.list_models();
  if (std::find(listed.begin(), listed.end(), name) == listed.end()) {
    store_.publish_model(name, read_model_files((fs::path(local_.models()) / name).string()));
  }
  store_.promote_best(name);
  if (const auto b = store_.best()) best_version_ = b->version;
}

void StoreMirror::push_best() {
  if (!fs::exists(model_meta_path(local_.best()))) return;
  ModelMetadata meta;
  TextFormatError error;
  TextFormatOptions options;
  options.allow_unknown_fields = true;
  if (!parse_text_format(read_whole_file(model_meta_path(local_.best())), meta, error, options)) {
    throw StoreError(local_.best() + ": damaged model metadata (" + error.describe() + ")");
  }
  const auto b = store_.best();
  if (b && b->model_id == meta.model_id()) return;
  char name[64];
  std::snprintf(name, sizeof name, "model-%06lld.pt", static_cast<long long>(meta.training_step()));
  promote(name);
}

void StoreMirror::push_gates() {
  const GateLog local = read_gate_log(local_);
  for (const GateResult& g : local.gates()) store_.append_gate_result(g);
}

void StoreMirror::push_checkpoint() {
  // By content: file times are too coarse to tell two checkpoints a few ms apart.
  if (!fs::exists(local_.checkpoint())) return;
  const std::string bytes = read_whole_file(local_.checkpoint());
  const size_t hash = std::hash<std::string>{}(bytes);
  if (hash == checkpoint_hash_ && pushed_checkpoint_) return;
  store_.write_checkpoint(bytes);
  checkpoint_hash_ = hash;
  pushed_checkpoint_ = true;
}

bool StoreMirror::pull_checkpoint() {
  if (fs::exists(local_.checkpoint())) return false;
  const auto bytes = store_.read_checkpoint();
  if (!bytes) return false;
  atomic_write_file(local_.checkpoint(), *bytes);
  checkpoint_hash_ = std::hash<std::string>{}(*bytes);
  pushed_checkpoint_ = true;
  return true;
}

void StoreMirror::pull_gates() {
  const GateLog log = store_.read_gate_log();
  GateLog local;
  try {
    local = read_gate_log(local_);
  } catch (const std::exception&) {
  }
  if (local.SerializeAsString() != log.SerializeAsString()) write_gate_log(local_, log);
}

void StoreMirror::push_gate(const GateResult& result) { store_.append_gate_result(result); }

int StoreMirror::push_events() {
  std::ifstream in(local_.metrics(), std::ios::binary);
  if (!in) return 0;
  in.seekg(static_cast<std::streamoff>(metrics_offset_));
  std::string rest((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  int pushed = 0;
  size_t at = 0;
  for (;;) {
    const auto nl = rest.find('\n', at);
    if (nl == std::string::npos) break;  // a row is whole only with its newline
    const std::string row = rest.substr(at, nl - at);
    if (!row.empty() && row.rfind("unix_ms,", 0) != 0) {
      store_.append_event(row);
      ++pushed;
    }
    metrics_offset_ += nl + 1 - at;
    at = nl + 1;
  }
  return pushed;
}

void StoreMirror::sync_initial_model(bool after_prepare) {
  const std::string zero = (fs::path(local_.models()) / "model-000000.pt").string();
  if (!after_prepare) {
    if (!store_.best()) return;
    pull_best();
    const std::vector<std::string> listed = store_.list_models();
    if (!fs::exists(zero) &&
        std::find(listed.begin(), listed.end(), "model-000000.pt") != listed.end()) {
      write_model_files(zero, store_.fetch_model("model-000000.pt"));
    }
    return;
  }
  if (store_.best()) return;
  const std::vector<std::string> listed = store_.list_models();
  if (std::find(listed.begin(), listed.end(), "model-000000.pt") == listed.end()) {
    store_.publish_model("model-000000.pt", read_model_files(zero));
  }
  // Another process may have started the run meanwhile: its best stays.
  if (!store_.best()) promote("model-000000.pt");
  pull_best();
}

}  // namespace pincer
