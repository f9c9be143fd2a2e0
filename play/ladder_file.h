// Ladder files (proto/ladder.proto, configs/ladders/): rated reference players of one ruleset,
// and the rating of another player against them with their ratings held fixed. Training's
// anchors (train/anchor.h), `pincer rate` and `pincer ladder --extend` use these.
#pragma once

#include <string>
#include <vector>

#include "engine/game.h"
#include "proto/ladder.pb.h"

namespace pincer {

// Reads a ladder file; throws std::runtime_error naming the file and the problem (unreadable,
// bad syntax, no players, another ruleset fingerprint than `game`'s when `game` is given).
Ladder load_ladder(const std::string& path, const Game* game = nullptr);

// Games against one reference player of known rating.
struct AnchorGames {
  std::string player;
  double opponent_elo = 0;
  double opponent_sd = 0;  // the reference rating's own standard error
  int games = 0;
  double score = 0;  // points of the rated model (wins + draws / 2)
};

struct AnchoredElo {
  double elo = 0, low = 0, high = 0;  // 95% interval
  int games = 0;
};

// Maximum-likelihood rating against fixed opponents (logistic Elo, one virtual draw per
// opponent so that a perfect score stays finite, as in play/ladder.h). The interval combines the
// fit's standard error with the opponents' own (weighted by each opponent's information).
AnchoredElo fit_anchored_elo(const std::vector<AnchorGames>& games);

// Whether a player spec's strength depends on the machine's speed and load: it has a `time=`
// argument (alphabeta:time=0.1, net:...,time=1).
bool is_time_limited(const std::string& spec);

// The standard error of a ladder player's rating, from its 95% interval.
double ladder_sd(const LadderPlayer& player);

}  // namespace pincer
