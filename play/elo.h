// Scores and Elo differences from game results (logistic Elo: a difference D gives the stronger
// side an expected score 1 / (1 + 10^(-D/400))).
#pragma once

namespace pincer {

// Elo differences are capped here: a score of 0 or 1 has no finite Elo.
constexpr double kEloCap = 1000;

double score_from_elo(double elo);
// Capped at +-kEloCap.
double elo_from_score(double score);

struct ScoreEstimate {
  int games = 0;
  double score = 0.5;                    // of the first player: (wins + draws / 2) / games
  double score_low = 0, score_high = 1;  // confidence interval
  double elo = 0, elo_low = -kEloCap, elo_high = kEloCap;
  double variance = 0;  // of one game's score
};

// The score with its confidence interval (z = 1.96 for 95%): the normal approximation over the
// per-game score variance of the trinomial, or the Wilson interval where every game ended alike
// (variance 0). Elo bounds are the bounds of the score interval turned into Elo.
ScoreEstimate estimate_score(int wins, int draws, int losses, double z = 1.959963984540054);

}  // namespace pincer
