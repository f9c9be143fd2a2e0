// Expected points in rootInfo: from an evaluator that predicts them (a network's points head,
// faked here), from alpha-beta (the points at the end of its best line), and left out where the
// game counts no points or the evaluator predicts none.
#include <gtest/gtest.h>

#include "play/time_manager.h"
#include "serve/analyzer.h"
#include "tests/serve/support.h"
#include "tests/support/random_games.h"

namespace pincer::testing {
namespace {

// Uniform priors, an even value, and fixed expected points when `points` is set.
class FakePointsModel : public Evaluator, public serve::PointsPredictor {
 public:
  explicit FakePointsModel(std::optional<std::array<double, 2>> points) : points_(points) {}
  void evaluate(const std::vector<EvalRequest>& requests, std::vector<Evaluation>& out) override {
    out.resize(requests.size());
    for (size_t i = 0; i < requests.size(); ++i) {
      out[i].priors.assign(requests[i].legal->size(), 1.0f);
      out[i].wdl = {0.4f, 0.2f, 0.4f};
    }
  }
  std::optional<std::array<double, 2>> expected_points(const State&) override { return points_; }

 private:
  std::optional<std::array<double, 2>> points_;
};

serve::Json analyse(serve::Analyzer& a, const State& s) {
  serve::TurnRequest req;
  req.max_visits = 20;
  return a.analyze(s, req);
}

TEST(ExpectedPoints, FromAModelThatPredictsThem) {
  const GamePtr seize = load_game("seize-reference");
  serve::MctsAnalyzerOptions o;
  o.default_visits = 20;
  auto with = serve::make_mcts_analyzer(
      seize, std::make_shared<FakePointsModel>(std::array<double, 2>{3.5, 1.254}), o);
  const serve::Json r = analyse(*with, *seize->initial_state());
  ASSERT_TRUE(r["rootInfo"].contains("expectedPoints")) << r.dump();
  EXPECT_EQ(r["rootInfo"]["expectedPoints"], (serve::Json{{"gold", 3.5}, {"red", 1.25}}));
  // A model without a points head, and a game that counts no points: no field.
  auto without =
      serve::make_mcts_analyzer(seize, std::make_shared<FakePointsModel>(std::nullopt), o);
  EXPECT_FALSE(analyse(*without, *seize->initial_state())["rootInfo"].contains("expectedPoints"));
  const GamePtr seega = load_game("seega-5x5");
  auto no_points = serve::make_mcts_analyzer(
      seega, std::make_shared<FakePointsModel>(std::array<double, 2>{1, 1}), o);
  EXPECT_FALSE(analyse(*no_points, *seega->initial_state())["rootInfo"].contains("expectedPoints"));
  // Rollouts predict no points either.
  auto rollouts = serve::make_player_analyzer(seize, "mcts:sims=10,rollout=10", 1);
  EXPECT_FALSE(analyse(*rollouts, *seize->initial_state())["rootInfo"].contains("expectedPoints"));
}

TEST(ExpectedPoints, AlphaBetaExpectsTheCaptureItSees) {
  const GamePtr game = load_game("seize-reference");
  auto ab = serve::make_player_analyzer(game, "alphabeta:depth=1", 1);
  // Positions from random games where the side to move can capture now.
  int checked = 0, gains = 0;
  for (uint64_t seed = 1; seed <= 30 && checked < 4; ++seed) {
    std::unique_ptr<State> found;
    play_random_game(*game->initial_state(), seed, 40, [&](const State& s, Action) {
      if (!found && !s.outcome().over && sharpness(s) > 0) found = s.clone();
    });
    if (!found) continue;
    const serve::Json r = analyse(*ab, *found);
    const serve::Json& root = r["rootInfo"];
    ASSERT_TRUE(root.contains("expectedPoints")) << root.dump();
    // The points at the end of the best move's line, as the response writes it.
    auto end = found->clone();
    for (const serve::Json& m : r["moveInfos"][0]["pv"]) {
      if (end->outcome().over) break;
      end->apply(game->parse_action(*end, m.get<std::string>()));
    }
    const std::array<int, 2> now = found->points(), then = end->points();
    for (int p = 0; p < 2; ++p) {
      const double e = root["expectedPoints"][game->side_name(p)].get<double>();
      EXPECT_GE(e, now[p]);  // points are only ever won
      EXPECT_EQ(e, then[p]) << root.dump();
      gains += e > now[p];
    }
    ++checked;
  }
  EXPECT_GE(checked, 3);
  EXPECT_GT(gains, 0) << "the best lines never take anything where captures are on the board";
  EXPECT_FALSE(
      serve::make_player_analyzer(load_game("seega-5x5"), "alphabeta:depth=1", 1)
          ->analyze(*load_game("seega-5x5")->initial_state(), serve::TurnRequest{})["rootInfo"]
          .contains("expectedPoints"));
}

}  // namespace
}  // namespace pincer::testing
