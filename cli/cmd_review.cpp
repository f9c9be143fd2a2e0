// pincer review: the review of recorded games (serve/review.h): every turn analysed at a fixed
// budget, each move marked inaccuracy / mistake / blunder by its drop in the mover's expected
// score, per side an accuracy and counts. One JSON line per record on standard output; with
// --sgn the records again with the review in comments.
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include "cli/backend_setup.h"
#include "cli/support/commands.h"
#include "engine/atomic_file.h"
#include "engine/record.h"
#include "serve/engine.h"
#include "serve/review.h"

namespace pincer::cli {
namespace {

struct ReviewArgs {
  std::string file;
  std::string sgn_out;
  BackendSetup setup;
  serve::EngineOptions engine;
  serve::ReviewOptions review;
  bool pretty = false;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void run(ReviewArgs& args) {
  const std::vector<SgnRecord> records = parse_sgn(read_file(args.file));
  if (records.empty()) throw std::runtime_error(args.file + ": no game records");
  std::vector<ReplayedGame> games;
  std::set<std::string> rules;
  for (size_t i = 0; i < records.size(); ++i) {
    try {
      games.push_back(replay_record(records[i]));
    } catch (const std::exception& e) {
      throw std::runtime_error(args.file + ": game " + std::to_string(i + 1) + " (line " +
                               std::to_string(records[i].first_line) + "): " + e.what());
    }
    rules.insert(records[i].header("Ruleset"));
  }
  serve::BackendOptions& b = args.setup.backends;
  if (b.rules.empty()) b.rules.assign(rules.begin(), rules.end());
  b.seed = args.engine.seed;
  prepare_backends(args.setup, "pincer review", true);
  args.review.visits = b.default_visits;
  serve::AnalysisEngine engine(serve::make_analyzers(b), args.engine);
  std::string annotated;
  for (size_t i = 0; i < games.size(); ++i) {
    const ReplayedGame& g = games[i];
    serve::ReviewGame rg;
    rg.rules = g.game->fingerprint();
    rg.position = g.start->to_text();
    std::unique_ptr<State> s = g.start->clone();
    for (Action a : g.actions) {
      rg.moves.push_back(g.game->action_text(*s, a, false));
      s->apply(a);
    }
    // Every turn one after the other, plus a minute: the most it can take.
    const double wait = (g.actions.size() + 1) * std::max(args.review.seconds, 1.0) + 60;
    const serve::Json review = serve::review_game(engine, rg, args.review, wait);
    const std::string text =
        review.dump(args.pretty ? 2 : -1, ' ', false, serve::Json::error_handler_t::replace);
    std::printf("%s\n", text.c_str());
    std::fflush(stdout);
    if (!args.sgn_out.empty()) {
      Headers headers;
      for (const auto& h : records[i].headers) {
        if (h.first != "Annotator") headers.push_back(h);
      }
      annotated += (annotated.empty() ? "" : "\n") +
                   serve::annotated_sgn(*g.game, *g.start, g.actions, review, headers);
    }
  }
  if (!args.sgn_out.empty()) atomic_write_file(args.sgn_out, annotated);
}

RegisterCommand register_review{
    "review",
    "Review recorded games: inaccuracies, mistakes and blunders by the drop in expected score",
    [](CLI::App& app) {
      auto args = std::make_shared<ReviewArgs>();
      app.add_option("file", args->file, "SGN file (every game in it is reviewed)")->required();
      app.add_option("--rules", args->setup.backends.rules,
                     "Ruleset to load (repeat; default: the records' own)");
      add_backend_setup_options(app, args->setup, true);
      app.add_option("--seconds", args->review.seconds, "Time limit of each turn's analysis")
          ->capture_default_str()
          ->check(CLI::Range(0.001, 3600.0));
      app.add_option("--threads", args->engine.threads, "Turns analysed at once")
          ->capture_default_str()
          ->check(CLI::Range(1, 256));
      app.add_option("--seed", args->engine.seed, "Seed of every search")->capture_default_str();
      app.add_option("--sgn", args->sgn_out, "Write the records with the review as comments");
      app.add_flag("--pretty", args->pretty, "Indented JSON");
      app.callback([args] { run(*args); });
    }};

}  // namespace
}  // namespace pincer::cli
