// Expected points in rootInfo: from an evaluator that predicts them (a network's points head,
// faked here; tests/train/serve_points_test.cpp runs a real one), from alpha-beta (the points at
// the end of its best line), from a short alpha-beta line beside an evaluator that predicts none
// (the fallback), and left out where the game counts no points.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "play/time_manager.h"
#include "serve/analyzer.h"
#include "tests/serve/support.h"
#include "tests/support/random_games.h"

namespace pincer::testing {
namespace {

// Uniform priors, an even value, and (when `points`) a predicted final points difference for the
// side to move: its points now minus the other's, plus a quarter.
class FakePointsModel : public Evaluator {
 public:
  explicit FakePointsModel(bool points) : points_(points) {}
  void evaluate(const std::vector<EvalRequest>& requests, std::vector<Evaluation>& out) override {
    out.resize(requests.size());
    for (size_t i = 0; i < requests.size(); ++i) {
      out[i].priors.assign(requests[i].legal->size(), 1.0f);
      out[i].wdl = {0.4f, 0.2f, 0.4f};
      out[i].points.reset();
      if (points_) out[i].points = diff_now(*requests[i].state) + 0.25f;
    }
  }
  static float diff_now(const State& s) {
    const std::array<int, 2> p = s.points();
    return static_cast<float>(p[s.to_move()] - p[s.to_move() ^ 1]);
  }

