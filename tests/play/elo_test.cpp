// Score intervals, Elo, SPRT and the ladder's maximum-likelihood fit against values worked out
// by hand.
#include "play/elo.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/atomic_file.h"
#include "play/ladder.h"
#include "play/sprt.h"

namespace pincer {
namespace {

TEST(Elo, ScoreAndEloAreInverse) {
  EXPECT_NEAR(elo_from_score(0.75), 400 * std::log10(3.0), 1e-9);  // 190.85
  EXPECT_NEAR(elo_from_score(0.5), 0, 1e-12);
  EXPECT_NEAR(score_from_elo(400), 10.0 / 11.0, 1e-12);
  for (double e : {-300.0, -20.0, 0.0, 35.0, 500.0})
    EXPECT_NEAR(elo_from_score(score_from_elo(e)), e, 1e-9);
  EXPECT_EQ(elo_from_score(1.0), kEloCap);
  EXPECT_EQ(elo_from_score(0.0), -kEloCap);
}

TEST(Elo, NormalIntervalOfTrinomialResults) {
  // 60 wins, 20 draws, 20 losses: score 0.7, per-game variance 0.16, standard error 0.04.
  const ScoreEstimate e = estimate_score(60, 20, 20);
  EXPECT_EQ(e.games, 100);
  EXPECT_NEAR(e.score, 0.7, 1e-12);
  EXPECT_NEAR(e.variance, 0.16, 1e-12);
  EXPECT_NEAR(e.score_low, 0.7 - 1.959963984540054 * 0.04, 1e-9);
  EXPECT_NEAR(e.score_high, 0.7 + 1.959963984540054 * 0.04, 1e-9);
  EXPECT_NEAR(e.elo, 147.1907141, 1e-6);
  EXPECT_NEAR(e.elo_low, elo_from_score(e.score_low), 1e-9);
  EXPECT_NEAR(e.elo_high, elo_from_score(e.score_high), 1e-9);
}

TEST(Elo, WilsonIntervalWhenEveryGameEndsAlike) {
  const ScoreEstimate e = estimate_score(10, 0, 0);
  EXPECT_EQ(e.score, 1.0);
  EXPECT_NEAR(e.score_low, 0.7224672, 1e-6);
  EXPECT_EQ(e.score_high, 1.0);
  EXPECT_EQ(e.elo, kEloCap);
  EXPECT_NEAR(e.elo_low, elo_from_score(0.7224672001371107), 1e-6);
  const ScoreEstimate none = estimate_score(0, 0, 0);
  EXPECT_EQ(none.games, 0);
  EXPECT_EQ(none.score, 0.5);
}

TEST(Sprt, LogLikelihoodRatioAndBounds) {
  SprtConfig c;
  c.elo0 = 0;
  c.elo1 = 10;
  SprtStatus st = sprt_status(c, 60, 20, 20);
  EXPECT_NEAR(st.llr, 1.7337133119, 1e-8);
  EXPECT_NEAR(st.lower, -2.9444389792, 1e-8);
  EXPECT_NEAR(st.upper, 2.9444389792, 1e-8);
  EXPECT_EQ(st.decision, SprtDecision::kContinue);
  c.elo1 = 5;
  EXPECT_NEAR(sprt_status(c, 50, 30, 20).llr, 0.6907394465, 1e-8);
  // Clear results decide.
  c.elo1 = 10;
  EXPECT_EQ(sprt_status(c, 160, 20, 20).decision, SprtDecision::kAcceptH1);
  EXPECT_EQ(sprt_status(c, 20, 20, 160).decision, SprtDecision::kAcceptH0);
  // Two wins are not enough to end it.
  EXPECT_EQ(sprt_status(c, 2, 0, 0).decision, SprtDecision::kContinue);
}

TEST(Sprt, ParsesAndChecksBounds) {
  SprtConfig base;
  base.alpha = 0.1;
  const SprtConfig c = parse_sprt_bounds("-5,15.5", base);
  EXPECT_EQ(c.elo0, -5);
  EXPECT_EQ(c.elo1, 15.5);
  EXPECT_EQ(c.alpha, 0.1);
  for (const char* bad : {"", "5", "10,0", "a,b", "1,2,3", "0,10x"}) {
    EXPECT_THROW(parse_sprt_bounds(bad), std::invalid_argument) << bad;
  }
  SprtConfig wrong;
  wrong.alpha = 0;
  EXPECT_THROW(check_sprt(wrong), std::invalid_argument);
}

TEST(Ladder, FitsConsistentResultsExactly) {
  // Two players, 75%: 190.85 Elo; standard error 1 / sqrt(n p (1 - p)) natural units.
  EloFit fit = fit_elo(2, {{0, 1, 75, 100}}, 1, 0);
  EXPECT_TRUE(fit.converged);
  EXPECT_NEAR(fit.elo[0], 190.8485019, 1e-4);
  EXPECT_EQ(fit.elo[1], 0);
  EXPECT_NEAR(fit.sd[0], 40.1184058, 1e-3);
  EXPECT_EQ(fit.sd[1], 0);
  // Three players, results that a rating list explains exactly: 0 > 1 by 75%, 1 > 2 by 75%,
  // 0 > 2 by 90% (= 2 x 190.85 Elo).
  fit = fit_elo(3, {{0, 1, 75, 100}, {1, 2, 75, 100}, {2, 0, 10, 100}}, 2, 0);
  EXPECT_NEAR(fit.elo[0], 381.697, 1e-2);
  EXPECT_NEAR(fit.elo[1], 190.849, 1e-2);
  EXPECT_EQ(fit.elo[2], 0);
  // The anchor moves everything together.
  const EloFit moved = fit_elo(3, {{0, 1, 75, 100}, {1, 2, 75, 100}, {2, 0, 10, 100}}, 1, 0);
  EXPECT_NEAR(moved.elo[0] - moved.elo[2], 381.697, 1e-2);
  EXPECT_EQ(moved.elo[1], 0);
}

TEST(Ladder, PerfectScoresStayFinite) {
  const EloFit fit = fit_elo(2, {{0, 1, 20, 20}}, 1);
  EXPECT_TRUE(fit.converged);
  EXPECT_GT(fit.elo[0], 300);
  EXPECT_LT(fit.elo[0], 1000);
  EXPECT_GT(fit.sd[0], 0);
}

TEST(Ladder, PageIsSelfContainedAndWrittenWhole) {
  const std::vector<LadderRow> rows = {{"random", 0, 0, 10, 0.1},
                                       {"alphabeta:depth=2", 400, 80, 10, 0.9}};
  const std::string html = ladder_html("test <caption>", rows, {{0, 1, 1, 10}});
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("test &lt;caption&gt;"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("http://www.w3.org/2000/svg"), html.find("http"));  // no other URL
  EXPECT_LT(html.find("alphabeta:depth=2"), html.find("<td>random"));     // best first
  const auto dir = std::filesystem::temp_directory_path() / "pincer_ladder_test";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "ladder.html").string();
  atomic_write_file(path, html);
  std::ifstream in(path);
  std::stringstream back;
  back << in.rdbuf();
  EXPECT_EQ(back.str(), html);
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    EXPECT_EQ(entry.path().filename(), "ladder.html");  // no temporary left behind
  }
  std::filesystem::remove_all(dir);
  EXPECT_THROW(atomic_write_file("/nonexistent-dir/x.html", html), std::runtime_error);
}

}  // namespace
}  // namespace pincer
