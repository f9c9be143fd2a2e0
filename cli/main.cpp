// The `pincer` program: one binary, one subcommand per job.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>

#include "cli/support/commands.h"
#include "engine/game.h"

int main(int argc, char** argv) {
  using namespace pincer::cli;
  spdlog::set_default_logger(spdlog::stderr_color_mt("pincer"));
  spdlog::set_pattern("[%H:%M:%S.%e] [%^%l%$] %v");

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
