// pincer train | selfplay | trainer | gate: the AlphaZero loop on a run directory, all together
// or one component at a time (so that they can run as separate processes or machines against
// the same directory, or against one store: --store redis://..., docs/distributed.md).
// docs/training.md describes the run directory and the config.
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <optional>
#include <thread>

#include "cli/support/commands.h"
#include "cli/torch/run_store.h"
#include "cli/torch/stop_signal.h"
#include "engine/registry.h"
#include "nn/checked_archive.h"
#include "nn/model.h"
#include "nn/network.h"
#include "store/run_dir.h"
#include "train/config.h"
#include "train/distributed.h"
#include "train/gate.h"
#include "train/loop.h"
#include "train/report.h"
#include "train/run_setup.h"
#include "train/selfplay.h"
#include "train/trainer.h"

namespace fs = std::filesystem;

namespace pincer::cli {
namespace {

struct TrainArgs {
  std::string config;
  std::string dir;
  double minutes = 0;
  double core_hours = 0;  // train: stop at this many core-hours of the run
  bool quiet = false;
  int64_t games = 0;
  int64_t steps = 0;
  std::string candidate;
  bool watch = false;
  std::string writer;
  std::string store;
  std::string cache;
  std::string rules;        // train: another ruleset of the config's game
  std::string from;         // train: a model file a new run starts from
  DistributedOptions dist;  // trainer: data-parallel ranks
  double dist_timeout_s = 300;
};

// sp-<host>-<pid>: unique across the machines of a run (chunk names carry it; the store keeps
// one chunk per name).
std::string default_writer() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  std::string name = "sp-";
  for (const char* c = host; *c && name.size() < 40; ++c) {
    name += std::isalnum(static_cast<unsigned char>(*c)) ? *c : '-';
  }
  return name + "-" + std::to_string(::getpid());
}

RunStoreOptions store_options(const TrainArgs& o, const std::string& role) {
  RunStoreOptions r;
  r.dir = o.dir;
  r.store = o.store;
  r.config = o.config;
  r.cache = o.cache;
  r.role = role;
  return r;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Runs `f` (store traffic), logging a failure instead of throwing: the store is retried later.
template <typename F>
bool store_step(const char* what, F&& f) {
  try {
    f();
    return true;
  } catch (const StoreError& e) {
    spdlog::warn("{}: {} (will try again)", what, e.what());
    return false;
  }
}

// A metrics.csv row from its first fields, the run's core-hours, the auxiliary losses and the
// growth columns (network_before..old_value_loss, 4 fields; empty but on a growth row): the
// fields between left empty, each value in its own column of the header (kMetricsColumns),
// which `pincer checkrun` and the report expect.
std::string metrics_row(std::string row, double core_hours, double points_loss,
                        double ownership_loss, const std::string& growth_fields = ",,,") {
  const std::string header = kMetricsColumns;
  const std::string before_hours = header.substr(0, header.find("core_hours"));
  const auto hours_column = std::count(before_hours.begin(), before_hours.end(), ',');
  for (auto n = std::count(row.begin(), row.end(), ','); n < hours_column; ++n) row += ',';
  char tail[96];
  std::snprintf(tail, sizeof tail, "%.4f,%.5f,%.5f,", core_hours, points_loss, ownership_loss);
  return row + tail + growth_fields;
}

// The record chunks a trainer checkpoint's window holds (its TrainerState), so that a trainer
// on a fresh machine fetches them before it rebuilds the window.
std::vector<std::string> checkpoint_chunks(const std::string& path) {
  TrainerState state;
  try {
    torch::serialize::InputArchive archive =
        read_checked_archive(path, CheckedKind::trainer_checkpoint);
    torch::Tensor bytes;
    archive.read("trainer_state", bytes);
    if (!state.ParseFromString(tensor_to_bytes(bytes))) return {};
  } catch (const std::exception& e) {
    spdlog::warn("cannot read the chunk list of {}: {}", path, e.what());
    return {};
  }
  return {state.ingested_chunks().begin(), state.ingested_chunks().end()};
}

void add_common(CLI::App& app, TrainArgs& o, bool config_required) {
  auto* c = app.add_option("--config", o.config,
                           "Run config (configs/runs/NAME.textproto); default: the run dir's "
                           "config.textproto");
  if (config_required) c->required();
  app.add_option("--dir", o.dir, "Run directory (runs/NAME); same as --store dir://PATH");
}

void add_store(CLI::App& app, TrainArgs& o) {
  app.add_option("--store", o.store,
                 "The run's store: dir://PATH or redis://HOST:PORT/RUN[?retry=S&timeout=S] "
                 "(docs/distributed.md)");
  app.add_option("--cache", o.cache,
                 "Local working copy of a redis:// run (default ~/.cache/pincer/RUN/ROLE)");
}

void cmd_selfplay(const TrainArgs& o) {
  // Before the store is opened: a stop sent once the store's "working on" line is logged is
  // never lost (a background job of a script starts with SIGINT ignored).
  const auto& stop = install_stop_signal();
  const std::string writer = o.writer.empty() ? default_writer() : o.writer;
  RunStore rs = open_run_store(store_options(o, "selfplay-" + writer));
  const RunDir& dir = *rs.dir;
  // Finished chunks a killed worker left in its local copy (same --writer or --cache): sent now.
  if (rs.mirror) store_step("sending earlier chunks", [&] { rs.mirror->push_chunks(true); });
  SelfPlay sp(rs.game, rs.config, dir, writer);
  std::atomic<bool> done{false};
  std::atomic<bool> halt{false};
  auto status = [&] {
    const SelfPlayStats s = sp.stats();
    char buf[200];
    std::snprintf(buf, sizeof buf, "%lld games, %.0f games/h, %.0f evals/s, model %s",
                  static_cast<long long>(s.games), s.games_per_s() * 3600,
                  s.inference.evals_per_s(), sp.model_id().c_str());
    return std::string(buf);
  };
  std::thread watcher([&] {
    auto last = std::chrono::steady_clock::now();
    while (!done) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      if (stop) halt = true;
      if (seconds_since(last) >= 30) {
        last = std::chrono::steady_clock::now();
        const SelfPlayStats s = sp.stats();
        spdlog::info(
            "self-play {}: {} games, {} positions, {:.0f} games/h, {:.0f} sims/s, {:.0f} "
            "evals/s, batch {:.1f}, model {}",
            writer, s.games, s.positions, s.games_per_s() * 3600, s.simulations_per_s(),
            s.inference.evals_per_s(), s.inference.avg_batch(), sp.model_id());
        if (s.reanalysed_games > 0) {
          spdlog::info("self-play {}: {} games ({} positions) reanalysed", writer,
                       s.reanalysed_games, s.reanalysed_positions);
        }
      }
    }
  });
  // Store traffic in a thread of its own: a store that is down (retried with backoff) never
  // holds up the games or the stop signal. Chunks wait in the local copy meanwhile.
  std::thread syncer([&] {
    auto last_beat = std::chrono::steady_clock::now() - std::chrono::seconds(60);
    auto last_best = std::chrono::steady_clock::now();
    while (!done) {
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
      if (rs.mirror) store_step("sending chunks", [&] { rs.mirror->push_chunks(true); });
      if (rs.mirror && seconds_since(last_best) >= 2) {
        last_best = std::chrono::steady_clock::now();
        store_step("checking for a new best model", [&] {
          if (rs.mirror->pull_best()) spdlog::info("self-play {}: a new best model", writer);
        });
      }
      if (seconds_since(last_beat) >= 5) {
        last_beat = std::chrono::steady_clock::now();
        store_step("heartbeat", [&] { rs.store->heartbeat({writer, store_now_ms(), status()}); });
      }
    }
  });
  auto finish = [&] {
    done = true;
    watcher.join();
    syncer.join();
  };
  try {
    sp.run(halt, o.games);
  } catch (...) {
    finish();
    throw;
  }
  finish();
  if (rs.mirror) {
    // The last chunk: sent, or kept in the local copy for the next start with this --writer.
    if (!store_step("sending the last chunks", [&] { rs.mirror->push_chunks(true); })) {
      spdlog::warn("unsent chunks stay in {}; `pincer selfplay --writer {}` sends them",
                   dir.records(), writer);
    }
  }
  store_step("heartbeat", [&] { rs.store->heartbeat({writer, store_now_ms(), status()}); });
  const SelfPlayStats s = sp.stats();
  std::printf(
      "games=%lld positions=%lld chunks=%lld seconds=%.1f games_per_s=%.3f games_per_h=%.0f "
      "sims_per_s=%.0f evals_per_s=%.0f avg_batch=%.1f\n",
      static_cast<long long>(s.games), static_cast<long long>(s.positions),
      static_cast<long long>(s.chunks), s.seconds, s.games_per_s(), s.games_per_s() * 3600,
      s.simulations_per_s(), s.inference.evals_per_s(), s.inference.avg_batch());
}

// With a remote store: the checkpoint and the chunks of its window come first (a trainer on a
// fresh machine resumes exactly), then the chunks after the acknowledged cursor.
void resume_from_store(RunStore& rs) {
  if (!rs.mirror) return;
  if (rs.mirror->pull_checkpoint()) spdlog::info("trainer checkpoint fetched from the store");
  if (std::filesystem::exists(rs.dir->checkpoint())) {
    const int n = rs.mirror->fetch_chunks(checkpoint_chunks(rs.dir->checkpoint()));
    if (n) spdlog::info("fetched {} record chunks of the checkpoint's window", n);
  }
  rs.mirror->start_from_ack("trainer");
  rs.mirror->pull_chunks();
}

// After a checkpoint: its candidate model, the checkpoint itself, then the acknowledgement of
// the chunks it holds, then the metrics rows.
void publish_checkpoint(RunStore& rs, const Trainer& trainer) {
  if (!rs.mirror) return;
  store_step("publishing the checkpoint", [&] {
    rs.mirror->push_models();
    rs.mirror->push_checkpoint();
    rs.mirror->ack("trainer", trainer.ingested_chunks());
    rs.mirror->push_events();
  });
}

// `pincer train --store redis://...`: the loop on a local copy, and a thread that keeps the
// store in step: the loop's chunks, candidates, checkpoints, promotions, gates and metrics go
// up; other workers' chunks come down (the loop's trainer trains on them too).
class LoopMirror {
 public:
  explicit LoopMirror(RunStore& rs) : rs_(rs) {
    if (!rs_.mirror) return;
    thread_ = std::thread([this] {
      while (!done_) {
        for (int i = 0; i < 10 && !done_; ++i) {
          std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
        sync();
      }
    });
  }
  ~LoopMirror() {
    if (!thread_.joinable()) return;
    done_ = true;
    thread_.join();
    sync();
  }

 private:
  void sync() {
    store_step("keeping the store in step", [&] {
      StoreMirror& m = *rs_.mirror;
      m.push_chunks(false);
      m.pull_chunks();
      m.push_models();
      m.push_checkpoint();
      m.push_best();
      m.push_gates();
      m.push_events();
    });
  }
  RunStore& rs_;
  std::atomic<bool> done_{false};
  std::thread thread_;
};

void cmd_train(const TrainArgs& o) {
  if (!o.store.empty() && !o.dir.empty()) throw ConfigError("give --dir or --store, not both");
  if (o.store.empty() && o.dir.empty()) throw ConfigError("--dir or --store is required");
  const auto& stop = install_stop_signal();  // before the store is opened, as in cmd_selfplay
  std::unique_ptr<RunStore> rs;
  std::string path = o.dir;
  if (!o.store.empty() && !is_dir_store(o.store, &path)) {
    rs = std::make_unique<RunStore>(open_run_store(store_options(o, "train")));
    resume_from_store(*rs);
    path = rs->dir->root;
  }
  const RunDir dir(path);
  RunConfig cfg;
  if (rs) {
    cfg = rs->config;
  } else if (!o.config.empty()) {
    cfg = load_run_config(o.config);
  } else if (fs::exists(dir.config())) {
    cfg = load_run_config(dir.config());
    spdlog::info("resuming {} with its config.textproto", path);
  } else {
    throw ConfigError("--config is required for a new run dir (" + path + " has no config)");
  }
  if (!o.rules.empty() && o.rules != cfg.rules()) {
    // A run trains one ruleset for life: its models, records and book are that ruleset's.
    if (rs || fs::exists(dir.config())) {
      throw ConfigError(path + " trains " + cfg.rules() + "; --rules " + o.rules +
                        " needs a new run dir");
    }
    cfg.set_rules(o.rules);
    // The config's ladder was rated under its own ruleset: take the one beside it named after
    // the new ruleset (configs/ladders/R.textproto), else none (`pincer rate --ladder` names one).
    if (!cfg.anchor().ladder().empty()) {
      const fs::path named = cfg.anchor().ladder();
      const fs::path sibling = named.parent_path() / (o.rules + ".textproto");
      if (fs::exists(sibling)) {
        spdlog::info("--rules {}: anchor ladder {}", o.rules, sibling.string());
        cfg.mutable_anchor()->set_ladder(sibling.string());
      } else {
        spdlog::warn(
            "--rules {}: the config's ladder {} is another ruleset's and there is no {}; "
            "the run names no ladder",
            o.rules, named.string(), sibling.string());
        cfg.mutable_anchor()->clear_ladder();
      }
    }
  }
  if (!o.from.empty()) {
    // RunConfig.start_model: only a new run starts from a model; a run goes on from its own.
    if (rs || fs::exists(dir.config()) || fs::exists(dir.best())) {
      throw ConfigError("--from " + o.from + ": " + path +
                        " is a run already (it resumes from its own models); use a new run dir");
    }
    if (!fs::is_regular_file(o.from))
      throw ConfigError("--from " + o.from + ": no such model file");
    cfg.set_start_model(o.from);
  }
  LoopOptions lo;
  if (o.minutes > 0) lo.max_minutes = o.minutes;
  if (o.core_hours > 0) lo.max_core_hours = o.core_hours;
  lo.stop = &stop;
  lo.status_line = !o.quiet;
  LoopSummary s;
  {
    std::optional<LoopMirror> mirror;
    if (rs) mirror.emplace(*rs);
    s = run_training_loop(cfg, dir, lo);
  }
  std::printf("steps=%lld games=%lld positions=%lld gates=%d promotions=%d seconds=%.0f best=%s\n",
              static_cast<long long>(s.steps), static_cast<long long>(s.games),
              static_cast<long long>(s.positions), s.gates, s.promotions, s.seconds,
              s.best_model.c_str());
}

void cmd_trainer(const TrainArgs& o) {
  // Data-parallel (docs/distributed.md): rank 0 owns the run (its store or dir: checkpoints,
  // models, metrics); the other ranks take --config and a local --dir, get the checkpoint and
  // the records from rank 0, and only train.
  const auto& stop_signal = install_stop_signal();  // before the store is opened (cmd_selfplay)
  std::unique_ptr<DataParallel> group;
  if (o.dist.world_size != 1 || o.dist.rank != 0 || !o.dist.master.empty()) {
    // Growth stages are refused by data-parallel training: said at once where the config is at
    // hand, not after the other ranks have come (the trainer checks every config again).
    const std::string local_config = !o.config.empty() ? o.config
                                     : !o.dir.empty()  ? RunDir(o.dir).config()
                                                       : "";
    if (!local_config.empty() && fs::exists(local_config)) {
      check_growth_shards(load_run_config(local_config), std::max(2, o.dist.world_size));
    }
    DistributedOptions d = o.dist;
    if (d.master.empty()) throw DistributedError("--world-size needs --master HOST:PORT");
    d.timeout = std::chrono::milliseconds(static_cast<int64_t>(o.dist_timeout_s * 1000));
    group = DataParallel::connect(d);
  }
  const bool writer = !group || group->rank() == 0;
  RunStore rs;
  if (writer) {
    rs = open_run_store(store_options(o, "trainer"));
    resume_from_store(rs);
  } else {
    if (o.dir.empty()) throw ConfigError("ranks other than 0 need --dir (a local folder)");
    rs.dir = std::make_unique<RunDir>(o.dir);
    rs.config = run_dir_config(*rs.dir, o.config);
    rs.game = load_game(rs.config.rules());
  }
  const RunDir& dir = *rs.dir;
  const RunConfig& cfg = rs.config;
  // Every rank stops at the same step: a stop on any of them is agreed on before each step.
  auto stopping = [&] { return group ? group->any(stop_signal) : bool(stop_signal); };
  Trainer trainer(rs.game, cfg, dir, group.get());
  const auto& tc = cfg.trainer();
  const int64_t target = o.steps > 0 ? trainer.step() + o.steps : tc.total_steps();
  if (group) group->check_same(uint64_t(target), "step target (--steps)");
  double lp = 0, lv = 0, lpts = 0, lown = 0;
  int n = 0;
  int64_t unsaved = 0;
  auto last_wait_log = std::chrono::steady_clock::now() - std::chrono::seconds(60);
  auto last_pull = std::chrono::steady_clock::now();
  auto last_status = std::chrono::steady_clock::now();
  auto last_progress = last_status;
  std::string workers_heard;
  while (!stopping() && (target == 0 || trainer.step() < target)) {
    if (rs.mirror && seconds_since(last_pull) >= 1) {
      last_pull = std::chrono::steady_clock::now();
      store_step("fetching record chunks", [&] { rs.mirror->pull_chunks(); });
    }
    trainer.ingest_new_records();
    // The workers it hears from: logged when one comes or goes (checked every 5 s), and every
    // 30 s with the trainer's progress.
    if (seconds_since(last_status) >= 5) {
      last_status = std::chrono::steady_clock::now();
      std::string names;
      if (rs.store)
        store_step("listing workers", [&] {
          for (const WorkerInfo& w : rs.store->workers()) {
            if (store_now_ms() - w.last_seen_ms < 60'000) names += w.name + " ";
          }
        });
      if (names != workers_heard || seconds_since(last_progress) >= 30) {
        last_progress = std::chrono::steady_clock::now();
        workers_heard = names;
        std::string workers;
        if (rs.store) {
          store_step("listing workers", [&] { workers = describe_workers(*rs.store); });
        }
        const std::string growth = trainer.growth_status();
        spdlog::info("trainer step {}, {} games, window {}{}; workers: {}", trainer.step(),
                     trainer.games_seen(), trainer.window_size(),
                     growth.empty() ? "" : ", " + growth, workers);
      }
    }
    int64_t allowed = trainer.steps_allowed();
    if (target > 0) allowed = std::min(allowed, target - trainer.step());
    if (allowed <= 0) {
      if (seconds_since(last_wait_log) > 30) {
        last_wait_log = std::chrono::steady_clock::now();
        spdlog::info("trainer at step {} waits for self-play ({} positions, window {})",
                     trainer.step(), trainer.positions_seen(), trainer.window_size());
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      continue;
    }
    for (int64_t i = 0; i < allowed && !stopping(); ++i) {
      const TrainStepResult r = trainer.train_step();
      lp += r.policy_loss, lv += r.value_loss, lpts += r.points_loss, lown += r.ownership_loss;
      ++n, ++unsaved;
      if (writer && r.takeover) {
        // A growth stage's network took over (RunConfig.growth): its row, and a checkpoint and a
        // candidate of it at once.
        const GrowthTakeover& t = *r.takeover;
        char row[256];
        std::snprintf(row, sizeof row, "%lld,growth,%lld,%lld,%lld,%.5f,%.5f,%.6g",
                      static_cast<long long>(unix_ms_now()), static_cast<long long>(r.step),
                      static_cast<long long>(trainer.games_seen()),
                      static_cast<long long>(trainer.positions_seen()), t.new_policy_loss,
                      t.new_value_loss, r.lr);
        append_metrics_row(
            dir,
            metrics_row(row, t.core_hours, t.new_points_loss, t.new_ownership_loss,
                        fmt::format("{},{},{:.5f},{:.5f}", network_shape(t.before),
                                    network_shape(t.after), t.old_policy_loss, t.old_value_loss)));
      }
      if (writer && (r.takeover || r.step % tc.checkpoint_every() == 0)) {
        const std::string path = trainer.write_model();
        trainer.save_checkpoint();
        unsaved = 0;
        char row[256];
        std::snprintf(row, sizeof row, "%lld,train,%lld,%lld,%lld,%.5f,%.5f,%.6g",
                      static_cast<long long>(unix_ms_now()), static_cast<long long>(r.step),
                      static_cast<long long>(trainer.games_seen()),
                      static_cast<long long>(trainer.positions_seen()), lp / n, lv / n, r.lr);
        append_metrics_row(dir, metrics_row(row, trainer.core_hours(), lpts / n, lown / n));
        publish_checkpoint(rs, trainer);
        spdlog::info("step {}: loss p {:.3f} v {:.3f}, wrote {}", r.step, lp / n, lv / n,
                     fs::path(path).filename().string());
        lp = lv = lpts = lown = 0;
        n = 0;
      }
    }
  }
  if (writer && unsaved > 0) {
    trainer.write_model();
    trainer.save_checkpoint();
    publish_checkpoint(rs, trainer);
  }
  std::printf("step=%lld games=%lld positions=%lld\n", static_cast<long long>(trainer.step()),
              static_cast<long long>(trainer.games_seen()),
              static_cast<long long>(trainer.positions_seen()));
}

// With a remote store: the best model, the gate log and the candidates due, into the local copy.
void pull_for_gate(RunStore& rs) {
  if (!rs.mirror) return;
  store_step("fetching candidates", [&] {
    rs.mirror->pull_best();
    rs.mirror->pull_gates();
    rs.mirror->pull_candidates();
  });
}

// A gate's outcome into the store: the promotion first (a gatekeeper killed in between leaves a
// best without its gate record, never a recorded promotion that did not happen), then the result.
void publish_gate(RunStore& rs, const GateResult& r) {
  if (!rs.mirror) return;
  // Until the store takes it (a store that is down is waited for; any other refusal is an
  // error: the gate stays in the local copy's gating.textproto).
  for (;;) {
    try {
      if (r.promoted()) rs.mirror->promote(r.candidate());
      rs.mirror->push_gate(r);
      return;
    } catch (const StoreUnavailable& e) {
      spdlog::warn("publishing the gate of {}: {} (will try again)", r.candidate(), e.what());
    }
    std::this_thread::sleep_for(std::chrono::seconds(2));
  }
}

void cmd_gate(const TrainArgs& o) {
  const auto& stop = install_stop_signal();  // before the store is opened, as in cmd_selfplay
  RunStore rs = open_run_store(store_options(o, "gate"));
  const RunDir& dir = *rs.dir;
  Gatekeeper gk(rs.game, rs.config, dir);
  pull_for_gate(rs);
  if (!o.candidate.empty()) {
    publish_gate(rs, gk.gate(o.candidate));
    write_report(dir);
    return;
  }
  int gated = 0;
  while (!stop) {
    const std::string cand = gk.next_candidate();
    if (cand.empty()) {
      if (!o.watch) break;
      std::this_thread::sleep_for(std::chrono::seconds(1));
      pull_for_gate(rs);
      continue;
    }
    const GateResult r = gk.gate(cand);
    publish_gate(rs, r);
    ++gated;
    std::printf("%s score=%.3f elo=%+.0f %s\n", r.candidate().c_str(), r.score(), r.elo(),
                r.promoted() ? "promoted" : "rejected");
    std::fflush(stdout);
    write_report(dir);
    pull_for_gate(rs);
  }
  if (gated == 0 && !o.watch) std::printf("no candidate due for a gate\n");
}

RegisterCommand reg_train{
    "train",
    "Run self-play, trainer and gatekeeper together on a run directory (resumes after a kill)",
    [](CLI::App& app) {
      auto o = std::make_shared<TrainArgs>();
      add_common(app, *o, false);
      add_store(app, *o);
      app.add_option("--minutes", o->minutes,
                     "Stop after this many minutes (overrides max_minutes)");
      app.add_option("--core-hours", o->core_hours,
                     "Stop once the run's core-hours (its CPU time in all sessions, warm start "
                     "included) reach this many")
          ->check(CLI::Range(0.0, 1e6));
      app.add_flag("--quiet", o->quiet, "No live status line");
      app.add_option("--from", o->from,
                     "Start a new run from this model file (of the run's ruleset) instead of a "
                     "warm start; its step and core-hours carry on (RunConfig.start_model)");
      app.add_option("--rules", o->rules,
                     "Train this ruleset with the config's recipe (a new run dir only), e.g. "
                     "seega-7x7 with configs/runs/seega.textproto");
      app.callback([o] { cmd_train(*o); });
    }};

RegisterCommand reg_selfplay{
    "selfplay", "Only generate self-play games into a run directory's records/", [](CLI::App& app) {
      auto o = std::make_shared<TrainArgs>();
      add_common(app, *o, false);
      add_store(app, *o);
      app.add_option("--games", o->games, "Stop after this many games (default: until stopped)");
      app.add_option("--writer", o->writer,
                     "Name of this worker in chunk names and heartbeats (default sp-HOST-PID); "
                     "started again with the same name, it sends the chunks it left");
      app.callback([o] { cmd_selfplay(*o); });
    }};

RegisterCommand reg_trainer{
    "trainer", "Only train on a run directory's records (writes models/ and trainer.ckpt)",
    [](CLI::App& app) {
      auto o = std::make_shared<TrainArgs>();
      add_common(app, *o, false);
      add_store(app, *o);
      app.add_option("--steps", o->steps, "Stop after this many more steps");
      app.add_option("--world-size", o->dist.world_size,
                     "Data-parallel: train one model on this many processes (default 1)");
      app.add_option("--rank", o->dist.rank, "Data-parallel: this process's rank, 0..world-1");
      app.add_option("--master", o->dist.master,
                     "Data-parallel: HOST:PORT of rank 0's rendezvous (rank 0 listens there)");
      app.add_option("--dist-timeout", o->dist_timeout_s,
                     "Data-parallel: seconds to wait for the other ranks (default 300)")
          ->check(CLI::PositiveNumber);
      app.callback([o] { cmd_trainer(*o); });
    }};

RegisterCommand reg_gate{
    "gate", "Only gate: play candidates under models/ against models/best.pt and promote",
    [](CLI::App& app) {
      auto o = std::make_shared<TrainArgs>();
      add_common(app, *o, false);
      add_store(app, *o);
      app.add_option("--candidate", o->candidate, "Gate this model file (default: the newest due)");
      app.add_flag("--watch", o->watch, "Keep waiting for new candidates");
      app.callback([o] { cmd_gate(*o); });
    }};

}  // namespace
}  // namespace pincer::cli
