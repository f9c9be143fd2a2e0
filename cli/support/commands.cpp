#include "cli/support/commands.h"

namespace pincer::cli {

std::vector<Command>& commands() {
  static std::vector<Command> list;
  return list;
}

RegisterCommand::RegisterCommand(std::string name, std::string help,
                                 std::function<void(CLI::App&)> setup) {
  commands().push_back({std::move(name), std::move(help), std::move(setup)});
}

}  // namespace pincer::cli
