#include "train/run_dir.h"

#include <fcntl.h>
#include <google/protobuf/text_format.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "engine/atomic_file.h"
#include "engine/registry.h"
#include "nn/model.h"
#include "train/config.h"
#include "train/gate_log.h"
#include "train/warm_start.h"

namespace fs = std::filesystem;

namespace pincer {

const char* const kMetricsColumns =
    "unix_ms,event,step,games,positions,policy_loss,value_loss,lr,samples_per_s,"
    "selfplay_games_per_s,evals_per_s,avg_batch,candidate,score,elo,promoted,best_elo,vs_random,"
    "best,anchor_elo,anchor_low,anchor_high,anchor_games,anchor_opponents";

std::string RunDir::model(int64_t step) const {
  char name[64];
  std::snprintf(name, sizeof name, "models/model-%06lld.pt", static_cast<long long>(step));
  return path(name);
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
    auto model = make_initial_model(*game, config, stop, &warm_games);
    model->save(dir.model(0));
    if (config.warm_start().keep_in_window() && !warm_games.empty()) {
      const int chunks = write_warm_start_records(dir.records(), *game, warm_games);
      spdlog::info("warm start: {} labelled games kept in the window ({} chunks in {})",
                   warm_games.size(), chunks, dir.records());
    }
    atomic_copy_file(dir.model(0), dir.best());
    atomic_copy_file(Model::metadata_path(dir.model(0)), Model::metadata_path(dir.best()));
    spdlog::info("new run in {}: {} ({} parameters), game {} rules {} ({})", dir.root,
                 model->metadata().model_id(), model->parameter_count(), game->game_name(),
                 game->ruleset_name(), game->fingerprint());
  } else {
    const ModelMetadata meta = Model::read_metadata(dir.best());
    Model::check_compatible(meta, *game, dir.best());
    if (meta.network().SerializeAsString() != config.network().SerializeAsString()) {
      spdlog::warn(
          "the run's best model has another architecture than the config's network; "
          "the trainer continues with the model's");
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

GateLog read_gate_log(const RunDir& dir) {
  if (!fs::exists(dir.gating())) return GateLog();
  return parse_gate_log(read_whole_file(dir.gating()), dir.gating());
}

void write_gate_log(const RunDir& dir, const GateLog& log) {
  std::string text;
  google::protobuf::TextFormat::PrintToString(log, &text);
  atomic_write_file(dir.gating(), text);
}

void append_metrics_row(const RunDir& dir, const std::string& row) {
  // One write(2) per row (with the header when the file is new): a process killed at any moment
  // leaves whole lines only.
  const int fd = ::open(dir.metrics().c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot append to " + dir.metrics());
  struct stat st {};
  const bool fresh = ::fstat(fd, &st) == 0 && st.st_size == 0;
  const std::string text = (fresh ? std::string(kMetricsColumns) + "\n" : "") + row + "\n";
  const ssize_t n = ::write(fd, text.data(), text.size());
  ::close(fd);
  if (n != static_cast<ssize_t>(text.size())) {
    throw std::runtime_error("cannot append to " + dir.metrics());
  }
}

int remove_stale_temporaries(const RunDir& dir) {
  // engine/atomic_file.h names them <target>.tmp.<pid>.<n>; a live writer's are left alone.
  int removed = 0;
  std::error_code ec;
  for (const std::string& folder : {dir.root, dir.models(), dir.records()}) {
    for (const auto& e : fs::directory_iterator(folder, ec)) {
      const std::string name = e.path().filename().string();
      const auto at = name.rfind(".tmp.");
      if (at == std::string::npos) continue;
      const long pid = std::strtol(name.c_str() + at + 5, nullptr, 10);
      if (pid <= 0 || (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM)) continue;
      if (fs::remove(e.path(), ec)) ++removed;
    }
  }
  return removed;
}

}  // namespace pincer
