// nn/: the conv policy head (game policy planes), bfloat16 inference against float32, the points
// head (trained on a tiny game to a known points difference), old model files without the new
// fields, and records with final points.
#include <ATen/autocast_mode.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include "engine/registry.h"
#include "nn/inference.h"
#include "nn/model.h"
#include "nn/network.h"
#include "store/records.h"
#include "store/run_dir.h"
#include "tests/train/helpers.h"
#include "train/bench.h"
#include "train/run_setup.h"
#include "train/trainer.h"
#include "train/window.h"

namespace pincer::testing {
namespace {

NetworkConfig net(int blocks, int channels) {
  NetworkConfig n;
  n.set_blocks(blocks);
  n.set_channels(channels);
  return n;
}

struct Out {
  std::vector<float> logits, wdl, points;
};

Out infer(Model& m, const std::vector<float>& input) {
  const int n = static_cast<int>(input.size() / m.input_size());
  Out o;
  o.logits.resize(size_t(n) * m.num_actions());
  o.wdl.resize(size_t(n) * 3);
  o.points.assign(n, -999.0f);
  m.infer(input.data(), n, o.logits.data(), o.wdl.data(), o.points.data());
  return o;
}

// Batch norm statistics made non-trivial, so that folding is exercised.
void randomize_batch_norm(ResidualNetImpl& net) {
  torch::NoGradGuard no_grad;
  for (auto& module : net.modules(false)) {
    if (auto* bn = module->as<torch::nn::BatchNorm2dImpl>()) {
      bn->running_mean.uniform_(-0.5, 0.5);
      bn->running_var.uniform_(0.5, 1.5);
      bn->weight.uniform_(0.5, 1.5);
      bn->bias.uniform_(-0.5, 0.5);
    }
  }
}

TEST(PolicyPlanes, EveryPolicyIndexHasItsOwnCellInsideThePlanes) {
  for (const char* rules : {"seize-reference", "seega-7x7", "dice-7x7"}) {
    const GamePtr game = load_game(rules);
    const PolicyPlanes p = game->policy_planes();
    ASSERT_GT(p.planes, 0) << rules;
    ASSERT_EQ(static_cast<int>(p.map.size()), game->num_actions()) << rules;
    const InputShape s = game->input_shape();
    const std::set<int> distinct(p.map.begin(), p.map.end());
    EXPECT_EQ(distinct.size(), p.map.size()) << rules;
    EXPECT_GE(*distinct.begin(), 0) << rules;
    EXPECT_LT(*distinct.rbegin(), p.planes * s.height * s.width) << rules;
  }
}

TEST(ConvPolicyHead, ReadsTheGamesPolicyPlanesAndMatchesTheNetwork) {
  const GamePtr game = load_game("seize-reference");
  NetworkConfig conv_config = net(2, 16);
  conv_config.set_policy_head("conv");
  auto conv = Model::create(*game, conv_config, "cpu", 3);
  EXPECT_EQ(conv->metadata().network().policy_head(), "conv");
  EXPECT_EQ(conv->metadata().policy_planes(), 56);
  auto dense = Model::create(*game, net(2, 16), "cpu", 3);  // the default
  EXPECT_EQ(dense->metadata().network().policy_head(), "dense");
  EXPECT_EQ(dense->metadata().policy_planes(), 0);
  // 16 * 16 * 64 + 16 * 56 * 64 MACs instead of 16 * 4 * 64 + 4 * 64 * 3584.
  EXPECT_EQ(dense->flops_per_position() - conv->flops_per_position(),
            2 * ((16 * 4 * 64 + 4 * 64 * 3584) - (16 * 16 * 64 + 16 * 56 * 64)));
  EXPECT_LT(conv->parameter_count(), dense->parameter_count() / 5);

  auto& n = conv->impl().net;
  randomize_batch_norm(*n);
  const auto input = random_encoded_positions(*game, 5, 11);
  const Out o = infer(*conv, input);
  torch::NoGradGuard no_grad;
  n->eval();
  auto x = torch::from_blob(const_cast<float*>(input.data()), {5, 20, 8, 8}, torch::kFloat32);
  NetOutput ref = n->forward_all(x);
  ASSERT_EQ(ref.policy.numel(), static_cast<int64_t>(o.logits.size()));
  const float* rp = ref.policy.data_ptr<float>();
  for (size_t i = 0; i < o.logits.size(); ++i) ASSERT_NEAR(o.logits[i], rp[i], 1e-4) << i;
  // A policy index reads its plane and cell: logits of one action follow its plane's output.
  auto planes = n->policy_out(torch::relu(
      n->policy_bn(n->policy_conv(n->tower->forward(torch::relu(n->stem_bn(n->stem(x))))))));
  const int action = 17 * 64 + 42;  // plane 17, cell 42 (identity map)
  EXPECT_NEAR(o.logits[action], planes[0][17][42 / 8][42 % 8].item<float>(), 1e-4);
}

TEST(ConvPolicyHead, AGameWithoutPlanesRefusesAConvHead) {
  GamePtr game = make_tictactoe();
  auto m = Model::create(*game, net(1, 8), "cpu", 1);
  EXPECT_EQ(m->metadata().network().policy_head(), "dense");
  NetworkConfig c = net(1, 8);
  c.set_policy_head("conv");
  EXPECT_THROW(Model::create(*game, c, "cpu", 1), ModelError);
  c.set_policy_head("sparse");
  EXPECT_THROW(complete_network_config(c), ModelError);
}

TEST(ConvPolicyHead, RoundTripsAndADamagedMapIsRefused) {
  ScratchDir dir("convhead");
  const GamePtr game = load_game("seize-reference");
  NetworkConfig c = net(1, 8);
  c.set_policy_head("conv");
  auto m = Model::create(*game, c, "cpu", 4);
  const auto input = random_encoded_positions(*game, 3, 5);
  m->save(dir / "m.pt");
  auto loaded = Model::load(dir / "m.pt", *game);
  EXPECT_EQ(infer(*loaded, input).logits, infer(*m, input).logits);
  {
    torch::NoGradGuard no_grad;
    m->impl().net->policy_map[7] = 56 * 64;  // one past the last cell
  }
  m->save(dir / "bad.pt");
  EXPECT_THROW(Model::load(dir / "bad.pt", *game), ModelError);
}

TEST(OldModelFiles, WithoutHeadFieldsLoadAsADenseHeadWithoutPoints) {
  ScratchDir dir("oldmodel");
  const GamePtr game = load_game("seize-reference");
  NetworkConfig c = net(1, 8);
  c.set_policy_head("dense");
  auto m = Model::create(*game, c, "cpu", 4);
  // What a file written before the heads existed holds: neither field.
  m->metadata().mutable_network()->clear_policy_head();
  m->metadata().mutable_network()->clear_points_head();
  m->save(dir / "old.pt");
  auto loaded = Model::load(dir / "old.pt", *game);
  EXPECT_FALSE(loaded->metadata().network().has_policy_head());
  EXPECT_FALSE(loaded->has_points_head());
  EXPECT_FALSE(loaded->impl().net->conv_policy());
  const auto input = random_encoded_positions(*game, 3, 5);
  const Out o = infer(*loaded, input);
  EXPECT_EQ(o.logits, infer(*m, input).logits);
  EXPECT_EQ(o.points, std::vector<float>(3, -999.0f));  // no points head: left untouched
}

// bfloat16 inference stays within a stated tolerance of float32: win/draw/loss and the policy
// over the legal moves within 0.03 absolute, on a network with non-trivial batch norm.
TEST(Bfloat16, StaysWithinToleranceOfFloat32) {
  const GamePtr game = load_game("seize-reference");
  NetworkConfig c = net(3, 32);
  c.set_points_head(true);
  auto m = Model::create(*game, c, "cpu", 9);
  randomize_batch_norm(*m->impl().net);
  const int n = 48;
  const auto input = random_encoded_positions(*game, n, 21);
  m->set_precision(Precision::kFloat32);
  const Out f = infer(*m, input);
  m->set_precision(Precision::kBFloat16);
  EXPECT_EQ(m->precision(), Precision::kBFloat16);
  const Out b = infer(*m, input);
  double worst_policy = 0, worst_wdl = 0, worst_points = 0;
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k) {
      worst_wdl = std::max<double>(worst_wdl, std::fabs(f.wdl[i * 3 + k] - b.wdl[i * 3 + k]));
    }
    worst_points = std::max<double>(worst_points, std::fabs(f.points[i] - b.points[i]));
    // Softmax over every action (a superset of any position's legal moves).
    const float* lf = f.logits.data() + size_t(i) * m->num_actions();
    const float* lb = b.logits.data() + size_t(i) * m->num_actions();
    double sf = 0, sb = 0;
    const float mf = *std::max_element(lf, lf + m->num_actions());
    const float mb = *std::max_element(lb, lb + m->num_actions());
    for (int a = 0; a < m->num_actions(); ++a)
      sf += std::exp(lf[a] - mf), sb += std::exp(lb[a] - mb);
    for (int a = 0; a < m->num_actions(); ++a) {
      worst_policy =
          std::max(worst_policy, std::fabs(std::exp(lf[a] - mf) / sf - std::exp(lb[a] - mb) / sb));
    }
  }
  EXPECT_LT(worst_wdl, 0.03);
  EXPECT_LT(worst_policy, 0.03);
  EXPECT_LT(worst_points, 0.1);
  // And it is not float32 in disguise.
  EXPECT_NE(f.logits, b.logits);
  EXPECT_EQ(parse_precision("float32"), Precision::kFloat32);
  EXPECT_EQ(parse_precision("auto"), cpu_has_bf16() ? Precision::kBFloat16 : Precision::kFloat32);
  EXPECT_THROW(parse_precision("fp8"), ModelError);
}

