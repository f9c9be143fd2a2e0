// Anchored strength: each promoted model plays a few games against the rated reference players
// of a ladder file (proto/ladder.proto, written by `pincer ladder --save`, kept in
// configs/ladders/), opponents chosen nearest its current estimate, and gets an Elo on the
// ladder's scale (random = 0) with a 95% interval. The relative chain of gating only says that a
// model beat its parent; this says how strong it is against fixed classical players.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/game.h"
#include "play/ladder_file.h"
#include "proto/ladder.pb.h"
#include "proto/run_config.pb.h"

namespace pincer {

// The next opponent: the ladder player not in `played` whose rating is nearest `estimate`,
// skipping players limited by time (is_time_limited) unless `time_limited` is true; -1 when
// none is left.
int nearest_ladder_player(const Ladder& ladder, double estimate,
                          const std::vector<std::string>& played, bool time_limited = true);

struct AnchorReport {
  AnchoredElo rating;
  std::vector<AnchorGames> opponents;
};

// Rates a model file: config.anchor().opponents() opponents in turn, each the nearest to the
// estimate so far (starting from `estimate`), config.anchor().games() games each with colours
// swapped, the model searching with config.anchor().search().
AnchorReport rate_model(const GamePtr& game, const RunConfig& config, const Ladder& ladder,
                        const std::string& model_path, double estimate, uint64_t seed);

// The loop's side of it: the ladder of config.anchor().ladder() (checked at construction), the
// estimate so far (on resume: the last `anchor` row of metrics.csv), and one call per promotion.
class AnchorRater {
 public:
  // Throws std::runtime_error for a missing or mismatched ladder file when anchoring is on.
  AnchorRater(GamePtr game, const RunConfig& config, const std::string& metrics_csv);
  bool enabled() const { return enabled_; }
  // Whether metrics.csv has no anchored rating yet (the initial model is rated first).
  bool first() const { return first_; }
  // Rates `model_path`; returns the metrics.csv fields anchor_elo,anchor_low,anchor_high,
  // anchor_games,anchor_opponents (opponents as "spec:score/games" joined by ';').
  std::string rate(const std::string& model_path, uint64_t seed);

 private:
  GamePtr game_;
  RunConfig cfg_;
  Ladder ladder_;
  bool enabled_ = false;
  bool first_ = true;
  double estimate_ = 0;
};

}  // namespace pincer
