#include "train/loop.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "nn/model.h"
#include "train/anchor.h"
#include "train/gate.h"
#include "train/report.h"
#include "train/selfplay.h"
#include "train/trainer.h"

namespace fs = std::filesystem;

namespace pincer {
namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string fmt_num(double v) {
  char buf[32];
  if (v >= 1e6) {
    std::snprintf(buf, sizeof buf, "%.2fM", v / 1e6);
  } else if (v >= 1e4) {
    std::snprintf(buf, sizeof buf, "%.1fk", v / 1e3);
  } else {
    std::snprintf(buf, sizeof buf, "%.0f", v);
  }
  return buf;
}

std::string short_id(const std::string& id) {
  const auto slash = id.rfind('/');
  return slash == std::string::npos ? id : id.substr(slash + 1);
}

}  // namespace

std::string status_text(int64_t step, int64_t games, int64_t positions, double samples_per_s,
                        double policy_loss, double value_loss, const std::string& best,
                        const std::string& last_gate) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "step %lld | games %s | positions %s | %s samples/s | loss p %.3f v %.3f | "
                "best %s%s%s",
                static_cast<long long>(step), fmt_num(games).c_str(), fmt_num(positions).c_str(),
                fmt_num(samples_per_s).c_str(), policy_loss, value_loss, short_id(best).c_str(),
                last_gate.empty() ? "" : " | gate ", last_gate.c_str());
  return buf;
}

