#include <ATen/Parallel.h>
#include <ATen/autocast_mode.h>
#include <dlfcn.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <mutex>
#include <sstream>

#include "engine/atomic_file.h"
#include "engine/model_paths.h"
#include "nn/checked_archive.h"
#include "nn/model_file.h"
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

ResidualNetImpl::ResidualNetImpl(const NetworkConfig& c, int in_ch, int h, int w, int actions,
                                 int policy_planes) {
  using namespace torch::nn;
  const int ch = c.channels();
  stem = register_module("stem", Conv2d(Conv2dOptions(in_ch, ch, 3).padding(1).bias(false)));
  stem_bn = register_module("stem_bn", BatchNorm2d(ch));
  tower = register_module("tower", Sequential());
  for (int i = 0; i < c.blocks(); ++i) tower->push_back(ResidualBlock(ch));
  if (c.policy_head() == "conv") {
    policy_conv = register_module("policy_conv", Conv2d(Conv2dOptions(ch, ch, 1).bias(false)));
    policy_bn = register_module("policy_bn", BatchNorm2d(ch));
    policy_out = register_module("policy_out", Conv2d(Conv2dOptions(ch, policy_planes, 1)));
    policy_map = register_buffer("policy_map", torch::zeros({actions}, torch::kInt64));
  } else {
    policy_conv = register_module("policy_conv",
                                  Conv2d(Conv2dOptions(ch, c.policy_channels(), 1).bias(false)));
    policy_bn = register_module("policy_bn", BatchNorm2d(c.policy_channels()));
    policy_fc = register_module("policy_fc", Linear(c.policy_channels() * h * w, actions));
  }
  value_conv =
      register_module("value_conv", Conv2d(Conv2dOptions(ch, c.value_channels(), 1).bias(false)));
  value_bn = register_module("value_bn", BatchNorm2d(c.value_channels()));
  value_fc1 = register_module("value_fc1", Linear(c.value_channels() * h * w, c.value_hidden()));
  value_fc2 = register_module("value_fc2", Linear(c.value_hidden(), 3));
  if (c.points_head()) points_fc = register_module("points_fc", Linear(c.value_hidden(), 1));
  if (c.ownership_head()) {
    ownership_conv = register_module("ownership_conv", Conv2d(Conv2dOptions(ch, 1, 1)));
  }
}

NetOutput ResidualNetImpl::forward_all(torch::Tensor x) {
  NetOutput out;
  auto t = torch::relu(stem_bn(stem(x)));
  t = tower->forward(t);
  auto p = torch::relu(policy_bn(policy_conv(t)));
  if (conv_policy()) {
    out.policy = policy_out(p).flatten(1).index_select(1, policy_map);
  } else {
    out.policy = policy_fc(p.flatten(1));
  }
  auto v = torch::relu(value_bn(value_conv(t))).flatten(1);
  v = torch::relu(value_fc1(v));
  out.value = value_fc2(v);
  if (!points_fc.is_empty()) out.points = points_fc(v).squeeze(1);
  if (!ownership_conv.is_empty()) out.ownership = torch::tanh(ownership_conv(t)).squeeze(1);
  return out;
}

NetOutput ResidualNetImpl::forward_for_training(torch::Tensor x, Precision precision) {
  if (precision != Precision::kBFloat16 || !x.device().is_cpu()) return forward_all(std::move(x));
  // Autocast is thread-local; restored even if the forward pass throws.
  struct CpuAutocast {
    bool was_enabled = at::autocast::is_cpu_enabled();
    at::ScalarType was_dtype = at::autocast::get_autocast_cpu_dtype();
    CpuAutocast() {
      at::autocast::set_cpu_enabled(true);
      at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
    }
    ~CpuAutocast() {
      at::autocast::set_cpu_enabled(was_enabled);
      at::autocast::set_autocast_cpu_dtype(was_dtype);
      at::autocast::clear_cache();
    }
  };
  NetOutput out;
  {
    CpuAutocast autocast;
    out = forward_all(std::move(x));
  }
  out.policy = out.policy.to(torch::kFloat32);
  out.value = out.value.to(torch::kFloat32);
  if (out.points.defined()) out.points = out.points.to(torch::kFloat32);
  if (out.ownership.defined()) out.ownership = out.ownership.to(torch::kFloat32);
  return out;
}

