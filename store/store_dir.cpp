#include "store/store_dir.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/atomic_file.h"
#include "engine/model_paths.h"
#include "engine/text.h"
#include "engine/text_format.h"
#include "proto/model.pb.h"
#include "proto/record.pb.h"
#include "store/gate_log.h"

namespace fs = std::filesystem;

namespace pincer {
namespace {

// How far back the dir store's cursor looks: a chunk is named when its writer starts the file
// and appears when it is renamed, and writers' clocks differ.
constexpr int64_t kCursorLagMs = 60'000;

std::string read_file_or_throw(const std::string& path, const std::string& what) {
  try {
    return read_whole_file(path);
  } catch (const std::exception& e) {
    throw StoreError(what + ": " + e.what());
  }
}

}  // namespace

void check_store_name(const std::string& name, const std::string& what) {
  bool ok = !name.empty() && name.size() <= 200 && name[0] != '.';
  for (char c : name) {
    ok &= std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
  }
  if (!ok) throw StoreError("bad " + what + " name '" + name.substr(0, 80) + "'");
}

std::string record_chunk_fingerprint(const std::string& bytes, const std::string& origin) {
  const unsigned long long size = ZSTD_getFrameContentSize(bytes.data(), bytes.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > (256ull << 20)) {
    throw StoreError(origin + ": not a record chunk");
  }
  std::string raw(size, '\0');
  const size_t n = ZSTD_decompress(raw.data(), raw.size(), bytes.data(), bytes.size());
  RecordChunk chunk;
  if (ZSTD_isError(n) || n != size || !chunk.ParseFromString(raw)) {
    throw StoreError(origin + ": damaged record chunk");
  }
  return chunk.fingerprint();
}

std::string model_metadata_fingerprint(const std::string& text, const std::string& origin) {
  ModelMetadata meta;
  TextFormatError error;
  TextFormatOptions options;
  options.allow_unknown_fields = true;
  if (!parse_text_format(text, meta, error, options)) {
    throw StoreError(origin + ": damaged model metadata (" + error.describe() + ")");
  }
  return meta.fingerprint();
}

void DirStore::bind(const std::string& fingerprint) {
  const std::string held = run_fingerprint();
  if (!held.empty() && held != fingerprint) {
    throw FingerprintError(url() + " holds a run under ruleset fingerprint " + held + ", not " +
                           fingerprint + "; refusing to mix them");
  }
  Store::bind(fingerprint);
}

DirStore::DirStore(std::string path) : dir_(std::move(path)) {}

void DirStore::make_folder(const std::string& folder) {
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) throw StoreError("cannot create " + folder + ": " + ec.message());
}

std::string DirStore::run_fingerprint() {
  const std::string meta = model_meta_path(dir_.best());
  if (!fs::exists(meta)) return "";
  return model_metadata_fingerprint(read_file_or_throw(meta, "best model"), meta);
}

std::optional<ConfigItem> DirStore::read_config() {
  if (!fs::exists(dir_.config())) return std::nullopt;
  return ConfigItem{read_file_or_throw(dir_.config(), "config"), ""};
}

void DirStore::write_config(const std::string& text) {
  make_folder(dir_.root);
  atomic_write_file(dir_.config(), text);
}

void DirStore::append_chunk(const std::string& name, const std::string& bytes) {
  check_store_name(name, "record chunk");
  if (!ends_with(name, ".chunk")) throw StoreError("record chunk name without .chunk: " + name);
  check_fingerprint(record_chunk_fingerprint(bytes, name), "record chunk " + name);
  const std::string path = (fs::path(dir_.records()) / name).string();
  if (fs::exists(path)) return;
  make_folder(dir_.records());
  atomic_write_file(path, bytes);
}

std::vector<ChunkEntry> DirStore::list_chunks(const std::string& cursor, size_t) {
  std::string from;
  if (!cursor.empty()) {
    const long long ms = std::atoll(cursor.c_str());
    char buf[32];
    std::snprintf(buf, sizeof buf, "%013lld", std::max<long long>(0, ms - kCursorLagMs));
    from = buf;
  }
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir_.records(), ec)) {
    const std::string name = e.path().filename().string();
    if (e.is_regular_file() && ends_with(name, ".chunk") && name >= from) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  std::vector<ChunkEntry> out;
  for (std::string& n : names) out.push_back({n, n});
  return out;
}

std::string DirStore::read_chunk(const std::string& name) {
  check_store_name(name, "record chunk");
  const std::string bytes =
      read_file_or_throw((fs::path(dir_.records()) / name).string(), "record chunk " + name);
  check_fingerprint(record_chunk_fingerprint(bytes, name), "record chunk " + name);
  return bytes;
}

std::string DirStore::read_cursor(const std::string& consumer) {
  check_store_name(consumer, "consumer");
  const std::string path = dir_.path("cursors/" + consumer);
  if (!fs::exists(path)) return "";
  return read_file_or_throw(path, "cursor of " + consumer);
}

void DirStore::write_cursor(const std::string& consumer, const std::string& cursor) {
  check_store_name(consumer, "consumer");
  make_folder(dir_.path("cursors"));
  atomic_write_file(dir_.path("cursors/" + consumer), cursor);
}

