#include "store/store_redis.h"

#include <spdlog/spdlog.h>

#include <atomic>
#include <map>
#include <random>

#include "store/store_dir.h"

namespace pincer {
namespace {

constexpr size_t kPartBytes = 8u << 20;

// Adds a chunk once: its hash, then its entry in the records stream.
const char* const kAppendChunk = R"(
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'fp', ARGV[2], 'data', ARGV[3])
redis.call('XADD', KEYS[2], '*', 'name', ARGV[1], 'fp', ARGV[2])
return 1
)";

// Points a blob's hash at its new parts (ARGV[2..]: field, value pairs) and lists the model
// (ARGV[1], unless empty); returns the previous {gen, parts}.
const char* const kCommitBlob = R"(
local old = redis.call('HMGET', KEYS[1], 'gen', 'parts')
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
if ARGV[1] ~= '' then redis.call('ZADD', KEYS[2], 0, ARGV[1]) end
return old
)";

const char* const kPromote = R"(
if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'name', ARGV[1], 'model_id', ARGV[2], 'fp', ARGV[3])
redis.call('HINCRBY', KEYS[1], 'version', 1)
return 1
)";

const char* const kAppendGate = R"(
if redis.call('SADD', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('RPUSH', KEYS[2], ARGV[2])
return 1
)";

std::map<std::string, std::string> as_map(const RedisReply& r) {
  std::map<std::string, std::string> m;
  for (size_t i = 0; i + 1 < r.elements.size(); i += 2) {
    m[r.elements[i].str] = r.elements[i + 1].str;
  }
  return m;
}

std::string random_gen() {
  static thread_local std::mt19937_64 rng(std::random_device{}());
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(rng()));
  return buf;
}

std::string model_id_of(const std::string& meta_text, const std::string& origin) {
  // model_id: "..." in the metadata text (proto ModelMetadata), found by the dir store's parser.
  model_metadata_fingerprint(meta_text, origin);  // throws when it does not parse
  const auto at = meta_text.find("model_id: \"");
  if (at == std::string::npos) return "";
  const auto end = meta_text.find('"', at + 11);
  return meta_text.substr(at + 11, end == std::string::npos ? 0 : end - at - 11);
}

}  // namespace

RedisStoreOptions parse_redis_url(const std::string& url) {
  auto bad = [&](const std::string& why) {
    return StoreError("bad store URL " + url + ": " + why + " (want redis://HOST:PORT/RUN)");
  };
  if (url.rfind("redis://", 0) != 0) throw bad("not redis://");
  std::string rest = url.substr(8), query;
  if (const auto q = rest.find('?'); q != std::string::npos) {
    query = rest.substr(q + 1);
    rest = rest.substr(0, q);
  }
  const auto slash = rest.find('/');
  if (slash == std::string::npos) throw bad("no run name");
  RedisStoreOptions o;
  o.run = rest.substr(slash + 1);
  check_store_name(o.run, "run");
  const std::string hostport = rest.substr(0, slash);
  const auto colon = hostport.rfind(':');
  o.redis.host = hostport.substr(0, colon);
  if (o.redis.host.empty()) throw bad("no host");
  if (colon != std::string::npos) {
    const std::string port = hostport.substr(colon + 1);
    char* end = nullptr;
    const long p = std::strtol(port.c_str(), &end, 10);
    if (port.empty() || *end || p <= 0 || p > 65535) throw bad("port '" + port + "'");
    o.redis.port = static_cast<int>(p);
  }
  size_t at = 0;
  while (at < query.size()) {
    auto amp = query.find('&', at);
    if (amp == std::string::npos) amp = query.size();
    const std::string kv = query.substr(at, amp - at);
    at = amp + 1;
    const auto eq = kv.find('=');
    if (eq == std::string::npos) throw bad("option '" + kv + "' without a value");
    const std::string k = kv.substr(0, eq), v = kv.substr(eq + 1);
    char* end = nullptr;
    const double x = std::strtod(v.c_str(), &end);
    if (v.empty() || *end || !(x >= 0) || x > 1e6) throw bad("option " + k + " = '" + v + "'");
    if (k == "retry") {
      o.redis.retry_s = x;
    } else if (k == "timeout") {
      if (x <= 0) throw bad("timeout must be positive");
      o.redis.timeout_s = x;
    } else {
      throw bad("unknown option '" + k + "' (known: retry, timeout)");
    }
  }
  return o;
}

