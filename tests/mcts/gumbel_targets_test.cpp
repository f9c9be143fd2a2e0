// The Gumbel root's clean training targets (SearchConfig::gumbel_raw_policy_target,
// gumbel_rescale_q, SearchResult::improved_value): the improved policy is built on the network's
// own priors, not on priors shaped for the search, also on the root a reused tree hands over; Q
// rescaling sharpens the target between close values; the improved value is the improved
// policy's expectation.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "mcts/search.h"
#include "tests/mcts/fakes.h"
#include "tests/support/tictactoe.h"

namespace pincer::mcts {
namespace {

using testing::ScriptedEvaluator;

// Priors proportional to 1, 2, 3, ... in legal order; every position a draw.
ScriptedEvaluator skewed_draws() {
  return ScriptedEvaluator(
      [](const State&) {
        return std::array<float, 3>{0, 1, 0};
      },
      [](const State&, const std::vector<Action>& legal) {
        std::vector<float> p(legal.size());
        for (size_t i = 0; i < p.size(); ++i) p[i] = i + 1.0f;
        const float sum = std::accumulate(p.begin(), p.end(), 0.0f);
        for (float& x : p) x /= sum;
        return p;
      });
}

// The network's priors of the position: the same formula as skewed_draws().
std::vector<float> skewed(size_t n) {
  std::vector<float> p(n);
  for (size_t i = 0; i < n; ++i) p[i] = (i + 1.0f) / (n * (n + 1) / 2.0f);
  return p;
}

SearchConfig gumbel_config(bool raw) {
  SearchConfig config;
  // A shallow search without the solver's and tactics' exact values: no game ends in the tree, so
  // every completed Q is the network's draw.
  config.simulations = 8;
  config.gumbel_actions = 4;
  config.solver = false;
  config.tactics = 0;
  // A policy temperature shapes every node's priors (flatter), as capture or heuristic priors
  // would: the search sees shaped priors, the raw target must not.
  config.policy_temperature = 3.0f;
  config.gumbel_raw_policy_target = raw;
  return config;
}

TEST(GumbelTargets, RawPolicyTargetIsTheNetworksOwnPolicyWhenValuesAreEqual) {
  const GamePtr game = testing::make_tictactoe();
  for (bool raw : {false, true}) {
    SCOPED_TRACE(raw ? "raw" : "shaped");
    ScriptedEvaluator eval = skewed_draws();
    Search search(game, gumbel_config(raw));
    search.reset(*game->initial_state());
    // Two moves: the second root comes from the reused tree (expanded as a child).
    for (int move = 0; move < 2; ++move) {
      const SearchResult r = search.run(eval);
      ASSERT_TRUE(r.gumbel);
      // Every completed Q is a draw, so sigma adds the same to every action: the target is
      // softmax(target logits), the network's priors with the raw target.
      const std::vector<float> want = skewed(r.actions.size());
      double diff = 0;
      for (size_t i = 0; i < want.size(); ++i) {
        diff = std::max(diff, double(std::abs(r.improved_policy[i] - want[i])));
      }
      if (raw) {
        EXPECT_LT(diff, 1e-3) << "move " << move;
      } else {
        EXPECT_GT(diff, 0.02) << "move " << move;  // the shaped (flatter) priors instead
      }
      EXPECT_NEAR(r.improved_value, 0.5f, 1e-5);
      search.advance(r.action);
    }
  }
}

TEST(GumbelTargets, RescaledQSharpensTheTargetBetweenCloseValues) {
  const GamePtr game = testing::make_tictactoe();
  // x's expected score is 0.52 wherever x holds the centre, 0.48 elsewhere: the root's children
  // differ by 0.04, and their subtrees agree with them.
  ScriptedEvaluator close([](const State& s) {
    const std::string text = s.to_text();
    const bool x_centre = text.size() > 5 && text[5] == 'x';
    const float x_score = x_centre ? 0.52f : 0.48f;
    const float mover = s.to_move() == 0 ? x_score : 1 - x_score;
    return std::array<float, 3>{mover, 0, 1 - mover};  // the mover's win, draw, loss
  });
  double share[2];
  for (bool rescale : {false, true}) {
    SearchConfig config;
    config.simulations = 64;
    config.gumbel_actions = 9;
    config.gumbel_rescale_q = rescale;
    config.gumbel_c_scale = rescale ? 0.1f : 1.0f;
    Search search(game, config);
    search.reset(*game->initial_state());
    const SearchResult r = search.run(close);
    const size_t centre = std::find(r.actions.begin(), r.actions.end(), 4) - r.actions.begin();
    ASSERT_LT(centre, r.actions.size());
    share[rescale] = r.improved_policy[centre];
    EXPECT_EQ(r.action, 4);
    // The improved value lies between the worst and the best completed value.
    EXPECT_GE(r.improved_value, 0.48f - 1e-4f);
    EXPECT_LE(r.improved_value, 0.52f + 1e-4f);
  }
  EXPECT_GT(share[1], share[0] + 0.1);
}

}  // namespace
}  // namespace pincer::mcts
