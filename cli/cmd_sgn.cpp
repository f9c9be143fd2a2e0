// pincer sgn check: validates game records (headers, fingerprint, every move, the result).
#include <cstdio>
#include <fstream>
#include <sstream>

#include "cli/support/commands.h"
#include "engine/record.h"

namespace pincer::cli {
namespace {

// Returns the number of bad records (a file that cannot be read or parsed counts as one).
int check_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::printf("%s: error: cannot read the file\n", path.c_str());
    return 1;
  }
  std::stringstream text;
  text << in.rdbuf();
  std::vector<SgnRecord> records;
  try {
    records = parse_sgn(text.str());
  } catch (const std::exception& e) {
    std::printf("%s: error: %s\n", path.c_str(), e.what());
    return 1;
  }
  if (records.empty()) {
    std::printf("%s: error: no game records\n", path.c_str());
    return 1;
  }
  int bad = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    const std::string where = path + ": game " + std::to_string(i + 1) + " (line " +
                              std::to_string(records[i].first_line) + ")";
    try {
      const ReplayedGame g = replay_record(records[i]);
      const Outcome o = g.final->outcome();
      std::printf(
          "%s: ok, %s, %zu plies, %s\n", where.c_str(), g.game->ruleset_name().c_str(),
          g.actions.size(),
          o.over ? (result_text(*g.game, *g.final) + " (" + o.reason + ")").c_str() : "unfinished");
    } catch (const std::exception& e) {
      std::printf("%s: error: %s\n", where.c_str(), e.what());
      ++bad;
    }
  }
  return bad;
}

RegisterCommand register_sgn{
    "sgn", "Game records (SGN)", [](CLI::App& app) {
      app.require_subcommand(1);
      auto files = std::make_shared<std::vector<std::string>>();
      CLI::App* check =
          app.add_subcommand("check", "Validate records: ruleset, fingerprint, every move, result");
      check->add_option("files", *files, "SGN files")->required();
      check->callback([files] {
        int bad = 0;
        for (const std::string& f : *files) bad += check_file(f);
        std::fflush(stdout);
        if (bad) throw ExitStatus{1};
      });
    }};

}  // namespace
}  // namespace pincer::cli