std::string redis_durability_warning(const std::string& appendonly,
                                     const std::string& appendfsync) {
  if (appendonly != "yes") {
    return "appendonly is " + appendonly +
           ": a restarted server loses every write since its last snapshot; run it with "
           "--appendonly yes --appendfsync always (docs/distributed.md, \"Redis persistence\")";
  }
  if (appendfsync != "always") {
    return "appendfsync is " + appendfsync +
           ": a killed or crashed server can lose writes it already answered (up to 2 s of "
           "record chunks); run it with --appendfsync always (docs/distributed.md, \"Redis "
           "persistence\")";
  }
  return "";
}

RedisStore::RedisStore(RedisStoreOptions options)
    : options_(std::move(options)),
      prefix_("pincer:" + options_.run + ":"),
      redis_(options_.redis) {
  const RedisReply pong = redis_.command({"PING"});
  if (pong.str != "PONG") throw StoreError(redis_.where() + ": no PONG to PING");
  // Servers that refuse CONFIG (renamed or disabled by the operator) are not checked.
  static std::atomic<bool> warned{false};
  if (warned) return;
  try {
    const auto setting = [&](const char* name) {
      const auto m = as_map(redis_.command({"CONFIG", "GET", name}));
      const auto it = m.find(name);
      return it == m.end() ? std::string("unknown") : it->second;
    };
    const std::string warning =
        redis_durability_warning(setting("appendonly"), setting("appendfsync"));
    if (!warning.empty() && !warned.exchange(true)) spdlog::warn("{}: {}", url(), warning);
  } catch (const RedisReplyError&) {
  }
}

std::string RedisStore::url() const {
  return "redis://" + options_.redis.host + ":" + std::to_string(options_.redis.port) + "/" +
         options_.run;
}

void RedisStore::bind(const std::string& fingerprint) {
  Store::bind(fingerprint);
  redis_.command({"SET", key("fingerprint"), fingerprint, "NX"});
  const RedisReply r = redis_.command({"GET", key("fingerprint")});
  if (r.str != fingerprint) {
    fingerprint_.clear();
    throw FingerprintError(url() + " holds a run under ruleset fingerprint " + r.str + ", not " +
                           fingerprint + "; refusing to mix them");
  }
}

std::string RedisStore::run_fingerprint() {
  return redis_.command({"GET", key("fingerprint")}).str;
}

std::optional<ConfigItem> RedisStore::read_config() {
  auto m = as_map(redis_.command({"HGETALL", key("config")}));
  if (m.empty()) return std::nullopt;
  return ConfigItem{m["text"], m["fp"]};
}

void RedisStore::write_config(const std::string& text) {
  require_bound();
  redis_.command({"HSET", key("config"), "text", text, "fp", fingerprint_});
}

void RedisStore::append_chunk(const std::string& name, const std::string& bytes) {
  check_store_name(name, "record chunk");
  check_fingerprint(record_chunk_fingerprint(bytes, name), "record chunk " + name);
  redis_.command(
      {"EVAL", kAppendChunk, "2", key("chunk:" + name), key("records"), name, fingerprint_, bytes});
}

std::vector<ChunkEntry> RedisStore::list_chunks(const std::string& cursor, size_t max) {
  require_bound();
  std::vector<std::string> args{"XRANGE", key("records"), cursor.empty() ? "-" : "(" + cursor, "+"};
  if (max > 0) {
    args.push_back("COUNT");
    args.push_back(std::to_string(max));
  }
  std::vector<ChunkEntry> out;
  for (const RedisReply& e : redis_.command(args).elements) {
    if (e.elements.size() < 2) continue;
    auto fields = as_map(e.elements[1]);
    check_fingerprint(fields["fp"], "record chunk " + fields["name"]);
    out.push_back({fields["name"], e.elements[0].str});
  }
  return out;
}

