#include "train/run_setup.h"

#include <spdlog/spdlog.h>

#include <filesystem>

#include "engine/atomic_file.h"
#include "engine/registry.h"
#include "nn/model.h"
#include "play/time_manager.h"
#include "train/config.h"
#include "train/cpu_time.h"
#include "train/warm_start.h"

namespace fs = std::filesystem;

namespace pincer {

NetworkConfig new_run_network(const Game& game, NetworkConfig network) {
  if (!network.has_points_head()) network.set_points_head(counts_points(game));
  if (!network.has_ownership_head()) network.set_ownership_head(game.provides_ownership());
  return network;
}

GamePtr prepare_run_dir(const RunDir& dir, const RunConfig& config, const std::atomic<bool>* stop) {
  GamePtr game = load_game(config.rules());
  fs::create_directories(dir.models());
  fs::create_directories(dir.records());
  if (const int n = remove_stale_temporaries(dir)) {
    spdlog::info("removed {} temporary files of killed writers in {}", n, dir.root);
  }
  if (!fs::exists(dir.best())) {
    std::vector<GameRecord> warm_games;  // random, or warm-started
    // The warm start's labelled games are saved as they are played, so that a killed warm start
    // resumes with them: into records/ when they stay in the window, else into warmstart/.
    const bool keep = config.warm_start().keep_in_window();
    const std::string labels = keep ? dir.records() : dir.path("warmstart");
    std::unique_ptr<Model> model;
    if (!config.start_model().empty()) {
      // RunConfig.start_model: the run goes on from that model, its step and core-hours kept.
      model = Model::load(config.start_model(), *game, "cpu");
      spdlog::info("new run starts from {} ({}, step {}, {:.2f} core-hours)", config.start_model(),
                   model->metadata().model_id(), model->metadata().training_step(),
                   model->metadata().core_hours());
    } else {
      model = make_initial_model(*game, config, stop, &warm_games, labels);
      // The run's CPU so far (the warm start's, in this process), as the trainer counts it.
      model->metadata().set_core_hours(process_cpu_seconds() / 3600);
    }
    model->save(dir.model(0));
    if (keep && !warm_games.empty() && !config.warm_start().records().empty()) {
      const int chunks = write_warm_start_records(dir.records(), *game, warm_games);
      spdlog::info("warm start: {} labelled games kept in the window ({} chunks in {})",
                   warm_games.size(), chunks, dir.records());
    } else if (keep && !warm_games.empty()) {
      spdlog::info("warm start: {} labelled games kept in the window (in {})", warm_games.size(),
                   dir.records());
    }
    atomic_copy_file(dir.model(0), dir.best());
    atomic_copy_file(Model::metadata_path(dir.model(0)), Model::metadata_path(dir.best()));
    spdlog::info("new run in {}: {} ({} parameters), game {} rules {} ({})", dir.root,
                 model->metadata().model_id(), model->parameter_count(), game->game_name(),
                 game->ruleset_name(), game->fingerprint());
  } else {
    const ModelMetadata meta = Model::read_metadata(dir.best());
    Model::check_compatible(meta, *game, dir.best());
    NetworkConfig have = meta.network();
    if (!have.has_policy_head()) have.set_policy_head("dense");
    if (!have.has_points_head()) have.set_points_head(false);
    if (!have.has_ownership_head()) have.set_ownership_head(false);
    // The config's network, or a growth stage's (RunConfig.growth): heads the config leaves
    // unset were chosen when the model was made (new_run_network).
    auto fits = [&](NetworkConfig wanted) {
      if (!wanted.has_policy_head()) wanted.set_policy_head(meta.network().policy_head());
      if (!wanted.has_points_head()) wanted.set_points_head(meta.network().points_head());
      if (!wanted.has_ownership_head()) wanted.set_ownership_head(meta.network().ownership_head());
      if (wanted.policy_head().empty()) wanted.set_policy_head("dense");
      return have.SerializeAsString() == wanted.SerializeAsString();
    };
    bool known = fits(config.network());
    for (const GrowthStage& g : config.growth()) known = known || fits(g.network());
    if (!known) {
      spdlog::warn(
          "the run's best model has another architecture than the config's network{}; "
          "the trainer continues with the model's",
          config.growth_size() ? " and its growth stages'" : "");
    }
  }
  return game;
}

RunConfig run_dir_config(const RunDir& dir, const std::string& config_path) {
  if (!config_path.empty()) return load_run_config(config_path);
  if (!fs::exists(dir.config())) {
    throw ConfigError("no --config given and " + dir.config() +
                      " does not exist (start the run with `pincer train --config ...`)");
  }
  return load_run_config(dir.config());
}

void save_run_config(const RunDir& dir, const RunConfig& config) {
  fs::create_directories(dir.root);
  atomic_write_file(dir.config(), "# Run config as used by the latest `pincer train` here.\n" +
                                      run_config_text(config));
}

}  // namespace pincer
