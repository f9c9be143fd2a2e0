// pincer train | selfplay | trainer | gate: the AlphaZero loop on a run directory, all together
// or one component at a time (so that they can run as separate processes or machines against
// the same directory). docs/training.md describes the run directory and the config.
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "cli/support/commands.h"
#include "cli/torch/stop_signal.h"
#include "engine/registry.h"
#include "nn/model.h"
#include "train/config.h"
#include "train/distributed.h"
#include "train/gate.h"
#include "train/loop.h"
#include "train/report.h"
#include "train/selfplay.h"
#include "train/trainer.h"

namespace fs = std::filesystem;

namespace pincer::cli {
namespace {

struct Options {
  std::string config;
  std::string dir;
  double minutes = 0;
  bool quiet = false;
  int64_t games = 0;
  int64_t steps = 0;
  std::string candidate;
  bool watch = false;
  std::string writer;
  DistributedOptions dist;  // trainer: data-parallel ranks
  double dist_timeout_s = 300;
};

void add_common(CLI::App& app, Options& o, bool config_required) {
  auto* c = app.add_option("--config", o.config,
                           "Run config (configs/runs/NAME.textproto); default: the run dir's "
                           "config.textproto");
  if (config_required) c->required();
  app.add_option("--dir", o.dir, "Run directory (runs/NAME)")->required();
}

void cmd_train(const Options& o) {
  const RunDir dir(o.dir);
  RunConfig cfg;
  if (!o.config.empty()) {
    cfg = load_run_config(o.config);
  } else if (fs::exists(dir.config())) {
    cfg = load_run_config(dir.config());
    spdlog::info("resuming {} with its config.textproto", o.dir);
  } else {
    throw ConfigError("--config is required for a new run dir (" + o.dir + " has no config)");
  }
  LoopOptions lo;
  if (o.minutes > 0) lo.max_minutes = o.minutes;
  lo.stop = &install_stop_signal();
  lo.status_line = !o.quiet;
  const LoopSummary s = run_training_loop(cfg, dir, lo);
  std::printf("steps=%lld games=%lld positions=%lld gates=%d promotions=%d seconds=%.0f best=%s\n",
              static_cast<long long>(s.steps), static_cast<long long>(s.games),
              static_cast<long long>(s.positions), s.gates, s.promotions, s.seconds,
              s.best_model.c_str());
}

void cmd_selfplay(const Options& o) {
  const RunDir dir(o.dir);
  const RunConfig cfg = run_dir_config(dir, o.config);
  GamePtr game = prepare_run_dir(dir, cfg);
  const auto& stop = install_stop_signal();
  const std::string writer = o.writer.empty() ? "sp" + std::to_string(::getpid()) : o.writer;
  SelfPlay sp(game, cfg, dir, writer);
  std::atomic<bool> done{false};
  std::atomic<bool> halt{false};
  std::thread watcher([&] {
    auto last = std::chrono::steady_clock::now();
    while (!done) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      if (stop) halt = true;
      if (std::chrono::steady_clock::now() - last >= std::chrono::seconds(30)) {
        last = std::chrono::steady_clock::now();
        const SelfPlayStats s = sp.stats();
        spdlog::info(
            "self-play: {} games, {} positions, {:.2f} games/s, {:.0f} sims/s, {:.0f} "
            "evals/s, batch {:.1f}, model {}",
            s.games, s.positions, s.games_per_s(), s.simulations_per_s(), s.inference.evals_per_s(),
            s.inference.avg_batch(), sp.model_id());
      }
    }
  });
  try {
    sp.run(halt, o.games);
  } catch (...) {
    done = true;
    watcher.join();
    throw;
  }
  done = true;
  watcher.join();
  const SelfPlayStats s = sp.stats();
  std::printf(
      "games=%lld positions=%lld chunks=%lld seconds=%.1f games_per_s=%.3f sims_per_s=%.0f "
      "evals_per_s=%.0f avg_batch=%.1f\n",
      static_cast<long long>(s.games), static_cast<long long>(s.positions),
      static_cast<long long>(s.chunks), s.seconds, s.games_per_s(), s.simulations_per_s(),
      s.inference.evals_per_s(), s.inference.avg_batch());
}

void cmd_trainer(const Options& o) {
  const RunDir dir(o.dir);
  const RunConfig cfg = run_dir_config(dir, o.config);
  // Data-parallel (docs/distributed.md): rank 0 owns the run dir (checkpoints, models, metrics);
  // the other ranks only read its records and train.
  std::unique_ptr<DataParallel> group;
  if (o.dist.world_size != 1 || o.dist.rank != 0 || !o.dist.master.empty()) {
    DistributedOptions d = o.dist;
    if (d.master.empty()) throw DistributedError("--world-size needs --master HOST:PORT");
    d.timeout = std::chrono::milliseconds(static_cast<int64_t>(o.dist_timeout_s * 1000));
    group = DataParallel::connect(d);
  }
  const bool writer = !group || group->rank() == 0;
  GamePtr game = writer ? prepare_run_dir(dir, cfg) : load_game(cfg.rules());
  const auto& stop_signal = install_stop_signal();
  // Every rank stops at the same step: a stop on any of them is agreed on before each step.
  auto stopping = [&] { return group ? group->any(stop_signal) : bool(stop_signal); };
  Trainer trainer(game, cfg, dir, group.get());
  const auto& tc = cfg.trainer();
  const int64_t target = o.steps > 0 ? trainer.step() + o.steps : tc.total_steps();
  if (group) group->check_same(uint64_t(target), "step target (--steps)");
  double lp = 0, lv = 0;
  int n = 0;
  int64_t unsaved = 0;
  auto last_wait_log = std::chrono::steady_clock::now() - std::chrono::seconds(60);
  while (!stopping() && (target == 0 || trainer.step() < target)) {
    trainer.ingest_new_records();
    int64_t allowed = trainer.steps_allowed();
    if (target > 0) allowed = std::min(allowed, target - trainer.step());
    if (allowed <= 0) {
      if (std::chrono::steady_clock::now() - last_wait_log > std::chrono::seconds(30)) {
        last_wait_log = std::chrono::steady_clock::now();
        spdlog::info("trainer at step {} waits for self-play ({} positions, window {})",
                     trainer.step(), trainer.positions_seen(), trainer.window_size());
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      continue;
    }
    for (int64_t i = 0; i < allowed && !stopping(); ++i) {
      const TrainStepResult r = trainer.train_step();
      lp += r.policy_loss, lv += r.value_loss, ++n, ++unsaved;
      if (writer && r.step % tc.checkpoint_every() == 0) {
        const std::string path = trainer.write_model();
        trainer.save_checkpoint();
        unsaved = 0;
        char row[256];
        std::snprintf(row, sizeof row, "%lld,train,%lld,%lld,%lld,%.5f,%.5f,%.6g,,,,,,,,,,,",
                      static_cast<long long>(unix_ms_now()), static_cast<long long>(r.step),
                      static_cast<long long>(trainer.games_seen()),
                      static_cast<long long>(trainer.positions_seen()), lp / n, lv / n, r.lr);
        append_metrics_row(dir, row);
        spdlog::info("step {}: loss p {:.3f} v {:.3f}, wrote {}", r.step, lp / n, lv / n,
                     fs::path(path).filename().string());
        lp = lv = 0;
        n = 0;
      }
    }
  }
  if (writer && unsaved > 0) {
    trainer.write_model();
    trainer.save_checkpoint();
  }
  std::printf("step=%lld games=%lld positions=%lld\n", static_cast<long long>(trainer.step()),
              static_cast<long long>(trainer.games_seen()),
              static_cast<long long>(trainer.positions_seen()));
}

void cmd_gate(const Options& o) {
  const RunDir dir(o.dir);
  const RunConfig cfg = run_dir_config(dir, o.config);
  GamePtr game = prepare_run_dir(dir, cfg);
  const auto& stop = install_stop_signal();
  Gatekeeper gk(game, cfg, dir);
  if (!o.candidate.empty()) {
    gk.gate(o.candidate);
    write_report(dir);
    return;
  }
  int gated = 0;
  while (!stop) {
    const std::string cand = gk.next_candidate();
    if (cand.empty()) {
      if (!o.watch) break;
      std::this_thread::sleep_for(std::chrono::seconds(1));
      continue;
    }
    const GateResult r = gk.gate(cand);
    ++gated;
    std::printf("%s score=%.3f elo=%+.0f %s\n", r.candidate().c_str(), r.score(), r.elo(),
                r.promoted() ? "promoted" : "rejected");
    std::fflush(stdout);
    write_report(dir);
  }
  if (gated == 0 && !o.watch) std::printf("no candidate due for a gate\n");
}

RegisterCommand reg_train{
    "train",
    "Run self-play, trainer and gatekeeper together on a run directory (resumes after a kill)",
    [](CLI::App& app) {
      auto o = std::make_shared<Options>();
      add_common(app, *o, false);
      app.add_option("--minutes", o->minutes,
                     "Stop after this many minutes (overrides max_minutes)");
      app.add_flag("--quiet", o->quiet, "No live status line");
      app.callback([o] { cmd_train(*o); });
    }};

RegisterCommand reg_selfplay{
    "selfplay", "Only generate self-play games into a run directory's records/", [](CLI::App& app) {
      auto o = std::make_shared<Options>();
      add_common(app, *o, false);
      app.add_option("--games", o->games, "Stop after this many games (default: until stopped)");
      app.add_option("--writer", o->writer, "Name of this generator in chunk names");
      app.callback([o] { cmd_selfplay(*o); });
    }};

RegisterCommand reg_trainer{
    "trainer", "Only train on a run directory's records (writes models/ and trainer.ckpt)",
    [](CLI::App& app) {
      auto o = std::make_shared<Options>();
      add_common(app, *o, false);
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
      auto o = std::make_shared<Options>();
      add_common(app, *o, false);
      app.add_option("--candidate", o->candidate, "Gate this model file (default: the newest due)");
      app.add_flag("--watch", o->watch, "Keep waiting for new candidates");
      app.callback([o] { cmd_gate(*o); });
    }};

}  // namespace
}  // namespace pincer::cli