std::string RedisStore::read_chunk(const std::string& name) {
  check_store_name(name, "record chunk");
  require_bound();
  auto m = as_map(redis_.command({"HGETALL", key("chunk:" + name)}));
  if (m.empty()) throw StoreError(url() + ": no record chunk " + name);
  check_fingerprint(m["fp"], "record chunk " + name);
  return m["data"];
}

std::string RedisStore::read_cursor(const std::string& consumer) {
  check_store_name(consumer, "consumer");
  return redis_.command({"GET", key("cursor:" + consumer)}).str;
}

void RedisStore::write_cursor(const std::string& consumer, const std::string& cursor) {
  check_store_name(consumer, "consumer");
  redis_.command({"SET", key("cursor:" + consumer), cursor});
}

void RedisStore::write_blob(const std::string& base, const std::string& bytes,
                            const std::vector<std::string>& fields, const std::string& list_name) {
  const std::string gen = random_gen();
  const size_t parts = (bytes.size() + kPartBytes - 1) / kPartBytes;
  for (size_t i = 0; i < parts; ++i) {
    redis_.command({"SET", base + ":" + gen + ":" + std::to_string(i),
                    bytes.substr(i * kPartBytes, kPartBytes)});
  }
  std::vector<std::string> args{"EVAL",        kCommitBlob,
                                "2",           base,
                                key("models"), list_name,
                                "fp",          fingerprint_,
                                "gen",         gen,
                                "parts",       std::to_string(parts),
                                "size",        std::to_string(bytes.size())};
  args.insert(args.end(), fields.begin(), fields.end());
  const RedisReply old = redis_.command(args);
  if (old.elements.size() == 2 && !old.elements[0].nil()) {
    const long n = std::atol(old.elements[1].str.c_str());
    for (long i = 0; i < n; ++i) {
      redis_.command({"DEL", base + ":" + old.elements[0].str + ":" + std::to_string(i)});
    }
  }
}

std::string RedisStore::read_blob(const std::string& base, const std::string& what) {
  // A writer may replace the blob while it is read (its old parts deleted): read again.
  for (int attempt = 0; attempt < 5; ++attempt) {
    auto m = as_map(redis_.command({"HGETALL", base}));
    if (m.empty()) throw StoreError(url() + ": no " + what);
    check_fingerprint(m["fp"], what);
    const long parts = std::atol(m["parts"].c_str());
    const size_t size = std::strtoull(m["size"].c_str(), nullptr, 10);
    std::string out;
    out.reserve(size);
    bool whole = true;
    for (long i = 0; i < parts && whole; ++i) {
      const RedisReply p = redis_.command({"GET", base + ":" + m["gen"] + ":" + std::to_string(i)});
      whole = !p.nil();
      out += p.str;
    }
    if (whole && out.size() == size) return out;
  }
  throw StoreError(url() + ": " + what + " is incomplete (parts missing)");
}

void RedisStore::publish_model(const std::string& name, const ModelBlob& blob) {
  require_bound();
  check_store_name(name, "model");
  if (name.size() < 4 || name.compare(name.size() - 3, 3, ".pt") != 0 || name == "best.pt") {
    throw StoreError("bad model name " + name);
  }
  check_fingerprint(model_metadata_fingerprint(blob.metadata, name), "model " + name);
  write_blob(key("model:" + name), blob.weights, {"meta", blob.metadata}, name);
}

std::vector<std::string> RedisStore::list_models() {
  std::vector<std::string> out;
  for (const RedisReply& e : redis_.command({"ZRANGE", key("models"), "0", "-1"}).elements) {
    out.push_back(e.str);
  }
  return out;
}

ModelBlob RedisStore::fetch_model(const std::string& name) {
  check_store_name(name, "model");
  require_bound();
  ModelBlob blob;
  blob.weights = read_blob(key("model:" + name), "model " + name);
  blob.metadata = redis_.command({"HGET", key("model:" + name), "meta"}).str;
  check_fingerprint(model_metadata_fingerprint(blob.metadata, name), "model " + name);
  return blob;
}

