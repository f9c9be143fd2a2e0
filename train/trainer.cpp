#include "train/trainer.h"

#include <spdlog/spdlog.h>

#include <cmath>
#include <filesystem>
#include <random>
#include <set>
#include <sstream>

#include "engine/atomic_file.h"
#include "engine/random.h"
#include "nn/checked_archive.h"
#include "nn/network.h"
#include "train/records.h"
#include "train/window.h"

namespace fs = std::filesystem;

namespace pincer {

struct Trainer::Impl {
  GamePtr game;
  RunConfig cfg;
  RunDir dir;
  std::unique_ptr<Model> model;
  std::unique_ptr<torch::optim::Optimizer> opt;
  TrainerState state;
  std::set<std::string> ingested;
  Window window;

  Impl(GamePtr g, const RunConfig& c, const RunDir& d)
      : game(std::move(g)), cfg(c), dir(d), window(c.trainer().window_positions()) {}

  void make_optimizer() {
    const auto& o = cfg.trainer().optimizer();
    auto params = model->impl().net->parameters();
    if (o.kind() == "adam") {
      opt = std::make_unique<torch::optim::Adam>(
          params, torch::optim::AdamOptions(o.learning_rate()).weight_decay(o.weight_decay()));
    } else {
      opt = std::make_unique<torch::optim::SGD>(params, torch::optim::SGDOptions(o.learning_rate())
                                                            .momentum(o.momentum())
                                                            .nesterov(o.momentum() > 0)
                                                            .weight_decay(o.weight_decay()));
    }
  }

  // Loads trainer.ckpt: weights, optimiser and state. Every failure (a damaged archive, a state
  // that does not parse, a network config out of range, weights of another shape) is a
  // ModelError naming the file; the metadata is checked before anything is allocated.
  void load_checkpoint(const std::string& device) {
    const std::string path = dir.checkpoint();
    auto damaged = [&](const std::string& why) {
      return ModelError("trainer checkpoint " + path + " is damaged: " + why.substr(0, 300));
    };
    torch::serialize::InputArchive archive =
        read_checked_archive(path, CheckedKind::trainer_checkpoint);
    torch::serialize::InputArchive net_archive, opt_archive;
    try {
      torch::Tensor bytes;
      archive.read("trainer_state", bytes);
      if (bytes.scalar_type() != torch::kUInt8 || bytes.dim() != 1) throw damaged("trainer state");
      if (!state.ParseFromString(tensor_to_bytes(bytes))) throw damaged("trainer state");
    } catch (const ModelError&) {
      throw;
    } catch (const std::exception& e) {
      throw damaged(e.what());
    }
    Model::check_metadata(state.model(), path);
    Model::check_compatible(state.model(), *game, path);
    model = Model::from_metadata(state.model(), "cpu");
    try {
      archive.read("net", net_archive);
      model->impl().net->load(net_archive);
    } catch (const std::exception& e) {
      throw damaged(std::string("network weights: ") + e.what());
    }
    model->impl().device = parse_device(device);
    model->impl().net->to(model->impl().device);
    make_optimizer();
    try {
      archive.read("optimizer", opt_archive);
      opt->load(opt_archive);
    } catch (const std::exception& e) {
      throw damaged(std::string("optimizer state: ") + e.what());
    }
  }

