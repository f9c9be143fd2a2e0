// pincer analyze: the JSON-lines analysis engine (docs/analysis.md). Queries on standard input,
// one response line per analysed turn on standard output; responses of concurrent queries
// interleave. At the end of input it finishes what is queued and exits.
#include <cstdio>
#include <iostream>
#include <mutex>

#include "cli/backend_setup.h"
#include "cli/support/commands.h"
#include "serve/backends.h"
#include "serve/engine.h"

namespace pincer::cli {
namespace {

struct AnalyzeArgs {
  BackendSetup setup;
  serve::EngineOptions engine;
};

void run(AnalyzeArgs& args) {
  prepare_backends(args.setup, "pincer analyze", false);
  serve::AnalysisEngine engine(serve::make_analyzers(args.setup.backends), args.engine);
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

RegisterCommand register_analyze{
    "analyze",
    "JSON-lines analysis engine: queries on stdin, one response per analysed turn on stdout",
    [](CLI::App& app) {
      auto args = std::make_shared<AnalyzeArgs>();
      app.add_option("--rules", args->setup.backends.rules,
                     "Ruleset name or file (repeat for several)")
          ->required();
      add_backend_setup_options(app, args->setup, false);
      app.add_option("--threads", args->engine.threads, "Turns analysed at once")
          ->capture_default_str()
          ->check(CLI::Range(1, 256));
      app.add_option("--seed", args->engine.seed, "Seed of every search")->capture_default_str();
      app.callback([args] {
        args->setup.backends.seed = args->engine.seed;
        run(*args);
      });
    }};

}  // namespace
}  // namespace pincer::cli
