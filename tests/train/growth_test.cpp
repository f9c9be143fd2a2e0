// Network growth (RunConfig.growth; docs/training.md, "Growing the network"): a new network of
// the stage's shape learns from the window beside the current one and takes over at its step;
// a trainer killed mid-distillation resumes exactly; gates compare networks of other shapes; in
// the loop, self-play switches to the grown network.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "engine/registry.h"
#include "nn/model.h"
#include "store/records.h"
#include "store/run_dir.h"
#include "tests/train/helpers.h"
#include "train/gate.h"
#include "train/loop.h"
#include "train/run_setup.h"
#include "train/selfplay.h"
#include "train/status_line.h"
#include "train/trainer.h"

namespace pincer::testing {
namespace {

namespace fs = std::filesystem;

// The tic-tac-toe config (a 2x32 net) with one growth stage to 3x48 at `at_step`.
RunConfig growing_config(const std::string& scratch, int64_t at_step, int distill_steps) {
  RunConfig cfg = tictactoe_config(tictactoe_rules(scratch));
  cfg.mutable_trainer()->set_min_positions(50);
  cfg.mutable_trainer()->set_batch_size(32);
  GrowthStage* g = cfg.add_growth();
  g->set_at_step(at_step);
  g->mutable_network()->set_blocks(3);
  g->mutable_network()->set_channels(48);
  g->set_distill_steps(distill_steps);
  return complete_run_config(cfg, "growth test config");
}

// A run dir with `games` self-play games of its initial network in records/.
GamePtr run_with_games(const RunDir& dir, const RunConfig& cfg, int games) {
  GamePtr game = prepare_run_dir(dir, cfg);
  SelfPlay sp(game, cfg, dir, "t");
  std::atomic<bool> stop{false};
  sp.run(stop, games);
  return game;
}

TEST(Growth, TheNewNetworkTakesOverAfterItsDistillSteps) {
  ScratchDir scratch("growth-takeover");
  const RunConfig cfg = growing_config(scratch.path(), 4, 6);
  const RunDir dir(scratch / "run");
  GamePtr game = run_with_games(dir, cfg, 30);
  Trainer t(game, cfg, dir);
  t.ingest_new_records();
  ASSERT_TRUE(t.ready());
  EXPECT_EQ(t.growth_status(), "");
  for (int i = 0; i < 4; ++i) {
    const TrainStepResult r = t.train_step();
    EXPECT_FALSE(r.distilling);
    EXPECT_FALSE(r.takeover);
  }
  // Steps 4..9: the 3x48 network learns beside the 2x32 one, which the trainer still writes.
  for (int i = 4; i < 10; ++i) {
    const TrainStepResult r = t.train_step();
    EXPECT_TRUE(r.distilling) << i;
    EXPECT_GT(r.new_policy_loss, 0) << i;
    EXPECT_EQ(t.model_metadata().network().blocks(), i < 9 ? 2 : 3) << i;
    if (i < 9) {
      EXPECT_FALSE(r.takeover) << i;
      EXPECT_EQ(t.growth_status(), "growing 2x32->3x48 " + std::to_string(i + 1 - 4) + "/6");
    } else {
      ASSERT_TRUE(r.takeover);
      EXPECT_EQ(r.takeover->step, 10);
      EXPECT_EQ(r.takeover->start_step, 4);
      EXPECT_EQ(network_shape(r.takeover->before), "2x32");
      EXPECT_EQ(network_shape(r.takeover->after), "3x48");
      EXPECT_EQ(r.takeover->steps_averaged, 6);
      EXPECT_GT(r.takeover->old_policy_loss, 0);
      EXPECT_GT(r.takeover->new_policy_loss, 0);
      EXPECT_GT(r.takeover->parameters_after, r.takeover->parameters_before);
    }
  }
  EXPECT_EQ(t.growth_status(), "net 3x48 since step 10");
  // The status line shows it after the best model.
  const std::string line = status_text(0.5, 10, 30, 200, 100, 1.5, 0.7, "tictactoe/step-000010",
                                       "model-000010.pt 0.60 promoted", 0, t.growth_status());
  EXPECT_NE(line.find("| best step-000010 | net 3x48 since step 10 | gate model-000010.pt"),
            std::string::npos)
      << line;
  EXPECT_EQ(t.growth_stages_done(), 1);
  const TrainStepResult after = t.train_step();
  EXPECT_FALSE(after.distilling);
  // Model files from now on carry the new shape, and load as any model does.
  const std::string path = t.write_model();
  auto m = Model::load(path, *game);
  EXPECT_EQ(m->metadata().network().blocks(), 3);
  EXPECT_EQ(m->metadata().network().channels(), 48);
  EXPECT_EQ(m->metadata().network().value_hidden(), cfg.network().value_hidden());
  EXPECT_EQ(m->metadata().training_step(), 11);
  auto first = Model::load(dir.model(0), *game);
  EXPECT_EQ(m->metadata().parent_model().empty(), false);
  EXPECT_EQ(first->metadata().network().blocks(), 2);
  // The checkpoint holds the grown network: a new trainer goes on with it, no stage left.
  t.save_checkpoint();
  Trainer again(game, cfg, dir);
  EXPECT_EQ(again.step(), 11);
  EXPECT_EQ(again.model_metadata().network().blocks(), 3);
  EXPECT_FALSE(again.distilling());
  EXPECT_FALSE(again.train_step().distilling);
}

TEST(Growth, TheNewNetworksLossesFallWhileItLearns) {
  ScratchDir scratch("growth-losses");
  const RunConfig cfg = growing_config(scratch.path(), 1, 120);
  const RunDir dir(scratch / "run");
  GamePtr game = run_with_games(dir, cfg, 40);
  Trainer t(game, cfg, dir);
  t.ingest_new_records();
  ASSERT_TRUE(t.ready());
  t.train_step();
  double first = 0, last = 0;
  for (int i = 0; i < 120; ++i) {
    const TrainStepResult r = t.train_step();
    ASSERT_TRUE(r.distilling);
    const double loss = r.new_policy_loss + r.new_value_loss;
    if (i < 10) first += loss / 10;
    if (i >= 110) last += loss / 10;
    if (i == 119) {
      ASSERT_TRUE(r.takeover);
      // Its losses over the last 100 steps, below those of its first steps.
      EXPECT_LT(r.takeover->new_policy_loss + r.takeover->new_value_loss, first);
    }
  }
  std::printf("growing network's loss: first 10 steps %.3f, last 10 %.3f\n", first, last);
  EXPECT_LT(last, first * 0.9);
}

TEST(Growth, ATrainerKilledMidDistillationResumesExactly) {
  ScratchDir scratch("growth-resume");
  RunConfig cfg = growing_config(scratch.path(), 3, 8);
  // SGD with momentum: both optimisers' states matter for an exact resume.
  cfg.mutable_trainer()->mutable_optimizer()->set_kind("sgd");
  cfg.mutable_trainer()->mutable_optimizer()->set_momentum(0.9f);
  const RunDir a(scratch / "a"), b(scratch / "b");
  GamePtr game = run_with_games(a, cfg, 30);
  prepare_run_dir(b, cfg);
  for (const auto& name : list_record_chunks(a.records())) {
    fs::copy_file(a.records() + "/" + name, b.records() + "/" + name);
  }
  {
    Trainer t(game, cfg, a);
    t.ingest_new_records();
    for (int i = 0; i < 6; ++i) t.train_step();
    ASSERT_TRUE(t.distilling());
    t.save_checkpoint();
    // Steps after the checkpoint are lost with the process (a kill).
    for (int i = 0; i < 3; ++i) t.train_step();
  }
  std::string path_a, path_b;
  {
    Trainer t(game, cfg, a);
    EXPECT_EQ(t.step(), 6);
    EXPECT_TRUE(t.distilling());
    EXPECT_EQ(t.growth_status(), "growing 2x32->3x48 3/8");
    EXPECT_EQ(t.model_metadata().network().blocks(), 2);
    int takeovers = 0;
    for (int i = 0; i < 8; ++i) takeovers += t.train_step().takeover ? 1 : 0;
    EXPECT_EQ(takeovers, 1);
    path_a = t.write_model();
  }
  {
    Trainer t(game, cfg, b);
    t.ingest_new_records();
    for (int i = 0; i < 14; ++i) t.train_step();
    path_b = t.write_model();
  }
  auto ma = Model::load(path_a, *game);
  auto mb = Model::load(path_b, *game);
  EXPECT_EQ(ma->metadata().training_step(), 14);
  EXPECT_EQ(ma->metadata().network().SerializeAsString(),
            mb->metadata().network().SerializeAsString());
  EXPECT_EQ(ma->metadata().network().blocks(), 3);
  EXPECT_EQ(tictactoe_outputs(*ma, *game), tictactoe_outputs(*mb, *game));
}

TEST(Growth, ACoreHourTriggerStartsOnceTheRunHasUsedThatMuchCpu) {
  ScratchDir scratch("growth-hours");
  RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  cfg.mutable_trainer()->set_min_positions(50);
  cfg.mutable_trainer()->set_batch_size(32);
  // A first stage due at once (this process has used more than 3.6 ms of CPU), a second never.
  for (const double hours : {1e-6, 1e6}) {
    GrowthStage* g = cfg.add_growth();
    g->set_at_core_hours(hours);
    g->mutable_network()->set_channels(hours < 1 ? 40 : 48);
    g->set_distill_steps(3);
  }
  cfg = complete_run_config(cfg, "growth test config");
  const RunDir dir(scratch / "run");
  GamePtr game = run_with_games(dir, cfg, 20);
  Trainer t(game, cfg, dir);
  t.ingest_new_records();
  EXPECT_TRUE(t.train_step().distilling);
  t.train_step();
  EXPECT_TRUE(t.train_step().takeover);
  EXPECT_EQ(t.growth_status(), "net 2x40 since step 3");
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(t.train_step().distilling);
  EXPECT_EQ(t.growth_stages_done(), 1);
}

TEST(Growth, IsRefusedWithMoreThanOneShardAStep) {
  ScratchDir scratch("growth-ddp");
  const RunConfig cfg = growing_config(scratch.path(), 3, 8);
  const RunDir dir(scratch / "run");
  GamePtr game = prepare_run_dir(dir, cfg);
  try {
    Trainer t(game, cfg, dir, nullptr, 2);
    FAIL() << "a growth stage was accepted with two shards a step";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("data-parallel"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("growth"), std::string::npos) << e.what();
  }
}

TEST(Growth, AGateComparesModelsOfDifferentNetworks) {
  ScratchDir scratch("growth-gate");
  RunConfig cfg = growing_config(scratch.path(), 3, 8);
  cfg.mutable_gating()->set_games(2);
  cfg.mutable_gating()->set_random_games(2);
  const RunDir dir(scratch / "run");
  GamePtr game = prepare_run_dir(dir, cfg);
  // A grown candidate (3x48) against the 2x32 best.
  auto grown = Model::create(*game, cfg.growth(0).network(), "cpu", 5);
  grown->metadata().set_training_step(cfg.trainer().checkpoint_every());
  grown->save(dir.model(cfg.trainer().checkpoint_every()));
  Gatekeeper gk(game, cfg, dir);
  const std::string cand = gk.next_candidate();
  ASSERT_EQ(cand, dir.model(cfg.trainer().checkpoint_every()));
  const GateResult r = gk.gate(cand);
  EXPECT_EQ(r.games(), 2);
  EXPECT_EQ(r.vs_random_games(), 2);
  EXPECT_EQ(r.candidate_id(), grown->metadata().model_id());
}

// The grown network's model ids (the model files of its shape) and the games self-play played
// with them, in the run's record chunks.
int games_of_grown_models(const RunDir& dir, const Game& game, int channels) {
  std::set<std::string> grown_ids;
  for (const auto& e : fs::directory_iterator(dir.models())) {
    const std::string name = e.path().filename().string();
    if (name.rfind("model-", 0) != 0 || e.path().extension() != ".pt") continue;
    const ModelMetadata m = Model::read_metadata(e.path().string());
    if (m.network().channels() == channels) grown_ids.insert(m.model_id());
  }
  int games = 0;
  for (const auto& name : list_record_chunks(dir.records())) {
    const RecordChunk chunk = read_record_chunk(dir.records() + "/" + name, game);
    for (const GameRecord& r : chunk.games()) games += grown_ids.count(r.model_id()) ? 1 : 0;
  }
  return games;
}

// The shipped smoke-test config with a growth stage: the loop grows the network, writes the
// growth row, and self-play plays the grown network. The run goes on until step 40 is written
// and a game of the grown network is in the records (self-play may be ahead of the trainer on a
// loaded machine, so a fixed step count alone could end the run before such a game finished),
// three minutes at most.
TEST(Loop, SeizeTinyGrowsAndSelfPlaySwitchesToTheGrownNetwork) {
  ScratchDir scratch("seize-tiny-growth");
  RunConfig cfg = load_run_config(source_dir() + "/configs/runs/seize-tiny.textproto");
  cfg.mutable_trainer()->set_checkpoint_every(10);
  cfg.mutable_trainer()->set_min_positions(300);
  cfg.mutable_gating()->set_promotion("always");
  cfg.mutable_selfplay()->set_parallel_games(16);
  cfg.mutable_selfplay()->set_max_moves(40);
  cfg.mutable_selfplay()->set_games_per_chunk(4);
  GrowthStage* g = cfg.add_growth();
  g->set_at_step(8);
  g->mutable_network()->set_blocks(2);
  g->mutable_network()->set_channels(24);
  g->set_distill_steps(7);
  cfg = complete_run_config(cfg, "seize-tiny with growth");
  const RunDir dir(scratch / "run");
  GamePtr game = load_game(cfg.rules());
  std::atomic<bool> stop{false};
  std::thread watcher([&] {
    while (!stop) {
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
      if (fs::exists(dir.model(40)) && games_of_grown_models(dir, *game, 24) > 0) stop = true;
    }
  });
  LoopOptions opt;
  opt.status_line = false;
  opt.max_minutes = 3;
  opt.stop = &stop;
  const LoopSummary s = run_training_loop(cfg, dir, opt);
  stop = true;
  watcher.join();
  EXPECT_GE(s.steps, 40);
  // The take-over at step 15 wrote a candidate at once, of the new shape; the one before is the
  // old shape.
  ASSERT_TRUE(fs::exists(dir.model(15)));
  EXPECT_EQ(Model::read_metadata(dir.model(10)).network().channels(), 16);
  EXPECT_EQ(Model::read_metadata(dir.model(15)).network().channels(), 24);
  ASSERT_TRUE(fs::exists(dir.model(40)));
  EXPECT_EQ(Model::read_metadata(dir.model(40)).network().blocks(), 2);
  const ModelMetadata best = Model::read_metadata(dir.best());
  EXPECT_EQ(best.network().channels(), 24);
  // Self-play played the grown network: games of models written after the take-over.
  EXPECT_GT(games_of_grown_models(dir, *game, 24), 0);
  // metrics.csv: one growth row, both shapes and both networks' losses, as wide as the header.
  std::ifstream in(dir.metrics());
  std::string line, header, growth_row;
  std::getline(in, header);
  while (std::getline(in, line)) {
    if (line.find(",growth,") != std::string::npos) {
      EXPECT_TRUE(growth_row.empty()) << "a second growth row: " << line;
      growth_row = line;
    }
    EXPECT_EQ(std::count(line.begin(), line.end(), ','),
              std::count(header.begin(), header.end(), ','))
        << line;
  }
  ASSERT_FALSE(growth_row.empty());
  EXPECT_NE(growth_row.find(",growth,15,"), std::string::npos) << growth_row;
  EXPECT_NE(growth_row.find(",1x16,2x24,"), std::string::npos) << growth_row;
  std::ifstream report(dir.report());
  const std::string html((std::istreambuf_iterator<char>(report)), {});
  EXPECT_NE(html.find("Network growth"), std::string::npos);
  EXPECT_NE(html.find("grown 1x16 &rarr; 2x24 at step 15"), std::string::npos);
}

}  // namespace
}  // namespace pincer::testing
