// pincer warmstart: the warm start of a run config alone (train/warm_start.h): alpha-beta games
// labelled by their searches, then a fresh network trained on them, written as a model file that
// plays as `net:model=PATH` or starts a run.
#include <spdlog/spdlog.h>

#include <cstdio>

#include "cli/support/commands.h"
#include "cli/torch/stop_signal.h"
#include "engine/registry.h"
#include "nn/model.h"
#include "train/config.h"
#include "train/cpu_time.h"
#include "train/run_setup.h"
#include "train/warm_start.h"

namespace pincer::cli {
namespace {

struct WarmstartArgs {
  std::string config;
  std::string out;
  int games = 0;
  int steps = 0;
  int depth = 0;
  int threads = 0;
  std::string records;
  std::string save_records;
  int save_every = 0;
  std::string precision;  // "" = the config's trainer.precision
};

void run(const WarmstartArgs& o) {
  const RunConfig cfg = load_run_config(o.config);
  WarmStartConfig w = cfg.warm_start();
  if (o.games > 0) w.set_games(o.games);
  if (o.steps > 0) w.set_steps(o.steps);
  if (o.depth > 0) w.set_search_depth(o.depth);
  if (o.threads > 0) w.set_threads(o.threads);
  if (!o.records.empty()) w.set_records(o.records);
  w = complete_warm_start_config(w, cfg.trainer().batch_size());
  const GamePtr game = load_game(cfg.rules());
  const auto& stop = install_stop_signal();
  set_torch_threads(w.threads());
  // The network a new run of this config would start from (its auxiliary heads as there).
  auto model = Model::create(*game, new_run_network(*game, cfg.network()), "cpu", cfg.seed());
  WarmStartData data = warm_start_data(*game, w, cfg.seed(), &stop);
  set_warm_start_aux_targets(*game, data,
                             model->has_ownership_head() ? cfg.trainer().ownership_plies() : 0);
  std::printf("games=%d positions=%zu seconds=%.0f mean_depth=%.2f\n", data.games,
              data.samples.size(), data.seconds, data.mean_depth);
  std::fflush(stdout);
  if (data.samples.empty()) throw std::runtime_error("no positions generated (stopped?)");
  if (!o.save_records.empty()) {
    const int chunks = write_warm_start_records(o.save_records, *game, data.records);
    std::printf("saved %zu games in %d chunks to %s\n", data.records.size(), chunks,
                o.save_records.c_str());
    std::fflush(stdout);
  }
  model->metadata().set_model_id(model->metadata().model_id() + "-warm");
  // The file carries the CPU time that made it (labels and training, all threads), so a run
  // started from it with --from counts its core-hours from there.
  const auto save = [&] {
    model->metadata().set_core_hours(process_cpu_seconds() / 3600);
    model->save(o.out);
  };
  PretrainProgress progress;
  progress.every = o.save_every;
  progress.on_progress = [&](const PretrainStats& now) {
    save();
    std::printf("step=%d seconds=%.0f holdout_top1=%.3f holdout_value_loss=%.3f model=%s\n",
                now.steps, now.seconds, now.holdout_top1, now.holdout_value_loss, o.out.c_str());
    std::fflush(stdout);
  };
  const Precision precision =
      parse_precision(o.precision.empty() ? cfg.trainer().precision() : o.precision);
  spdlog::info("warm start: training in {}", precision_name(precision));
  const PretrainStats st = pretrain_model(*model, *game, data, w, cfg.seed(), precision, &stop,
                                          progress, aux_loss_weights(cfg.trainer()));
  save();
  std::printf(
      "steps=%d seconds=%.0f policy_loss=%.3f value_loss=%.3f holdout_positions=%d "
      "holdout_top1=%.3f holdout_value_loss=%.3f model=%s\n",
      st.steps, st.seconds, st.policy_loss, st.value_loss, st.holdout_positions, st.holdout_top1,
      st.holdout_value_loss, o.out.c_str());
}

RegisterCommand register_warmstart{
    "warmstart",
    "Train a network on alpha-beta games labelled by their searches (a run's warm start alone)",
    [](CLI::App& app) {
      auto o = std::make_shared<WarmstartArgs>();
      app.add_option("--config", o->config, "Run config (its network, seed and warm_start)")
          ->required();
      app.add_option("--out", o->out, "Model file to write")->required();
      app.add_option("--games", o->games, "Override warm_start.games")
          ->check(CLI::Range(1, 10000000));
      app.add_option("--steps", o->steps, "Override warm_start.steps")
          ->check(CLI::Range(1, 100000000));
      app.add_option("--depth", o->depth, "Override warm_start.search_depth")
          ->check(CLI::Range(1, 32));
      app.add_option("--threads", o->threads, "Override warm_start.threads")
          ->check(CLI::Range(1, 256));
      app.add_option("--records", o->records,
                     "Read labelled games from the record chunks in this directory first "
                     "(warm_start.records)");
      app.add_option("--save-records", o->save_records,
                     "Write the labelled games as record chunks into this directory");
      app.add_option("--save-every", o->save_every,
                     "Also write the model (and print the held-out stats) every this many "
                     "training steps, so a long pretraining can be watched and cut short")
          ->check(CLI::Range(1, 100000000));
      app.add_option("--precision", o->precision,
                     "Arithmetic of the training passes: auto, float32 or bfloat16 (default: the "
                     "config's trainer.precision)")
          ->check(CLI::IsMember({"auto", "float32", "bfloat16"}));
      app.callback([o] { run(*o); });
    }};

}  // namespace
}  // namespace pincer::cli
