#include "cli/backend_setup.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "cli/support/torch_plugin.h"
#include "serve/shipped.h"

namespace pincer::cli {

void add_backend_setup_options(CLI::App& app, BackendSetup& setup, bool shipped) {
  serve::BackendOptions& b = setup.backends;
  app.add_option("--model", b.models, "Model file, one per --rules, in the same order");
  app.add_option("--player", b.player,
                 "Classical analyser instead of models: alphabeta:depth=D|time=S or mcts:sims=N");
  if (shipped) {
    app.add_option("--models", setup.models_dir,
                   "Folder of the shipped models (R.pt, R.book) used without --model and --player "
                   "(default: the repository's models/, found from the executable)");
  }
  app.add_option("--visits", b.default_visits, "Visits per turn when a query gives no maxVisits")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000000));
  app.add_option("--max-batch", b.model.max_batch, "Positions per network batch")
      ->capture_default_str()
      ->check(CLI::Range(1, 4096));
  app.add_option("--device", b.model.device, "Torch device of the models")->capture_default_str();
}

std::vector<std::string> prepare_backends(BackendSetup& setup, const std::string& who,
                                          bool shipped) {
  serve::BackendOptions& b = setup.backends;
  std::vector<std::string> books;
  if (shipped && b.models.empty() && b.player.empty()) {
    const std::string dir = serve::find_models_dir(setup.models_dir);
    spdlog::info("{}: shipped models from {}", who,
                 dir.empty() ? "nowhere (no models folder)" : dir);
    books = serve::use_shipped(b, dir);
  } else if (!setup.models_dir.empty()) {
    throw std::invalid_argument("--models is for the shipped models: not with --model or --player");
  }
  const bool any_model = std::any_of(b.models.begin(), b.models.end(),
                                     [](const std::string& m) { return !m.empty(); });
  if (any_model) {
    try {
      load_torch_library(who + " --model");
    } catch (const std::exception& e) {
      if (!b.models_optional) throw;
      spdlog::warn("{}", e.what());
    }
  }
  return books;
}

}  // namespace pincer::cli