// A bfloat16 training pass (CPU autocast) gives float32 outputs and float32 gradients close to
// float32's, and leaves autocast as it found it.
TEST(Bfloat16, TrainingPassesStayCloseToFloat32) {
  const GamePtr game = load_game("seize-reference");
  NetworkConfig c = net(2, 32);
  c.set_points_head(true);
  auto m = Model::create(*game, c, "cpu", 5);
  randomize_batch_norm(*m->impl().net);
  auto& nt = *m->impl().net;
  nt.train();
  const int n = 32;
  const auto input = random_encoded_positions(*game, n, 8);
  const auto x = torch::from_blob(const_cast<float*>(input.data()),
                                  {n, m->metadata().input_channels(), m->metadata().input_height(),
                                   m->metadata().input_width()})
                     .clone();
  auto pass = [&](Precision p) {
    nt.zero_grad();
    NetOutput out = nt.forward_for_training(x, p);
    EXPECT_EQ(out.policy.scalar_type(), torch::kFloat32);
    EXPECT_EQ(out.value.scalar_type(), torch::kFloat32);
    EXPECT_EQ(out.points.scalar_type(), torch::kFloat32);
    (torch::log_softmax(out.policy, 1).mean() + torch::log_softmax(out.value, 1).mean() +
     out.points.mean())
        .backward();
    return std::make_pair(out, nt.stem->weight.grad().clone());
  };
  const auto [f, fgrad] = pass(Precision::kFloat32);
  const auto [b, bgrad] = pass(Precision::kBFloat16);
  EXPECT_FALSE(at::autocast::is_cpu_enabled());
  EXPECT_EQ(bgrad.scalar_type(), torch::kFloat32);
  const double wdl_diff =
      (torch::softmax(f.value, 1) - torch::softmax(b.value, 1)).abs().max().item<double>();
  const double policy_diff =
      (torch::softmax(f.policy, 1) - torch::softmax(b.policy, 1)).abs().max().item<double>();
  EXPECT_LT(wdl_diff, 0.05);
  EXPECT_LT(policy_diff, 0.05);
  EXPECT_GT(wdl_diff + policy_diff, 0.0);  // really bfloat16
  const double cosine =
      (fgrad * bgrad).sum().item<double>() / (fgrad.norm() * bgrad.norm()).item<double>();
  EXPECT_GT(cosine, 0.98);
}

