#include "train/loop.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "engine/clock.h"
#include "nn/model.h"
#include "train/anchor.h"
#include "train/gate.h"
#include "train/report.h"
#include "train/run_setup.h"
#include "train/selfplay.h"
#include "train/selfplay_thread.h"
#include "train/status_line.h"
#include "train/trainer.h"

namespace fs = std::filesystem;

namespace pincer {
namespace {

// Losses averaged over the steps since the last checkpoint, and training throughput.
struct TrainProgress {
  double loss_p = 0, loss_v = 0, lr = 0;
  // The auxiliary heads' losses (0 where the network has no such head).
  double loss_points = 0, loss_ownership = 0;
  int loss_n = 0;
  double last_p = 0, last_v = 0;  // the latest averages shown and logged
  double last_points = 0, last_ownership = 0;
  // A growth stage's new network while it learns (RunConfig.growth): its losses, the same way.
  double grown_p = 0, grown_v = 0;
  int grown_n = 0;
  double last_grown_p = 0, last_grown_v = 0;
  double samples_per_s = 0;
  double window_start = steady_seconds();
  int64_t window_steps = 0;
  int64_t unsaved_steps = 0;

  void add(const TrainStepResult& r) {
    loss_p += r.policy_loss;
    loss_v += r.value_loss;
    loss_points += r.points_loss;
    loss_ownership += r.ownership_loss;
    lr = r.lr;
    ++loss_n;
    ++window_steps;
    ++unsaved_steps;
    if (r.distilling) {
      grown_p += r.new_policy_loss;
      grown_v += r.new_value_loss;
      ++grown_n;
    }
  }
  void average() {
    if (grown_n > 0) {
      last_grown_p = grown_p / grown_n;
      last_grown_v = grown_v / grown_n;
    }
    if (loss_n == 0) return;
    last_p = loss_p / loss_n;
    last_v = loss_v / loss_n;
    last_points = loss_points / loss_n;
    last_ownership = loss_ownership / loss_n;
  }
  void restart_average() {
    average();
    loss_p = loss_v = loss_points = loss_ownership = 0;
    loss_n = 0;
    grown_p = grown_v = 0;
    grown_n = 0;
  }
  // Samples/s over windows of 2 s while training; 0 after 5 s without a step.
  void update_rate(int batch_size, bool trained) {
    const double t = steady_seconds();
    if (trained && t - window_start >= 2.0) {
      samples_per_s = window_steps * batch_size / (t - window_start);
      average();
    } else if (trained || t - window_start < 5.0) {
      return;
    } else {
      samples_per_s = 0;
    }
    window_start = t;
    window_steps = 0;
  }
};

// "model-000400.pt 0.58 promoted": the status line's account of a gate.
std::string gate_summary(const GateResult& g) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s %.2f %s", g.candidate().c_str(), g.score(),
                g.promoted() ? "promoted" : "rejected");
  return buf;
}

std::string last_gate_summary(const RunDir& dir) {
  const GateLog log = read_gate_log(dir);
  return log.gates_size() ? gate_summary(log.gates(log.gates_size() - 1)) : "";
}

// Rows of metrics.csv (columns: run_dir.h kMetricsColumns).
class Metrics {
 public:
  Metrics(const RunDir& dir, const Trainer& trainer, const SelfPlay& selfplay)
      : dir_(dir), trainer_(trainer), selfplay_(selfplay) {}