void RedisStore::promote_best(const std::string& name) {
  check_store_name(name, "model");
  require_bound();
  auto m = as_map(redis_.command({"HGETALL", key("model:" + name)}));
  if (m.empty()) throw StoreError(url() + ": cannot promote " + name + ": no such model");
  check_fingerprint(m["fp"], "model " + name);
  const std::string id = model_id_of(m["meta"], name);
  const RedisReply r = redis_.command(
      {"EVAL", kPromote, "2", key("best"), key("model:" + name), name, id, fingerprint_});
  if (r.integer != 1) throw StoreError(url() + ": cannot promote " + name + ": no such model");
}

std::optional<BestModel> RedisStore::best() {
  require_bound();
  auto m = as_map(redis_.command({"HGETALL", key("best")}));
  if (m.empty()) return std::nullopt;
  check_fingerprint(m["fp"], "the best model");
  BestModel b;
  b.name = m["name"];
  b.model_id = m["model_id"];
  b.version = std::atoll(m["version"].c_str());
  return b;
}

ModelBlob RedisStore::fetch_best() {
  const auto b = best();
  if (!b) throw StoreError(url() + ": no best model yet");
  return fetch_model(b->name);
}

void RedisStore::write_checkpoint(const std::string& bytes) {
  require_bound();
  write_blob(key("checkpoint"), bytes, {}, "");
}

std::optional<std::string> RedisStore::read_checkpoint() {
  require_bound();
  if (redis_.command({"EXISTS", key("checkpoint")}).integer == 0) return std::nullopt;
  return read_blob(key("checkpoint"), "trainer checkpoint");
}

void RedisStore::append_gate_result(const GateResult& result) {
  require_bound();
  redis_.command({"EVAL", kAppendGate, "2", key("gated"), key("gates"), result.candidate(),
                  fingerprint_ + "\n" + result.SerializeAsString()});
}

GateLog RedisStore::read_gate_log() {
  require_bound();
  GateLog log;
  for (const RedisReply& e : redis_.command({"LRANGE", key("gates"), "0", "-1"}).elements) {
    const auto nl = e.str.find('\n');
    if (nl == std::string::npos) throw StoreError(url() + ": damaged gate result");
    check_fingerprint(e.str.substr(0, nl), "a gate result");
    if (!log.add_gates()->ParseFromString(e.str.substr(nl + 1))) {
      throw StoreError(url() + ": damaged gate result");
    }
  }
  return log;
}

void RedisStore::append_event(const std::string& row) {
  require_bound();
  if (row.find('\n') != std::string::npos) throw StoreError("a metrics row with a newline");
  redis_.command({"XADD", key("events"), "*", "fp", fingerprint_, "row", row});
}

std::vector<std::string> RedisStore::read_events() {
  require_bound();
  std::vector<std::string> rows;
  for (const RedisReply& e : redis_.command({"XRANGE", key("events"), "-", "+"}).elements) {
    if (e.elements.size() < 2) continue;
    auto fields = as_map(e.elements[1]);
    check_fingerprint(fields["fp"], "a metrics event");
    rows.push_back(fields["row"]);
  }
  return rows;
}

void RedisStore::heartbeat(const WorkerInfo& info) {
  check_store_name(info.name, "worker");
  redis_.command(
      {"HSET", key("workers"), info.name, std::to_string(info.last_seen_ms) + "\n" + info.status});
}

std::vector<WorkerInfo> RedisStore::workers() {
  std::vector<WorkerInfo> out;
  for (const auto& [name, value] : as_map(redis_.command({"HGETALL", key("workers")}))) {
    WorkerInfo w;
    w.name = name;
    const auto nl = value.find('\n');
    w.last_seen_ms = std::atoll(value.substr(0, nl).c_str());
    if (nl != std::string::npos) w.status = value.substr(nl + 1);
    out.push_back(w);
  }
  return out;
}

}  // namespace pincer
