// Ratings from a round robin: a maximum-likelihood Elo fit (Bradley-Terry with logistic Elo, a
// draw counting half a win) with intervals from the observed information, and the HTML page
// with an SVG plot that `pincer ladder` writes.
#pragma once

#include <string>
#include <vector>

namespace pincer {

struct PairScore {
  int a = 0, b = 0;    // player indices
  double score_a = 0;  // wins of a plus half its draws
  int games = 0;
};

struct EloFit {
  std::vector<double> elo;  // anchor at 0
  std::vector<double> sd;   // standard error of each rating (0 for the anchor)
  int iterations = 0;
  bool converged = false;
};

// Fits ratings to `results` with player `anchor` fixed at 0. Each pair that played gets
// `prior_draws` virtual draws so that a perfect score gives a finite rating (documented in
// docs/players.md); players with no games stay at 0 with a huge interval.
EloFit fit_elo(int players, const std::vector<PairScore>& results, int anchor,
               double prior_draws = 1.0);

struct LadderRow {
  std::string player;
  double elo = 0, sd = 0;
  int games = 0;
  double score = 0;  // fraction of points over all its games
};

// A self-contained page (inline CSS and SVG, no scripts): the table and a plot of every rating
// with its 95% interval, best first. `rows` are in player order (the indices of `results`);
// `caption` says what was played.
std::string ladder_html(const std::string& caption, const std::vector<LadderRow>& rows,
                        const std::vector<PairScore>& results);

}  // namespace pincer