  void train(const TrainProgress& p) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "%.5f,%.5f,%.6g,%.1f,", p.last_p, p.last_v, p.lr,
                  p.samples_per_s);
    // points_loss,ownership_loss: empty where the network has no such head.
    const NetworkConfig& net = trainer_.model_metadata().network();
    std::string aux = net.points_head() ? fmt::format("{:.5f}", p.last_points) : "";
    aux += net.ownership_head() ? fmt::format(",{:.5f}", p.last_ownership) : ",";
    row("train", buf, "", ",,,,", aux);
  }
  // A growth stage's network took over: its losses in the loss columns, the old network's beside
  // them (both over the distillation's last steps, on the same batches), and both shapes.
  void growth(const GrowthTakeover& t) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "%.5f,%.5f,,,", t.new_policy_loss, t.new_value_loss);
    std::string aux = t.after.points_head() ? fmt::format("{:.5f}", t.new_points_loss) : "";
    aux += t.after.ownership_head() ? fmt::format(",{:.5f}", t.new_ownership_loss) : ",";
    row("growth", buf, "", ",,,,", aux,
        fmt::format("{},{},{:.5f},{:.5f}", network_shape(t.before), network_shape(t.after),
                    t.old_policy_loss, t.old_value_loss));
  }
  void gate(const GateResult& g) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s,%.4f,%.1f,%d,%.1f,%s", g.candidate().c_str(), g.score(),
                  g.elo(), g.promoted() ? 1 : 0, g.best_elo(),
                  g.vs_random() >= 0 ? std::to_string(g.vs_random()).c_str() : "");
    row("gate", ",,,,", buf);
  }
  void selfplay() { row("selfplay", ",,,,", ""); }
  // anchor_elo,anchor_low,anchor_high,anchor_games,anchor_opponents (train/anchor.h).
  void anchor(const std::string& anchor_fields) { row("anchor", ",,,,", "", anchor_fields); }

 private:
  void row(const std::string& event, const std::string& train_fields,
           const std::string& gate_fields, const std::string& anchor_fields = ",,,,",
           const std::string& aux_fields = ",", const std::string& growth_fields = ",,,") {
    const SelfPlayStats s = selfplay_.stats();
    char buf[256];
    std::snprintf(buf, sizeof buf, "%lld,%s,%lld,%lld,%lld,", static_cast<long long>(unix_ms_now()),
                  event.c_str(), static_cast<long long>(trainer_.step()),
                  static_cast<long long>(trainer_.games_seen()),
                  static_cast<long long>(trainer_.positions_seen()));
    std::string line = buf + train_fields;
    std::snprintf(buf, sizeof buf, "%.3f,%.1f,%.1f,", s.games_per_s(), s.inference.evals_per_s(),
                  s.inference.avg_batch());
    line += buf;
    line += gate_fields.empty() ? ",,,,," : gate_fields;
    line += "," + selfplay_.model_id() + "," + anchor_fields;
    std::snprintf(buf, sizeof buf, ",%.4f", trainer_.core_hours());
    line += buf;
    line += "," + aux_fields;
    line += "," + growth_fields;
    append_metrics_row(dir_, line);
  }

  const RunDir& dir_;
  const Trainer& trainer_;
  const SelfPlay& selfplay_;
};

// The pipeline: self-play in the background; on the main thread ingest, train, checkpoint,
// gate, log and report, until a stop condition.
class TrainingLoop {
 public:
  TrainingLoop(const RunConfig& cfg, const RunDir& dir, const LoopOptions& opt)
      : cfg_(cfg),
        dir_(dir),
        opt_(opt),
        game_(prepare_run_dir(dir, cfg, opt.stop)),
        trainer_(game_, cfg, dir),
        gatekeeper_(game_, cfg, dir),
        selfplay_(game_, cfg, dir, "sp" + std::to_string(::getpid())),
        anchor_(game_, cfg, dir.metrics()),
        metrics_(dir, trainer_, selfplay_),
        status_(opt.status_line),
        last_gate_(last_gate_summary(dir)) {
    // Only now that the run dir's models and checkpoint accepted this config does it become
    // the run's config: a config that does not fit never overwrites the one that does.
    save_run_config(dir, cfg);
  }

  LoopSummary run() {
    SelfPlayThread selfplay_thread(selfplay_);  // stopped and joined on every way out
    selfplay_thread_ = &selfplay_thread;
    if (anchor_.first()) rate_best();
    while (!stopping()) {
      trainer_.ingest_new_records();
      const bool finished = total_steps_reached();
      train_some(finished);
      gate_due();
      if (finished && gatekeeper_.next_candidate().empty()) {
        status_.clear();
        spdlog::info("trainer.total_steps = {} reached", cfg_.trainer().total_steps());
        break;
      }
      log_and_report();
    }
    selfplay_thread.stop_and_join();
    selfplay_thread_ = nullptr;
    status_.clear();
    if (core_hours_reached())
      spdlog::info("the budget of {:g} core-hours is reached ({:.3f} core-hours)",
                   opt_.max_core_hours, trainer_.core_hours());
    wrap_up();
    selfplay_thread.rethrow_failure();
    return summary();
  }

