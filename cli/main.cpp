// The `pincer` program: one binary, one subcommand per job. Commands that need the network live in
// pincer-torch.so, loaded only when such a command runs (cli/support/torch_plugin.h).
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstring>
#include <filesystem>

#include "cli/support/commands.h"
#include "cli/support/torch_plugin.h"
#include "engine/game.h"

namespace {

using namespace pincer::cli;

// The subcommand word of the command line: the first argument that is not a global option.
std::string command_word(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--log-level") {
      ++i;
    } else if (a.empty() || a[0] != '-') {
      return a;
    }
  }
  return "";
}

bool is_registered(const std::string& name) {
  for (const Command& c : commands()) {
    if (c.name == name) return true;
  }
  return false;
}

// Loads the torch half when the command is one of its own (or, without a manifest, any command
// the executable does not know). Returns the manifest's entries still to list in --help.
std::vector<std::pair<std::string, std::string>> prepare_torch_commands(const std::string& word) {
  auto manifest = torch_command_manifest();
  if (!word.empty() && !is_registered(word)) {
    // Without a manifest, any word the executable does not know may be a torch command: try
    // the library if there is one, and let the parser name the word if it is not.
    bool listed = manifest.empty() && std::filesystem::exists(torch_library_path());
    for (const auto& entry : manifest) listed |= entry.first == word;
    if (listed) load_torch_library("pincer " + word);
  }
  std::vector<std::pair<std::string, std::string>> rest;
  for (auto& entry : manifest) {
    if (!is_registered(entry.first)) rest.push_back(std::move(entry));
  }
  return rest;
}

}  // namespace

int main(int argc, char** argv) {
  spdlog::set_default_logger(spdlog::stderr_color_mt("pincer"));
  spdlog::set_pattern("[%H:%M:%S.%e] [%^%l%$] %v");

  std::vector<std::pair<std::string, std::string>> unloaded;
  try {
    if (argc == 2 && std::strcmp(argv[1], "--write-torch-manifest") == 0) {
      std::printf("%s\n", write_torch_command_manifest().c_str());
      return 0;
    }
    unloaded = prepare_torch_commands(command_word(argc, argv));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }

  CLI::App app{"pincer: an AlphaZero-style engine and training pipeline for SE!ZE and other games"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "pincer 0.1.0");
  std::string log_level = "info";
  app.add_option("--log-level", log_level, "trace, debug, info, warn, error or off")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}));
  app.parse_complete_callback([&] { spdlog::set_level(spdlog::level::from_str(log_level)); });
  for (const Command& command : commands()) {
    command.setup(*app.add_subcommand(command.name, command.help));
  }
  // Torch commands not loaded (another command runs): listed in --help only.
  for (const auto& [name, help] : unloaded) {
    app.add_subcommand(name, help)->allow_extras()->callback([name = name] {
      throw std::runtime_error("pincer " + name + " was not loaded");
    });
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const ExitStatus& s) {
    return s.code;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
