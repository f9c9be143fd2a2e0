// The analysis engine with a real network that has a points head (tests/serve/points_test.cpp
// fakes one): rootInfo.expectedPointsDiff and each move's figure are the network's own
// predictions, for the side to move at the root, weighted like the value (the root once, each
// searched move by its visits), marked "model"; a network without the head reports the
// alpha-beta fallback's figure instead (tests/serve/points_test.cpp checks its value), marked
// "alphabeta", with no figure per move.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include "engine/registry.h"
#include "nn/inference.h"
#include "nn/model.h"
#include "nn/network.h"
#include "serve/analyzer.h"

namespace pincer::testing {
namespace {

std::shared_ptr<Model> tiny_model(const Game& game, bool points_head) {
  NetworkConfig c;
  c.set_blocks(1);
  c.set_channels(8);
  c.set_points_head(points_head);
  std::shared_ptr<Model> m = Model::create(game, c, "cpu", 5);
  if (points_head) {
    torch::NoGradGuard no_grad;
    m->impl().net->points_fc->bias.fill_(1.5);  // predictions well away from 0
  }
  return m;
}

serve::Json analyse(const GamePtr& game, const std::shared_ptr<Model>& model, const State& s) {
  serve::MctsAnalyzerOptions o;
  o.predicts_points = model->has_points_head();
  auto analyzer = serve::make_mcts_analyzer(
      game, std::make_shared<InferenceService>(model, InferenceOptions{}), o);
  serve::TurnRequest req;
  req.max_visits = 24;
  return analyzer->analyze(s, req);  // the service stops with the analyser, freeing the model
}

float predict(Model& m, const State& s) {
  std::vector<float> input(m.input_size()), logits(m.num_actions()), wdl(3), points(1);
  s.encode(input.data());
  m.infer(input.data(), 1, logits.data(), wdl.data(), points.data());
  return points[0];
}

TEST(ServePoints, ExpectedPointsDiffIsThePointsHeadWeightedLikeTheValue) {
  const GamePtr game = load_game("seize-reference");
  auto root = game->initial_state();
  std::vector<Action> legal;
  for (int ply = 0; ply < 2; ++ply) {  // a position off the start, where nothing is cached
    root->legal_actions(legal);
    root->apply(legal[legal.size() / 2]);
  }
  const std::shared_ptr<Model> model = tiny_model(*game, true);
  const serve::Json r = analyse(game, model, *root);
  const int me = root->to_move();
  double sum = predict(*model, *root), weight = 1;
  ASSERT_FALSE(r["moveInfos"].empty());
  for (const serve::Json& m : r["moveInfos"]) {
    auto child = root->clone();
    child->apply(game->parse_action(*root, m["move"].get<std::string>()));
    ASSERT_FALSE(child->outcome().over);
    const double d = (child->to_move() == me ? 1 : -1) * predict(*model, *child);
    EXPECT_NEAR(m["expectedPointsDiff"].get<double>(), d, 0.011) << m.dump();
    sum += m["visits"].get<double>() * d;
    weight += m["visits"].get<double>();
  }
  EXPECT_NEAR(r["rootInfo"]["expectedPointsDiff"].get<double>(), sum / weight, 0.011) << r.dump();
  EXPECT_GT(std::abs(sum / weight), 0.05);  // a figure that says something, not a default

  EXPECT_EQ(r["rootInfo"]["pointsSource"], "model");
  EXPECT_FALSE(r["rootInfo"].contains("expectedPoints"));

  const serve::Json none = analyse(game, tiny_model(*game, false), *root);
  EXPECT_EQ(none["rootInfo"]["pointsSource"], "alphabeta") << none.dump();
  EXPECT_TRUE(none["rootInfo"].contains("expectedPoints")) << none.dump();
  EXPECT_FALSE(none["moveInfos"][0].contains("expectedPointsDiff"));
}

}  // namespace
}  // namespace pincer::testing
