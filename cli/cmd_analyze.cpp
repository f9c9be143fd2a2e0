// pincer analyze: the JSON-lines analysis engine (docs/analysis.md). Queries on standard input,
// one response line per analysed turn on standard output; responses of concurrent queries
// interleave. At the end of input it finishes what is queued and exits.
#include <cstdio>
#include <iostream>
#include <mutex>

#include "cli/support/commands.h"
#include "cli/support/torch_plugin.h"
#include "serve/backends.h"
#include "serve/engine.h"

namespace pincer::cli {
namespace {

struct AnalyzeArgs {
  serve::BackendOptions backends;
  serve::EngineOptions engine;
};

void run(const AnalyzeArgs& args) {
  if (!args.backends.models.empty()) load_torch_library("pincer analyze --model");
  serve::AnalysisEngine engine(serve::make_analyzers(args.backends), args.engine);
  std::mutex out_mutex;
  const serve::Sink sink = [&](const serve::Json& j) {
    const std::string text = j.dump(-1, ' ', false, serve::Json::error_handler_t::replace);
    std::lock_guard<std::mutex> lock(out_mutex);
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
  };
  std::string line;
  while (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    engine.handle_line(line, sink);
  }
  engine.wait_idle();
}

void add_backend_options(CLI::App& app, serve::BackendOptions& b) {
  app.add_option("--rules", b.rules, "Ruleset name or file (repeat for several)")->required();
  app.add_option("--model", b.models, "Model file, one per --rules, in the same order");
  app.add_option("--player", b.player,
                 "Classical analyser instead of a model: alphabeta:depth=D|time=S or mcts:sims=N");
  app.add_option("--visits", b.default_visits, "Visits per turn when a query gives no maxVisits")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000000));
  app.add_option("--max-batch", b.model.max_batch, "Positions per network batch")
      ->capture_default_str()
      ->check(CLI::Range(1, 4096));
  app.add_option("--device", b.model.device, "Torch device of the model")->capture_default_str();
}

RegisterCommand reg{
    "analyze",
    "JSON-lines analysis engine: queries on stdin, one response per analysed turn on stdout",
    [](CLI::App& app) {
      auto args = std::make_shared<AnalyzeArgs>();
      add_backend_options(app, args->backends);
      app.add_option("--threads", args->engine.threads, "Turns analysed at once")
          ->capture_default_str()
          ->check(CLI::Range(1, 256));
      app.add_option("--seed", args->engine.seed, "Seed of every search")->capture_default_str();
      app.callback([args] {
        args->backends.seed = args->engine.seed;
        run(*args);
      });
    }};

}  // namespace
}  // namespace pincer::cli