GameRecord tictactoe_record(const Game& game, const std::vector<Action>& moves, int winner,
                            std::array<int, 2> points, bool with_points) {
  GameRecord r;
  r.set_game(game.game_name());
  r.set_ruleset_name(game.ruleset_name());
  r.set_fingerprint(game.fingerprint());
  r.set_model_id("test/points");
  auto state = game.initial_state();
  std::vector<Action> legal;
  for (Action a : moves) {
    state->legal_actions(legal);
    MoveRecord* m = r.add_moves();
    m->set_action(a);
    m->set_full_search(true);
    m->add_policy_actions(a);
    m->add_policy(1.0f);
    state->apply(a);
  }
  r.set_winner(winner);
  r.set_reason("line");
  if (with_points) {
    r.add_final_points(points[0]);
    r.add_final_points(points[1]);
  }
  return r;
}

TEST(FinalPoints, RecordsRoundTripAndOldRecordsReplayToThem) {
  ScratchDir dir("points");
  GamePtr ttt = make_tictactoe();
  const GameRecord rec = tictactoe_record(*ttt, {0, 3, 1, 4, 2}, 0, {7, 2}, true);
  const std::string path = write_record_chunk(dir.path(), *ttt, {rec}, "t");
  const RecordChunk chunk = read_record_chunk(path, *ttt);
  ASSERT_EQ(chunk.games(0).final_points_size(), 2);
  EXPECT_EQ(chunk.games(0).final_points(0), 7);
  EXPECT_EQ(chunk.games(0).final_points(1), 2);
  Window w(100);
  ASSERT_EQ(w.add_game(*ttt, chunk.games(0)), 5);
  EXPECT_EQ(w[0].points, 5.0f);   // x to move: 7 - 2
  EXPECT_EQ(w[1].points, -5.0f);  // o to move
  GameRecord bad = rec;
  bad.add_final_points(1);
  EXPECT_THROW(w.add_game(*ttt, bad), RecordError);
  EXPECT_EQ(w.size(), 5u);

  // A record without final points (written before them): the replayed end position's points.
  const GamePtr game = load_game("seize-reference");
  std::mt19937_64 rng(3);
  for (int attempt = 0; attempt < 200; ++attempt) {
    auto state = game->initial_state();
    GameRecord r;
    r.set_game(game->game_name());
    r.set_fingerprint(game->fingerprint());
    std::vector<Action> legal;
    while (!state->outcome().over && r.moves_size() < 60) {
      state->legal_actions(legal);
      const Action a = legal[rng() % legal.size()];
      r.add_moves()->set_action(a);
      state->apply(a);
    }
    const auto pts = state->points();
    if (pts[0] == pts[1]) continue;
    Window sw(1000);
    const int n = sw.add_game(*game, r);
    ASSERT_EQ(n, r.moves_size());
    const int us = sw[0].state->to_move();
    EXPECT_EQ(sw[0].points, float(pts[us] - pts[us ^ 1]));
    EXPECT_EQ(sw[1].points, -sw[0].points);
    return;
  }
  FAIL() << "no random game ended with unequal points";
}

