// pincer match: two players over many games, colours swapped in pairs, with the score, Elo
// difference and optionally an SPRT that stops early.
#include <spdlog/spdlog.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli/support/commands.h"
#include "engine/atomic_file.h"
#include "engine/registry.h"
#include "play/ladder.h"
#include "play/match.h"

namespace pincer::cli {
namespace {

struct MatchArgs {
  std::string rules = "seize-reference";
  std::string a, b;
  int games = 100;
  int threads = 1;
  int openings = 4;
  std::string sgn_dir;
  uint64_t seed = 1;
  bool json = false;
  std::string sprt;
  double alpha = 0.05, beta = 0.05;
  int max_plies = 2000;
  std::string position;
  std::string clock = "none";
};

void run(const MatchArgs& o) {
  const GamePtr game = load_game(o.rules);
  MatchOptions mo;
  mo.games = o.games;
  mo.threads = o.threads;
  mo.opening_plies = o.openings;
  mo.seed = o.seed;
  mo.max_plies = o.max_plies;
  mo.position = o.position;
  mo.clock = parse_clock(o.clock);
  if (!o.sprt.empty()) {
    SprtConfig base;
    base.alpha = o.alpha;
    base.beta = o.beta;
    mo.sprt = parse_sprt_bounds(o.sprt, base);
  }
  const PlayerMaker a = player_maker(game, o.a), b = player_maker(game, o.b);
  if (!o.sgn_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(o.sgn_dir, ec);
    if (ec) throw std::runtime_error("cannot create " + o.sgn_dir + ": " + ec.message());
    const std::string event = o.a + " vs " + o.b;
    mo.on_game = [game, dir = o.sgn_dir, event](const MatchGame& g) {
      char name[32];
      std::snprintf(name, sizeof name, "game-%05d.sgn", g.index + 1);
      atomic_write_file((std::filesystem::path(dir) / name).string(),
                        match_game_text(*game, g, event));
    };
  }
  spdlog::info("match on {} ({}): A = {}, B = {}, {} games, {} thread(s), seed {}",
               game->ruleset_name(), game->fingerprint(), o.a, o.b, o.games + (o.games & 1),
               o.threads, o.seed);
  const MatchResult r = run_match(game, o.a, a, o.b, b, mo);
  const ScoreEstimate& e = r.estimate;
  const int n = static_cast<int>(r.games.size());

  std::printf("match %s (A) vs %s (B) on %s: %d games, openings of %d random plies, seed %llu\n",
              o.a.c_str(), o.b.c_str(), game->ruleset_name().c_str(), n, o.openings,
              static_cast<unsigned long long>(o.seed));
  std::printf("A: %d wins, %d draws, %d losses\n", r.wins, r.draws, r.losses);
  std::printf("score of A: %.3f (95%% CI %.3f .. %.3f)\n", e.score, e.score_low, e.score_high);
  std::printf("Elo difference: %+.0f (95%% CI %+.0f .. %+.0f)%s\n", e.elo, e.elo_low, e.elo_high,
              (e.elo_high >= kEloCap || e.elo_low <= -kEloCap) ? " (capped at +-1000)" : "");
  for (int p = 0; p < 2; ++p) {
    std::printf("A as %s: %.1f / %d\n", game->side_name(p).c_str(), r.score_as[p], r.games_as[p]);
  }
  if (r.sprt) {
    std::printf("SPRT elo0=%g elo1=%g alpha=%g beta=%g: LLR %.3f (bounds %.3f, %.3f): %s%s\n",
                mo.sprt->elo0, mo.sprt->elo1, mo.sprt->alpha, mo.sprt->beta, r.sprt->llr,
                r.sprt->lower, r.sprt->upper,
                r.sprt->decision == SprtDecision::kAcceptH1   ? "H1 accepted"
                : r.sprt->decision == SprtDecision::kAcceptH0 ? "H0 accepted"
                                                              : "undecided",
                r.stopped_early ? " (stopped early)" : "");
  }
  int on_time = 0;
  for (const MatchGame& g : r.games) on_time += g.on_time;
  if (mo.clock.on()) {
    std::printf("clock %s: %d of %d games decided by the clock running out\n", o.clock.c_str(),
                on_time, n);
  }
  std::printf("mean length %.1f plies; %.1f s\n", r.mean_plies, r.seconds);
  std::printf("seconds per move (wall clock): A %.4f, B %.4f\n", r.seconds_per_move_a(),
              r.seconds_per_move_b());
  if (o.json) {
    nlohmann::json j = {{"rules", game->ruleset_name()},
                        {"fingerprint", game->fingerprint()},
                        {"a", o.a},
                        {"b", o.b},
                        {"seed", o.seed},
                        {"games", n},
                        {"wins", r.wins},
                        {"draws", r.draws},
                        {"losses", r.losses},
                        {"score", e.score},
                        {"score_low", e.score_low},
                        {"score_high", e.score_high},
                        {"elo", e.elo},
                        {"elo_low", e.elo_low},
                        {"elo_high", e.elo_high},
                        {"mean_plies", r.mean_plies},
                        {"clock", o.clock},
                        {"on_time", on_time},
                        {"seconds", r.seconds},
                        {"seconds_per_move_a", r.seconds_per_move_a()},
                        {"seconds_per_move_b", r.seconds_per_move_b()}};
    if (r.sprt) {
      j["sprt"] = {{"elo0", mo.sprt->elo0},
                   {"elo1", mo.sprt->elo1},
                   {"alpha", mo.sprt->alpha},
                   {"beta", mo.sprt->beta},
                   {"llr", r.sprt->llr},
                   {"lower", r.sprt->lower},
                   {"upper", r.sprt->upper},
                   {"decision", sprt_decision_name(r.sprt->decision)},
                   {"stopped_early", r.stopped_early}};
    }
    std::printf("%s\n", j.dump().c_str());
  }
}

RegisterCommand register_match{
    "match",
    "Play two players against each other (colours swapped in pairs) and report score and Elo",
    [](CLI::App& app) {
      auto o = std::make_shared<MatchArgs>();
      app.add_option("--rules", o->rules, "Ruleset name or file")->capture_default_str();
      app.add_option("--a", o->a, "Player A spec (e.g. alphabeta:time=0.1)")->required();
      app.add_option("--b", o->b, "Player B spec (e.g. random)")->required();
      app.add_option("--games", o->games, "Games (rounded up to an even number)")
          ->capture_default_str()
          ->check(CLI::Range(1, 10000000));
      app.add_option("--threads", o->threads, "Games played at once")
          ->capture_default_str()
          ->check(CLI::Range(1, 256));
      app.add_option("--openings", o->openings,
                     "Random plies from the start that open each pair of games")
          ->capture_default_str()
          ->check(CLI::Range(0, 1000));
      app.add_option("--sgn", o->sgn_dir, "Folder to write every game to as an SGN record");
      app.add_option("--seed", o->seed,
                     "Seed of the openings, the players and the starts of a random-start game")
          ->capture_default_str();
      app.add_option("--position", o->position,
                     "Start of every pair (setup string or position text; default: the fixed "
                     "start, or a start drawn per pair for a random-start game)");
      app.add_option("--clock", o->clock,
                     "none, game:MINUTES (one clock for the whole game; when it runs out more "
                     "points wins) or side:MINUTES (a clock per side); alphabeta and net players "
                     "manage their time on it")
          ->capture_default_str();
      app.add_flag("--json", o->json, "Print a JSON object with the results as the last line");
      app.add_option("--sprt", o->sprt, "elo0,elo1: stop as soon as an SPRT decides");
      app.add_option("--alpha", o->alpha, "SPRT false positive rate")
          ->capture_default_str()
          ->check(CLI::Range(1e-9, 0.5));
      app.add_option("--beta", o->beta, "SPRT false negative rate")
          ->capture_default_str()
          ->check(CLI::Range(1e-9, 0.5));
      app.add_option("--max-plies", o->max_plies, "Plies after which a game is a draw")
          ->capture_default_str()
          ->check(CLI::Range(1, 1000000));
      app.callback([o] { run(*o); });
    }};

}  // namespace
}  // namespace pincer::cli
