// The auxiliary targets of training: which heads a new run gets by default (points where the
// game counts points, ownership where it provides ownership; a resumed run keeps its model's),
// the window's ownership targets (N plies ahead, the game's end where it ends sooner, from the
// view of the player to move, read from records of any age) and the warm start's. The heads
// learning them: tests/train/net_heads_test.cpp.
#include <gtest/gtest.h>

#include <filesystem>

#include "engine/registry.h"
#include "store/records.h"
#include "store/run_dir.h"
#include "tests/support/random_games.h"
#include "tests/train/helpers.h"
#include "train/run_setup.h"
#include "train/trainer.h"
#include "train/warm_start.h"
#include "train/window.h"

namespace pincer::testing {
namespace {

GameRecord record_of(const Game& game, const std::vector<Action>& moves, int winner) {
  GameRecord r;
  r.set_game(game.game_name());
  r.set_ruleset_name(game.ruleset_name());
  r.set_fingerprint(game.fingerprint());
  r.set_model_id("test/aux");
  auto state = game.initial_state();
  for (Action a : moves) {
    MoveRecord* m = r.add_moves();
    m->set_action(a);
    m->set_full_search(true);
    m->add_policy_actions(a);
    m->add_policy(1.0f);
    state->apply(a);
  }
  r.set_winner(winner);
  r.set_reason("test");
  return r;
}

// A record of uniformly random legal moves (at most `plies`).
GameRecord random_record(const Game& game, uint64_t seed, int plies) {
  std::vector<Action> moves;
  play_random_game(*game.initial_state(), seed, plies, [&](const State&, Action a) {
    if (a >= 0) moves.push_back(a);
  });
  return record_of(game, moves, -1);
}

std::vector<float> cells_of(const State& s, int player) {
  const InputShape shape = s.game().input_shape();
  std::vector<float> cells(static_cast<size_t>(shape.height) * shape.width);
  EXPECT_TRUE(s.ownership(player, cells.data()));
  return cells;
}

std::vector<float> as_floats(const std::vector<int8_t>& v) { return {v.begin(), v.end()}; }

TEST(AuxHeads, NewRunsGetTheHeadsTheirGameCanTrain) {
  register_tictactoe();
  struct Case {
    std::string ruleset;
    bool points, ownership;
  };
  for (const Case& c : std::vector<Case>{{"seize-reference", true, true},
                                         {"seize-v0", false, true},
                                         {"seega-5x5", false, true},
                                         {"dice-7x7", false, true},
                                         {"dice-7x7-scored", true, true},
                                         {"corners", false, false}}) {
    SCOPED_TRACE(c.ruleset);
    const GamePtr game = load_game(c.ruleset);
    const NetworkConfig unset = new_run_network(*game, NetworkConfig());
    EXPECT_EQ(unset.points_head(), c.points);
    EXPECT_EQ(unset.ownership_head(), c.ownership);
    EXPECT_TRUE(unset.has_points_head() && unset.has_ownership_head());
    // A field the config sets stays as set.
    NetworkConfig off;
    off.set_points_head(false);
    off.set_ownership_head(false);
    const NetworkConfig kept = new_run_network(*game, off);
    EXPECT_FALSE(kept.points_head());
    EXPECT_FALSE(kept.ownership_head());
    NetworkConfig on;
    on.set_points_head(true);
    EXPECT_TRUE(new_run_network(*game, on).points_head());
  }
}

RunConfig seize_config() {
  return parse_run_config(R"(
    rules: "seize-reference"
    seed: 3
    network { blocks: 1 channels: 8 }
    trainer { batch_size: 8 min_positions: 8 window_positions: 1000 total_steps: 10 }
  )",
                          "aux test config");
}

TEST(AuxHeads, ANewRunLeavingThemUnsetGetsThemAndAResumedRunKeepsItsModels) {
  ScratchDir scratch("aux-heads");
  RunConfig cfg = seize_config();
  {
    const RunDir dir(scratch / "default");
    prepare_run_dir(dir, cfg);
    const ModelMetadata meta = Model::read_metadata(dir.best());
    EXPECT_TRUE(meta.network().points_head()) << "seize-reference counts points";
    EXPECT_TRUE(meta.network().ownership_head());
    EXPECT_TRUE(Model::load(dir.best(), *load_game("seize-reference"))->has_ownership_head());
  }
  {
    // An explicit false turns them off; the run, resumed with a config that leaves them unset,
    // keeps its model's choice (no heads), and so does its trainer.
    RunConfig off = cfg;
    off.mutable_network()->set_points_head(false);
    off.mutable_network()->set_ownership_head(false);
    const RunDir dir(scratch / "off");
    prepare_run_dir(dir, off);
    EXPECT_FALSE(Model::read_metadata(dir.best()).network().points_head());
    EXPECT_FALSE(Model::read_metadata(dir.best()).network().ownership_head());
    GamePtr game = prepare_run_dir(dir, cfg);
    EXPECT_FALSE(Model::read_metadata(dir.best()).network().ownership_head());
    Trainer t(game, cfg, dir);
    EXPECT_FALSE(t.model_metadata().network().ownership_head());
    EXPECT_FALSE(t.model_metadata().network().points_head());
  }
}

// Tic-tac-toe: x a1 (0), o b2 (4), x c1 (2), o b1 (1), x a3 (6), o c3 (8), x a2 (3): x wins on
// the a-file after 7 plies.
const std::vector<Action> kGame = {0, 4, 2, 1, 6, 8, 3};

TEST(OwnershipTargets, AreThePositionNPliesAheadFromTheMoversView) {
  register_tictactoe();
  const GamePtr game = make_tictactoe();
  const GameRecord rec = record_of(*game, kGame, 0);
  Window w(100, 0, 2);
  ASSERT_EQ(w.add_game(*game, rec), 7);
  // Ply 0 (x to move, empty board): two plies on, x holds a1 and o b2.
  std::vector<float> want(9, 0.0f);
  want[0] = 1, want[4] = -1;
  EXPECT_EQ(as_floats(w[0].ownership), want);
  // Ply 1 (o to move): two plies on, x a1 c1, o b2; from o's view.
  want = std::vector<float>(9, 0.0f);
  want[0] = -1, want[2] = -1, want[4] = 1;
  EXPECT_EQ(as_floats(w[1].ownership), want);
  // Plies 5 and 6 look past the end: the final position, each from its mover's view.
  auto final_state = game->initial_state();
  for (Action a : kGame) final_state->apply(a);
  EXPECT_EQ(as_floats(w[5].ownership), cells_of(*final_state, 1)) << "o to move at ply 5";
  EXPECT_EQ(as_floats(w[6].ownership), cells_of(*final_state, 0)) << "x to move at ply 6";

  // No ownership asked for (a network without the head): no targets, nothing stored.
  Window none(100);
  none.add_game(*game, rec);
  for (size_t i = 0; i < none.size(); ++i) EXPECT_TRUE(none[i].ownership.empty());
}

TEST(OwnershipTargets, OfEveryProvidingGameMatchTheReplay) {
  for (const std::string name : {"seize-reference", "seega-5x5", "dice-7x7"}) {
    SCOPED_TRACE(name);
    const GamePtr game = load_game(name);
    const GameRecord rec = random_record(*game, 11, 60);
    const int plies = 8;
    Window w(1000, 0, plies);
    ASSERT_EQ(w.add_game(*game, rec), rec.moves_size());
    std::vector<std::unique_ptr<State>> states;
    replay_record(*game, rec, [&](const State& s, int) { states.push_back(s.clone()); });
    states.push_back(states.back()->clone());
    states.back()->apply(rec.moves(rec.moves_size() - 1).action());
    for (size_t i = 0; i < w.size(); ++i) {
      const size_t later = std::min(states.size() - 1, i + plies);
      ASSERT_EQ(as_floats(w[i].ownership), cells_of(*states[later], states[i]->to_move()))
          << "ply " << i;
    }
  }
  // A game without ownership gets none, whatever is asked.
  const GamePtr corners = load_game("corners");
  Window w(1000, 0, 8);
  w.add_game(*corners, random_record(*corners, 5, 30));
  ASSERT_GT(w.size(), 0u);
  for (size_t i = 0; i < w.size(); ++i) EXPECT_TRUE(w[i].ownership.empty());
}

// Records carry nothing new: the targets come from replaying them, so a chunk written before
// the ownership head existed (the same bytes as today's) yields them.
TEST(OwnershipTargets, ComeFromRecordChunksOfAnyAge) {
  ScratchDir scratch("aux-chunks");
  register_tictactoe();
  const GamePtr game = make_tictactoe();
  const std::string path =
      write_record_chunk(scratch.path(), *game, {record_of(*game, kGame, 0)}, "old");
  const RecordChunk chunk = read_record_chunk(path, *game);
  ASSERT_EQ(chunk.games_size(), 1);
  Window from_chunk(100, 0, 3), direct(100, 0, 3);
  from_chunk.add_game(*game, chunk.games(0));
  direct.add_game(*game, record_of(*game, kGame, 0));
  ASSERT_EQ(from_chunk.size(), direct.size());
  for (size_t i = 0; i < direct.size(); ++i) {
    EXPECT_FALSE(from_chunk[i].ownership.empty());
    EXPECT_EQ(from_chunk[i].ownership, direct[i].ownership);
  }
}

TEST(OwnershipTargets, WarmStartSamplesGetThemFromTheirRecords) {
  register_tictactoe();
  const GamePtr game = make_tictactoe();
  WarmStartConfig c;
  c.set_enabled(true);
  c.set_games(6);
  c.set_search_depth(2);
  c.set_threads(1);
  c = complete_warm_start_config(c, 32);
  WarmStartData data = generate_warm_start_data(*game, c, 5);
  ASSERT_EQ(data.records.size(), 6u);
  set_warm_start_aux_targets(*game, data, 2);
  Window w(1000, 0, 2);
  for (const GameRecord& r : data.records) w.add_game(*game, r);
  ASSERT_EQ(w.size(), data.samples.size());
  for (size_t i = 0; i < w.size(); ++i) {
    EXPECT_EQ(data.samples[i].ownership, w[i].ownership) << "sample " << i;
    EXPECT_EQ(data.samples[i].points, w[i].points);
  }
  // Samples that are not the records' positions are refused.
  data.samples.pop_back();
  EXPECT_THROW(set_warm_start_aux_targets(*game, data, 2), std::logic_error);
}

}  // namespace
}  // namespace pincer::testing
