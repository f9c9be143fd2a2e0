// nn/: the conv policy head (game policy planes), bfloat16 inference against float32, the points
// head (trained on a tiny game to a known points difference), the ownership head (its file round
// trip, inference that never runs it, its pretraining), old model files without the new fields,
// and records with final points.
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
#include "train/warm_start.h"
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

// The ownership head: a 1x1 convolution from the tower to one tanh plane. It round-trips
// through a model file; a file without the field (older builds) has none; inference never runs
// it (the same weights without it give the same outputs); a game without ownership refuses it.
TEST(OwnershipHead, RoundTripsAndInferenceSkipsIt) {
  ScratchDir dir("ownershiphead");
  const GamePtr game = load_game("seize-reference");
  NetworkConfig c = net(1, 8);
  c.set_points_head(true);
  c.set_ownership_head(true);
  auto m = Model::create(*game, c, "cpu", 6);
  ASSERT_TRUE(m->has_ownership_head());
  auto& conv = m->impl().net->ownership_conv;
  ASSERT_FALSE(conv.is_empty());
  EXPECT_EQ(conv->weight.sizes(), (std::vector<int64_t>{1, 8, 1, 1}));
  randomize_batch_norm(*m->impl().net);
  m->save(dir / "m.pt");
  auto loaded = Model::load(dir / "m.pt", *game);
  ASSERT_TRUE(loaded->has_ownership_head());
  EXPECT_TRUE(torch::equal(loaded->impl().net->ownership_conv->weight, conv->weight));
  EXPECT_TRUE(torch::equal(loaded->impl().net->ownership_conv->bias, conv->bias));
  EXPECT_EQ(loaded->parameter_count(), m->parameter_count());

  // The training pass gives [N, H, W] in [-1, 1].
  const auto input = random_encoded_positions(*game, 4, 3);
  auto& nt = *loaded->impl().net;
  const auto x = torch::from_blob(const_cast<float*>(input.data()), {4, 20, 8, 8}).clone();
  const NetOutput out = nt.forward_all(x);
  ASSERT_TRUE(out.ownership.defined());
  EXPECT_EQ(out.ownership.sizes(), (std::vector<int64_t>{4, 8, 8}));
  EXPECT_LE(out.ownership.abs().max().item<float>(), 1.0f);

  // The same weights in a network without the head: parameters differ by the head's 8 + 1,
  // inference outputs not at all.
  NetworkConfig without = c;
  without.set_ownership_head(false);
  auto plain = Model::create(*game, without, "cpu", 6);
  {
    torch::NoGradGuard no_grad;
    auto src = m->impl().net->named_parameters(true);
    for (auto& item : plain->impl().net->named_parameters(true))
      item.value().copy_(src[item.key()]);
    auto srcb = m->impl().net->named_buffers(true);
    for (auto& item : plain->impl().net->named_buffers(true)) item.value().copy_(srcb[item.key()]);
  }
  EXPECT_EQ(plain->parameter_count() + 9, m->parameter_count());
  EXPECT_EQ(plain->flops_per_position(), m->flops_per_position());
  const Out a = infer(*m, input), b = infer(*plain, input);
  EXPECT_EQ(a.logits, b.logits);
  EXPECT_EQ(a.wdl, b.wdl);
  EXPECT_EQ(a.points, b.points);

  // A file from before the field: no head, and the same outputs.
  plain->metadata().mutable_network()->clear_ownership_head();
  plain->save(dir / "old.pt");
  auto old = Model::load(dir / "old.pt", *game);
  EXPECT_FALSE(old->has_ownership_head());
  EXPECT_TRUE(old->impl().net->ownership_conv.is_empty());
  EXPECT_EQ(infer(*old, input).logits, a.logits);
  // A file whose metadata claims the head but has no weights for it is refused.
  NetworkConfig claims = without;
  claims.set_ownership_head(true);
  *plain->metadata().mutable_network() = claims;
  plain->save(dir / "claims.pt");
  EXPECT_THROW(Model::load(dir / "claims.pt", *game), ModelError);

  // Corners provides no ownership: asking for the head is a clear error.
  NetworkConfig corners_net = net(1, 8);
  corners_net.set_ownership_head(true);
  try {
    Model::create(*load_game("corners"), corners_net, "cpu", 1);
    FAIL() << "corners accepted an ownership head";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("ownership"), std::string::npos) << e.what();
  }
}

