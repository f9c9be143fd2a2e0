// pincer rate --dir RUN: a run's strength curve, measured afterwards (train/checkpoint_rating.h):
// its checkpoints, one per --every core-hours, against fixed opponents from fixed openings; the
// results go to RUN/ratings.json (resumable) and RUN/report.html.
#include <cstdio>
#include <memory>

#include "cli/support/commands.h"
#include "train/checkpoint_rating.h"
#include "train/report.h"

namespace pincer::cli {
namespace {

struct RateArgs {
  std::string dir;
  RatingOptions rating;
};

void rate(const RateArgs& o) {
  const RunDir dir(o.dir);
  const auto ratings = rate_run(dir, o.rating);
  std::printf("%-22s %8s %10s %7s %17s %6s\n", "model", "step", "core-hours", "Elo", "95% interval",
              "games");
  for (const CheckpointRating& r : ratings) {
    std::printf("%-22s %8lld %10.2f %+7.0f %+8.0f..%+7.0f %6d\n", r.model.c_str(),
                static_cast<long long>(r.step), r.core_hours, r.rating.elo, r.rating.low,
                r.rating.high, r.rating.games);
  }
  std::printf("ratings: %s\nreport: %s\n", ratings_path(dir).c_str(), write_report(dir).c_str());
}

RegisterCommand register_rate{
    "rate",
    "Rate a run's saved checkpoints (one per --every core-hours) against fixed opponents: "
    "anchored Elo against core-hours, kept in RUN/ratings.json and plotted in report.html",
    [](CLI::App& app) {
      auto o = std::make_shared<RateArgs>();
      RatingOptions& r = o->rating;
      app.add_option("--dir", o->dir, "Run directory")->required();
      app.add_option("--player", r.player,
                     "The rated side as a net: spec without model= (model=PATH is added)")
          ->capture_default_str();
      app.add_option("--opponent", r.opponents,
                     "A fixed opponent (repeat the option): a ladder player's spec, or SPEC@ELO "
                     "for one not on the ladder; prefer fixed budgets (alphabeta:depth=N, "
                     "alphabeta:nodes=N), which do not depend on the machine's load")
          ->required();
      app.add_option(
          "--ladder", r.ladder,
          "Ladder file for the opponents' Elo (default: the run config's anchor.ladder)");
      app.add_option("--games", r.games, "Games per opponent, colours swapped in pairs")
          ->capture_default_str()
          ->check(CLI::Range(2, 100000));
      app.add_option("--opening-plies", r.opening_plies,
                     "Random plies of each pair's opening (the same openings for every checkpoint)")
          ->capture_default_str()
          ->check(CLI::Range(0, 40));
      app.add_option("--threads", r.threads, "Games at once")
          ->capture_default_str()
          ->check(CLI::Range(1, 256));
      app.add_option("--seed", r.seed, "Seed of the openings")->capture_default_str();
      app.add_option("--max-plies", r.max_plies, "A game still going after this many is a draw")
          ->capture_default_str()
          ->check(CLI::Range(1, 100000));
      app.add_option("--every", r.every_core_hours,
                     "Core-hours between rated checkpoints (the first at or after each multiple; "
                     "0: every checkpoint)")
          ->capture_default_str()
          ->check(CLI::Range(0.0, 1e6));
      app.add_option("--model", r.models, "Rate exactly these model files instead (repeatable)");
      app.callback([o] { rate(*o); });
    }};

}  // namespace
}  // namespace pincer::cli