std::pair<torch::Tensor, torch::Tensor> ResidualNetImpl::forward(torch::Tensor x) {
  NetOutput out = forward_all(std::move(x));
  return {out.policy, out.value};
}

namespace {

// oneDNN's primitive cache holds 1024 compiled primitives by default, and inference needs about 15
// for each batch size and precision (some 1900 for batches of 1 to 128). Once it is full,
// oneDNN 2.6 (LibTorch 1.13) evicting primitives while other threads create theirs corrupts memory:
// a gate starting while self-play runs got std::bad_alloc, std::bad_array_new_length and "broken
// promise" from inference. With room for every shape nothing is evicted (and nothing compiled
// twice).
constexpr int kPrimitiveCacheCapacity = 65536;

void enlarge_primitive_cache() {
  static std::once_flag once;
  std::call_once(once, [] {
    // A oneDNN linked by LibTorch as a library exports its API; one built into LibTorch may not,
    // and then reads the capacity from the environment when it creates its cache.
    using SetCapacity = int (*)(int);
    auto set =
        reinterpret_cast<SetCapacity>(dlsym(RTLD_DEFAULT, "dnnl_set_primitive_cache_capacity"));
    if (!set || set(kPrimitiveCacheCapacity) != 0) {
      setenv("ONEDNN_PRIMITIVE_CACHE_CAPACITY", std::to_string(kPrimitiveCacheCapacity).c_str(), 0);
    }
  });
}

std::unique_ptr<Model::Impl> make_impl(const ModelMetadata& m, const std::string& device) {
  enlarge_primitive_cache();
  auto impl = std::make_unique<Model::Impl>();
  impl->device = parse_device(device);
  impl->net = ResidualNet(m.network(), m.input_channels(), m.input_height(), m.input_width(),
                          m.num_actions(), m.policy_planes());
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

}  // namespace

// A conv policy head's map read from a file must index inside its planes.
void check_policy_map(ResidualNetImpl& net, const ModelMetadata& meta, const std::string& origin) {
  if (!net.conv_policy()) return;
  const int64_t cells = int64_t{meta.policy_planes()} * meta.input_height() * meta.input_width();
  const auto& map = net.policy_map;
  if (map.scalar_type() != torch::kInt64 || map.numel() != meta.num_actions() ||
      (map.numel() > 0 && (map.min().item<int64_t>() < 0 || map.max().item<int64_t>() >= cells))) {
    throw ModelError(origin + ": damaged policy map (indices outside the policy planes)");
  }
}

namespace {

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
  // A dense policy head unless asked otherwise: with bfloat16 on oneDNN it is the faster of the
  // two (docs/training.md, "Network speed").
  const PolicyPlanes planes = game.policy_planes();
  NetworkConfig& net = *m.mutable_network();
  if (!net.has_policy_head()) net.set_policy_head("dense");
  if (net.policy_head() == "conv") {
    if (planes.planes <= 0) {
      throw ModelError("network.policy_head \"conv\" needs a game with policy planes; " +
                       game.ruleset_name() + " has none (use \"dense\")");
    }
    m.set_policy_planes(planes.planes);
  }
  if (!net.has_points_head()) net.set_points_head(false);
  if (!net.has_ownership_head()) net.set_ownership_head(false);
  if (net.ownership_head() && !game.provides_ownership()) {
    throw ModelError("network.ownership_head needs a game that provides ownership; " +
                     game.ruleset_name() + " provides none");
  }
  m.set_training_step(0);
  m.set_created(utc_now_iso());
  m.set_created_unix_ms(unix_ms_now());
  m.set_model_id(game.ruleset_name() + "/init-" + hex64(seed).substr(8));
  torch::manual_seed(seed);
  auto impl = make_impl(m, device);
  if (impl->net->conv_policy()) {
    const int64_t cells = int64_t{planes.planes} * shape.height * shape.width;
    if (static_cast<int>(planes.map.size()) != m.num_actions() ||
        std::any_of(planes.map.begin(), planes.map.end(),
                    [&](int v) { return v < 0 || v >= cells; })) {
      throw ModelError(game.ruleset_name() + ": its policy planes do not cover its actions");
    }
    torch::NoGradGuard no_grad;
    impl->net->policy_map.copy_(
        torch::tensor(std::vector<int64_t>(planes.map.begin(), planes.map.end()), torch::kInt64));
  }
  return std::unique_ptr<Model>(new Model(m, std::move(impl)));
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
  check_policy_map(*impl->net, meta, path);
  impl->device = parse_device(device);
  impl->net->to(impl->device);
  impl->net->eval();
  return std::unique_ptr<Model>(new Model(std::move(meta), std::move(impl)));
}

std::string Model::metadata_path(const std::string& path) { return model_meta_path(path); }

void Model::save(const std::string& path) const {
  torch::serialize::OutputArchive archive;
  impl_->net->save(archive);
  archive.write(kMetadataKey, bytes_to_tensor(meta_.SerializeAsString()));
  write_checked_archive(archive, CheckedKind::model, path);
  write_metadata_copy(path, meta_);
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

std::unique_ptr<Model> Model::average(const std::vector<const Model*>& models) {
  if (models.empty()) throw ModelError("model average: no models given");
  const ModelMetadata& last = models.back()->metadata();
  auto same_shape = [&](const ModelMetadata& m) {
    return m.game() == last.game() && m.fingerprint() == last.fingerprint() &&
           m.encoding_version() == last.encoding_version() &&
           m.input_channels() == last.input_channels() && m.input_height() == last.input_height() &&
           m.input_width() == last.input_width() && m.num_actions() == last.num_actions() &&
           m.policy_planes() == last.policy_planes() &&
           m.network().SerializeAsString() == last.network().SerializeAsString();
  };
  for (const Model* m : models) {
    if (!same_shape(m->metadata())) {
      throw ModelError("model average: " + m->metadata().model_id() + " and " + last.model_id() +
                       " differ in game, ruleset, encoding or network shape; only models of one "
                       "run's network can be averaged");
    }
  }
  std::unique_ptr<Model> out = models.back()->clone("cpu");
  const double n = static_cast<double>(models.size());
  {
    torch::NoGradGuard no_grad;
    // Parameters, then buffers: each model's named tensors, and the output's to overwrite.
    for (const bool buffers : {false, true}) {
      auto named = [buffers](const Model& m) {
        return buffers ? m.impl_->net->named_buffers(true) : m.impl_->net->named_parameters(true);
      };
      std::vector<torch::OrderedDict<std::string, torch::Tensor>> sources;
      for (const Model* m : models) sources.push_back(named(*m));
      for (auto& item : named(*out)) {
        torch::Tensor& d = item.value();
        if (!d.is_floating_point()) continue;  // counters (num_batches_tracked) stay the last's
        torch::Tensor sum = torch::zeros(d.sizes(), torch::kFloat64);
        for (const auto& src : sources) sum += src[item.key()].to(torch::kCPU, torch::kFloat64);
        d.copy_((sum / n).to(d.scalar_type()));
      }
    }
  }
  out->meta_.set_model_id(last.model_id() + "+avg" + std::to_string(models.size()));
  out->meta_.set_parent_model(last.model_id());
  out->meta_.set_created(utc_now_iso());
  out->meta_.set_created_unix_ms(unix_ms_now());
  return out;
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
  if (c.policy_head() == "conv") {
    macs += ch * ch * hw + ch * meta_.policy_planes() * hw;
  } else {
    macs += ch * c.policy_channels() * hw + c.policy_channels() * hw * meta_.num_actions();
  }
  macs += ch * c.value_channels() * hw + c.value_channels() * hw * c.value_hidden() +
          int64_t{c.value_hidden()} * (3 + (c.points_head() ? 1 : 0));
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
  weight.push_back(conv->weight * s.view({-1, 1, 1, 1}));
  bias.push_back(bn->bias - bn->running_mean * s);
}

// Every layer's inference weights, in forward order: the folded convolutions (stem, tower,
// policy, value), the conv policy head's output convolution or the dense policy layer, the value
// layers and the points layer, all in `dtype`. Convolution weights are oneDNN tensors
// reordered once into its blocked layout (`mkldnn`), else channels-last.
//
// With `mkldnn` and a dense policy head, the policy and value convolutions (both 1x1 over the
// tower's output, each followed by relu) are one convolution of policy + value channels, and the
// value layers and the points layer stay float32: at self-play's batch sizes their products are
// too small for bfloat16 to pay, and oneDNN's bfloat16 calls cost more than OpenBLAS's float32
// ones (docs/experiments/2026-12-07-bench-nn-self-measured-peak.md).
void fold_all(ResidualNetImpl& net, torch::ScalarType dtype, bool mkldnn,
              std::vector<torch::Tensor>& weight, std::vector<torch::Tensor>& bias) {
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
  const bool fuse_heads = mkldnn && !net.conv_policy();
  if (fuse_heads) {
    const size_t policy = weight.size() - 2, value = weight.size() - 1;
    weight[policy] = torch::cat({weight[policy], weight[value]});
    bias[policy] = torch::cat({bias[policy], bias[value]});
    weight.pop_back();
    bias.pop_back();
  }
  auto add = [&](const torch::Tensor& w, const torch::Tensor& b) {
    weight.push_back(w);
    bias.push_back(b);
  };
  if (net.conv_policy()) {
    add(net.policy_out->weight, net.policy_out->bias);
  } else {
    add(net.policy_fc->weight, net.policy_fc->bias);
  }
  const size_t value_layers = weight.size();
  add(net.value_fc1->weight, net.value_fc1->bias);
  add(net.value_fc2->weight, net.value_fc2->bias);
  if (!net.points_fc.is_empty()) add(net.points_fc->weight, net.points_fc->bias);
  for (size_t i = 0; i < weight.size(); ++i) {
    const torch::ScalarType type = fuse_heads && i >= value_layers ? torch::kFloat32 : dtype;
    weight[i] = weight[i].to(type).contiguous();
    bias[i] = bias[i].to(type).contiguous();
    if (weight[i].dim() != 4) continue;
    if (mkldnn) {
      const int64_t pad = weight[i].size(2) / 2;
      weight[i] =
          at::mkldnn_reorder_conv2d_weight(weight[i].to_mkldnn(), {pad, pad}, {1, 1}, {1, 1}, 1);
      bias[i] = bias[i].to_mkldnn();
    } else {
      weight[i] = weight[i].contiguous(torch::MemoryFormat::ChannelsLast);
    }
  }
}

// oneDNN with weights reordered once: about twice the speed of plain convolutions, which
// reorder their weights on every call (docs/training.md, "Network speed").
bool use_mkldnn(const torch::Device& device) { return device.is_cpu() && torch::hasMKLDNN(); }

// ResidualNetImpl::forward_all with the folded weights (same order as fold_all).
// With `mkldnn`, x is a oneDNN tensor and the convolutions' outputs are made dense before the
// heads' flattening. Each convolution's output is a fresh tensor, so relu and the residual sum
// run in place on it (no allocation, one pass fewer over memory).
NetOutput folded_forward(ResidualNetImpl& net, const std::vector<torch::Tensor>& weight,
                         const std::vector<torch::Tensor>& bias, const torch::Tensor& x,
                         bool mkldnn) {
  size_t k = 0;
  auto conv = [&](const torch::Tensor& t, int64_t padding) {
    auto y = mkldnn ? at::mkldnn_convolution(t, weight[k], bias[k], {padding, padding}, {1, 1},
                                             {1, 1}, 1)
                    : torch::conv2d(t, weight[k], bias[k], 1, padding);
    ++k;
    return y;
  };
  auto dense_out = [&](const torch::Tensor& t) { return mkldnn ? t.to_dense() : t.contiguous(); };
  auto dense = [&](const torch::Tensor& t) {
    auto y = torch::linear(t.to(weight[k].scalar_type()), weight[k], bias[k]);
    ++k;
    return y;
  };
  auto t = conv(x, 1).relu_();
  for (size_t i = 0; i < net.tower->size(); ++i) {
    auto y = conv(t, 1).relu_();
    t = conv(y, 1).add_(t).relu_();
  }
  NetOutput out;
  torch::Tensor v;
  if (net.conv_policy()) {
    auto p = conv(t, 0).relu_();
    v = dense_out(conv(t, 0).relu_()).flatten(1);
    // NCHW order for the map (it indexes plane * H * W + cell).
    out.policy = dense_out(conv(p, 0)).flatten(1).index_select(1, net.policy_map);
  } else if (mkldnn) {
    // One convolution for both heads (fold_all): policy channels first, then value channels.
    const int64_t policy_channels = net.policy_conv->options.out_channels();
    auto heads = dense_out(conv(t, 0).relu_());
    auto p = heads.narrow(1, 0, policy_channels).flatten(1).contiguous();
    v = heads.narrow(1, policy_channels, heads.size(1) - policy_channels).flatten(1);
    out.policy = dense(p);
  } else {
    auto p = conv(t, 0).relu_();
    v = dense_out(conv(t, 0).relu_()).flatten(1);
    out.policy = dense(dense_out(p).flatten(1));
  }
  v = dense(v).relu_();
  out.value = dense(v);
  if (!net.points_fc.is_empty()) out.points = dense(v).squeeze(1);
  return out;
}

}  // namespace

void Model::set_precision(Precision precision) {
  std::lock_guard<std::mutex> lock(impl_->fold_mutex);
  impl_->precision = precision;
}

Precision Model::precision() const {
  std::lock_guard<std::mutex> lock(impl_->fold_mutex);
  return impl_->precision;
}

void Model::infer(const float* input, int n, float* policy_logits, float* wdl, float* points) {
  if (n <= 0) return;
  c10::InferenceMode guard;
  auto& net = impl_->net;
  if (net->is_training()) net->eval();
  std::vector<torch::Tensor> weight, bias;
  torch::ScalarType dtype = torch::kFloat32;
  const bool mkldnn = use_mkldnn(impl_->device);
  {
    std::lock_guard<std::mutex> lock(impl_->fold_mutex);
    const int64_t version = weights_version(*net);
    if (version != impl_->fold_version || impl_->precision != impl_->fold_precision) {
      fold_all(*net, impl_->precision == Precision::kBFloat16 ? torch::kBFloat16 : torch::kFloat32,
               mkldnn, impl_->fold_weight, impl_->fold_bias);
      impl_->fold_version = version;
      impl_->fold_precision = impl_->precision;
    }
    weight = impl_->fold_weight;
    bias = impl_->fold_bias;
    dtype = impl_->fold_precision == Precision::kBFloat16 ? torch::kBFloat16 : torch::kFloat32;
  }
  auto x = torch::from_blob(const_cast<float*>(input),
                            {n, meta_.input_channels(), meta_.input_height(), meta_.input_width()},
                            torch::kFloat32);
  x = mkldnn ? x.to(dtype).to_mkldnn()
             : x.to(impl_->device, dtype).contiguous(torch::MemoryFormat::ChannelsLast);
  NetOutput out = folded_forward(*net, weight, bias, x, mkldnn);
  // Straight into the caller's arrays: copy_ converts (and moves off the device) in one pass.
  const auto f32 = torch::TensorOptions().dtype(torch::kFloat32);
  torch::from_blob(policy_logits, {n, static_cast<int64_t>(meta_.num_actions())}, f32)
      .copy_(out.policy);
  torch::from_blob(wdl, {n, 3}, f32).copy_(torch::softmax(out.value.to(torch::kFloat32), 1));
  if (points && out.points.defined()) torch::from_blob(points, {n}, f32).copy_(out.points);
}

}  // namespace pincer
