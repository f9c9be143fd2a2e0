// train/config: the shipped run configs load; bad ones are refused naming the field.
#include "train/config.h"

#include <gtest/gtest.h>

#include "tests/train/helpers.h"
#include "train/search_config.h"

namespace pincer::testing {
namespace {

std::string refusal(const std::string& text) {
  try {
    parse_run_config(text, "test.textproto");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(RunConfig, ShippedConfigsLoad) {
  for (const char* name : {"seize-tiny", "seize", "seize-grow", "seega", "dice", "dice-tiny",
                           "corners", "corners-tiny"}) {
    const RunConfig c = load_run_config(source_dir() + "/configs/runs/" + name + ".textproto");
    EXPECT_FALSE(c.rules().empty()) << name;
    EXPECT_GT(c.network().blocks(), 0) << name;
    EXPECT_GT(c.selfplay().search().simulations(), 0) << name;
    EXPECT_GT(c.trainer().batch_size(), 0) << name;
    EXPECT_GT(c.gating().games(), 0) << name;
  }
}

TEST(RunConfig, DefaultsAreFilledIn) {
  const RunConfig c = parse_run_config("rules: \"seize-reference\"", "x");
  EXPECT_EQ(c.device(), "cpu");
  EXPECT_EQ(c.network().blocks(), 4);
  EXPECT_EQ(c.inference().max_batch(), 64);
  EXPECT_EQ(c.selfplay().search().simulations(), 100);
  EXPECT_EQ(c.trainer().optimizer().kind(), "sgd");
  EXPECT_FLOAT_EQ(c.gating().threshold(), 0.55f);
  EXPECT_EQ(c.trainer().cut_game_result(), "draw");
  // Gating's search inherits self-play's.
  const RunConfig d = parse_run_config("rules: \"x\" selfplay { search { simulations: 77 } }", "x");
  EXPECT_EQ(d.gating().search().simulations(), 77);
}

TEST(RunConfig, GumbelNoisePliesReachSelfPlaysSearch) {
  const RunConfig c = parse_run_config(
      "rules: \"x\" selfplay { search { gumbel_actions: 16 } gumbel_noise_plies: 24 }", "x");
  const mcts::SearchConfig s = selfplay_search_config(c.selfplay(), 1);
  EXPECT_EQ(s.gumbel_actions, 16);
  EXPECT_EQ(s.gumbel_noise_moves, 24);
  EXPECT_TRUE(s.self_play);
  // Unset: noise on every ply.
  const RunConfig d = parse_run_config("rules: \"x\"", "x");
  EXPECT_EQ(selfplay_search_config(d.selfplay(), 1).gumbel_noise_moves, 0);
}

// The heuristic's share falls linearly with the playing model's step, in steps of 1/20, and stops
// at the floor.
TEST(RunConfig, TheHeuristicAnnealsToItsFloor) {
  RunConfig c =
      parse_run_config("rules: \"seize\" selfplay { heuristic_anneal_steps: 24000 }", "anneal");
  const SelfPlayConfig& sp = c.selfplay();
  EXPECT_EQ(sp.heuristic_floor(), 0.0f);
  EXPECT_DOUBLE_EQ(heuristic_share(sp, 0), 1.0);
  EXPECT_DOUBLE_EQ(heuristic_share(sp, 12000), 0.5);
  EXPECT_DOUBLE_EQ(heuristic_share(sp, 18810), 0.2);
  EXPECT_DOUBLE_EQ(heuristic_share(sp, 24000), 0.0);
  EXPECT_DOUBLE_EQ(heuristic_share(sp, 90000), 0.0);
  c.mutable_selfplay()->set_heuristic_floor(0.25f);
  EXPECT_DOUBLE_EQ(heuristic_share(c.selfplay(), 12000), 0.5);
  EXPECT_DOUBLE_EQ(heuristic_share(c.selfplay(), 20000), 0.25);
  EXPECT_DOUBLE_EQ(heuristic_share(c.selfplay(), 90000), 0.25);
  // Annealing off: the whole heuristic, whatever the floor.
  c.mutable_selfplay()->set_heuristic_anneal_steps(0);
  EXPECT_DOUBLE_EQ(heuristic_share(c.selfplay(), 90000), 1.0);
  const std::string e = refusal("rules: \"seize\" selfplay { heuristic_floor: 1.5 }");
  EXPECT_NE(e.find("selfplay.heuristic_floor"), std::string::npos) << e;
}

TEST(RunConfig, AnExplicitZeroIsKept) {
  // Once, 0 meant "the default": no noise, no first-play reduction, no weight decay and seed 0
  // could not be chosen.
  const RunConfig c = parse_run_config(
      "rules: \"x\" seed: 0 selfplay { dirichlet_epsilon: 0 temperature_moves: 0 "
      "search { fpu_reduction: 0 } } trainer { optimizer { weight_decay: 0 momentum: 0 } "
      "value_loss_weight: 0 } gating { random_opening_plies: 0 }",
      "x");
  EXPECT_EQ(c.seed(), 0u);
  EXPECT_EQ(c.selfplay().dirichlet_epsilon(), 0.0f);
  EXPECT_EQ(c.selfplay().temperature_moves(), 0);
  EXPECT_EQ(c.selfplay().search().fpu_reduction(), 0.0f);
  EXPECT_EQ(c.trainer().optimizer().weight_decay(), 0.0f);
  EXPECT_EQ(c.trainer().optimizer().momentum(), 0.0f);
  EXPECT_EQ(c.trainer().value_loss_weight(), 0.0f);
  EXPECT_EQ(c.gating().random_opening_plies(), 0);
  // The warm start's and the anchor's zeros too: no random moves, no random openings.
  const RunConfig w = parse_run_config(
      "rules: \"x\" warm_start { enabled: true random_move_probability: 0 opening_plies: 0 "
      "result_weight: 0 policy_smoothing: 0 } anchor { ladder: \"l\" random_opening_plies: 0 }",
      "x");
  EXPECT_EQ(w.warm_start().random_move_probability(), 0.0f);
  EXPECT_EQ(w.warm_start().opening_plies(), 0);
  EXPECT_EQ(w.warm_start().result_weight(), 0.0f);
  EXPECT_EQ(w.warm_start().policy_smoothing(), 0.0f);
  EXPECT_EQ(w.warm_start().games(), 300);  // unset: the default
  EXPECT_EQ(w.anchor().random_opening_plies(), 0);
  EXPECT_EQ(w.anchor().games(), 10);
  // Gating's search inherits an explicit 0 from self-play's too, and keeps its own.
  EXPECT_EQ(c.gating().search().fpu_reduction(), 0.0f);
  const RunConfig d = parse_run_config("rules: \"x\" gating { search { fpu_reduction: 0 } }", "x");
  EXPECT_FLOAT_EQ(d.selfplay().search().fpu_reduction(), 0.25f);
  EXPECT_EQ(d.gating().search().fpu_reduction(), 0.0f);
  // A 0 where 0 is meaningless is refused, not replaced.
  const std::string e = refusal("rules: \"x\" inference { max_batch: 0 }");
  EXPECT_NE(e.find("inference.max_batch"), std::string::npos) << e;
  // The saved text of a completed config keeps the zeros (a resumed run gets the same config).
  const RunConfig again = parse_run_config(run_config_text(c), "again");
  EXPECT_EQ(again.SerializeAsString(), c.SerializeAsString());
}

TEST(RunConfig, SearchDefaultsLiveInOnePlace) {
  // The `net` player and the run config complete a search the same way.
  SearchConfig s;
  s.set_simulations(10);
  const SearchConfig done = complete_search_config(s, "x");
  const RunConfig c = parse_run_config("rules: \"x\"", "x");
  EXPECT_EQ(done.leaves_per_batch(), c.selfplay().search().leaves_per_batch());
  EXPECT_EQ(done.c_puct(), c.selfplay().search().c_puct());
  EXPECT_EQ(done.fpu_reduction(), c.selfplay().search().fpu_reduction());
  EXPECT_EQ(done.max_nodes(), c.selfplay().search().max_nodes());
  EXPECT_EQ(done.simulations(), 10);
}

TEST(RunConfig, GrowthStagesKeepTheFieldsTheyLeaveOut) {
  const RunConfig c = parse_run_config(R"(
    rules: "seize-reference"
    network { blocks: 3 channels: 32 value_hidden: 48 policy_head: "conv" }
    growth { at_step: 1000 network { blocks: 5 channels: 64 } distill_steps: 300 }
    growth { at_step: 1300 network { value_hidden: 96 } distill_steps: 1 }
  )",
                                       "x");
  ASSERT_EQ(c.growth_size(), 2);
  EXPECT_EQ(c.growth(0).network().blocks(), 5);
  EXPECT_EQ(c.growth(0).network().channels(), 64);
  EXPECT_EQ(c.growth(0).network().value_hidden(), 48);
  EXPECT_EQ(c.growth(0).network().policy_head(), "conv");
  EXPECT_FALSE(c.growth(0).network().has_points_head());  // the run's heads
  EXPECT_EQ(c.growth(1).network().blocks(), 5);
  EXPECT_EQ(c.growth(1).network().value_hidden(), 96);
  // The shipped recipe grows to 5x64 at 2.5 core-hours.
  const RunConfig g = load_run_config(source_dir() + "/configs/runs/seize-grow.textproto");
  ASSERT_EQ(g.growth_size(), 1);
  EXPECT_DOUBLE_EQ(g.growth(0).at_core_hours(), 2.5);
  EXPECT_EQ(g.growth(0).network().blocks(), 5);
  EXPECT_EQ(g.growth(0).network().channels(), 64);
  EXPECT_EQ(g.growth(0).distill_steps(), 3000);
  // Saved and read back (the run dir's config.textproto), the stages are the same.
  const RunConfig back = parse_run_config(run_config_text(g), "back");
  EXPECT_EQ(back.SerializeAsString(), g.SerializeAsString());
}

TEST(RunConfig, BadGrowthStagesAreRefusedNamingTheStage) {
  const std::string head = "rules: \"seize\" network { blocks: 3 channels: 32 } ";
  const std::string good = "growth { at_step: 100 network { blocks: 5 } distill_steps: 50 } ";
  EXPECT_EQ(refusal(head + good), "");
  auto expect = [&](const std::string& text, const std::string& field, const std::string& why) {
    const std::string e = refusal(head + text);
    EXPECT_NE(e.find(field), std::string::npos) << text << " -> " << e;
    EXPECT_NE(e.find(why), std::string::npos) << text << " -> " << e;
    EXPECT_NE(e.find("test.textproto"), std::string::npos) << e;
  };
  expect("growth { network { blocks: 5 } distill_steps: 50 }", "growth[0]", "needs a trigger");
  expect("growth { at_step: 100 network { blocks: 5 } }", "growth[0].distill_steps", "required");
  expect("growth { at_step: 100 network { blocks: 5 } distill_steps: 0 }",
         "growth[0].distill_steps", "must be in");
  expect("growth { at_step: 0 network { blocks: 5 } distill_steps: 5 }", "growth[0].at_step",
         "must be in");
  expect("growth { at_core_hours: -1 network { blocks: 5 } distill_steps: 5 }",
         "growth[0].at_core_hours", "must be in");
  expect("growth { at_step: 100 distill_steps: 5 }", "growth[0].network", "required");
  expect("growth { at_step: 100 network { blocks: 3 channels: 32 } distill_steps: 5 }",
         "growth[0].network", "is the network before it");
  expect("growth { at_step: 100 network { channels: 2000 } distill_steps: 5 }",
         "growth[0].network.channels", "out of range");
  expect("growth { at_step: 100 network { blocks: 5 points_head: true } distill_steps: 5 }",
         "growth[0].network", "auxiliary heads");
  // The second stage: its step must come after the first one's take-over, its network differ.
  expect(good + "growth { at_step: 120 network { blocks: 6 } distill_steps: 5 }",
         "growth[1].at_step", "at least growth[0].at_step + distill_steps = 150");
  expect(good + "growth { at_step: 90 network { blocks: 6 } distill_steps: 5 }",
         "growth[1].at_step", "at least");
  expect(good + "growth { at_step: 200 network { blocks: 5 } distill_steps: 5 }",
         "growth[1].network", "is the network before it");
  expect(good + "growth { at_core_hours: 2 network { blocks: 6 } distill_steps: 5 }", "growth[1]",
         "the same trigger");
  expect(
      "growth { at_core_hours: 2 network { blocks: 5 } distill_steps: 5 } "
      "growth { at_core_hours: 2 network { blocks: 6 } distill_steps: 5 }",
      "growth[1].at_core_hours", "must be above growth[0].at_core_hours");
  expect("trainer { total_steps: 120 } " + good, "growth[0].at_step", "never take over");
}

TEST(RunConfig, BadConfigsAreRefusedNamingTheField) {
  std::string e = refusal("rules: \"seize\" trainer { batch_size: -4 }");
  EXPECT_NE(e.find("trainer.batch_size"), std::string::npos) << e;
  EXPECT_NE(e.find("test.textproto"), std::string::npos) << e;
  e = refusal("rules: \"seize\" trainer { optimizer { kind: \"rmsprop\" } }");
  EXPECT_NE(e.find("trainer.optimizer.kind"), std::string::npos) << e;
  e = refusal("rules: \"seize\" selfplay { dirichlet_epsilon: 2 }");
  EXPECT_NE(e.find("selfplay.dirichlet_epsilon"), std::string::npos) << e;
  e = refusal("rules: \"seize\" selfplay { search { quiescence_weight: 1.5 } }");
  EXPECT_NE(e.find("selfplay.search.quiescence_weight"), std::string::npos) << e;
  e = refusal("rules: \"seize\" selfplay { search { quiescence_depth: 40 } }");
  EXPECT_NE(e.find("selfplay.search.quiescence_depth"), std::string::npos) << e;
  e = refusal("rules: \"seize\" selfplay { search { minimax_weight: -1 } }");
  EXPECT_NE(e.find("selfplay.search.minimax_weight"), std::string::npos) << e;
  e = refusal("rules: \"seize\" selfplay { search { forced_playouts: -2 } }");
  EXPECT_NE(e.find("selfplay.search.forced_playouts"), std::string::npos) << e;
  e = refusal("rules: \"seize\" selfplay { search { capture_prior: 2 } }");
  EXPECT_NE(e.find("selfplay.search.capture_prior"), std::string::npos) << e;
  e = refusal("rules: \"seize\" gating { search { policy_temperature: 0 } }");
  EXPECT_NE(e.find("gating.search.policy_temperature"), std::string::npos) << e;
  e = refusal("rules: \"seize\" selfplay { search { fpu_reduction_root: 20 } }");
  EXPECT_NE(e.find("selfplay.search.fpu_reduction_root"), std::string::npos) << e;
  e = refusal("rules: \"seize\" selfplay { search { heuristic_prior: -0.5 } }");
  EXPECT_NE(e.find("selfplay.search.heuristic_prior"), std::string::npos) << e;
  e = refusal("rules: \"seize\" gating { search { heuristic_prior_scale: 0 } }");
  EXPECT_NE(e.find("gating.search.heuristic_prior_scale"), std::string::npos) << e;
  e = refusal("rules: \"seize\" selfplay { search { heuristic_prior_root_plies: 5 } }");
  EXPECT_NE(e.find("selfplay.search.heuristic_prior_root_plies"), std::string::npos) << e;
  e = refusal("rules: \"seize\" trainer { cut_game_result: \"win\" }");
  EXPECT_NE(e.find("trainer.cut_game_result"), std::string::npos) << e;
  e = refusal("rules: \"seize\" gating { promotion: \"maybe\" }");
  EXPECT_NE(e.find("gating.promotion"), std::string::npos) << e;
  e = refusal("rules: \"seize\" gating { promotion: \"sprt\" sprt_elo0: 0 sprt_elo1: 0 }");
  EXPECT_NE(e.find("gating.promotion"), std::string::npos) << e;
  e = refusal("rules: \"seize\" selfplay { root_value: \"best\" }");
  EXPECT_NE(e.find("selfplay.root_value"), std::string::npos) << e;
  e = refusal(
      "rules: \"seize\" selfplay { root_value: \"improved\" search { gumbel_actions: 0 } }");
  EXPECT_NE(e.find("selfplay.root_value"), std::string::npos) << e;
  e = refusal("rules: \"seize\" selfplay { heuristic_anneal_steps: -5 }");
  EXPECT_NE(e.find("selfplay.heuristic_anneal_steps"), std::string::npos) << e;
  e = refusal("rules: \"seize\" selfplay { search { gumbel_c_scale: 0 } }");
  EXPECT_NE(e.find("selfplay.search.gumbel_c_scale"), std::string::npos) << e;
  e = refusal("rules: \"seize\" selfplay { expert_games: 1.5 }");
  EXPECT_NE(e.find("selfplay.expert_games"), std::string::npos) << e;
  e = refusal("rules: \"seize\" selfplay { expert_depth: 0 }");
  EXPECT_NE(e.find("selfplay.expert_depth"), std::string::npos) << e;
  e = refusal("rules: \"seize\" selfplay { gumbel_noise_plies: -1 }");
  EXPECT_NE(e.find("selfplay.gumbel_noise_plies"), std::string::npos) << e;
  e = refusal("rules: \"seize\" selfplay { alphabeta_value_share: 1.5 }");
  EXPECT_NE(e.find("selfplay.alphabeta_value_share"), std::string::npos) << e;
  e = refusal("rules: \"seize\" selfplay { alphabeta_value_depth: 0 }");
  EXPECT_NE(e.find("selfplay.alphabeta_value_depth"), std::string::npos) << e;
  // Expert games label with the warm start's scales, so these are checked even when it is off.
  e = refusal("rules: \"seize\" selfplay { expert_games: 0.2 } warm_start { value_scale: 0 }");
  EXPECT_NE(e.find("warm_start.value_scale"), std::string::npos) << e;
  e = refusal(
      "rules: \"seize\" selfplay { alphabeta_value_share: 0.2 } warm_start { value_scale: 0 }");
  EXPECT_NE(e.find("warm_start.value_scale"), std::string::npos) << e;
  e = refusal("rules: \"seize\" trainer { precision: \"fp8\" }");
  EXPECT_NE(e.find("trainer.precision"), std::string::npos) << e;
  EXPECT_EQ(parse_run_config("rules: \"x\"", "x").trainer().precision(), "auto");
  e = refusal("rules: \"seize\" network { channels: -1 }");
  EXPECT_NE(e.find("network.channels"), std::string::npos) << e;
  e = refusal("rules: \"seize\" gating { threshold: 1.5 }");
  EXPECT_NE(e.find("gating.threshold"), std::string::npos) << e;
  e = refusal("rules: \"seize\" device: \"gpu\"");
  EXPECT_NE(e.find("device"), std::string::npos) << e;
  e = refusal("trainer { batch_size: 4 }");
  EXPECT_NE(e.find("rules"), std::string::npos) << e;
  e = refusal("rules: \"seize\" trainer { optimizer { schedule: \"step\" } }");
  EXPECT_NE(e.find("trainer.optimizer.boundaries"), std::string::npos) << e;
  // Unknown fields and syntax errors: the parser names the field, with line and column.
  e = refusal("rules: \"seize\"\ntrainer { batchsize: 4 }");
  EXPECT_NE(e.find("batchsize"), std::string::npos) << e;
  EXPECT_NE(e.find("line 2"), std::string::npos) << e;
  e = refusal("rules: \"seize\" selfplay { parallel_games: \"many\" }");
  EXPECT_NE(e.find("parallel_games"), std::string::npos) << e;
  EXPECT_THROW(load_run_config("/no/such/config.textproto"), ConfigError);
}

}  // namespace
}  // namespace pincer::testing
