// Warm start (train/warm_start.h): alpha-beta labels are right and reproducible, and a network
// pretrained on them alone plays tic-tac-toe's wins and blocks.
#include "train/warm_start.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>

#include "engine/capture_search.h"
#include "store/records.h"
#include "store/run_dir.h"
#include "tests/train/helpers.h"
#include "train/config.h"
#include "train/run_setup.h"
#include "train/window.h"

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
  EXPECT_DOUBLE_EQ(score_win_probability(0, 250), 0.5);
  EXPECT_GT(score_win_probability(300, 250), 0.7);
  EXPECT_LT(score_win_probability(-300, 250), 0.3);
  EXPECT_EQ(score_win_probability(1000000 - 5, 250), 1.0);  // a found win
  EXPECT_EQ(score_win_probability(-1000000 + 5, 250), 0.0);
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

TEST(WarmStart, RecordsRoundTripAndExtendTheSet) {
  ScratchDir scratch("warm-records");
  tictactoe_rules(scratch.path());
  GamePtr game = make_tictactoe();
  WarmStartConfig c = small_config();
  c.set_games(12);
  c.set_result_weight(0.25f);
  const WarmStartData a = warm_start_data(*game, c, 7);
  ASSERT_EQ(a.records.size(), 12u);
  ASSERT_EQ(a.games, 12);
  // Every move of every record is a labelled position, in order.
  size_t moves = 0;
  for (const GameRecord& r : a.records) {
    for (const MoveRecord& m : r.moves()) {
      EXPECT_TRUE(m.full_search());
      EXPECT_GE(m.root_value(), 0.0f);
      EXPECT_LE(m.root_value(), 1.0f);
    }
    moves += r.moves_size();
  }
  ASSERT_EQ(moves, a.samples.size());
  // The value target blends the result (weight 0.25) with the search's win probability.
  const GameRecord& first = a.records[0];
  const float q = first.moves(0).root_value();
  const float result = first.winner() < 0 ? 0.5f : (first.winner() == 0 ? 1.0f : 0.0f);
  const float expected_win = 0.25f * (first.winner() == 0 ? 1.0f : 0.0f) + 0.75f * q;
  EXPECT_NEAR(a.samples[0].wdl[0], expected_win, 1e-5) << "result " << result;

  // Saved as chunks and read back: the same positions and targets, and none generated.
  const std::string dir = scratch / "labels";
  EXPECT_EQ(write_warm_start_records(dir, *game, a.records), 1);
  c.set_records(dir);
  const WarmStartData b = warm_start_data(*game, c, 7);
  ASSERT_EQ(b.samples.size(), a.samples.size());
  EXPECT_EQ(b.seconds, 0);  // nothing was played
  for (size_t i = 0; i < a.samples.size(); ++i) {
    ASSERT_EQ(b.samples[i].state->to_text(), a.samples[i].state->to_text());
    ASSERT_EQ(b.samples[i].policy, a.samples[i].policy);
    ASSERT_EQ(b.samples[i].wdl, a.samples[i].wdl);
  }
  // Asking for more games than the directory holds plays only the missing ones, and they are
  // the games a set of 15 would have had at those places.
  c.set_games(15);
  const WarmStartData more = warm_start_data(*game, c, 7);
  ASSERT_EQ(more.records.size(), 15u);
  c.clear_records();
  const WarmStartData all = warm_start_data(*game, c, 7);
  for (int g = 0; g < 15; ++g) {
    EXPECT_EQ(more.records[g].SerializeAsString(), all.records[g].SerializeAsString()) << g;
  }
  // Writing again replaces the writer's chunks instead of adding to them.
  EXPECT_EQ(write_warm_start_records(dir, *game, all.records), 1);
  EXPECT_EQ(list_record_chunks(dir).size(), 1u);
}

TEST(WarmStart, WindowBlendsTheRootValueWhenAsked) {
  ScratchDir scratch("warm-window");
  tictactoe_rules(scratch.path());
  GamePtr game = make_tictactoe();
  WarmStartConfig c = small_config();
  c.set_games(3);
  const WarmStartData data = warm_start_data(*game, c, 3);
  const GameRecord& r = data.records[0];
  Window plain(1000), blended(1000, 0.5);
  ASSERT_EQ(plain.add_game(*game, r), r.moves_size());
  ASSERT_EQ(blended.add_game(*game, r), r.moves_size());
  for (int i = 0; i < r.moves_size(); ++i) {
    const auto result = plain[i].wdl;
    EXPECT_TRUE(result[0] == 1 || result[1] == 1 || result[2] == 1);
    const float q = r.moves(i).root_value();
    EXPECT_NEAR(blended[i].wdl[0], 0.5f * result[0] + 0.5f * q, 1e-6);
    EXPECT_NEAR(blended[i].wdl[1], 0.5f * result[1], 1e-6);
    EXPECT_NEAR(blended[i].wdl[2], 0.5f * result[2] + 0.5f * (1 - q), 1e-6);
  }
}

