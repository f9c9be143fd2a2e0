// A run's strength curve, measured afterwards: its saved checkpoints (models/model-*.pt), one per
// `every` core-hours of training, each play the same fixed opponents from the same openings, and
// each gets an anchored Elo with a 95% interval (train/anchor.h). Fixed-budget opponents
// (alphabeta:depth=N, alphabeta:nodes=N) play the same moves under any load, so a curve can be
// redrawn later, on another machine, and compared with another run's. `pincer rate` runs it and
// keeps the results in <run dir>/ratings.json, which report.html plots against core-hours.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/game.h"
#include "store/run_dir.h"
#include "train/anchor.h"

namespace pincer {

struct RatingOptions {
  // The rated side: a `net:` player spec without model= (model=PATH is added per checkpoint).
  std::string player = "net:sims=200";
  // Opponent specs. Each one's Elo comes from the ladder, or from "SPEC@ELO" for one not on it.
  std::vector<std::string> opponents;
  std::string ladder;  // ladder file (configs/ladders/); "" where every opponent has @ELO
  int games = 64;      // per opponent, in pairs with colours swapped
  int opening_plies = 4;
  int threads = 2;
  uint64_t seed = 1;
  int max_plies = 2000;
  // Which checkpoints: the first at or after each multiple of `every_core_hours`, and the
  // initial network (step 0). With `models` given, exactly those files instead.
  double every_core_hours = 0.5;
  std::vector<std::string> models;
};

struct RatedOpponent {
  std::string spec;
  double elo = 0;
};

struct CheckpointRating {
  std::string model;  // file name under models/ (or the path given)
  int64_t step = 0;
  double core_hours = 0;
  AnchoredElo rating;  // the interval is from the games alone: the opponents' Elo is held fixed
  std::vector<AnchorGames> opponents;
  std::string settings;  // what was measured (player, opponents, games, openings, seed)
};

// The opponents with their Elo: "SPEC@ELO", else the ladder's rating of SPEC. Throws
// std::runtime_error naming an opponent that has neither, or a bad @ELO.
std::vector<RatedOpponent> rated_opponents(const RatingOptions& options, const GamePtr& game);

// The checkpoints of `dir` to rate, oldest first: model-000000.pt (if present) and the first
// checkpoint at or after each multiple of `every` core-hours (by the core_hours in each file's
// metadata; files of older builds, which have none, count by their step order alone).
std::vector<std::string> pick_checkpoints(const RunDir& dir, double every);

// Plays one model against every opponent; the rating is fit with the opponents' Elo fixed.
CheckpointRating rate_checkpoint(const GamePtr& game, const std::string& model_path,
                                 const std::vector<RatedOpponent>& opponents,
                                 const RatingOptions& options);

// <dir>/ratings.json: read (a missing file is empty; a damaged one throws std::runtime_error
// naming the line) and written atomically.
std::string ratings_path(const RunDir& dir);
std::vector<CheckpointRating> read_ratings(const std::string& path);
void write_ratings(const std::string& path, const std::vector<CheckpointRating>& ratings);

// Rates every picked checkpoint not yet in ratings.json with the same settings, saving after each
// one (a stopped rating resumes), and returns all of them, oldest first.
std::vector<CheckpointRating> rate_run(const RunDir& dir, const RatingOptions& options);

}  // namespace pincer
