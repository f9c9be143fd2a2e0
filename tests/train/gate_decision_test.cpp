// The gate's decision (train/gate.h gate_promotes) over simulated matches, stopped by the SPRT as
// play/match.cpp stops them (checked after every pair of games): how often an equal candidate is
// promoted. The "score" rule of the previous recipe (17 of 30, SPRT 0..35 Elo) promotes noise;
// "sprt" promotes an equal net at most at the SPRT's alpha, and still promotes a clearly better
// one.
#include <gtest/gtest.h>

#include <random>

#include "play/elo.h"
#include "play/sprt.h"
#include "train/gate.h"

namespace pincer::testing {
namespace {

// Share of `trials` simulated gates that promote a candidate which wins a game with probability
// `win` and draws with `draw`.
double promotion_rate(const GatingConfig& g, double win, double draw, int trials, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  SprtConfig s;
  s.elo0 = g.sprt_elo0();
  s.elo1 = g.sprt_elo1();
  const bool use_sprt = s.elo0 != 0 || s.elo1 != 0;
  int promoted = 0;
  for (int t = 0; t < trials; ++t) {
    int w = 0, d = 0, l = 0;
    SprtDecision decision = SprtDecision::kContinue;
    for (int game = 1; game <= g.games(); ++game) {
      const double x = u(rng);
      (x < win ? w : x < win + draw ? d : l) += 1;
      if (use_sprt && game % 2 == 0) {
        decision = sprt_status(s, w, d, l).decision;
        if (decision != SprtDecision::kContinue) break;
      }
    }
    const int n = w + d + l;
    promoted += gate_promotes(g, (w + 0.5 * d) / n, decision);
  }
  return static_cast<double>(promoted) / trials;
}

GatingConfig gating(const std::string& promotion, int games) {
  GatingConfig g;
  g.set_promotion(promotion);
  g.set_games(games);
  g.set_threshold(0.55f);
  g.set_sprt_elo0(0);
  g.set_sprt_elo1(35);
  return g;
}

TEST(GateDecision, ScoreRulePromotesEqualNetsOften) {
  // The previous recipe's gate: an equal net (no draws, as in SE!ZE) passes about 29% of gates.
  const double equal = promotion_rate(gating("score", 30), 0.5, 0.0, 20000, 1);
  EXPECT_GT(equal, 0.2);
  EXPECT_LT(equal, 0.4);
}

TEST(GateDecision, SprtRuleKeepsFalsePromotionsUnderFivePercent) {
  for (int games : {30, 200, 1000}) {
    SCOPED_TRACE(games);
    const double equal = promotion_rate(gating("sprt", games), 0.5, 0.0, 20000, 2);
    EXPECT_LE(equal, 0.05);
    const double weaker = promotion_rate(gating("sprt", games), 0.4, 0.1, 20000, 3);
    EXPECT_LE(weaker, 0.01);
  }
  // A candidate 100 Elo stronger (score 0.64) is promoted in most gates of up to 400 games.
  EXPECT_GT(promotion_rate(gating("sprt", 400), 0.64, 0.0, 2000, 4), 0.9);
}

TEST(GateDecision, AlwaysPromotesAndScoreRuleFollowsTheSprtFirst) {
  EXPECT_TRUE(gate_promotes(gating("always", 30), 0.0, SprtDecision::kAcceptH0));
  const GatingConfig score = gating("score", 30);
  EXPECT_TRUE(gate_promotes(score, 0.56, SprtDecision::kContinue));
  EXPECT_FALSE(gate_promotes(score, 0.54, SprtDecision::kContinue));
  EXPECT_TRUE(gate_promotes(score, 0.40, SprtDecision::kAcceptH1));
  EXPECT_FALSE(gate_promotes(score, 0.90, SprtDecision::kAcceptH0));
  const GatingConfig sprt = gating("sprt", 30);
  EXPECT_FALSE(gate_promotes(sprt, 0.90, SprtDecision::kContinue));
  EXPECT_TRUE(gate_promotes(sprt, 0.50, SprtDecision::kAcceptH1));
}

}  // namespace
}  // namespace pincer::testing