TEST(WarmStart, KeepInWindowWritesTheLabelledGamesIntoTheRun) {
  ScratchDir scratch("warm-keep");
  RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  WarmStartConfig w = small_config();
  w.set_games(10);
  w.set_steps(5);
  w.set_keep_in_window(true);
  *cfg.mutable_warm_start() = w;
  GamePtr game = make_tictactoe();
  const RunDir dir(scratch / "run");
  prepare_run_dir(dir, cfg);
  const auto chunks = list_record_chunks(dir.records());
  ASSERT_EQ(chunks.size(), 1u);
  EXPECT_NE(chunks[0].find("-warmstart-"), std::string::npos);
  const RecordChunk chunk = read_record_chunk(dir.records() + "/" + chunks[0], *game);
  ASSERT_EQ(chunk.games_size(), 10);
  // They are the warm start's games (the same seed gives the same set).
  const WarmStartData again = warm_start_data(*game, cfg.warm_start(), cfg.seed());
  for (int g = 0; g < 10; ++g) {
    EXPECT_EQ(chunk.games(g).SerializeAsString(), again.records[g].SerializeAsString());
  }
}

TEST(WarmStart, AKilledWarmStartResumesWithTheGamesItLabelled) {
  ScratchDir scratch("warm-resume");
  RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  WarmStartConfig w = small_config();
  w.set_games(10);
  w.set_steps(5);
  *cfg.mutable_warm_start() = w;
  GamePtr game = make_tictactoe();
  const RunDir dir(scratch / "run");
  const std::string labels = dir.path("warmstart");
  // What a warm start killed after its first round leaves: that round's games, as a chunk.
  WarmStartConfig first_round = w;
  first_round.set_games(4);
  const WarmStartData four = generate_warm_start_data(*game, first_round, cfg.seed());
  std::filesystem::create_directories(labels);
  write_record_chunk(labels, *game, four.records, "warmstart");
  const std::vector<std::string> before = list_record_chunks(labels);
  ASSERT_EQ(before.size(), 1u);

  prepare_run_dir(dir, cfg);
  EXPECT_TRUE(std::filesystem::exists(dir.best()));
  // The kept round is read, not played again; the other six games join it; together they are
  // the set a fresh warm start plays.
  const std::vector<std::string> after = list_record_chunks(labels);
  ASSERT_EQ(after.size(), 2u);
  EXPECT_EQ(after[0], before[0]);
  std::vector<GameRecord> games;
  for (const std::string& name : after) {
    const RecordChunk chunk = read_record_chunk(labels + "/" + name, *game);
    games.insert(games.end(), chunk.games().begin(), chunk.games().end());
  }
  const WarmStartData fresh = generate_warm_start_data(*game, w, cfg.seed());
  ASSERT_EQ(games.size(), 10u);
  for (int g = 0; g < 10; ++g) {
    EXPECT_EQ(games[g].SerializeAsString(), fresh.records[g].SerializeAsString()) << g;
  }
  // Not kept in the window: the run's records hold none of them.
  EXPECT_TRUE(list_record_chunks(dir.records()).empty());
}

TEST(WarmStart, AStoppedWarmStartWritesNoModel) {
  ScratchDir scratch("warm-stop");
  RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  WarmStartConfig w = small_config();
  w.set_games(10);
  *cfg.mutable_warm_start() = w;
  const RunDir dir(scratch / "run");
  const std::atomic<bool> stop{true};
  EXPECT_THROW(prepare_run_dir(dir, cfg, &stop), std::runtime_error);
  EXPECT_FALSE(std::filesystem::exists(dir.best()));
  EXPECT_FALSE(std::filesystem::exists(dir.model(0)));
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
  // keep_in_window is off: no labelled games among the records.
  EXPECT_TRUE(list_record_chunks(dir.records()).empty());
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
