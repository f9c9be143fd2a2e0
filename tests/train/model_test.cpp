// nn/: model files (round trip, metadata, refusal under other rules or encodings, damaged
// files) and atomic writes (the threaded tests of nn/ are in inference_test.cpp).
#include "nn/model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "engine/atomic_file.h"
#include "engine/registry.h"
#include "nn/network.h"
#include "tests/train/helpers.h"
#include "tests/train/small_net.h"

namespace pincer::testing {
namespace {

namespace fs = std::filesystem;

TEST(Model, SaveLoadRoundTripKeepsWeightsAndMetadata) {
  ScratchDir dir("model");
  GamePtr game = make_tictactoe();
  auto model = Model::create(*game, small_net(), "cpu", 5);
  model->metadata().set_training_step(1234);
  model->metadata().set_parent_model("parent/xyz");
  const std::string path = dir / "m.pt";
  model->save(path);
  EXPECT_TRUE(fs::exists(Model::metadata_path(path)));

  auto loaded = Model::load(path, *game);
  const auto& meta = loaded->metadata();
  EXPECT_EQ(meta.game(), "tictactoe");
  EXPECT_EQ(meta.ruleset_name(), "tictactoe");
  EXPECT_EQ(meta.fingerprint(), game->fingerprint());
  EXPECT_EQ(meta.encoding_version(), game->encoding_version());
  EXPECT_EQ(meta.network().blocks(), 1);
  EXPECT_EQ(meta.network().channels(), 8);
  EXPECT_EQ(meta.training_step(), 1234);
  EXPECT_EQ(meta.parent_model(), "parent/xyz");
  EXPECT_EQ(meta.model_id(), model->metadata().model_id());
  EXPECT_FALSE(meta.created().empty());
  EXPECT_GT(meta.created_unix_ms(), 0);
  EXPECT_EQ(Model::read_metadata(path).model_id(), meta.model_id());

  const std::vector<std::string> pos = {".../.../... x", "x.o/.x./... o", "xxo/oox/x.. o"};
  std::vector<float> w1, w2;
  const auto a = run(*model, *game, pos, &w1);
  const auto b = run(*loaded, *game, pos, &w2);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i], b[i]) << i;
  for (size_t i = 0; i < w1.size(); ++i) EXPECT_EQ(w1[i], w2[i]) << i;
  // Probabilities.
  EXPECT_NEAR(w1[0] + w1[1] + w1[2], 1.0, 1e-5);

  // A clone is equal too, and independent.
  auto copy = model->clone();
  const auto c = run(*copy, *game, pos);
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i], c[i]) << i;
}

// The forward pass's operations, counted by hand for SE!ZE (20 planes of 8x8, 3584 actions) with
// 1 block of 8 channels and the default heads (policy 4 channels, value 2 channels, 64 hidden):
// multiply-adds of the stem 9*20*8*64, the block 2*9*8*8*64, the policy head 8*4*64 + 4*64*3584,
// the value head 8*2*64 + 2*64*64 + 64*3; two operations each.
TEST(Model, FlopsPerPositionCountsTheLayers) {
  auto model = Model::create(*load_game("seize-reference"), small_net(), "cpu", 1);
  const int64_t macs = 9 * 20 * 8 * 64 + 2 * 9 * 8 * 8 * 64 + 8 * 4 * 64 + 4 * 64 * 3584 +
                       8 * 2 * 64 + 2 * 64 * 64 + 64 * 3;
  EXPECT_EQ(model->flops_per_position(), 2 * macs);
}

