// pincer checkrun: reads every file of a run directory the way the run does and says what it
// holds, or exits 1 naming the first file that is damaged. Used after a crash (and by the
// kill -9 test, tests/cli/kill_resume.sh) to show that nothing is half-written or lost.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <set>

#include "cli/support/commands.h"
#include "engine/atomic_file.h"
#include "engine/registry.h"
#include "nn/model.h"
#include "store/records.h"
#include "store/run_dir.h"
#include "train/run_setup.h"
#include "train/trainer.h"

namespace fs = std::filesystem;

namespace pincer::cli {
namespace {

void check_run(const std::string& root) {
  const RunDir dir(root);
  const RunConfig cfg = run_dir_config(dir, "");
  const GamePtr game = load_game(cfg.rules());
  // Record chunks: each whole, under the run's rules. Reanalyses (selfplay.reanalyse_share)
  // re-search stored games: counted apart.
  int64_t games = 0, reanalyses = 0;
  const auto chunks = list_record_chunks(dir.records());
  for (const std::string& name : chunks) {
    const RecordChunk chunk = read_record_chunk(dir.records() + "/" + name, *game);
    for (const GameRecord& g : chunk.games()) {
      ++(g.has_reanalysis() ? reanalyses : games);
    }
  }
  // Models: each loads for the game.
  static const std::regex model_re("model-\\d+\\.pt");
  int models = 0;
  for (const auto& e : fs::directory_iterator(dir.models())) {
    const std::string name = e.path().filename().string();
    if (!std::regex_match(name, model_re)) continue;
    Model::load(e.path().string(), *game);
    ++models;
  }
  const std::string best = Model::load(dir.best(), *game)->metadata().model_id();
  // The checkpoint loads, and every chunk it read is still there.
  int64_t step = -1;
  std::string
      network;  // the checkpoint's network, and a growth stage's under way (RunConfig.growth)
  if (fs::exists(dir.checkpoint())) {
    Trainer trainer(game, cfg, dir);
    step = trainer.step();
    network = " network=" + network_shape(trainer.model_metadata().network());
    std::string growth = trainer.growth_status();
    std::replace(growth.begin(), growth.end(), ' ', '_');
    if (!growth.empty()) network += " growth=" + growth;
    const std::set<std::string> present(chunks.begin(), chunks.end());
    for (const std::string& name : trainer.ingested_chunks()) {
      if (!present.count(name)) {
        throw std::runtime_error(dir.checkpoint() + " read record chunk " + name +
                                 ", which is gone");
      }
    }
  }
  const int gates = read_gate_log(dir).gates_size();
  // metrics.csv: whole lines, each with the header's number of fields.
  int rows = 0;
  if (fs::exists(dir.metrics())) {
    const std::string text = read_whole_file(dir.metrics());
    if (!text.empty() && text.back() != '\n') {
      throw std::runtime_error(dir.metrics() + " ends in a partial line");
    }
    size_t fields = std::string::npos, start = 0;
    for (size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
      const size_t n = std::count(text.begin() + start, text.begin() + end, ',');
      if (fields == std::string::npos) {
        fields = n;
      } else if (n != fields) {
        throw std::runtime_error(dir.metrics() + ": line " + std::to_string(rows + 2) +
                                 " has another number of fields than the header");
      } else {
        ++rows;
      }
    }
  }
  if (fs::exists(dir.report()) &&
      read_whole_file(dir.report()).find("</html>") == std::string::npos) {
    throw std::runtime_error(dir.report() + " is cut short");
  }
  int temporaries = 0;
  for (const std::string& folder : {dir.root, dir.models(), dir.records()}) {
    for (const auto& e : fs::directory_iterator(folder)) {
      temporaries += e.path().filename().string().find(".tmp.") != std::string::npos;
    }
  }
  std::printf(
      "chunks=%zu games=%lld models=%d best=%s checkpoint_step=%lld gates=%d metrics_rows=%d "
      "temporaries=%d%s%s\n",
      chunks.size(), static_cast<long long>(games), models, best.c_str(),
      static_cast<long long>(step), gates, rows, temporaries,
      reanalyses ? (" reanalyses=" + std::to_string(reanalyses)).c_str() : "", network.c_str());
}

RegisterCommand register_checkrun{
    "checkrun",
    "Read every file of a run directory (records, models, checkpoint, gate log, "
    "metrics) and report what it holds, or the first damaged file",
    [](CLI::App& app) {
      auto dir = std::make_shared<std::string>();
      app.add_option("--dir", *dir, "Run directory")->required();
      app.callback([dir] { check_run(*dir); });
    }};

}  // namespace
}  // namespace pincer::cli
