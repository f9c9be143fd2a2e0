// Warm start (train/warm_start.h): alpha-beta labels are right and reproducible, and a network
// pretrained on them alone plays tic-tac-toe's wins and blocks.
#include "train/warm_start.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "tests/train/helpers.h"
#include "train/config.h"
#include "train/run_dir.h"

namespace pincer::testing {
namespace {

WarmStartConfig small_config() {
  WarmStartConfig c;
  c.set_enabled(true);
  c.set_games(600);
  c.set_opening_plies(1);
  c.set_random_move_probability(0.3f);
  c.set_search_depth(9);
  c.set_steps(500);
  c.set_batch_size(64);
  c.set_learning_rate(0.003f);
  c.set_threads(2);
  return complete_warm_start_config(c, 64);
}

Action top_legal_move(Model& m, const State& state) {
  std::vector<float> input(m.input_size()), logits(m.num_actions());
  float wdl[3];
  state.encode(input.data());
  m.infer(input.data(), 1, logits.data(), wdl);
  std::vector<Action> legal;
  state.legal_actions(legal);
  return *std::max_element(legal.begin(), legal.end(), [&](Action a, Action b) {
    return logits[state.policy_index(a)] < logits[state.policy_index(b)];
  });
}

TEST(WarmStart, WinProbabilityFromSearchScores) {
  EXPECT_DOUBLE_EQ(warm_start_win_probability(0, 250), 0.5);
  EXPECT_GT(warm_start_win_probability(300, 250), 0.7);
  EXPECT_LT(warm_start_win_probability(-300, 250), 0.3);
  EXPECT_EQ(warm_start_win_probability(1000000 - 5, 250), 1.0);  // a found win
  EXPECT_EQ(warm_start_win_probability(-1000000 + 5, 250), 0.0);
}

TEST(WarmStart, DefaultsAndRanges) {
  WarmStartConfig c;
  c.set_enabled(true);
  const WarmStartConfig d = complete_warm_start_config(c, 128);
  EXPECT_EQ(d.batch_size(), 128);
  EXPECT_EQ(d.search_depth(), 2);
  EXPECT_GT(d.games(), 0);
  c.set_policy_smoothing(1.5f);
  EXPECT_THROW(complete_warm_start_config(c, 128), std::invalid_argument);

  ScratchDir scratch("warm-config");
  const std::string rules = tictactoe_rules(scratch.path());
  const std::string bad = "rules: \"" + rules + "\" warm_start { enabled: true search_depth: 99 }";
  try {
    parse_run_config(bad, "bad.textproto");
    FAIL() << "accepted search_depth 99";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("warm_start.search_depth"), std::string::npos) << e.what();
  }
}

TEST(WarmStart, LabelsAreTheSearchsAndReproducible) {
  ScratchDir scratch("warm-labels");
  tictactoe_rules(scratch.path());
  GamePtr game = make_tictactoe();
  WarmStartConfig c = small_config();
  c.set_games(30);
  const WarmStartData a = generate_warm_start_data(*game, c, 11);
  const WarmStartData b = generate_warm_start_data(*game, c, 11);
  ASSERT_EQ(a.games, 30);
  ASSERT_GT(a.samples.size(), 30u * 4);
  ASSERT_EQ(a.samples.size(), b.samples.size());
  for (size_t i = 0; i < a.samples.size(); ++i) {
    ASSERT_EQ(a.samples[i].state->to_text(), b.samples[i].state->to_text());
    ASSERT_EQ(a.samples[i].policy, b.samples[i].policy);
    ASSERT_EQ(a.samples[i].wdl, b.samples[i].wdl);
    // A distribution over the legal moves.
    float sum = 0;
    for (float p : a.samples[i].policy) sum += p;
    EXPECT_NEAR(sum, 1.0f, 1e-4);
    EXPECT_NEAR(a.samples[i].wdl[0] + a.samples[i].wdl[1] + a.samples[i].wdl[2], 1.0f, 1e-4);
  }
  // Where the side to move wins at once, the label is that move and a high win value.
  int checked = 0;
  for (const Sample& s : a.samples) {
    std::vector<Action> legal;
    s.state->legal_actions(legal);
    Action winning = -1;
    for (Action m : legal) {
      auto next = s.state->clone();
      next->apply(m);
      if (next->outcome().over && next->outcome().winner == s.state->to_move()) winning = m;
    }
    if (winning < 0) continue;
    ++checked;
    const auto best = std::max_element(s.policy.begin(), s.policy.end()) - s.policy.begin();
    auto after = s.state->clone();
    after->apply(legal[best]);
    EXPECT_TRUE(after->outcome().over && after->outcome().winner == s.state->to_move())
        << s.state->to_text();
    EXPECT_GT(s.wdl[0], 0.6f) << s.state->to_text();
  }
  EXPECT_GT(checked, 5);
}

// In the Learning group: it trains a network, so scripts/test.sh gives it both cores.
TEST(Learning, WarmStartNetPlaysWinsAndBlocks) {
  ScratchDir scratch("warm-learn");
  RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  *cfg.mutable_warm_start() = small_config();
  GamePtr game = make_tictactoe();
  // Through the run dir hook: the initial model is the warm-started one.
  const RunDir dir(scratch / "run");
  prepare_run_dir(dir, cfg);
  auto net = Model::load(dir.best(), *game);
  EXPECT_NE(net->metadata().model_id().find("warm"), std::string::npos);
  struct Case {
    const char* position;
    Action expected;
  };
  const std::vector<Case> cases = {
      {".../oo./xx. x", 2}, {"..o/x../xo. x", 6}, {"oo./.xx/x.. o", 8},
      {".../.o./xx. o", 2}, {".../x../x.o o", 6}, {".ox/.o./x.. x", 1},
  };
  int right = 0;
  for (const Case& c : cases) {
    auto state = game->parse_state(c.position);
    right += top_legal_move(*net, *state) == c.expected;
  }
  std::printf("warm-started tic-tac-toe net: %d of %zu wins and blocks\n", right, cases.size());
  EXPECT_GE(right, 5);
  // A fresh network (same seed) does not: the pretraining made the difference.
  auto fresh = Model::create(*game, cfg.network(), "cpu", cfg.seed());
  int fresh_right = 0;
  for (const Case& c : cases) {
    auto state = game->parse_state(c.position);
    fresh_right += top_legal_move(*fresh, *state) == c.expected;
  }
  EXPECT_LT(fresh_right, right);
}

}  // namespace
}  // namespace pincer::testing
