// train/loop: every way out of the loop stops and joins self-play; a config that does not fit
// the run is refused before it replaces the run's config; self-play's failure ends the run.
#include "train/loop.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <thread>

#include "engine/atomic_file.h"
#include "nn/model.h"
#include "tests/train/helpers.h"
#include "train/run_setup.h"

namespace pincer::testing {
namespace {

namespace fs = std::filesystem;

LoopOptions quiet_options(double minutes) {
  LoopOptions o;
  o.status_line = false;
  o.max_minutes = minutes;
  return o;
}

TEST(Loop, AGateThatThrowsStopsAndJoinsSelfPlay) {
  // Once, an exception on the main thread destroyed the joinable self-play thread:
  // std::terminate. Now the candidate's error comes out of the loop, self-play joined.
  ScratchDir scratch("loop-gate");
  const RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  const RunDir dir(scratch / "run");
  prepare_run_dir(dir, cfg);
  std::ofstream(dir.model(cfg.trainer().checkpoint_every())) << "not a model";
  try {
    run_training_loop(cfg, dir, quiet_options(0.5));
    FAIL() << "gated a damaged candidate";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("model-000100.pt"), std::string::npos) << e.what();
  }
}

TEST(Loop, AConfigThatDoesNotFitLeavesTheRunConfigAlone) {
  ScratchDir scratch("loop-config");
  const RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  const RunDir dir(scratch / "run");
  prepare_run_dir(dir, cfg);
  save_run_config(dir, cfg);
  const std::string before = read_whole_file(dir.config());
  RunConfig other = cfg;
  other.set_rules("seize-v0");  // the run's models are tic-tac-toe models
  EXPECT_THROW(run_training_loop(other, dir, quiet_options(0.1)), ModelError);
  EXPECT_EQ(read_whole_file(dir.config()), before);
}

TEST(Loop, SelfPlayFailureEndsTheRun) {
  ScratchDir scratch("loop-selfplay");
  RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  cfg.mutable_selfplay()->set_games_per_chunk(4);
  const RunDir dir(scratch / "run");
  // Bounded at 2 minutes: a loop that plays on after self-play died returns normally then.
  auto run = std::async(std::launch::async,
                        [&] { return run_training_loop(cfg, dir, quiet_options(2.0)); });
  // The config is saved once the loop is built; then self-play's records folder goes away (a
  // file in its place), so its next chunk cannot be written.
  while (!fs::exists(dir.config())) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  fs::remove_all(dir.records());
  std::ofstream(dir.records()) << "in the way";
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_THROW(run.get(), std::exception);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(60));
}

}  // namespace
}  // namespace pincer::testing