 private:
  bool stopping() const {
    if (opt_.stop && opt_.stop->load()) return true;
    const double minutes = opt_.max_minutes >= 0 ? opt_.max_minutes : cfg_.max_minutes();
    if (minutes > 0 && steady_seconds() - t_start_ >= minutes * 60) return true;
    if (core_hours_reached()) return true;
    return selfplay_thread_ && selfplay_thread_->failed();
  }

  bool core_hours_reached() const {
    return opt_.max_core_hours > 0 && trainer_.core_hours() >= opt_.max_core_hours;
  }

  bool total_steps_reached() const {
    const auto total = cfg_.trainer().total_steps();
    return total > 0 && trainer_.step() >= total;
  }

  // Up to 16 of the steps the records allow, with a checkpoint every checkpoint_every steps.
  void train_some(bool finished) {
    const int64_t allowed = finished ? 0 : trainer_.steps_allowed();
    for (int64_t i = 0; i < std::min<int64_t>(allowed, 16) && !stopping(); ++i) {
      const TrainStepResult r = trainer_.train_step();
      progress_.add(r);
      if (r.takeover) {
        // A grown network took over: a checkpoint and a candidate of it at once, so that the
        // gate (or, promoting always, self-play) gets the new network now.
        status_.clear();
        metrics_.growth(*r.takeover);
        progress_.restart_average();
        checkpoint();
      } else if (r.step % cfg_.trainer().checkpoint_every() == 0) {
        progress_.restart_average();
        checkpoint();
      }
    }
    progress_.update_rate(cfg_.trainer().batch_size(), allowed > 0);
    if (allowed <= 0) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }

  void checkpoint() {
    const std::string path = trainer_.write_model();
    trainer_.save_checkpoint();
    progress_.unsaved_steps = 0;
    checkpoint_since_look_ = true;
    metrics_.train(progress_);
    status_.clear();
    const NetworkConfig& net = trainer_.model_metadata().network();
    std::string aux;
    if (net.points_head()) aux += fmt::format(" points {:.3f}", progress_.last_points);
    if (net.ownership_head()) aux += fmt::format(" ownership {:.4f}", progress_.last_ownership);
    // selfplay.reanalyse_share: the positions whose targets reanalyses replaced so far.
    const std::string reanalysed =
        trainer_.reanalysed_positions() > 0
            ? fmt::format(", {} positions reanalysed", trainer_.reanalysed_positions())
            : "";
    // A growth stage under way: the new network's losses on the same batches.
    const std::string growth =
        trainer_.distilling()
            ? fmt::format("; {}: loss p {:.3f} v {:.3f}", trainer_.growth_status(),
                          progress_.last_grown_p, progress_.last_grown_v)
            : "";
    spdlog::info("step {}: wrote {} (loss p {:.3f} v {:.3f}{}, {:.2f} core-hours{}{})",
                 trainer_.step(), fs::path(path).filename().string(), progress_.last_p,
                 progress_.last_v, aux, trainer_.core_hours(), reanalysed, growth);
  }

  // Gates the newest candidate due, if any (training pauses; self-play goes on). Candidates
  // come from this loop's checkpoints, or were left by a run before it: looking is due after a
  // checkpoint, and otherwise at most every few seconds (a look reads the gate log and the best
  // model's file, which the loop would otherwise repeat ten times a second while it waits for
  // self-play's games).
  void gate_due() {
    const double now = steady_seconds();
    if (!checkpoint_since_look_ && now - last_gate_look_ < kGateLookSeconds) return;
    checkpoint_since_look_ = false;
    last_gate_look_ = now;
    const std::string cand = gatekeeper_.next_candidate();
    if (cand.empty() || stopping()) return;
    status_.clear();
    spdlog::info("gating {} against {}", fs::path(cand).filename().string(), selfplay_.model_id());
    const GateResult g = gatekeeper_.gate(cand);
    ++gates_;
    if (g.promoted()) {
      ++promotions_;
      selfplay_.reload_best();
    }
    metrics_.gate(g);
    if (g.promoted()) rate_best();
    last_gate_ = gate_summary(g);
    write_report(dir_);
    last_report_ = steady_seconds();
  }