 private:
  bool points_;
};

serve::Json analyse(serve::Analyzer& a, const State& s) {
  serve::TurnRequest req;
  req.max_visits = 20;
  return a.analyze(s, req);
}

// A position of a random SE!ZE game where the side to move can capture.
std::unique_ptr<State> capture_position(const Game& game, uint64_t seed) {
  std::unique_ptr<State> found;
  play_random_game(*game.initial_state(), seed, 60, [&](const State& s, Action) {
    if (!found && !s.outcome().over && sharpness(s) > 0) found = s.clone();
  });
  return found;
}

// The root's figure is the network's predictions for the root (weight 1) and for each searched
// move's position (weight: its visits), all for the side to move at the root; each move info
// carries its own. Recomputed here from the response's moves and visits.
TEST(ExpectedPoints, FromANetworkWithAPointsHead) {
  const GamePtr seize = load_game("seize-reference");
  serve::MctsAnalyzerOptions o;
  o.default_visits = 30;
  o.predicts_points = true;
  for (size_t cache : {size_t(0), size_t(1) << 12}) {
    o.cache_entries = cache;
    auto with = serve::make_mcts_analyzer(seize, std::make_shared<FakePointsModel>(true), o);
    int captures_seen = 0;
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      const std::unique_ptr<State> root = capture_position(*seize, seed);
      ASSERT_TRUE(root);
      const serve::Json r = analyse(*with, *root);
      const int me = root->to_move();
      double sum = FakePointsModel::diff_now(*root) + 0.25, weight = 1;
      for (const serve::Json& m : r["moveInfos"]) {
        auto child = root->clone();
        child->apply(seize->parse_action(*root, m["move"].get<std::string>()));
        const std::array<int, 2> p = child->points();
        const double diff = child->outcome().over    ? p[me] - p[me ^ 1]
                            : child->to_move() == me ? FakePointsModel::diff_now(*child) + 0.25
                                                     : -(FakePointsModel::diff_now(*child) + 0.25);
        ASSERT_TRUE(m.contains("expectedPointsDiff")) << m.dump();
        EXPECT_NEAR(m["expectedPointsDiff"].get<double>(), diff, 0.006) << m.dump();
        captures_seen += p[me] > root->points()[me];
        sum += m["visits"].get<double>() * diff;
        weight += m["visits"].get<double>();
      }
      ASSERT_TRUE(r["rootInfo"].contains("expectedPointsDiff")) << r.dump();
      EXPECT_NEAR(r["rootInfo"]["expectedPointsDiff"].get<double>(), sum / weight, 0.006);
      EXPECT_FALSE(r["rootInfo"].contains("expectedPoints"));  // no per-side figure from a net
      EXPECT_EQ(r["rootInfo"]["pointsSource"], "model");
    }
    EXPECT_GT(captures_seen, 0) << "no searched move changed the points";
  }
  // A model that says it has a points head but whose evaluations carry none: no figure (the
  // fallback is for models that say they have none, below), and a game that counts no points:
  // none either way.
  auto without = serve::make_mcts_analyzer(seize, std::make_shared<FakePointsModel>(false), o);
  const serve::Json r = analyse(*without, *seize->initial_state());
  EXPECT_FALSE(r["rootInfo"].contains("expectedPointsDiff")) << r.dump();
  EXPECT_FALSE(r["rootInfo"].contains("pointsSource"));
  const GamePtr seega = load_game("seega-5x5");
  for (bool predicts : {true, false}) {
    o.predicts_points = predicts;
    auto no_points = serve::make_mcts_analyzer(seega, std::make_shared<FakePointsModel>(true), o);
    const serve::Json n = analyse(*no_points, *seega->initial_state());
    EXPECT_FALSE(n["rootInfo"].contains("expectedPointsDiff")) << n.dump();
    EXPECT_FALSE(n["rootInfo"].contains("expectedPoints"));
    EXPECT_FALSE(n["rootInfo"].contains("pointsSource"));
  }
}

// A model without a points head (and rollouts): each side's points at the end of a short
// alpha-beta line, the very figure the alpha-beta analyser at the fallback's depth reports
// (with the fallback's table size), marked "alphabeta"; the moves carry no figure of their own.
TEST(ExpectedPoints, WithoutAPointsHeadFromAShortAlphaBetaLine) {
  const GamePtr seize = load_game("seize-reference");
  serve::MctsAnalyzerOptions o;
  o.default_visits = 30;
  o.predicts_points = false;
  o.points_fallback.seconds = 0;  // the depth alone ends it, however loaded the machine
  ASSERT_EQ(o.points_fallback.depth, 3);
  ASSERT_EQ(o.points_fallback.hash_mb, 1);
  auto no_head = serve::make_mcts_analyzer(seize, std::make_shared<FakePointsModel>(true), o);
  auto rollouts = serve::make_player_analyzer(seize, "mcts:sims=10,rollout=10", 1);
  auto ab = serve::make_player_analyzer(seize, "alphabeta:depth=3,hash=1", 1);
  int checked = 0, gains = 0;
  for (uint64_t seed = 0; seed <= 4; ++seed) {
    const std::unique_ptr<State> root =
        seed == 0 ? seize->initial_state() : capture_position(*seize, seed);
    ASSERT_TRUE(root);
    const serve::Json want = analyse(*ab, *root)["rootInfo"];
    ASSERT_TRUE(want.contains("expectedPoints")) << want.dump();
    for (serve::Analyzer* a : {no_head.get(), rollouts.get()}) {
      std::vector<serve::Json> reports;
      serve::TurnRequest req;
      req.max_visits = 30;
      req.report_every = 1e-9;  // a report after every batch
      req.report = [&](serve::Json j) { reports.push_back(std::move(j)); };
      const serve::Json r = a->analyze(*root, req);
      const serve::Json& got = r["rootInfo"];
      EXPECT_EQ(got["pointsSource"], "alphabeta") << got.dump();
      EXPECT_EQ(got["expectedPoints"], want["expectedPoints"]) << got.dump() << want.dump();
      EXPECT_EQ(got["expectedPointsDiff"], want["expectedPointsDiff"]);
      for (const serve::Json& m : r["moveInfos"]) EXPECT_FALSE(m.contains("expectedPointsDiff"));
      // Searched before the main search: every report during it has the figure already.
      for (const serve::Json& p : reports)
        EXPECT_EQ(p["rootInfo"]["expectedPoints"], want["expectedPoints"]) << p.dump();
    }
    const std::array<int, 2> now = root->points();
    for (int p = 0; p < 2; ++p)
      gains += want["expectedPoints"][seize->side_name(p)].get<double>() > now[p];
    ++checked;
  }
  EXPECT_EQ(checked, 5);
  EXPECT_GT(gains, 0) << "no line took anything where captures are on the board";
  // No fallback asked for (depth 0): no figure.
  o.points_fallback.depth = 0;
  auto off = serve::make_mcts_analyzer(seize, std::make_shared<FakePointsModel>(true), o);
  EXPECT_FALSE(analyse(*off, *seize->initial_state())["rootInfo"].contains("expectedPoints"));
}

// The fallback's time is the request's: a tiny max_time ends it (with the whole analysis) at
// once, however deep it may go, and a stop ends it even with no time limit at all.
TEST(ExpectedPoints, TheFallbackKeepsToTheDeadlineAndTheStop) {
  using Clock = std::chrono::steady_clock;
  const GamePtr seize = load_game("seize-reference");
  const std::unique_ptr<State> root = capture_position(*seize, 2);
  ASSERT_TRUE(root);
  serve::MctsAnalyzerOptions o;
  o.predicts_points = false;
  o.points_fallback.depth = 60;   // far beyond what any deadline here allows
  o.points_fallback.seconds = 0;  // no cap of its own: only the request's share
  o.points_fallback.share = 0.5;
  auto a = serve::make_mcts_analyzer(seize, std::make_shared<FakePointsModel>(true), o);
  serve::TurnRequest req;
  req.max_visits = 1000000;
  req.max_time = 0.02;
  auto t0 = Clock::now();
  serve::Json r = a->analyze(*root, req);
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - t0).count(), 1.0) << r.dump();
  EXPECT_GT(r["rootInfo"]["visits"].get<int>(), 0);  // the main search had its turn

  // No time limit anywhere: only the stop, set from another thread, ends it.
  std::atomic<bool> stop{false};
  req.max_time = 0;
  req.stop = &stop;
  t0 = Clock::now();
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    stop = true;
  });
  r = a->analyze(*root, req);
  stopper.join();
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - t0).count(), 2.0) << r.dump();
  // Stopped before it starts: no fallback search, and no figure.
  t0 = Clock::now();
  r = a->analyze(*root, req);
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - t0).count(), 1.0);
  EXPECT_FALSE(r["rootInfo"].contains("expectedPoints")) << r.dump();
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
    const int me = found->to_move();
    EXPECT_EQ(root["expectedPointsDiff"].get<double>(), then[me] - then[me ^ 1]);
    EXPECT_EQ(root["pointsSource"], "alphabeta");
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