// Inference folds batch norm into the convolutions: the same outputs as the module's own forward
// pass (batch norm statistics made non-trivial), and refolded after the weights change.
TEST(Model, FoldedBatchNormInferenceMatchesTheNetwork) {
  const GamePtr game = load_game("seize-reference");
  NetworkConfig net_config = small_net();
  net_config.set_blocks(2);
  auto model = Model::create(*game, net_config, "cpu", 3);
  auto& net = model->impl().net;
  auto randomize = [&](double scale) {
    torch::NoGradGuard no_grad;
    for (auto& module : net->modules(false)) {
      if (auto* bn = module->as<torch::nn::BatchNorm2dImpl>()) {
        bn->running_mean.uniform_(-scale, scale);
        bn->running_var.uniform_(0.5, 0.5 + scale);
        bn->weight.uniform_(0.5, 1.5);
        bn->bias.uniform_(-scale, scale);
      }
    }
  };
  const std::vector<std::string> positions = {game->initial_state()->to_text()};
  auto reference = [&](std::vector<float>& logits, std::vector<float>& wdl) {
    torch::NoGradGuard no_grad;
    net->eval();
    std::vector<float> input(model->input_size());
    game->parse_state(positions[0])->encode(input.data());
    auto x = torch::from_blob(input.data(), {1, 20, 8, 8}, torch::kFloat32);
    auto [p, v] = net->forward(x);
    v = torch::softmax(v, 1);
    logits.assign(p.data_ptr<float>(), p.data_ptr<float>() + p.numel());
    wdl.assign(v.data_ptr<float>(), v.data_ptr<float>() + v.numel());
  };
  for (double scale : {0.5, 1.0}) {  // the second round changes the weights after a first fold
    randomize(scale);
    std::vector<float> wdl, ref_logits, ref_wdl;
    const std::vector<float> logits = run(*model, *game, positions, &wdl);
    reference(ref_logits, ref_wdl);
    ASSERT_EQ(logits.size(), ref_logits.size());
    for (size_t i = 0; i < logits.size(); ++i) ASSERT_NEAR(logits[i], ref_logits[i], 1e-4) << i;
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(wdl[i], ref_wdl[i], 1e-5);
  }
}

TEST(Model, RefusesAnotherRulesetFingerprintNamingBoth) {
  ScratchDir dir("model-fp");
  GamePtr reference = load_game("seize-reference");
  GamePtr v0 = load_game("seize-v0");
  ASSERT_NE(reference->fingerprint(), v0->fingerprint());
  auto model = Model::create(*reference, small_net(), "cpu", 1);
  model->save(dir / "ref.pt");
  try {
    Model::load(dir / "ref.pt", *v0);
    FAIL() << "loaded a seize-reference model under seize-v0";
  } catch (const ModelError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(reference->fingerprint()), std::string::npos) << msg;
    EXPECT_NE(msg.find(v0->fingerprint()), std::string::npos) << msg;
  }
  EXPECT_NO_THROW(Model::load(dir / "ref.pt", *reference));
}

TEST(Model, RefusesAnotherEncodingVersionAndAnotherGame) {
  ScratchDir dir("model-enc");
  GamePtr game = make_tictactoe();
  auto model = Model::create(*game, small_net(), "cpu", 1);
  model->metadata().set_encoding_version(game->encoding_version() + 41);
  model->save(dir / "enc.pt");
  try {
    Model::load(dir / "enc.pt", *game);
    FAIL() << "loaded a model of another encoding version";
  } catch (const ModelError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("encoding"), std::string::npos) << msg;
    EXPECT_NE(msg.find(std::to_string(game->encoding_version() + 41)), std::string::npos) << msg;
  }
  auto ttt = Model::create(*game, small_net(), "cpu", 1);
  ttt->save(dir / "ttt.pt");
  EXPECT_THROW(Model::load(dir / "ttt.pt", *load_game("seize-reference")), ModelError);
}

TEST(Model, DamagedOrMissingFilesAreRefused) {
  ScratchDir dir("model-bad");
  GamePtr game = make_tictactoe();
  EXPECT_THROW(Model::load(dir / "missing.pt", *game), ModelError);
  auto model = Model::create(*game, small_net(), "cpu", 1);
  model->save(dir / "m.pt");
  const std::string bytes = read_whole_file(dir / "m.pt");
  // What a half-written file would look like, if writes were not atomic.
  std::ofstream(dir / "half.pt", std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  EXPECT_THROW(Model::load(dir / "half.pt", *game), ModelError);
  std::ofstream(dir / "text.pt") << "not a model";
  EXPECT_THROW(Model::load(dir / "text.pt", *game), ModelError);
}

TEST(Model, BadArchitectureAndDeviceAreRefused) {
  GamePtr game = make_tictactoe();
  NetworkConfig bad;
  bad.set_blocks(-2);
  try {
    Model::create(*game, bad, "cpu", 1);
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("network.blocks"), std::string::npos) << e.what();
  }
  EXPECT_THROW(Model::create(*game, small_net(), "tpu", 1), ModelError);
}