  // Anchored strength (train/anchor.h): the best model against the ladder's fixed players, at the
  // start of a run and after each promotion (training pauses, self-play goes on).
  void rate_best() {
    if (!anchor_.enabled() || stopping()) return;
    status_.clear();
    metrics_.anchor(
        anchor_.rate(dir_.best(), cfg_.seed() ^ static_cast<uint64_t>(trainer_.step())));
  }

  // A self-play metrics row and the report every minute; the status line when due.
  void log_and_report() {
    const double now = steady_seconds();
    if (now - last_log_ >= 60) {
      last_log_ = now;
      metrics_.selfplay();
    }
    if (now - last_report_ >= 60) {
      write_report(dir_);
      last_report_ = steady_seconds();  // after the write: a slow write does not shorten the wait
    }
    if (!status_.due(false)) return;
    const SelfPlayStats s = selfplay_.stats();
    status_.show(status_text(trainer_.core_hours(), trainer_.step(),
                             std::max(trainer_.games_seen(), s.games), trainer_.positions_seen(),
                             progress_.samples_per_s, progress_.last_p, progress_.last_v,
                             selfplay_.model_id(), last_gate_, trainer_.reanalysed_positions(),
                             trainer_.growth_status()));
  }

  // After self-play stopped: the steps since the last checkpoint saved, a last metrics row and
  // the report.
  void wrap_up() {
    if (progress_.unsaved_steps > 0) {
      progress_.average();
      checkpoint();
    }
    metrics_.selfplay();
    write_report(dir_);
  }

  LoopSummary summary() const {
    const SelfPlayStats s = selfplay_.stats();
    LoopSummary out;
    out.steps = trainer_.step();
    out.games = trainer_.games_seen();
    out.positions = trainer_.positions_seen();
    out.gates = gates_;
    out.promotions = promotions_;
    out.seconds = steady_seconds() - t_start_;
    out.best_model = Model::read_metadata(dir_.best()).model_id();
    spdlog::info(
        "stopped after {:.0f} s ({:.2f} core-hours in all): step {}, {} games in the records ({} "
        "this session, {:.2f} games/s, {:.0f} evals/s, average batch {:.1f}), best {}; report: {}",
        out.seconds, trainer_.core_hours(), out.steps, out.games, s.games, s.games_per_s(),
        s.inference.evals_per_s(), s.inference.avg_batch(), out.best_model, dir_.report());
    if (s.reanalysed_games > 0) {
      spdlog::info(
          "reanalyse: {} games ({} positions, {:.1f}% of the simulations) re-searched this "
          "session; {} positions' targets replaced in the window over the run",
          s.reanalysed_games, s.reanalysed_positions,
          s.simulations > 0 ? 100.0 * s.reanalysis_simulations / s.simulations : 0.0,
          trainer_.reanalysed_positions());
    }
    return out;
  }

  const double t_start_ = steady_seconds();
  const RunConfig& cfg_;
  const RunDir& dir_;
  const LoopOptions& opt_;
  GamePtr game_;
  Trainer trainer_;
  Gatekeeper gatekeeper_;
  SelfPlay selfplay_;
  AnchorRater anchor_;
  Metrics metrics_;
  StatusLine status_;
  SelfPlayThread* selfplay_thread_ = nullptr;
  TrainProgress progress_;
  std::string last_gate_;
  int gates_ = 0, promotions_ = 0;
  double last_report_ = steady_seconds(), last_log_ = steady_seconds();
  static constexpr double kGateLookSeconds = 5;
  bool checkpoint_since_look_ = true;  // the first look finds what a run before this one left
  double last_gate_look_ = 0;
};

}  // namespace

LoopSummary run_training_loop(const RunConfig& cfg, const RunDir& dir, const LoopOptions& opt) {
  TrainingLoop loop(cfg, dir, opt);
  return loop.run();
}

}  // namespace pincer