// The warm start's pretraining teaches the ownership head when given its weight: the head's
// squared error on the labelled positions falls.
TEST(OwnershipHead, PretrainingLearnsIt) {
  register_tictactoe();
  const GamePtr game = make_tictactoe();
  WarmStartConfig w;
  w.set_enabled(true);
  w.set_games(40);
  w.set_search_depth(2);
  w.set_threads(1);
  w.set_steps(150);
  w.set_batch_size(32);
  w.set_learning_rate(0.01f);
  w = complete_warm_start_config(w, 32);
  WarmStartData data = generate_warm_start_data(*game, w, 3);
  set_warm_start_aux_targets(*game, data, 2);
  NetworkConfig c = net(1, 16);
  c.set_ownership_head(true);
  auto m = Model::create(*game, c, "cpu", 2);
  auto error = [&] {
    auto& nt = *m->impl().net;
    nt.eval();
    torch::NoGradGuard no_grad;
    const int n = static_cast<int>(data.samples.size());
    auto x = torch::zeros({n, 27});
    auto target = torch::zeros({n, 9});
    for (int i = 0; i < n; ++i) {
      data.samples[i].state->encode(x.data_ptr<float>() + i * 27);
      for (int k = 0; k < 9; ++k) target[i][k] = float(data.samples[i].ownership[k]);
    }
    const NetOutput out = nt.forward_all(x.view({n, 3, 3, 3}));
    return (out.ownership.flatten(1) - target).pow(2).mean().item<double>();
  };
  const double before = error();
  AuxLossWeights aux;
  aux.ownership = 1.0;
  pretrain_model(*m, *game, data, w, 3, Precision::kFloat32, nullptr, {}, aux);
  const double after = error();
  std::printf("pretraining ownership error: %.4f -> %.4f\n", before, after);
  EXPECT_LT(after, before / 2);
}

// The trainer learns the ownership target (2 plies ahead) of two fixed tic-tac-toe games, with
// the game's eight symmetries as augmentation. Then the net's ownership of each position turned
// by a symmetry is the target turned alike: were targets not moved with their inputs, it would
// have learnt the unturned target for the turned input.
TEST(OwnershipHead, TheTrainerLearnsItUnderSymmetries) {
  ScratchDir scratch("ownership-learn");
  RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  cfg.mutable_network()->set_blocks(1);
  cfg.mutable_network()->set_channels(16);
  cfg.mutable_trainer()->set_min_positions(8);
  cfg.mutable_trainer()->set_batch_size(32);
  cfg.mutable_trainer()->set_ownership_plies(2);
  cfg.mutable_trainer()->set_ownership_loss_weight(1.0f);
  cfg.mutable_trainer()->mutable_optimizer()->set_learning_rate(0.01f);
  const RunDir dir(scratch / "run");
  GamePtr game = prepare_run_dir(dir, cfg);
  ASSERT_TRUE(Model::read_metadata(dir.best()).network().ownership_head())
      << "tic-tac-toe provides ownership: on by default";
  // x a1, o b2, x c1, o b1, x a3, o c3, x a2 (x wins); x b2, o a1, x b1, o c1, x b3 (x wins).
  const GameRecord first_game = tictactoe_record(*game, {0, 4, 2, 1, 6, 8, 3}, 0, {0, 0}, false);
  const GameRecord second_game = tictactoe_record(*game, {4, 0, 1, 2, 7}, 0, {0, 0}, false);
  write_record_chunk(dir.records(), *game, {first_game, second_game}, "t");
  Trainer t(game, cfg, dir);
  ASSERT_EQ(t.ingest_new_records(), 2);
  const double first = t.train_step().ownership_loss;
  EXPECT_GT(first, 0.1);
  double last = 0;
  for (int i = 0; i < 300; ++i) last = t.train_step().ownership_loss;
  std::printf("ownership loss: %.4f -> %.4f\n", first, last);
  // The start is in both games with other targets: what remains is mostly its share.
  EXPECT_LT(last, first / 4);

  const std::string path = t.write_model();
  t.save_checkpoint();
  auto m = Model::load(path, *game);
  ASSERT_TRUE(m->has_ownership_head());
  {
    auto& nt = *m->impl().net;
    nt.eval();
    torch::NoGradGuard no_grad;
    Window targets(100, 0, 2);
    targets.add_game(*game, first_game);
    targets.add_game(*game, second_game);
    // Squared error per cell against the turned target and against the unturned one, where the
    // symmetry moves the target.
    double turned = 0, unturned = 0;
    int n = 0;
    for (size_t i = 0; i < targets.size(); ++i) {
      if (targets[i].state->equals(*game->initial_state())) continue;  // in both games
      for (int sym = 1; sym < game->num_symmetries(); ++sym) {
        std::vector<float> planes(27);
        targets[i].state->encode(planes.data());
        const std::vector<float> target(targets[i].ownership.begin(), targets[i].ownership.end());
        std::vector<float> want = target;
        game->apply_symmetry(sym, planes.data(), nullptr);
        game->apply_symmetry_plane(sym, want.data());
        if (want == target) continue;
        const auto x = torch::from_blob(planes.data(), {1, 3, 3, 3}).clone();
        const auto got = nt.forward_all(x).ownership.flatten();
        for (int c = 0; c < 9; ++c) {
          turned += std::pow(got[c].item<float>() - want[c], 2);
          unturned += std::pow(got[c].item<float>() - target[c], 2);
          ++n;
        }
      }
    }
    ASSERT_GT(n, 100);
    std::printf(
        "ownership error on turned positions: %.4f against the turned target, %.4f "
        "against the unturned one\n",
        turned / n, unturned / n);
    EXPECT_LT(turned, unturned / 3);
  }

  // The resumed trainer goes on from the checkpoint, head and all.
  Trainer again(game, cfg, dir);
  EXPECT_LT(again.train_step().ownership_loss, first / 4);
}

}  // namespace
}  // namespace pincer::testing
