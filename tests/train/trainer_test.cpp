// train/trainer: a trainer killed after a checkpoint resumes exactly: the same weights as one
// that never stopped. Self-play writes well-formed records.
#include "train/trainer.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "engine/atomic_file.h"
#include "nn/model.h"
#include "store/records.h"
#include "store/run_dir.h"
#include "tests/train/helpers.h"
#include "train/run_setup.h"
#include "train/selfplay.h"

namespace pincer::testing {
namespace {

namespace fs = std::filesystem;

TEST(SelfPlay, WritesCompleteRecordsInChunks) {
  ScratchDir scratch("selfplay");
  RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  cfg.mutable_selfplay()->set_games_per_chunk(10);
  const RunDir dir(scratch / "run");
  GamePtr game = prepare_run_dir(dir, cfg);
  SelfPlay sp(game, cfg, dir, "t");
  std::atomic<bool> stop{false};
  sp.run(stop, 25);
  const SelfPlayStats s = sp.stats();
  EXPECT_EQ(s.games, 25);
  EXPECT_GT(s.inference.avg_batch(), 4.0);  // many games share network batches
  const auto chunks = list_record_chunks(dir.records());
  ASSERT_EQ(chunks.size(), 3u);  // 10 + 10 + the 5 left at the end
  int games = 0;
  for (const auto& name : chunks) {
    const RecordChunk c = read_record_chunk(dir.records() + "/" + name, *game);
    for (const GameRecord& g : c.games()) {
      ++games;
      EXPECT_EQ(g.fingerprint(), game->fingerprint());
      EXPECT_EQ(g.model_id(), sp.model_id());
      ASSERT_GE(g.moves_size(), 5);
      EXPECT_LE(g.moves_size(), 9);
      // The record replays to a finished game with the recorded result.
      auto state = game->initial_state();
      for (const MoveRecord& m : g.moves()) {
        ASSERT_TRUE(m.full_search());
        ASSERT_EQ(m.policy_actions_size(), m.policy_size());
        float sum = 0;
        bool played_listed = false;
        for (int k = 0; k < m.policy_size(); ++k) {
          sum += m.policy(k);
          played_listed |= m.policy_actions(k) == m.action();
        }
        EXPECT_NEAR(sum, 1.0f, 1e-4);
        EXPECT_TRUE(played_listed);
        EXPECT_GE(m.root_value(), 0.0f);
        EXPECT_LE(m.root_value(), 1.0f);
        state->apply(m.action());
      }
      const Outcome o = state->outcome();
      ASSERT_TRUE(o.over);
      EXPECT_EQ(g.winner(), o.winner);
      EXPECT_EQ(g.reason(), o.reason);
    }
  }
  EXPECT_EQ(games, 25);
}

// selfplay.expert_games: a perfect alpha-beta (9 plies solve tic-tac-toe) plays one side of
// every game; its moves are labelled as the warm start labels, and the network never beats it.
TEST(SelfPlay, ExpertGamesLabelTheExpertsMovesAndTheExpertNeverLoses) {
  ScratchDir scratch("selfplay-expert");
  RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  cfg.mutable_selfplay()->set_expert_games(1.0f);
  cfg.mutable_selfplay()->set_expert_depth(9);
  const RunDir dir(scratch / "run");
  GamePtr game = prepare_run_dir(dir, cfg);
  SelfPlay sp(game, cfg, dir, "t");
  std::atomic<bool> stop{false};
  sp.run(stop, 40);
  EXPECT_EQ(sp.stats().games, 40);
  int games = 0, expert_moves = 0, network_moves = 0, expert_sides[2] = {0, 0};
  for (const auto& name : list_record_chunks(dir.records())) {
    const RecordChunk chunk = read_record_chunk(dir.records() + "/" + name, *game);
    for (const GameRecord& g : chunk.games()) {
      ++games;
      ASSERT_TRUE(g.has_expert_player());
      const int expert = g.expert_player();
      ASSERT_TRUE(expert == 0 || expert == 1);
      ++expert_sides[expert];
      EXPECT_NE(g.winner(), expert ^ 1) << "the network beat a perfect player";
      auto state = game->initial_state();
      std::vector<Action> legal;
      for (const MoveRecord& m : g.moves()) {
        if (state->to_move() == expert) {
          ++expert_moves;
          state->legal_actions(legal);
          ASSERT_TRUE(m.full_search());
          ASSERT_EQ(m.policy_size(), static_cast<int>(legal.size()));
          for (int k = 0; k < m.policy_size(); ++k) {
            const float want = m.policy_actions(k) == m.action()
                                   ? (legal.size() > 1 ? 0.9f : 1.0f)
                                   : 0.1f / static_cast<float>(legal.size() - 1);
            EXPECT_NEAR(m.policy(k), want, 1e-6);
          }
          // A perfect player is never worse than a draw: a win probability of at least 0.5.
          EXPECT_GE(m.root_value(), 0.5f);
          EXPECT_LE(m.root_value(), 1.0f);
        } else {
          ++network_moves;
          EXPECT_GT(m.simulations(), 0);
        }
        state->apply(m.action());
      }
      ASSERT_TRUE(state->outcome().over);
      EXPECT_EQ(g.winner(), state->outcome().winner);
    }
  }
  EXPECT_EQ(games, 40);
  EXPECT_GT(expert_sides[0], 5);
  EXPECT_GT(expert_sides[1], 5);
  EXPECT_GT(expert_moves, 100);
  EXPECT_GT(network_moves, 100);
}

// The exact value of a tic-tac-toe position for the player to move (1 win, 0.5 draw, 0 loss),
// by plain minimax: the reference for the alpha-beta values below.
float exact_value(const State& s) {
  std::vector<Action> legal;
  s.legal_actions(legal);
  float best = 0;
  for (Action a : legal) {
    auto child = s.clone();
    child->apply(a);
    const Outcome o = child->outcome();
    const float v = !o.over                   ? 1 - exact_value(*child)
                    : o.winner < 0            ? 0.5f
                    : o.winner == s.to_move() ? 1.0f
                                              : 0.0f;
    best = std::max(best, v);
  }
  return best;
}

// selfplay.alphabeta_value_share: about that share of the network's searched positions carries
// an alpha-beta value; a 9-ply search solves tic-tac-toe, so each is the position's exact value.
TEST(SelfPlay, AlphaBetaValuesScoreAShareOfThePositionsExactly) {
  ScratchDir scratch("selfplay-abvalue");
  RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  cfg.mutable_selfplay()->set_alphabeta_value_share(0.5f);
  cfg.mutable_selfplay()->set_alphabeta_value_depth(9);
  const RunDir dir(scratch / "run");
  GamePtr game = prepare_run_dir(dir, cfg);
  SelfPlay sp(game, cfg, dir, "t");
  std::atomic<bool> stop{false};
  sp.run(stop, 40);
  int valued = 0, plain = 0;
  for (const auto& name : list_record_chunks(dir.records())) {
    const RecordChunk chunk = read_record_chunk(dir.records() + "/" + name, *game);
    for (const GameRecord& g : chunk.games()) {
      auto state = game->initial_state();
      for (const MoveRecord& m : g.moves()) {
        if (m.has_alphabeta_value()) {
          ++valued;
          EXPECT_FLOAT_EQ(m.alphabeta_value(), exact_value(*state)) << state->to_text();
        } else {
          ++plain;
        }
        state->apply(m.action());
      }
    }
  }
  const double share = static_cast<double>(valued) / (valued + plain);
  EXPECT_GT(valued + plain, 200);
  EXPECT_GT(share, 0.35);
  EXPECT_LT(share, 0.65);
}

TEST(Trainer, ResumesExactlyAfterAStop) {
  ScratchDir scratch("resume");
  RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  cfg.mutable_trainer()->set_min_positions(50);
  cfg.mutable_trainer()->set_batch_size(32);
  // SGD with momentum: the optimiser's state matters for an exact resume.
  cfg.mutable_trainer()->mutable_optimizer()->set_kind("sgd");
  cfg.mutable_trainer()->mutable_optimizer()->set_momentum(0.9f);
  const RunDir a(scratch / "a"), b(scratch / "b");
  GamePtr game = prepare_run_dir(a, cfg);
  prepare_run_dir(b, cfg);
  {
    SelfPlay sp(game, cfg, a, "t");
    std::atomic<bool> stop{false};
    sp.run(stop, 40);
  }
  for (const auto& name : list_record_chunks(a.records())) {
    fs::copy_file(a.records() + "/" + name, b.records() + "/" + name);
  }
  {
    Trainer t(game, cfg, a);
    t.ingest_new_records();
    ASSERT_TRUE(t.ready());
    for (int i = 0; i < 6; ++i) t.train_step();
    t.save_checkpoint();
    // Steps after the checkpoint are lost with the process.
    for (int i = 0; i < 3; ++i) t.train_step();
  }
  std::string path_a, path_b;
  {
    Trainer t(game, cfg, a);
    EXPECT_EQ(t.step(), 6);
    EXPECT_EQ(t.ingest_new_records(), 0);
    for (int i = 0; i < 6; ++i) t.train_step();
    path_a = t.write_model();
  }
  {
    Trainer t(game, cfg, b);
    t.ingest_new_records();
    for (int i = 0; i < 12; ++i) t.train_step();
    path_b = t.write_model();
  }
  auto ma = Model::load(path_a, *game);
  auto mb = Model::load(path_b, *game);
  EXPECT_EQ(ma->metadata().training_step(), 12);
  EXPECT_EQ(mb->metadata().training_step(), 12);
  EXPECT_EQ(tictactoe_outputs(*ma, *game), tictactoe_outputs(*mb, *game));
  // And training changed the network.
  auto m0 = Model::load(a.model(0), *game);
  EXPECT_NE(tictactoe_outputs(*m0, *game), tictactoe_outputs(*ma, *game));
}

TEST(Trainer, ADamagedCheckpointIsAModelErrorNamingTheFile) {
  ScratchDir scratch("ckpt-bad");
  RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  const RunDir dir(scratch / "run");
  GamePtr game = prepare_run_dir(dir, cfg);
  {
    Trainer t(game, cfg, dir);
    t.save_checkpoint();
  }
  const std::string good = read_whole_file(dir.checkpoint());
  auto refusal = [&](const std::string& bytes) -> std::string {
    atomic_write_file(dir.checkpoint(), bytes);
    try {
      Trainer t(game, cfg, dir);
    } catch (const ModelError& e) {
      return e.what();
    }
    return "accepted";
  };
  // Junk, an empty file and files cut anywhere: each a ModelError naming the file, never a torch
  // backtrace.
  for (const std::string& bytes :
       {std::string("junk"), std::string(), good.substr(0, 100), good.substr(0, good.size() / 2),
        good.substr(0, good.size() - 10)}) {
    const std::string e = refusal(bytes);
    EXPECT_NE(e.find(dir.checkpoint()), std::string::npos) << e;
  }
  // A model file whose network config claims a million channels is refused, naming the file and
  // the field, before a network is built from it (once an allocation without bound).
  auto m = Model::create(*game, cfg.network(), "cpu", 1);
  m->metadata().mutable_network()->set_channels(1000000);
  m->save(scratch / "huge.pt");
  try {
    Model::load(scratch / "huge.pt", *game);
    FAIL() << "loaded a model claiming a million channels";
  } catch (const ModelError& err) {
    const std::string e = err.what();
    EXPECT_NE(e.find("huge.pt"), std::string::npos) << e;
    EXPECT_NE(e.find("network.channels"), std::string::npos) << e;
  }
}

TEST(Trainer, IngestSkipsABadGameAndKeepsTheRestOfTheChunk) {
  ScratchDir scratch("ingest-bad");
  RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  const RunDir dir(scratch / "run");
  GamePtr game = prepare_run_dir(dir, cfg);
  {
    SelfPlay sp(game, cfg, dir, "t");
    std::atomic<bool> stop{false};
    sp.run(stop, 3);
  }
  const auto names = list_record_chunks(dir.records());
  ASSERT_EQ(names.size(), 1u);
  RecordChunk chunk = read_record_chunk(dir.records() + "/" + names[0], *game);
  ASSERT_EQ(chunk.games_size(), 3);
  int64_t good_positions = 0;
  for (const GameRecord& g : chunk.games()) good_positions += g.moves_size();
  // A fourth game whose policy target names an action id outside the network's outputs.
  GameRecord bad = chunk.games(0);
  bad.mutable_moves(0)->set_policy_actions(0, 1 << 20);
  fs::remove(dir.records() + "/" + names[0]);
  std::vector<GameRecord> games(chunk.games().begin(), chunk.games().end());
  games.insert(games.begin() + 1, bad);
  write_record_chunk(dir.records(), *game, games, "t");
  Trainer t(game, cfg, dir);
  EXPECT_EQ(t.ingest_new_records(), 3);
  EXPECT_EQ(t.games_seen(), 3);
  EXPECT_EQ(t.positions_seen(), good_positions);
  EXPECT_EQ(t.window_size(), static_cast<size_t>(good_positions));
}

TEST(Trainer, ANewRunCountsAWarmStartMadeByAnEarlierProcess) {
  ScratchDir scratch("trainer-core-hours");
  const RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  const RunDir dir(scratch / "run");
  const GamePtr game = prepare_run_dir(dir, cfg);
  // An initial network whose warm start took 2 core-hours elsewhere (a killed process, or a
  // network copied in): the trainer's run total starts there, not at this process's time.
  auto warm = Model::load(dir.model(0), *game, "cpu");
  warm->metadata().set_core_hours(2.0);
  warm->save(dir.model(0));
  Trainer t(game, cfg, dir);
  EXPECT_GE(t.core_hours(), 2.0);
  EXPECT_LT(t.core_hours(), 2.5);
  t.save_checkpoint();
  // One made in this process is already in the process's time: not counted twice.
  warm->metadata().set_core_hours(0.0);
  warm->save(dir.model(0));
  fs::remove(dir.checkpoint());
  Trainer fresh(game, cfg, dir);
  EXPECT_LT(fresh.core_hours(), 0.5);
}

// A run started from a trained model (RunConfig.start_model: the model's step carried on) trains
// as soon as its window is ready: its steps per self-play position count from its first step, not
// from 0 (which held a step-18,810 model back until 1.2 million new positions had been played).
TEST(Trainer, ARunStartedFromATrainedModelTrainsOnceItsWindowIsReady) {
  ScratchDir scratch("trainer-start-step");
  RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  cfg.mutable_trainer()->set_min_positions(20);
  cfg.mutable_trainer()->set_batch_size(16);
  cfg.mutable_trainer()->set_samples_per_position(2);
  cfg.mutable_trainer()->set_total_steps(0);
  const RunDir dir(scratch / "run");
  const GamePtr game = prepare_run_dir(dir, cfg);
  auto trained = Model::load(dir.model(0), *game, "cpu");
  trained->metadata().set_training_step(5000);
  trained->save(dir.model(0));
  {
    SelfPlay sp(game, cfg, dir, "t");
    std::atomic<bool> stop{false};
    sp.run(stop, 10);
  }
  {
    Trainer t(game, cfg, dir);
    EXPECT_EQ(t.step(), 5000);
    EXPECT_EQ(t.ingest_new_records(), 10);
    ASSERT_TRUE(t.ready());
    const int64_t allowed = t.positions_seen() * 2 / 16;
    ASSERT_GT(allowed, 0);
    EXPECT_EQ(t.steps_allowed(), allowed);
    t.train_step();
    EXPECT_EQ(t.steps_allowed(), allowed - 1);
    t.save_checkpoint();
  }
  // Resumed from its checkpoint, it still counts from step 5000.
  Trainer resumed(game, cfg, dir);
  EXPECT_EQ(resumed.step(), 5001);
  EXPECT_EQ(resumed.steps_allowed(), resumed.positions_seen() * 2 / 16 - 1);
  // total_steps stays a step of the whole run's count.
  cfg.mutable_trainer()->set_total_steps(5004);
  EXPECT_EQ(Trainer(game, cfg, dir).steps_allowed(), 3);
}

}  // namespace
}  // namespace pincer::testing
