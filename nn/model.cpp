#include <ATen/Parallel.h>
#include <google/protobuf/text_format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <sstream>

#include "engine/atomic_file.h"
#include "nn/checked_archive.h"
#include "nn/network.h"

namespace pincer {

namespace {
constexpr const char* kMetadataKey = "pincer_metadata";
}

std::string utc_now_iso() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

int64_t unix_ms_now() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void set_torch_threads(int threads) { at::set_num_threads(std::max(1, threads)); }

std::string torch_parallel_info() { return at::get_parallel_info(); }

torch::Device parse_device(const std::string& text) {
  const std::string t = text.empty() ? "cpu" : text;
  if (t == "cpu") return torch::Device(torch::kCPU);
  if (t.rfind("cuda", 0) == 0) {
    if (!torch::cuda::is_available()) {
      throw ModelError("device \"" + t +
                       "\" requested but the linked LibTorch has no usable CUDA device");
    }
    try {
      return torch::Device(t);
    } catch (const std::exception&) {
    }
  }
  throw ModelError("unknown device \"" + t + "\" (expected cpu, cuda or cuda:N)");
}

ResidualBlockImpl::ResidualBlockImpl(int ch) {
  using namespace torch::nn;
  conv1 = register_module("conv1", Conv2d(Conv2dOptions(ch, ch, 3).padding(1).bias(false)));
  bn1 = register_module("bn1", BatchNorm2d(ch));
  conv2 = register_module("conv2", Conv2d(Conv2dOptions(ch, ch, 3).padding(1).bias(false)));
  bn2 = register_module("bn2", BatchNorm2d(ch));
}

torch::Tensor ResidualBlockImpl::forward(torch::Tensor x) {
  auto y = torch::relu(bn1(conv1(x)));
  y = bn2(conv2(y));
  return torch::relu(y + x);
}

ResidualNetImpl::ResidualNetImpl(const NetworkConfig& c, int in_ch, int h, int w, int actions) {
  using namespace torch::nn;
  const int ch = c.channels();
  stem = register_module("stem", Conv2d(Conv2dOptions(in_ch, ch, 3).padding(1).bias(false)));
  stem_bn = register_module("stem_bn", BatchNorm2d(ch));
  tower = register_module("tower", Sequential());
  for (int i = 0; i < c.blocks(); ++i) tower->push_back(ResidualBlock(ch));
  policy_conv =
      register_module("policy_conv", Conv2d(Conv2dOptions(ch, c.policy_channels(), 1).bias(false)));
  policy_bn = register_module("policy_bn", BatchNorm2d(c.policy_channels()));
  policy_fc = register_module("policy_fc", Linear(c.policy_channels() * h * w, actions));
  value_conv =
      register_module("value_conv", Conv2d(Conv2dOptions(ch, c.value_channels(), 1).bias(false)));
  value_bn = register_module("value_bn", BatchNorm2d(c.value_channels()));
  value_fc1 = register_module("value_fc1", Linear(c.value_channels() * h * w, c.value_hidden()));
  value_fc2 = register_module("value_fc2", Linear(c.value_hidden(), 3));
}

std::pair<torch::Tensor, torch::Tensor> ResidualNetImpl::forward(torch::Tensor x) {
  auto t = torch::relu(stem_bn(stem(x)));
  t = tower->forward(t);
  auto p = torch::relu(policy_bn(policy_conv(t))).flatten(1);
  p = policy_fc(p);
  auto v = torch::relu(value_bn(value_conv(t))).flatten(1);
  v = value_fc2(torch::relu(value_fc1(v)));
  return {p, v};
}

namespace {

std::unique_ptr<Model::Impl> make_impl(const ModelMetadata& m, const std::string& device) {
  auto impl = std::make_unique<Model::Impl>();
  impl->device = parse_device(device);
  impl->net = ResidualNet(m.network(), m.input_channels(), m.input_height(), m.input_width(),
                          m.num_actions());
  impl->net->to(impl->device);
  impl->net->eval();
  return impl;
}

std::string hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

ModelMetadata metadata_from_archive(torch::serialize::InputArchive& archive,
                                    const std::string& origin) {
  torch::Tensor bytes;
  ModelMetadata meta;
  try {
    if (!archive.try_read(kMetadataKey, bytes)) {
      throw ModelError(origin + " is not a pincer model file (no metadata)");
    }
    if (bytes.scalar_type() != torch::kUInt8 || bytes.dim() != 1 ||
        !meta.ParseFromString(tensor_to_bytes(bytes))) {
      throw ModelError(origin + ": damaged model metadata");
    }
  } catch (const ModelError&) {
    throw;
  } catch (const std::exception& e) {
    throw ModelError(origin + ": damaged model metadata: " + std::string(e.what()).substr(0, 200));
  }
  if (meta.format_version() != kModelFormatVersion) {
    throw ModelError(origin + ": model file format " + std::to_string(meta.format_version()) +
                     ", this build reads format " + std::to_string(kModelFormatVersion));
  }
  // Before anything is allocated from these numbers.
  Model::check_metadata(meta, origin);
  return meta;
}

torch::serialize::InputArchive open_archive(const std::string& path) {
  return read_checked_archive(path, CheckedKind::model);
}

}  // namespace

torch::Tensor bytes_to_tensor(const std::string& bytes) {
  auto t = torch::empty({static_cast<int64_t>(bytes.size())}, torch::kUInt8);
  if (!bytes.empty()) std::memcpy(t.data_ptr<uint8_t>(), bytes.data(), bytes.size());
  return t;
}

std::string tensor_to_bytes(const torch::Tensor& tensor) {
  auto t = tensor.contiguous().to(torch::kCPU);
  return std::string(reinterpret_cast<const char*>(t.data_ptr<uint8_t>()),
                     static_cast<size_t>(t.numel()));
}

std::unique_ptr<Model> Model::from_metadata(const ModelMetadata& meta, const std::string& device) {
  return std::unique_ptr<Model>(new Model(meta, make_impl(meta, device)));
}

Model::Model(ModelMetadata meta, std::unique_ptr<Impl> impl)
    : meta_(std::move(meta)), impl_(std::move(impl)) {}
Model::~Model() = default;

std::unique_ptr<Model> Model::create(const Game& game, const NetworkConfig& network,
                                     const std::string& device, uint64_t seed) {
  ModelMetadata m;
  m.set_format_version(kModelFormatVersion);
  m.set_game(game.game_name());
  m.set_ruleset_name(game.ruleset_name());
  m.set_fingerprint(game.fingerprint());
  m.set_encoding_version(game.encoding_version());
  const InputShape shape = game.input_shape();
  m.set_input_channels(shape.channels);
  m.set_input_height(shape.height);
  m.set_input_width(shape.width);
  m.set_num_actions(game.num_actions());
  *m.mutable_network() = complete_network_config(network);
  m.set_training_step(0);
  m.set_created(utc_now_iso());
  m.set_created_unix_ms(unix_ms_now());
  m.set_model_id(game.ruleset_name() + "/init-" + hex64(seed).substr(8));
  torch::manual_seed(seed);
  return std::unique_ptr<Model>(new Model(m, make_impl(m, device)));
}

void Model::check_compatible(const ModelMetadata& meta, const Game& game,
                             const std::string& origin) {
  auto refuse = [&](const std::string& what, const std::string& model_value,
                    const std::string& game_value) {
    throw ModelError("model " + origin + " was made for " + what + " " + model_value +
                     ", but the game here has " + what + " " + game_value + " (" +
                     game.ruleset_name() + "); refusing to load it");
  };
  if (meta.game() != game.game_name()) refuse("game", meta.game(), game.game_name());
  if (meta.fingerprint() != game.fingerprint()) {
    refuse("ruleset fingerprint", meta.fingerprint() + " (" + meta.ruleset_name() + ")",
           game.fingerprint());
  }
  if (meta.encoding_version() != game.encoding_version()) {
    refuse("input encoding version", std::to_string(meta.encoding_version()),
           std::to_string(game.encoding_version()));
  }
  const InputShape s = game.input_shape();
  if (meta.input_channels() != s.channels || meta.input_height() != s.height ||
      meta.input_width() != s.width || meta.num_actions() != game.num_actions()) {
    refuse("input shape/actions",
           std::to_string(meta.input_channels()) + "x" + std::to_string(meta.input_height()) + "x" +
               std::to_string(meta.input_width()) + "/" + std::to_string(meta.num_actions()),
           std::to_string(s.channels) + "x" + std::to_string(s.height) + "x" +
               std::to_string(s.width) + "/" + std::to_string(game.num_actions()));
  }
}

ModelMetadata Model::read_metadata(const std::string& path) {
  auto archive = open_archive(path);
  return metadata_from_archive(archive, path);
}

std::unique_ptr<Model> Model::load(const std::string& path, const Game& game,
                                   const std::string& device) {
  auto archive = open_archive(path);
  ModelMetadata meta = metadata_from_archive(archive, path);
  check_compatible(meta, game, path);
  auto impl = make_impl(meta, "cpu");
  try {
    impl->net->load(archive);
  } catch (const std::exception& e) {
    throw ModelError("model file " + path +
                     " does not match its architecture: " + std::string(e.what()).substr(0, 200));
  }
  impl->device = parse_device(device);
  impl->net->to(impl->device);
  impl->net->eval();
  return std::unique_ptr<Model>(new Model(std::move(meta), std::move(impl)));
}

std::string Model::metadata_path(const std::string& path) {
  std::filesystem::path p(path);
  return p.replace_extension(".meta.textproto").string();
}

void Model::save(const std::string& path) const {
  torch::serialize::OutputArchive archive;
  impl_->net->save(archive);
  archive.write(kMetadataKey, bytes_to_tensor(meta_.SerializeAsString()));
  write_checked_archive(archive, CheckedKind::model, path);
  std::string text;
  google::protobuf::TextFormat::PrintToString(meta_, &text);
  atomic_write_file(metadata_path(path),
                    "# Metadata of " + std::filesystem::path(path).filename().string() +
                        " (informational; the model file holds the authoritative copy)\n" + text);
}

std::unique_ptr<Model> Model::clone(const std::string& device) const {
  const std::string dev = device.empty() ? this->device() : device;
  auto impl = make_impl(meta_, "cpu");
  {
    torch::NoGradGuard no_grad;
    auto src = impl_->net->named_parameters(true);
    auto dst = impl->net->named_parameters(true);
    for (auto& item : src) dst[item.key()].copy_(item.value().to(torch::kCPU));
    auto srcb = impl_->net->named_buffers(true);
    auto dstb = impl->net->named_buffers(true);
    for (auto& item : srcb) dstb[item.key()].copy_(item.value().to(torch::kCPU));
  }
  impl->device = parse_device(dev);
  impl->net->to(impl->device);
  impl->net->eval();
  return std::unique_ptr<Model>(new Model(meta_, std::move(impl)));
}

int Model::input_size() const {
  return meta_.input_channels() * meta_.input_height() * meta_.input_width();
}

std::string Model::device() const { return impl_->device.str(); }

int64_t Model::parameter_count() const {
  int64_t n = 0;
  for (const auto& p : impl_->net->parameters()) n += p.numel();
  return n;
}

int64_t Model::flops_per_position() const {
  const NetworkConfig& c = meta_.network();
  const int64_t hw = int64_t{meta_.input_height()} * meta_.input_width();
  const int64_t ch = c.channels();
  int64_t macs = 9 * meta_.input_channels() * ch * hw;  // stem
  macs += int64_t{c.blocks()} * 2 * 9 * ch * ch * hw;   // residual tower
  macs += ch * c.policy_channels() * hw + c.policy_channels() * hw * meta_.num_actions();
  macs += ch * c.value_channels() * hw + c.value_channels() * hw * c.value_hidden() +
          int64_t{c.value_hidden()} * 3;
  return 2 * macs;
}

namespace {

// Sum of the version counters of every parameter and buffer: grows whenever one changes.
int64_t weights_version(ResidualNetImpl& net) {
  int64_t v = 0;
  for (const auto& p : net.parameters()) v += p._version();
  for (const auto& b : net.buffers()) v += b._version();
  return v;
}

// A convolution without bias followed by batch norm (inference) as one convolution:
// weight * s and bias beta - mean * s, with s = gamma / sqrt(var + eps) per output channel.
void fold(const torch::nn::Conv2d& conv, const torch::nn::BatchNorm2d& bn,
          std::vector<torch::Tensor>& weight, std::vector<torch::Tensor>& bias) {
  const auto s = bn->weight / torch::sqrt(bn->running_var + bn->options.eps());
  weight.push_back((conv->weight * s.view({-1, 1, 1, 1})).contiguous());
  bias.push_back((bn->bias - bn->running_mean * s).contiguous());
}

void fold_all(ResidualNetImpl& net, std::vector<torch::Tensor>& weight,
              std::vector<torch::Tensor>& bias) {
  weight.clear();
  bias.clear();
  fold(net.stem, net.stem_bn, weight, bias);
  for (size_t i = 0; i < net.tower->size(); ++i) {
    auto* block = net.tower[i]->as<ResidualBlockImpl>();
    fold(block->conv1, block->bn1, weight, bias);
    fold(block->conv2, block->bn2, weight, bias);
  }
  fold(net.policy_conv, net.policy_bn, weight, bias);
  fold(net.value_conv, net.value_bn, weight, bias);
}

// ResidualNetImpl::forward with the folded convolutions (same order as fold_all).
std::pair<torch::Tensor, torch::Tensor> folded_forward(ResidualNetImpl& net,
                                                       const std::vector<torch::Tensor>& weight,
                                                       const std::vector<torch::Tensor>& bias,
                                                       const torch::Tensor& x) {
  size_t k = 0;
  auto conv = [&](const torch::Tensor& t, int64_t padding) {
    auto y = torch::conv2d(t, weight[k], bias[k], 1, padding);
    ++k;
    return y;
  };
  auto t = torch::relu(conv(x, 1));
  for (size_t i = 0; i < net.tower->size(); ++i) {
    auto y = torch::relu(conv(t, 1));
    y = conv(y, 1);
    t = torch::relu(y + t);
  }
  auto p = net.policy_fc(torch::relu(conv(t, 0)).flatten(1));
  auto v = torch::relu(conv(t, 0)).flatten(1);
  v = net.value_fc2(torch::relu(net.value_fc1(v)));
  return {p, v};
}

}  // namespace

void Model::infer(const float* input, int n, float* policy_logits, float* wdl) {
  if (n <= 0) return;
  c10::InferenceMode guard;
  auto& net = impl_->net;
  if (net->is_training()) net->eval();
  auto x = torch::from_blob(const_cast<float*>(input),
                            {n, meta_.input_channels(), meta_.input_height(), meta_.input_width()},
                            torch::kFloat32);
  if (impl_->device != torch::kCPU) x = x.to(impl_->device);
  std::vector<torch::Tensor> weight, bias;
  {
    std::lock_guard<std::mutex> lock(impl_->fold_mutex);
    const int64_t version = weights_version(*net);
    if (version != impl_->fold_version) {
      fold_all(*net, impl_->fold_weight, impl_->fold_bias);
      impl_->fold_version = version;
    }
    weight = impl_->fold_weight;
    bias = impl_->fold_bias;
  }
  auto [p, v] = folded_forward(*net, weight, bias, x);
  p = p.to(torch::kCPU).contiguous();
  v = torch::softmax(v, 1).to(torch::kCPU).contiguous();
  std::memcpy(policy_logits, p.data_ptr<float>(), sizeof(float) * n * meta_.num_actions());
  std::memcpy(wdl, v.data_ptr<float>(), sizeof(float) * n * 3);
}

}  // namespace pincer
