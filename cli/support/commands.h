// Subcommands register themselves here; main() builds one CLI11 app from the list.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace pincer::cli {

struct Command {
  std::string name;
  std::string help;
  // Adds the subcommand's options to `app` and sets its callback. Callbacks report failures by
  // throwing (GameError, std::runtime_error); main prints "error: ..." and exits 1.
  std::function<void(CLI::App& app)> setup;
};

std::vector<Command>& commands();

// `RegisterCommand register_perft{"perft", "...", setup};` in an unnamed namespace of the
// command's source file (named after it: files of one unity build share a scope).
struct RegisterCommand {
  RegisterCommand(std::string name, std::string help, std::function<void(CLI::App&)> setup);
};

// Thrown by a command to exit with a given status after printing nothing more.
struct ExitStatus {
  int code;
};

}  // namespace pincer::cli