  // Adds a chunk's games to the window; false if it cannot be read. A game that does not
  // replay or has bad policy targets is skipped (with a warning), the rest of the chunk kept.
  bool ingest(const std::string& name, bool count) {
    RecordChunk chunk;
    try {
      chunk = read_record_chunk((fs::path(dir.records()) / name).string(), *game);
    } catch (const RecordError& e) {
      spdlog::warn("trainer skips a record chunk: {}", e.what());
      return false;
    }
    for (int i = 0; i < chunk.games_size(); ++i) {
      int n = 0;
      try {
        n = window.add_game(*game, chunk.games(i));
      } catch (const RecordError& e) {
        // The window is unchanged (Window::add_game checks the whole record first).
        spdlog::warn("trainer skips game {} of {}: {}", i + 1, name, e.what());
        continue;
      }
      if (count) {
        state.set_games_seen(state.games_seen() + 1);
        state.set_positions_seen(state.positions_seen() + n);
      }
    }
    return true;
  }
};

Trainer::Trainer(GamePtr game, const RunConfig& config, const RunDir& dir)
    : impl_(std::make_unique<Impl>(std::move(game), config, dir)) {
  Impl& m = *impl_;
  set_torch_threads(config.trainer().threads());
  const std::string device = config.device();
  if (fs::exists(dir.checkpoint())) {
    m.load_checkpoint(device);
    // Rebuild the window exactly as it was: the same chunks in the same order.
    for (const std::string& name : m.state.ingested_chunks()) {
      m.ingest(name, false);
      m.ingested.insert(name);
    }
    spdlog::info("trainer resumed at step {} ({} games, window {} positions)", m.state.step(),
                 m.state.games_seen(), m.window.size());
  } else {
    m.model = Model::load(dir.model(0), *m.game, device);
    m.make_optimizer();
    *m.state.mutable_model() = m.model->metadata();
    spdlog::info("trainer starts from {}", m.model->metadata().model_id());
  }
  m.model->impl().net->train();
}

Trainer::~Trainer() = default;

int Trainer::ingest_new_records() {
  Impl& m = *impl_;
  int games = 0;
  for (const std::string& name : list_record_chunks(m.dir.records())) {
    if (m.ingested.count(name)) continue;
    const int64_t before = m.state.games_seen();
    m.ingest(name, true);
    // A chunk that cannot be read is remembered too, so that it is not retried forever.
    m.ingested.insert(name);
    m.state.add_ingested_chunks(name);
    games += static_cast<int>(m.state.games_seen() - before);
  }
  return games;
}

bool Trainer::ready() const {
  return impl_->window.size() >= static_cast<size_t>(impl_->cfg.trainer().min_positions());
}

int64_t Trainer::steps_allowed() const {
  const Impl& m = *impl_;
  if (!ready()) return 0;
  const auto& t = m.cfg.trainer();
  int64_t target = static_cast<int64_t>(m.state.positions_seen() *
                                        double(t.samples_per_position()) / t.batch_size());
  if (t.total_steps() > 0) target = std::min<int64_t>(target, t.total_steps());
  return std::max<int64_t>(0, target - m.state.step());
}

double Trainer::learning_rate(int64_t step) const {
  const auto& o = impl_->cfg.trainer().optimizer();
  double lr = o.learning_rate();
  if (o.schedule() == "step") {
    for (int64_t b : o.boundaries()) {
      if (step >= b) lr *= o.decay();
    }
  } else if (o.schedule() == "cosine") {
    const double total = std::max<int64_t>(1, impl_->cfg.trainer().total_steps());
    lr *= 0.5 * (1 + std::cos(M_PI * std::min(1.0, step / total)));
  }
  if (o.warmup_steps() > 0 && step < o.warmup_steps()) {
    lr *= double(step + 1) / double(o.warmup_steps());
  }
  return lr;
}

TrainStepResult Trainer::train_step() {
  Impl& m = *impl_;
  if (m.window.size() == 0) throw std::logic_error("train_step with an empty window");
  const auto& t = m.cfg.trainer();
  const int batch = t.batch_size();
  const int size = m.model->input_size();
  const int actions = m.model->num_actions();
  const int64_t step = m.state.step();
  // The batch of step n depends only on the seed, n and the window.
  std::mt19937_64 rng(mix_seed(m.cfg.seed(), uint64_t(step)));
  const int syms = t.no_augmentation() ? 1 : std::max(1, m.game->num_symmetries());

  auto input = torch::zeros({batch, size}, torch::kFloat32);
  auto target = torch::zeros({batch, actions}, torch::kFloat32);
  auto mask = torch::zeros({batch, actions}, torch::kFloat32);
  auto wdl = torch::zeros({batch, 3}, torch::kFloat32);
  auto has_policy = torch::zeros({batch}, torch::kFloat32);
  float* in = input.data_ptr<float>();
  float* tg = target.data_ptr<float>();
  float* mk = mask.data_ptr<float>();
  float* wd = wdl.data_ptr<float>();
  float* hp = has_policy.data_ptr<float>();
  std::vector<float> scratch(size);
  std::uniform_int_distribution<size_t> pick(0, m.window.size() - 1);
  for (int b = 0; b < batch; ++b) {
    const Sample& s = m.window[pick(rng)];
    const int sym = syms > 1 ? static_cast<int>(rng() % syms) : 0;
    float* planes = in + size_t(b) * size;
    float* pol = tg + size_t(b) * actions;
    float* msk = mk + size_t(b) * actions;
    s.state->encode(planes);
    if (!s.policy.empty()) {
      for (size_t k = 0; k < s.policy_index.size(); ++k) {
        pol[s.policy_index[k]] = s.policy[k];
        msk[s.policy_index[k]] = 1;
      }
      hp[b] = 1;
    } else {
      std::fill(msk, msk + actions, 1.0f);
    }
    if (sym > 0) {
      std::copy(planes, planes + size, scratch.begin());
      m.game->apply_symmetry(sym, planes, pol);
      m.game->apply_symmetry(sym, scratch.data(), msk);
    }
    for (int k = 0; k < 3; ++k) wd[b * 3 + k] = s.wdl[k];
  }
  const auto dev = m.model->impl().device;
  auto& net = m.model->impl().net;
  net->train();
  auto x = input
               .view({batch, m.model->metadata().input_channels(),
                      m.model->metadata().input_height(), m.model->metadata().input_width()})
               .to(dev);
  auto [logits, value] = net->forward(x);
  auto masked = logits.masked_fill(mask.to(dev) == 0, -1e9f);
  auto hp_dev = has_policy.to(dev);
  auto per_sample = -(target.to(dev) * torch::log_softmax(masked, 1)).sum(1) * hp_dev;
  auto policy_loss = per_sample.sum() / hp_dev.sum().clamp_min(1.0f);
  auto value_loss = -(wdl.to(dev) * torch::log_softmax(value, 1)).sum(1).mean();
  auto loss = policy_loss + t.value_loss_weight() * value_loss;
  const double lr = learning_rate(step);
  for (auto& group : m.opt->param_groups()) group.options().set_lr(lr);
  m.opt->zero_grad();
  loss.backward();
  m.opt->step();
  m.state.set_step(step + 1);
  TrainStepResult r;
  r.step = step + 1;
  r.policy_loss = policy_loss.item<double>();
  r.value_loss = value_loss.item<double>();
  r.lr = lr;
  r.batch = batch;
  return r;
}

void Trainer::save_checkpoint() {
  Impl& m = *impl_;
  ModelMetadata meta = m.model->metadata();
  meta.set_training_step(m.state.step());
  *m.state.mutable_model() = meta;
  torch::serialize::OutputArchive archive, net_archive, opt_archive;
  m.model->impl().net->save(net_archive);
  m.opt->save(opt_archive);
  archive.write("net", net_archive);
  archive.write("optimizer", opt_archive);
  archive.write("trainer_state", bytes_to_tensor(m.state.SerializeAsString()));
  write_checked_archive(archive, CheckedKind::trainer_checkpoint, m.dir.checkpoint());
}

std::string Trainer::write_model() {
  Impl& m = *impl_;
  ModelMetadata& meta = m.model->metadata();
  const std::string parent = meta.model_id();
  char id[96];
  std::snprintf(id, sizeof id, "%s/step-%06lld-%08llx", m.game->ruleset_name().c_str(),
                static_cast<long long>(m.state.step()),
                static_cast<unsigned long long>(std::random_device{}()));
  meta.set_model_id(id);
  meta.set_parent_model(parent);
  meta.set_training_step(m.state.step());
  meta.set_created(utc_now_iso());
  meta.set_created_unix_ms(unix_ms_now());
  const std::string path = m.dir.model(m.state.step());
  m.model->save(path);
  m.state.set_last_candidate(meta.model_id());
  return path;
}

int64_t Trainer::step() const { return impl_->state.step(); }
int64_t Trainer::games_seen() const { return impl_->state.games_seen(); }
int64_t Trainer::positions_seen() const { return impl_->state.positions_seen(); }
size_t Trainer::window_size() const { return impl_->window.size(); }
std::vector<std::string> Trainer::ingested_chunks() const {
  const auto& names = impl_->state.ingested_chunks();
  return {names.begin(), names.end()};
}
const ModelMetadata& Trainer::model_metadata() const { return impl_->model->metadata(); }

}  // namespace pincer
