// nn/: model files (round trip, metadata, refusal under other rules or encodings, damaged
// files), atomic writes, and the batching inference service.
#include "nn/model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <thread>

#include "engine/atomic_file.h"
#include "engine/registry.h"
#include "nn/inference.h"
#include "nn/network.h"
#include "tests/train/helpers.h"

namespace pincer::testing {
namespace {

namespace fs = std::filesystem;

NetworkConfig small_net() {
  NetworkConfig n;
  n.set_blocks(1);
  n.set_channels(8);
  return n;
}

std::vector<float> run(Model& m, const Game& game, const std::vector<std::string>& positions,
                       std::vector<float>* wdl_out = nullptr) {
  const int size = m.input_size();
  std::vector<float> input(positions.size() * size);
  for (size_t i = 0; i < positions.size(); ++i) {
    game.parse_state(positions[i])->encode(input.data() + i * size);
  }
  std::vector<float> logits(positions.size() * m.num_actions()), wdl(positions.size() * 3);
  m.infer(input.data(), static_cast<int>(positions.size()), logits.data(), wdl.data());
  if (wdl_out) *wdl_out = wdl;
  return logits;
}

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

TEST(AtomicFile, ConcurrentReadersNeverSeeAPartialModel) {
  ScratchDir dir("atomic-model");
  GamePtr game = make_tictactoe();
  auto a = Model::create(*game, small_net(), "cpu", 1);
  const std::string path = dir / "best.pt";
  a->save(path);
  std::atomic<bool> done{false};
  std::atomic<int> loads{0}, failures{0};
  std::thread reader([&] {
    while (!done) {
      try {
        Model::load(path, *game);
        ++loads;
      } catch (const std::exception&) {
        ++failures;
      }
    }
  });
  for (int i = 0; i < 30; ++i) a->save(path);
  done = true;
  reader.join();
  EXPECT_GT(loads.load(), 0);
  EXPECT_EQ(failures.load(), 0);
}

TEST(Inference, MatchesTheNetworkAndBatchesConcurrentCallers) {
  GamePtr game = make_tictactoe();
  std::shared_ptr<Model> model = Model::create(*game, small_net(), "cpu", 3);
  auto reference = model->clone();
  InferenceOptions o;
  o.max_batch = 32;
  o.max_wait_us = 20000;
  o.expected_callers = 8;
  InferenceService service(model, o);

  const std::vector<std::string> texts = {".../.../... x", "x.o/.x./... o", "xxo/oox/x.. o",
                                          "x../.o./... x"};
  std::vector<std::unique_ptr<State>> states;
  std::vector<std::vector<Action>> legal(texts.size());
  for (size_t i = 0; i < texts.size(); ++i) {
    states.push_back(game->parse_state(texts[i]));
    states[i]->legal_actions(legal[i]);
  }
  // Expected answers: softmax of the raw logits over the legal actions.
  std::vector<float> wdl;
  const auto logits = run(*reference, *game, texts, &wdl);
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      std::vector<EvalRequest> req;
      for (size_t i = 0; i < texts.size(); ++i) req.push_back({states[i].get(), &legal[i]});
      std::vector<Evaluation> out;
      for (int rep = 0; rep < 20; ++rep) {
        service.evaluate(req, out);
        for (size_t i = 0; i < texts.size(); ++i) {
          const float* lg = logits.data() + i * 9;
          double sum = 0;
          for (Action a : legal[i]) sum += std::exp(lg[a]);
          for (size_t k = 0; k < legal[i].size(); ++k) {
            if (std::fabs(out[i].priors[k] - std::exp(lg[legal[i][k]]) / sum) > 1e-5) ++wrong;
          }
          for (int k = 0; k < 3; ++k) {
            if (std::fabs(out[i].wdl[k] - wdl[i * 3 + k]) > 1e-5) ++wrong;
          }
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
  const InferenceStats s = service.stats();
  EXPECT_EQ(s.evals, 8u * 20u * texts.size());
  // Eight callers of four positions each merge into batches larger than one call.
  EXPECT_GT(s.avg_batch(), 4.0);
  EXPECT_LE(s.avg_batch(), 32.0);
  EXPECT_GT(s.evals_per_s(), 0.0);
}

TEST(Inference, SplitsCallsLargerThanTheBatch) {
  GamePtr game = make_tictactoe();
  std::shared_ptr<Model> model = Model::create(*game, small_net(), "cpu", 3);
  InferenceOptions o;
  o.max_batch = 3;
  InferenceService service(model, o);
  auto s = game->initial_state();
  std::vector<Action> legal;
  s->legal_actions(legal);
  std::vector<EvalRequest> req(10, EvalRequest{s.get(), &legal});
  std::vector<Evaluation> out;
  service.evaluate(req, out);
  ASSERT_EQ(out.size(), 10u);
  for (const auto& e : out) {
    ASSERT_EQ(e.priors.size(), 9u);
    for (int k = 0; k < 9; ++k) EXPECT_NEAR(e.priors[k], out[0].priors[k], 1e-5);
  }
  EXPECT_EQ(service.stats().batches, 4u);
}

}  // namespace
}  // namespace pincer::testing