// Checkpoint averaging: every weight and batch-norm statistic is the mean of the models', the
// metadata the last one's under a new id; models of another shape are refused.
TEST(Model, AverageIsTheMeanOfEveryWeightAndStatistic) {
  GamePtr game = make_tictactoe();
  auto a = Model::create(*game, small_net(), "cpu", 5);
  auto b = Model::create(*game, small_net(), "cpu", 6);
  auto c = Model::create(*game, small_net(), "cpu", 7);
  c->metadata().set_training_step(3000);
  {
    torch::NoGradGuard no_grad;
    // Statistics as training leaves them, and batch-norm scales moved off their initial 1 and
    // 0 (alike in every fresh network), different in each model.
    float k = 1;
    for (Model* m : {a.get(), b.get(), c.get()}) {
      for (auto& item : m->impl().net->named_buffers(true)) {
        if (item.value().is_floating_point()) item.value().fill_(k);
      }
      for (auto& p : m->impl().net->parameters()) p.add_(0.1f * k);
      k *= 2;  // 1, 2, 4
    }
  }
  const auto mean = Model::average({a.get(), b.get(), c.get()});
  EXPECT_EQ(mean->metadata().model_id(), c->metadata().model_id() + "+avg3");
  EXPECT_EQ(mean->metadata().parent_model(), c->metadata().model_id());
  EXPECT_EQ(mean->metadata().training_step(), 3000);
  auto pa = a->impl().net->named_parameters(true), pb = b->impl().net->named_parameters(true),
       pc = c->impl().net->named_parameters(true);
  int checked = 0;
  for (auto& item : mean->impl().net->named_parameters(true)) {
    const torch::Tensor expect = (pa[item.key()] + pb[item.key()] + pc[item.key()]) / 3;
    EXPECT_TRUE(torch::allclose(item.value(), expect, 1e-6, 1e-6)) << item.key();
    EXPECT_FALSE(torch::allclose(item.value(), pc[item.key()])) << item.key();
    ++checked;
  }
  EXPECT_GT(checked, 4);
  int buffers = 0;
  for (auto& item : mean->impl().net->named_buffers(true)) {
    if (!item.value().is_floating_point()) continue;
    EXPECT_TRUE(torch::allclose(item.value(), torch::full_like(item.value(), 7.0f / 3)))
        << item.key();
    ++buffers;
  }
  EXPECT_GT(buffers, 0);
  // It runs, and the mean of one model is that model.
  const std::vector<std::string> pos = {".../.../... x", "x.o/.x./... o"};
  EXPECT_EQ(run(*Model::average({a.get()}), *game, pos), run(*a, *game, pos));
  NetworkConfig wider = small_net();
  wider.set_channels(16);
  auto other = Model::create(*game, wider, "cpu", 8);
  EXPECT_THROW(Model::average({a.get(), other.get()}), ModelError);
  EXPECT_THROW(Model::average({}), ModelError);
}

TEST(AtomicFile, ReplacesWholeFilesAndLeavesNoTemporaries) {
  ScratchDir dir("atomic");
  const std::string path = dir / "f.bin";
  atomic_write_file(path, "first");
  EXPECT_EQ(read_whole_file(path), "first");
  const std::string big(1 << 20, 'x');
  atomic_write_file(path, big);
  EXPECT_EQ(read_whole_file(path), big);
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir.path())) {
    ++files;
    EXPECT_EQ(e.path().filename(), "f.bin");
  }
  EXPECT_EQ(files, 1);
  // A failed write leaves the old file as it was.
  EXPECT_THROW(atomic_write_file(dir / "no/such/dir/f.bin", "x"), std::runtime_error);
  EXPECT_EQ(read_whole_file(path), big);
}

}  // namespace
}  // namespace pincer::testing
