#include "play/elo.h"

#include <algorithm>
#include <cmath>

namespace pincer {

double score_from_elo(double elo) { return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0)); }

double elo_from_score(double score) {
  if (score <= 0) return -kEloCap;
  if (score >= 1) return kEloCap;
  return std::clamp(-400.0 * std::log10(1.0 / score - 1.0), -kEloCap, kEloCap);
}

ScoreEstimate estimate_score(int wins, int draws, int losses, double z) {
  ScoreEstimate e;
  e.games = wins + draws + losses;
  if (e.games <= 0) return e;
  const double n = e.games;
  const double s = (wins + 0.5 * draws) / n;
  e.score = s;
  e.variance = (wins * (1 - s) * (1 - s) + draws * (0.5 - s) * (0.5 - s) + losses * s * s) / n;
  if (e.variance > 0) {
    const double half = z * std::sqrt(e.variance / n);
    e.score_low = std::max(0.0, s - half);
    e.score_high = std::min(1.0, s + half);
  } else {
    // Wilson score interval.
    const double z2 = z * z;
    const double centre = (s + z2 / (2 * n)) / (1 + z2 / n);
    const double half = z / (1 + z2 / n) * std::sqrt(s * (1 - s) / n + z2 / (4 * n * n));
    e.score_low = std::max(0.0, centre - half);
    e.score_high = std::min(1.0, centre + half);
    if (wins == e.games) e.score_high = 1;
    if (losses == e.games) e.score_low = 0;
  }
  e.elo = elo_from_score(s);
  e.elo_low = elo_from_score(e.score_low);
  e.elo_high = elo_from_score(e.score_high);
  return e;
}

}  // namespace pincer