LoopSummary run_training_loop(const RunConfig& cfg, const RunDir& dir, const LoopOptions& opt) {
  const double t_start = now_s();
  save_run_config(dir, cfg);
  GamePtr game = prepare_run_dir(dir, cfg, opt.stop);
  Trainer trainer(game, cfg, dir);
  Gatekeeper gatekeeper(game, cfg, dir);
  SelfPlay selfplay(game, cfg, dir, "sp" + std::to_string(::getpid()));
  AnchorRater anchor(game, cfg, dir.metrics());
  const auto& tc = cfg.trainer();

  std::atomic<bool> stop_selfplay{false};
  std::exception_ptr selfplay_error;
  std::thread sp_thread([&] {
    try {
      selfplay.run(stop_selfplay);
    } catch (...) {
      selfplay_error = std::current_exception();
    }
  });

  LoopSummary summary;
  const bool tty = ::isatty(2);
  double last_status = 0, last_report = now_s(), last_log = now_s();
  double loss_p = 0, loss_v = 0, lr = 0;
  int loss_n = 0;
  double window_start = now_s();
  int64_t window_steps = 0;
  double samples_per_s = 0;
  double last_p = 0, last_v = 0;
  std::string last_gate;
  {
    const GateLog log = read_gate_log(dir);
    if (log.gates_size()) {
      const auto& g = log.gates(log.gates_size() - 1);
      char buf[96];
      std::snprintf(buf, sizeof buf, "%s %.2f %s", g.candidate().c_str(), g.score(),
                    g.promoted() ? "promoted" : "rejected");
      last_gate = buf;
    }
  }
  auto stopping = [&] {
    if (opt.stop && opt.stop->load()) return true;
    const double minutes = opt.max_minutes >= 0 ? opt.max_minutes : cfg.max_minutes();
    if (minutes > 0 && now_s() - t_start >= minutes * 60) return true;
    return selfplay_error != nullptr;
  };
  auto best_id = [&] { return selfplay.model_id(); };
  auto metrics_row = [&](const std::string& event, const std::string& gate_fields,
                         const std::string& anchor_fields = ",,,,") {
    const SelfPlayStats s = selfplay.stats();
    char buf[512];
    std::snprintf(buf, sizeof buf, "%lld,%s,%lld,%lld,%lld,", static_cast<long long>(unix_ms_now()),
                  event.c_str(), static_cast<long long>(trainer.step()),
                  static_cast<long long>(trainer.games_seen()),
                  static_cast<long long>(trainer.positions_seen()));
    std::string row = buf;
    if (event == "train") {
      std::snprintf(buf, sizeof buf, "%.5f,%.5f,%.6g,%.1f,", last_p, last_v, lr, samples_per_s);
    } else {
      std::snprintf(buf, sizeof buf, ",,,,");
    }
    row += buf;
    std::snprintf(buf, sizeof buf, "%.3f,%.1f,%.1f,", s.games_per_s(), s.inference.evals_per_s(),
                  s.inference.avg_batch());
    row += buf;
    row += gate_fields.empty() ? ",,,,," : gate_fields;
    row += "," + best_id() + "," + anchor_fields;
    append_metrics_row(dir, row);
  };
  auto show_status = [&](bool force) {
    const double t = now_s();
    if (!opt.status_line || (!force && t - last_status < (tty ? 0.5 : 30.0))) return;
    last_status = t;
    const SelfPlayStats s = selfplay.stats();
    const std::string line =
        status_text(trainer.step(), trainer.games_seen() > s.games ? trainer.games_seen() : s.games,
                    trainer.positions_seen(), samples_per_s, last_p, last_v, best_id(), last_gate);
    if (tty) {
      std::fprintf(stderr, "\r\033[K%s", line.c_str());
      std::fflush(stderr);
    } else {
      spdlog::info("{}", line);
    }
  };
  auto clear_status = [&] {
    if (opt.status_line && tty) std::fprintf(stderr, "\r\033[K");
  };
  auto checkpoint = [&] {
    const std::string path = trainer.write_model();
    trainer.save_checkpoint();
    metrics_row("train", "");
    clear_status();
    spdlog::info("step {}: wrote {} (loss p {:.3f} v {:.3f})", trainer.step(),
                 fs::path(path).filename().string(), last_p, last_v);
  };

  // Anchored strength (train/anchor.h): the best model against the ladder, at the start of a
  // run and after each promotion.
  auto rate_best = [&] {
    if (!anchor.enabled() || stopping()) return;
    clear_status();
    metrics_row("anchor", "", anchor.rate(dir.best(), cfg.seed() ^ uint64_t(trainer.step())));
  };
  if (anchor.first()) rate_best();

  int64_t unsaved_steps = 0;
  while (!stopping()) {
    trainer.ingest_new_records();
    const bool finished = tc.total_steps() > 0 && trainer.step() >= tc.total_steps();
    int64_t allowed = finished ? 0 : trainer.steps_allowed();
    if (allowed > 0) {
      for (int64_t i = 0; i < std::min<int64_t>(allowed, 16) && !stopping(); ++i) {
        const TrainStepResult r = trainer.train_step();
        loss_p += r.policy_loss;
        loss_v += r.value_loss;
        lr = r.lr;
        ++loss_n;
        ++window_steps;
        ++unsaved_steps;
        if (r.step % tc.checkpoint_every() == 0) {
          last_p = loss_p / loss_n;
          last_v = loss_v / loss_n;
          loss_p = loss_v = 0;
          loss_n = 0;
          checkpoint();
          unsaved_steps = 0;
        }
      }
      const double t = now_s();
      if (t - window_start >= 2.0) {
        samples_per_s = window_steps * tc.batch_size() / (t - window_start);
        window_start = t;
        window_steps = 0;
        if (loss_n > 0) {
          last_p = loss_p / loss_n;
          last_v = loss_v / loss_n;
        }
      }
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      if (now_s() - window_start >= 5.0) {
        samples_per_s = 0;
        window_start = now_s();
        window_steps = 0;
      }
    }
    const std::string cand = gatekeeper.next_candidate();
    if (!cand.empty() && !stopping()) {
      clear_status();
      spdlog::info("gating {} against {}", fs::path(cand).filename().string(), best_id());
      const GateResult g = gatekeeper.gate(cand);
      ++summary.gates;
      if (g.promoted()) {
        ++summary.promotions;
        selfplay.reload_best();
      }
      char buf[256];
      std::snprintf(buf, sizeof buf, "%s,%.4f,%.1f,%d,%.1f,%s", g.candidate().c_str(), g.score(),
                    g.elo(), g.promoted() ? 1 : 0, g.best_elo(),
                    g.vs_random() >= 0 ? std::to_string(g.vs_random()).c_str() : "");
      metrics_row("gate", buf);
      if (g.promoted()) rate_best();
      std::snprintf(buf, sizeof buf, "%s %.2f %s", g.candidate().c_str(), g.score(),
                    g.promoted() ? "promoted" : "rejected");
      last_gate = buf;
      write_report(dir);
      last_report = now_s();
    }
    if (finished && gatekeeper.next_candidate().empty()) {
      clear_status();
      spdlog::info("trainer.total_steps = {} reached", tc.total_steps());
      break;
    }
    if (now_s() - last_log >= 60) {
      last_log = now_s();
      metrics_row("selfplay", "");
    }
    if (now_s() - last_report >= 60) {
      write_report(dir);
      last_report = now_s();
    }
    show_status(false);
  }
  stop_selfplay = true;
  sp_thread.join();
  clear_status();
  if (unsaved_steps > 0) {
    if (loss_n > 0) {
      last_p = loss_p / loss_n;
      last_v = loss_v / loss_n;
    }
    checkpoint();
  }
  metrics_row("selfplay", "");
  write_report(dir);
  if (selfplay_error) std::rethrow_exception(selfplay_error);
  const SelfPlayStats s = selfplay.stats();
  summary.steps = trainer.step();
  summary.games = trainer.games_seen();
  summary.positions = trainer.positions_seen();
  summary.seconds = now_s() - t_start;
  summary.best_model = Model::read_metadata(dir.best()).model_id();
  spdlog::info(
      "stopped after {:.0f} s: step {}, {} games in the records ({} this session, {:.2f} "
      "games/s, {:.0f} evals/s, average batch {:.1f}), best {}; report: {}",
      summary.seconds, summary.steps, summary.games, s.games, s.games_per_s(),
      s.inference.evals_per_s(), s.inference.avg_batch(), summary.best_model, dir.report());
  return summary;
}

}  // namespace pincer
