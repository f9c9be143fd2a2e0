#include "play/ladder_file.h"

#include <google/protobuf/text_format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "engine/atomic_file.h"
#include "play/player.h"

namespace pincer {

Ladder load_ladder(const std::string& path, const Game* game) {
  std::string text;
  try {
    text = read_whole_file(path);
  } catch (const std::exception& e) {
    throw std::runtime_error("ladder file " + path + ": " + e.what());
  }
  Ladder ladder;
  if (!google::protobuf::TextFormat::ParseFromString(text, &ladder)) {
    throw std::runtime_error("ladder file " + path + ": not a Ladder in protobuf text format");
  }
  if (ladder.players_size() == 0) throw std::runtime_error("ladder file " + path + ": no players");
  for (const LadderPlayer& p : ladder.players()) {
    if (p.player().empty() || !std::isfinite(p.elo()) || p.elo_high() < p.elo_low()) {
      throw std::runtime_error("ladder file " + path + ": bad entry for player '" + p.player() +
                               "'");
    }
  }
  if (game && ladder.fingerprint() != game->fingerprint()) {
    throw std::runtime_error("ladder file " + path + " was rated under rules " + ladder.rules() +
                             " (" + ladder.fingerprint() + "), the run plays " +
                             game->ruleset_name() + " (" + game->fingerprint() + ")");
  }
  return ladder;
}

AnchoredElo fit_anchored_elo(const std::vector<AnchorGames>& games) {
  const double k = std::log(10.0) / 400.0;
  AnchoredElo r;
  double x = 0, weight = 0;
  for (const AnchorGames& g : games) {
    x += g.opponent_elo * (g.games + 1);
    weight += g.games + 1;
    r.games += g.games;
  }
  if (weight == 0) {
    r.low = -1e4, r.high = 1e4;
    return r;
  }
  x /= weight;
  double info = 0;
  for (int it = 0; it < 100; ++it) {
    double grad = 0;
    info = 0;
    for (const AnchorGames& g : games) {
      const double p = 1.0 / (1.0 + std::pow(10.0, (g.opponent_elo - x) / 400.0));
      const double n = g.games + 1.0, s = g.score + 0.5;  // one virtual draw
      grad += k * (s - n * p);
      info += k * k * n * p * (1 - p);
    }
    const double step = std::clamp(grad / std::max(info, 1e-12), -400.0, 400.0);
    x += step;
    if (std::fabs(step) < 1e-6) break;
  }
  // The opponents' own uncertainty, weighted by how much each told about the rating.
  double opp_sd = 0, wsum = 0;
  for (const AnchorGames& g : games) {
    const double p = 1.0 / (1.0 + std::pow(10.0, (g.opponent_elo - x) / 400.0));
    const double w = (g.games + 1.0) * p * (1 - p);
    opp_sd += w * g.opponent_sd;
    wsum += w;
  }
  if (wsum > 0) opp_sd /= wsum;
  const double sd = std::sqrt(1.0 / std::max(info, 1e-12) + opp_sd * opp_sd);
  r.elo = x;
  r.low = x - 1.959963984540054 * sd;
  r.high = x + 1.959963984540054 * sd;
  return r;
}

bool is_time_limited(const std::string& spec) {
  return parse_player_spec(spec).args.count("time") > 0;
}

double ladder_sd(const LadderPlayer& player) {
  return (player.elo_high() - player.elo_low()) / (2 * 1.959963984540054);
}

}  // namespace pincer
