// train/gate and the "net" player kind: a gate plays its games, records them, and promotes (or
// not) by the threshold; a trained model plays through a player spec.
#include "train/gate.h"

#include <gtest/gtest.h>

#include "nn/model.h"
#include "play/match.h"
#include "play/player.h"
#include "store/run_dir.h"
#include "tests/train/helpers.h"
#include "train/net_player.h"
#include "train/run_setup.h"

namespace pincer::testing {
namespace {

TEST(Gatekeeper, RecordsEveryGateAndPromotesByThreshold) {
  ScratchDir scratch("gate");
  RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  cfg.mutable_gating()->set_games(6);
  cfg.mutable_gating()->set_random_games(4);
  cfg.mutable_trainer()->set_checkpoint_every(100);
  const RunDir dir(scratch / "run");
  GamePtr game = prepare_run_dir(dir, cfg);
  // Two candidates: other weights, written as the trainer would.
  for (int step : {100, 200}) {
    auto m = Model::create(*game, cfg.network(), "cpu", 100 + step);
    m->metadata().set_training_step(step);
    m->metadata().set_model_id("tictactoe/step-" + std::to_string(step));
    m->save(dir.model(step));
  }
  // Only the newest candidate is due.
  EXPECT_EQ(Gatekeeper(game, cfg, dir).next_candidate(), dir.model(200));

  cfg.mutable_gating()->set_threshold(1.0f);  // cannot pass without winning every game
  Gatekeeper strict(game, cfg, dir);
  const GateResult r1 = strict.gate(dir.model(100));
  EXPECT_EQ(r1.games(), 6);
  EXPECT_EQ(r1.wins() + r1.draws() + r1.losses(), 6);
  EXPECT_EQ(r1.candidate(), "model-000100.pt");
  EXPECT_EQ(r1.vs_random_games(), 4);
  EXPECT_GE(r1.vs_random(), 0.0f);
  if (r1.wins() < 6) {
    EXPECT_FALSE(r1.promoted());
    EXPECT_NE(Model::read_metadata(dir.best()).model_id(), "tictactoe/step-100");
  }

  cfg.mutable_gating()->set_threshold(0.0f);  // anything passes
  Gatekeeper lax(game, cfg, dir);
  const GateResult r2 = lax.gate(dir.model(200));
  EXPECT_TRUE(r2.promoted());
  EXPECT_EQ(Model::read_metadata(dir.best()).model_id(), "tictactoe/step-200");
  EXPECT_NEAR(r2.best_elo(), r1.best_elo() + r2.elo(), 1e-3);

  const GateLog log = read_gate_log(dir);
  ASSERT_EQ(log.gates_size(), 2);
  EXPECT_EQ(log.gates(1).candidate_id(), "tictactoe/step-200");
  // Nothing newer than the best is left.
  EXPECT_EQ(lax.next_candidate(), "");
}

TEST(NetPlayer, PlaysThroughASpec) {
  ScratchDir scratch("netplayer");
  GamePtr game = make_tictactoe();
  auto m = Model::create(*game, NetworkConfig(), "cpu", 1);
  m->save(scratch / "m.pt");
  register_net_player_kind();
  auto p = make_player(game, "net:model=" + (scratch / "m.pt") + ",sims=16", 1);
  EXPECT_NE(p->spec().find("net:"), std::string::npos);
  // A full game against a random player ends with legal moves only.
  MatchOptions o;
  o.games = 4;
  o.threads = 2;
  o.opening_plies = 0;
  const MatchResult r =
      run_match(game, "net:model=" + (scratch / "m.pt") + ",sims=16", "random", o);
  EXPECT_EQ(r.wins + r.draws + r.losses, 4);
  EXPECT_THROW(make_player(game, "net:sims=4", 1), std::invalid_argument);
  EXPECT_THROW(make_player(game, "net:model=/no/such.pt", 1), std::invalid_argument);
  EXPECT_THROW(make_player(game, "net:model=" + (scratch / "m.pt") + ",bogus=1", 1),
               std::invalid_argument);
  EXPECT_THROW(make_player(game, "net:model=" + (scratch / "m.pt") + ",qweight=2", 1),
               std::invalid_argument);
  EXPECT_THROW(make_player(game, "net:model=" + (scratch / "m.pt") + ",mmweight=-1", 1),
               std::invalid_argument);
  // A Gumbel root at play: whole legal games; a negative number of actions is refused.
  const MatchResult g =
      run_match(game, "net:model=" + (scratch / "m.pt") + ",sims=16,gumbel=4", "random", o);
  EXPECT_EQ(g.wins + g.draws + g.losses, 4);
  EXPECT_THROW(make_player(game, "net:model=" + (scratch / "m.pt") + ",gumbel=-1", 1),
               std::invalid_argument);
  EXPECT_GT(r.seconds_per_move_a(), 0.0);
  EXPECT_GT(r.seconds_per_move_b(), 0.0);
}

}  // namespace
}  // namespace pincer::testing