// The points head learns a known points difference: tic-tac-toe games that open in the centre
// end 5-0 for x, games that open in a corner 0-2; the net, trained by the trainer, predicts
// them for the positions of each game.
TEST(PointsHead, TrainsToAKnownPointsDifference) {
  ScratchDir scratch("pointshead");
  RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  cfg.mutable_network()->set_points_head(true);
  cfg.mutable_trainer()->set_min_positions(8);
  cfg.mutable_trainer()->set_batch_size(32);
  cfg.mutable_trainer()->set_points_loss_weight(1.0f);
  cfg.mutable_trainer()->mutable_optimizer()->set_learning_rate(0.01f);
  const RunDir dir(scratch / "run");
  GamePtr game = prepare_run_dir(dir, cfg);
  auto fresh = Model::load(dir.model(0), *game);
  ASSERT_TRUE(fresh->has_points_head());
  // x: centre, then b1... ; x: corner a1, then ...
  const GameRecord centre = tictactoe_record(*game, {4, 0, 1, 2, 7}, 0, {5, 0}, true);
  const GameRecord corner = tictactoe_record(*game, {0, 4, 1, 2, 6, 3, 5, 7, 8}, -1, {0, 2}, true);
  write_record_chunk(dir.records(), *game, {centre, corner}, "t");
  Trainer t(game, cfg, dir);
  ASSERT_EQ(t.ingest_new_records(), 2);
  const double first_loss = t.train_step().points_loss;
  TrainStepResult r;
  for (int i = 0; i < 300; ++i) r = t.train_step();
  // The start position is in both games (targets +5 and -2): what remains is mostly its share.
  EXPECT_LT(r.points_loss, first_loss / 4);
  auto m = Model::load(t.write_model(), *game);
  ASSERT_TRUE(m->has_points_head());
  auto check = [&](const GameRecord& rec, int diff_for_x) {
    replay_record(*game, rec, [&](const State& s, int i) {
      if (i == 0) return;  // the start is in both games
      std::vector<float> input(m->input_size());
      s.encode(input.data());
      const Out o = infer(*m, input);
      const float want = s.to_move() == 0 ? diff_for_x : -diff_for_x;
      EXPECT_NEAR(o.points[0], want, 0.75) << "move " << i << " of " << s.to_text();
    });
  };
  check(centre, 5);
  check(corner, -2);

  // The inference service hands the prediction out with each evaluation.
  std::shared_ptr<Model> shared = std::move(m);
  InferenceService service(shared, InferenceOptions{});
  auto s = game->parse_state(".../.x./... o");
  std::vector<Action> legal;
  s->legal_actions(legal);
  std::vector<Evaluation> out;
  service.evaluate({{s.get(), &legal}}, out);
  ASSERT_TRUE(out[0].points.has_value());
  EXPECT_NEAR(*out[0].points, -5.0f, 0.75);
}

}  // namespace
}  // namespace pincer::testing
