// train/trainer: a trainer killed after a checkpoint resumes exactly: the same weights as one
// that never stopped. Self-play writes well-formed records.
#include "train/trainer.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "nn/model.h"
#include "tests/train/helpers.h"
#include "train/records.h"
#include "train/run_dir.h"
#include "train/selfplay.h"

namespace pincer::testing {
namespace {

namespace fs = std::filesystem;

std::vector<float> outputs(Model& m, const Game& game) {
  const std::vector<std::string> pos = {".../.../... x", "x.o/.x./... o", "xxo/oox/x.. o"};
  std::vector<float> input(pos.size() * m.input_size());
  for (size_t i = 0; i < pos.size(); ++i) {
    game.parse_state(pos[i])->encode(input.data() + i * m.input_size());
  }
  std::vector<float> logits(pos.size() * m.num_actions()), wdl(pos.size() * 3);
  m.infer(input.data(), static_cast<int>(pos.size()), logits.data(), wdl.data());
  logits.insert(logits.end(), wdl.begin(), wdl.end());
  return logits;
}

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
  EXPECT_EQ(outputs(*ma, *game), outputs(*mb, *game));
  // And training changed the network.
  auto m0 = Model::load(a.model(0), *game);
  EXPECT_NE(outputs(*m0, *game), outputs(*ma, *game));
}

}  // namespace
}  // namespace pincer::testing
