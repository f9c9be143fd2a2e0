// pincer store copy | status | bench: a run's store (store/store.h) from the outside: move a run
// between stores (a local run dir to Redis and back), show what a store holds and who works on
// it, and measure the store's cost per record chunk.
#include <spdlog/spdlog.h>
#include <unistd.h>
#include <zstd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>

#include "cli/support/commands.h"
#include "proto/record.pb.h"
#include "store/store.h"
#include "store/store_dir.h"

namespace fs = std::filesystem;

namespace pincer::cli {
namespace {

std::unique_ptr<Store> open_bound(const std::string& url) {
  auto store = open_store(url);
  const std::string fp = store->run_fingerprint();
  if (fp.empty()) throw StoreError(url + " holds no run (no best model)");
  store->bind(fp);
  return store;
}

void copy(const std::string& from_url, const std::string& to_url) {
  auto from = open_bound(from_url);
  std::string path;
  if (!is_dir_store(to_url, &path)) {
    auto to = open_store(to_url);
    to->bind(from->fingerprint());
    const int64_t n = copy_store(*from, *to);
    std::printf("copied %lld items from %s to %s\n", static_cast<long long>(n), from_url.c_str(),
                to->url().c_str());
    return;
  }
  // Into a new directory, atomically: the copy is made beside it and renamed into place.
  std::error_code ec;
  if (fs::exists(path) && !fs::is_empty(path, ec)) {
    throw StoreError(path + " exists; copy a run into a new directory");
  }
  const std::string partial = path + ".partial." + std::to_string(::getpid());
  fs::remove_all(partial, ec);
  int64_t n = 0;
  {
    DirStore to(partial);
    to.bind(from->fingerprint());
    n = copy_store(*from, to);
  }
  fs::remove(path, ec);  // an empty directory
  fs::rename(partial, path);
  std::printf("copied %lld items from %s to dir://%s\n", static_cast<long long>(n),
              from_url.c_str(), path.c_str());
}

void status(const std::string& url) {
  auto store = open_bound(url);
  std::printf("store %s\nfingerprint %s\n", store->url().c_str(), store->fingerprint().c_str());
  std::printf("config %s\n", store->read_config() ? "yes" : "none");
  std::printf("record chunks %zu\n", store->list_chunks("", 0).size());
  std::printf("trainer cursor %s\n", store->read_cursor("trainer").c_str());
  std::printf("models %zu\n", store->list_models().size());
  if (const auto b = store->best()) {
    std::printf("best %s (%s)\n", b->name.c_str(), b->model_id.c_str());
  }
  const auto ckpt = store->read_checkpoint();
  std::printf("checkpoint %s\n", ckpt ? (std::to_string(ckpt->size()) + " bytes").c_str() : "none");
  std::printf("gates %d\nmetrics events %zu\n", store->read_gate_log().gates_size(),
              store->read_events().size());
  const int64_t now = store_now_ms();
  for (const WorkerInfo& w : store->workers()) {
    std::printf("worker %s last seen %.0f s ago: %s\n", w.name.c_str(),
                (now - w.last_seen_ms) / 1000.0, w.status.c_str());
  }
}

// A chunk of `games` synthetic games of 60 moves with 20 policy entries each: about the size of
// a real self-play chunk.
std::string synthetic_chunk(const std::string& fp, int games, int seed) {
  RecordChunk c;
  c.set_game("bench");
  c.set_fingerprint(fp);
  uint32_t x = static_cast<uint32_t>(seed) * 2654435761u + 1;
  for (int g = 0; g < games; ++g) {
    GameRecord* r = c.add_games();
    r->set_fingerprint(fp);
    for (int m = 0; m < 60; ++m) {
      MoveRecord* mv = r->add_moves();
      mv->set_action(static_cast<int>((x = x * 1664525u + 1013904223u) % 500));
      mv->set_full_search(true);
      for (int k = 0; k < 20; ++k) {
        mv->add_policy_actions(static_cast<int>((x = x * 1664525u + 1013904223u) % 500));
        mv->add_policy((x % 1000) / 1000.0f);
      }
    }
  }
  const std::string raw = c.SerializeAsString();
  std::string out(ZSTD_compressBound(raw.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), raw.data(), raw.size(), 3));
  return out;
}

void bench(const std::string& url, int chunks, int games) {
  auto store = open_store(url);
  store->bind("bench-fingerprint");
  std::vector<std::string> data;
  for (int i = 0; i < chunks; ++i) data.push_back(synthetic_chunk("bench-fingerprint", games, i));
  using clock = std::chrono::steady_clock;
  const std::string tag = std::to_string(store_now_ms());
  auto t0 = clock::now();
  for (int i = 0; i < chunks; ++i) {
    char name[96];
    std::snprintf(name, sizeof name, "%s-bench%d-%06d.chunk", tag.c_str(), ::getpid(), i);
    store->append_chunk(name, data[i]);
  }
  const double append_s = std::chrono::duration<double>(clock::now() - t0).count();
  t0 = clock::now();
  const auto listed = store->list_chunks("", 0);
  const double list_s = std::chrono::duration<double>(clock::now() - t0).count();
  t0 = clock::now();
  size_t bytes = 0;
  for (const ChunkEntry& e : listed) bytes += store->read_chunk(e.name).size();
  const double read_s = std::chrono::duration<double>(clock::now() - t0).count();
  std::printf(
      "store=%s chunks=%d games_per_chunk=%d chunk_kib=%.1f append_ms=%.3f list_ms_per_chunk=%.4f "
      "read_ms=%.3f\n",
      store->url().c_str(), chunks, games, data[0].size() / 1024.0, 1000 * append_s / chunks,
      1000 * list_s / std::max<size_t>(1, listed.size()),
      1000 * read_s / std::max<size_t>(1, listed.size()));
  (void)bytes;
}

RegisterCommand reg_store{
    "store", "A run's store: copy a run between stores, show one, measure one", [](CLI::App& app) {
      app.require_subcommand(1);
      auto* c = app.add_subcommand(
          "copy", "Copy a run from one store to another (dir://PATH or redis://HOST:PORT/RUN)");
      auto from = std::make_shared<std::string>();
      auto to = std::make_shared<std::string>();
      c->add_option("--from", *from, "Source store URL")->required();
      c->add_option("--to", *to, "Destination store URL (a new directory for dir://)")->required();
      c->callback([from, to] { copy(*from, *to); });
      auto* s = app.add_subcommand("status", "What a store holds and the workers it heard from");
      auto url = std::make_shared<std::string>();
      s->add_option("--store", *url, "Store URL")->required();
      s->callback([url] { status(*url); });
      auto* b = app.add_subcommand(
          "bench", "Time appending, listing and reading record chunks (use a scratch run)");
      auto burl = std::make_shared<std::string>();
      auto chunks = std::make_shared<int>(200);
      auto games = std::make_shared<int>(8);
      b->add_option("--store", *burl, "Store URL of a scratch run")->required();
      b->add_option("--chunks", *chunks, "Chunks to write")->check(CLI::Range(1, 100000));
      b->add_option("--games", *games, "Games per chunk")->check(CLI::Range(1, 1000));
      b->callback([burl, chunks, games] { bench(*burl, *chunks, *games); });
    }};

}  // namespace
}  // namespace pincer::cli