void DirStore::publish_model(const std::string& name, const ModelBlob& blob) {
  require_bound();
  check_store_name(name, "model");
  if (!ends_with(name, ".pt") || name == "best.pt") throw StoreError("bad model name " + name);
  check_fingerprint(model_metadata_fingerprint(blob.metadata, name), "model " + name);
  // The weights first, the metadata last: a model is listed once its metadata is there.
  const std::string path = (fs::path(dir_.models()) / name).string();
  make_folder(dir_.models());
  atomic_write_file(path, blob.weights);
  atomic_write_file(model_meta_path(path), blob.metadata);
}

std::vector<std::string> DirStore::list_models() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir_.models(), ec)) {
    const std::string name = e.path().filename().string();
    if (name == "best.pt" || !ends_with(name, ".pt")) continue;
    if (fs::exists(model_meta_path(e.path().string()))) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

ModelBlob DirStore::read_model_files(const std::string& pt_path, const std::string& what) {
  ModelBlob blob;
  blob.metadata = read_file_or_throw(model_meta_path(pt_path), what);
  check_fingerprint(model_metadata_fingerprint(blob.metadata, what), what);
  blob.weights = read_file_or_throw(pt_path, what);
  return blob;
}

ModelBlob DirStore::fetch_model(const std::string& name) {
  check_store_name(name, "model");
  return read_model_files((fs::path(dir_.models()) / name).string(), "model " + name);
}

void DirStore::promote_best(const std::string& name) {
  check_store_name(name, "model");
  const std::string path = (fs::path(dir_.models()) / name).string();
  check_fingerprint(
      model_metadata_fingerprint(read_file_or_throw(model_meta_path(path), name), name),
      "model " + name);
  atomic_copy_file(path, dir_.best());
  atomic_copy_file(model_meta_path(path), model_meta_path(dir_.best()));
}

std::optional<BestModel> DirStore::best() {
  std::error_code ec;
  const auto t = fs::last_write_time(dir_.best(), ec);
  if (ec) return std::nullopt;
  ModelMetadata meta;
  TextFormatError error;
  TextFormatOptions options;
  options.allow_unknown_fields = true;
  const std::string text = read_file_or_throw(model_meta_path(dir_.best()), "best model");
  if (!parse_text_format(text, meta, error, options)) {
    throw StoreError(dir_.best() + ": damaged model metadata (" + error.describe() + ")");
  }
  check_fingerprint(meta.fingerprint(), "the best model");
  char name[64];
  std::snprintf(name, sizeof name, "model-%06lld.pt", static_cast<long long>(meta.training_step()));
  BestModel b;
  b.name = name;
  b.model_id = meta.model_id();
  b.version = t.time_since_epoch().count();
  return b;
}

ModelBlob DirStore::fetch_best() { return read_model_files(dir_.best(), "best model"); }

void DirStore::write_checkpoint(const std::string& bytes) {
  require_bound();
  make_folder(dir_.root);
  atomic_write_file(dir_.checkpoint(), bytes);
}

std::optional<std::string> DirStore::read_checkpoint() {
  require_bound();
  if (!fs::exists(dir_.checkpoint())) return std::nullopt;
  return read_file_or_throw(dir_.checkpoint(), "trainer checkpoint");
}

void DirStore::append_gate_result(const GateResult& result) {
  require_bound();
  GateLog log = pincer::read_gate_log(dir_);
  for (const GateResult& g : log.gates()) {
    if (g.candidate() == result.candidate()) return;
  }
  *log.add_gates() = result;
  make_folder(dir_.root);
  write_gate_log(dir_, log);
}

GateLog DirStore::read_gate_log() {
  require_bound();
  try {
    return pincer::read_gate_log(dir_);
  } catch (const StoreError&) {
    throw;
  } catch (const std::exception& e) {
    throw StoreError(e.what());
  }
}

void DirStore::append_event(const std::string& row) {
  require_bound();
  if (row.find('\n') != std::string::npos) throw StoreError("a metrics row with a newline");
  make_folder(dir_.root);
  append_metrics_row(dir_, row);
}

std::vector<std::string> DirStore::read_events() {
  require_bound();
  std::vector<std::string> rows;
  std::ifstream in(dir_.metrics());
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (header) {
      header = false;
      continue;
    }
    if (!line.empty()) rows.push_back(line);
  }
  return rows;
}

void DirStore::heartbeat(const WorkerInfo& info) {
  check_store_name(info.name, "worker");
  make_folder(dir_.path("workers"));
  atomic_write_file(dir_.path("workers/" + info.name),
                    std::to_string(info.last_seen_ms) + "\n" + info.status + "\n");
}

std::vector<WorkerInfo> DirStore::workers() {
  std::vector<WorkerInfo> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir_.path("workers"), ec)) {
    const std::string name = e.path().filename().string();
    if (name.find(".tmp.") != std::string::npos) continue;
    std::ifstream in(e.path());
    WorkerInfo w;
    w.name = name;
    std::string ms;
    if (!std::getline(in, ms)) continue;
    w.last_seen_ms = std::atoll(ms.c_str());
    std::getline(in, w.status);
    out.push_back(w);
  }
  std::sort(out.begin(), out.end(),
            [](const WorkerInfo& a, const WorkerInfo& b) { return a.name < b.name; });
  return out;
}

}  // namespace pincer
