#include "cli/torch/run_store.h"

#include <spdlog/spdlog.h>

#include <cstdlib>

#include "engine/registry.h"
#include "store/store_redis.h"
#include "train/config.h"
#include "train/run_setup.h"

namespace pincer::cli {
namespace {

std::string default_cache(const std::string& url, const std::string& role) {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const std::string base =
      xdg && *xdg ? xdg : std::string(home && *home ? home : "/tmp") + "/.cache";
  return base + "/pincer/" + parse_redis_url(url).run + "/" + role;
}

}  // namespace

RunStore open_run_store(const RunStoreOptions& o) {
  if (!o.dir.empty() && !o.store.empty()) {
    throw ConfigError("give --dir or --store, not both (--cache names a remote run's local copy)");
  }
  if (o.dir.empty() && o.store.empty()) throw ConfigError("--dir or --store is required");
  const std::string url = o.store.empty() ? "dir://" + o.dir : o.store;
  RunStore rs;
  rs.store = open_store(url);
  std::string path;
  if (is_dir_store(url, &path)) {
    rs.dir = std::make_unique<RunDir>(path);
    rs.config = run_dir_config(*rs.dir, o.config);
    rs.store->bind(load_game(rs.config.rules())->fingerprint());
    rs.game = prepare_run_dir(*rs.dir, rs.config);
    return rs;
  }
  rs.dir = std::make_unique<RunDir>(o.cache.empty() ? default_cache(url, o.role) : o.cache);
  rs.mirror = std::make_unique<StoreMirror>(*rs.store, *rs.dir);
  const auto stored = rs.store->read_config();
  if (!o.config.empty()) {
    rs.config = load_run_config(o.config);
  } else if (stored) {
    rs.mirror->pull_config();
    rs.config = load_run_config(rs.dir->config());
  } else {
    throw ConfigError("no --config given and " + url + " holds no run config yet");
  }
  const std::string fp = load_game(rs.config.rules())->fingerprint();
  if (stored && !stored->fingerprint.empty() && stored->fingerprint != fp) {
    throw FingerprintError(url + " holds a run config for ruleset fingerprint " +
                           stored->fingerprint + ", but " + rs.config.rules() + " is " + fp +
                           " here; refusing to mix them");
  }
  rs.store->bind(fp);
  if (!stored) {
    save_run_config(*rs.dir, rs.config);
    rs.mirror->push_config();
    spdlog::info("{}: new run, config written", url);
  }
  rs.mirror->sync_initial_model(false);
  rs.game = prepare_run_dir(*rs.dir, rs.config);
  rs.mirror->sync_initial_model(true);
  spdlog::info("working on {} in the local copy {}", url, rs.dir->root);
  return rs;
}

std::string describe_workers(Store& store) {
  std::string out;
  const int64_t now = store_now_ms();
  for (const WorkerInfo& w : store.workers()) {
    if (!out.empty()) out += ", ";
    out +=
        w.name + " " + std::to_string(std::max<int64_t>(0, now - w.last_seen_ms) / 1000) + " s ago";
  }
  return out.empty() ? "none" : out;
}

}  // namespace pincer::cli
