// The analysers' command-line half shared by `pincer serve`, `pincer analyze` and `pincer review`:
// without --model and --player the shipped models of the models folder (serve/shipped.h), and the
// torch library loaded when a model needs it.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "serve/backends.h"

namespace pincer::cli {

struct BackendSetup {
  serve::BackendOptions backends;
  std::string models_dir;  // --models; "" = found from the executable's place
};

// --model, --player, --visits, --max-batch, --device and, with `shipped`, --models (not --rules:
// each command has its own).
void add_backend_setup_options(CLI::App& app, BackendSetup& setup, bool shipped);

// With `shipped`, resolves the shipped models when no model or player is named (else a command
// that names neither is refused by serve::make_analyzers); loads the torch library when a model
// is used. Returns the shipped opening books. `who` names the command in messages.
std::vector<std::string> prepare_backends(BackendSetup& setup, const std::string& who,
                                          bool shipped);

}  // namespace pincer::cli
