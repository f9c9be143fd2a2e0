#include "train/trainer.h"

#include <spdlog/spdlog.h>
#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#include <set>
#include <sstream>

#include "engine/atomic_file.h"
#include "engine/random.h"
#include "nn/checked_archive.h"
#include "nn/network.h"
#include "store/records.h"
#include "train/config.h"
#include "train/cpu_time.h"
#include "train/distributed.h"
#include "train/window.h"

namespace fs = std::filesystem;

namespace pincer {

struct Trainer::Impl {
  GamePtr game;
  RunConfig cfg;
  RunDir dir;
  std::unique_ptr<Model> model;
  std::unique_ptr<torch::optim::Optimizer> opt;
  // Growth (RunConfig.growth): the stage's new network learning beside `model`, and its
  // optimizer; null when no stage is under way (state.growth() describes it when one is).
  std::unique_ptr<Model> grown;
  std::unique_ptr<torch::optim::Optimizer> grown_opt;
  TrainerState state;
  std::set<std::string> ingested;
  Window window;
  DataParallel* group = nullptr;              // data-parallel ranks (null: this process alone)
  int micro_batches = 1;                      // shards of each step computed here
  Precision precision = Precision::kFloat32;  // of the training passes (trainer.precision)
  // The run's CPU seconds before this process: from the checkpoint it resumed, or for a new
  // run the initial network's core-hours (its warm start) not spent in this process.
  double cpu_base = 0;
  double run_cpu_seconds() const { return cpu_base + process_cpu_seconds(); }

  // Shards of a step's batch, over all ranks, and the first one this process computes.
  int shards() const { return (group ? group->world_size() : 1) * micro_batches; }
  int first_shard() const { return (group ? group->rank() : 0) * micro_batches; }

  struct Losses {
    torch::Tensor loss, policy, value;
    torch::Tensor points;     // undefined without a points head
    torch::Tensor ownership;  // undefined without an ownership head
  };
  // A batch of training samples with their targets, on the CPU.
  struct Batch {
    int size = 0;
    torch::Tensor input, target, mask, wdl, has_policy, points;
    torch::Tensor ownership, has_ownership;  // empty without an ownership head
  };
  // Shard `shard` (of `shards`) of step `step`'s batch.
  Batch make_batch(int64_t step, int shard, int shards);
  // The training loss of `net` on a batch (the growth stage's network learns with the same loss).
  Losses losses(Model& net, const Batch& batch);

  // Growth: starts the next stage's network when its trigger is reached; hands over to it when
  // its distillation is done.
  void maybe_start_growth(int64_t step);
  GrowthTakeover take_over();
  // The learning rate of the growing network at `step`: the trainer's, with the optimizer's
  // warm-up counted from the stage's start (a fresh network, like the first one).
  double growth_learning_rate(int64_t step, double lr) const;

  Impl(GamePtr g, const RunConfig& c, const RunDir& d)
      : game(std::move(g)),
        cfg(c),
        dir(d),
        window(c.trainer().window_positions(), c.trainer().root_value_weight()),
        precision(parse_precision(c.trainer().precision())) {}

  // The window for the model's heads: ownership targets only for a network that learns them.
  // Set before the first game is added.
  void make_window() {
    const auto& t = cfg.trainer();
    window = Window(t.window_positions(), t.root_value_weight(),
                    model->has_ownership_head() ? t.ownership_plies() : 0,
                    t.cut_game_result() == "root_value");
  }

  std::unique_ptr<torch::optim::Optimizer> new_optimizer(Model& net) const {
    const auto& o = cfg.trainer().optimizer();
    auto params = net.impl().net->parameters();
    if (o.kind() == "adam") {
      return std::make_unique<torch::optim::Adam>(
          params, torch::optim::AdamOptions(o.learning_rate()).weight_decay(o.weight_decay()));
    }
    return std::make_unique<torch::optim::SGD>(params, torch::optim::SGDOptions(o.learning_rate())
                                                           .momentum(o.momentum())
                                                           .nesterov(o.momentum() > 0)
                                                           .weight_decay(o.weight_decay()));
  }
  void make_optimizer() { opt = new_optimizer(*model); }

  // Loads trainer.ckpt: weights, optimiser and state. Every failure (a damaged archive, a state
  // that does not parse, a network config out of range, weights of another shape) is a
  // ModelError naming the file; the metadata is checked before anything is allocated.
  // With `bytes` the checkpoint comes from them (rank 0's, on the other ranks).
  void load_checkpoint(const std::string& device, const std::string* bytes = nullptr) {
    const std::string path = dir.checkpoint() + (bytes ? " (rank 0's)" : "");
    auto damaged = [&](const std::string& why) {
      return ModelError("trainer checkpoint " + path + " is damaged: " + why.substr(0, 300));
    };
    torch::serialize::InputArchive archive =
        bytes ? read_checked_archive_bytes(*bytes, CheckedKind::trainer_checkpoint,
                                           "trainer checkpoint " + path)
              : read_checked_archive(path, CheckedKind::trainer_checkpoint);
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
    check_policy_map(*model->impl().net, state.model(), path);
    model->impl().device = parse_device(device);
    model->impl().net->to(model->impl().device);
    make_optimizer();
    try {
      archive.read("optimizer", opt_archive);
      opt->load(opt_archive);
    } catch (const std::exception& e) {
      throw damaged(std::string("optimizer state: ") + e.what());
    }
    if (state.has_growth()) load_growth(archive, device, path, damaged);
  }

  // A growth stage under way in the checkpoint: its network and optimizer. A stage the config no
  // longer has is dropped (with a warning): the run goes on with its current network.
  template <typename Damaged>
  void load_growth(torch::serialize::InputArchive& archive, const std::string& device,
                   const std::string& path, const Damaged& damaged) {
    const GrowthState& g = state.growth();
    if (g.stage() != state.growth_takeover_steps_size() || g.stage() >= cfg.growth_size()) {
      spdlog::warn(
          "{} holds growth stage {} under way, which the config does not have next; "
          "the run goes on with its {} network",
          path, g.stage(), network_shape(model->metadata().network()));
      state.clear_growth();
      return;
    }
    Model::check_metadata(g.network(), path);
    Model::check_compatible(g.network(), *game, path);
    grown = Model::from_metadata(g.network(), "cpu");
    torch::serialize::InputArchive net_archive, opt_archive;
    try {
      archive.read("growth_net", net_archive);
      grown->impl().net->load(net_archive);
    } catch (const std::exception& e) {
      throw damaged(std::string("growing network's weights: ") + e.what());
    }
    check_policy_map(*grown->impl().net, g.network(), path);
    grown->impl().device = parse_device(device);
    grown->impl().net->to(grown->impl().device);
    grown_opt = new_optimizer(*grown);
    try {
      archive.read("growth_optimizer", opt_archive);
      grown_opt->load(opt_archive);
    } catch (const std::exception& e) {
      throw damaged(std::string("growing network's optimizer state: ") + e.what());
    }
    grown->impl().net->train();
  }

  // Adds a chunk's games to the window; false if it cannot be read. A game that does not
  // replay or has bad policy targets is skipped (with a warning), the rest of the chunk kept.
  // A reanalysis record's targets replace those of the game it names (Window::apply_reanalysis);
  // one that does not match its game is skipped the same way.
  bool ingest(const std::string& name, bool count) {
    RecordChunk chunk;
    try {
      chunk = read_record_chunk((fs::path(dir.records()) / name).string(), *game);
    } catch (const RecordError& e) {
      spdlog::warn("trainer skips a record chunk: {}", e.what());
      return false;
    }
    for (int i = 0; i < chunk.games_size(); ++i) {
      if (chunk.games(i).has_reanalysis()) {
        int n = 0;
        try {
          n = window.apply_reanalysis(*game, chunk.games(i));
        } catch (const RecordError& e) {
          spdlog::warn("trainer skips reanalysis {} of {}: {}", i + 1, name, e.what());
          continue;
        }
        if (count) state.set_reanalysed_positions(state.reanalysed_positions() + n);
        continue;
      }
      int n = 0;
      try {
        n = window.add_game(*game, chunk.games(i), record_game_key(name, i));
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

  // Rebuilds the window exactly as it was: the same chunks in the same order.
  void rebuild_window() {
    for (const std::string& name : state.ingested_chunks()) {
      ingest(name, false);
      ingested.insert(name);
    }
  }

  std::string checkpoint_bytes() {
    ModelMetadata meta = model->metadata();
    meta.set_training_step(state.step());
    *state.mutable_model() = meta;
    state.set_cpu_seconds(run_cpu_seconds());
    torch::serialize::OutputArchive archive, net_archive, opt_archive;
    model->impl().net->save(net_archive);
    opt->save(opt_archive);
    archive.write("net", net_archive);
    archive.write("optimizer", opt_archive);
    if (grown) {
      torch::serialize::OutputArchive grown_archive, grown_opt_archive;
      grown->impl().net->save(grown_archive);
      grown_opt->save(grown_opt_archive);
      archive.write("growth_net", grown_archive);
      archive.write("growth_optimizer", grown_opt_archive);
    }
    archive.write("trainer_state", bytes_to_tensor(state.SerializeAsString()));
    return checked_archive_bytes(archive, CheckedKind::trainer_checkpoint);
  }

  // What every rank must agree on: the trainer's config (but its threads), the network, the
  // seed, the ruleset and the shards per rank.
  uint64_t config_hash() const {
    TrainerConfig t = cfg.trainer();
    t.clear_threads();
    const std::string s = t.SerializeAsString() + '\0' + cfg.network().SerializeAsString() + '\0' +
                          std::to_string(cfg.seed()) + '\0' + game->fingerprint() + '\0' +
                          std::to_string(micro_batches);
    return XXH64(s.data(), s.size(), 0);
  }

  // Rank 0 sends the record chunks `names` (their bytes, from its records/); the other ranks keep
  // them in their own records/ and return the names. So a rank needs no shared file system or
  // store, only rank 0. A chunk rank 0 cannot read is sent as missing (and skipped by all).
  std::vector<std::string> share_chunks(std::vector<std::string> names) {
    std::string payload;
    if (group->rank() == 0) {
      for (const std::string& name : names) {
        std::string bytes;
        bool readable = true;
        try {
          bytes = read_whole_file((fs::path(dir.records()) / name).string());
        } catch (const std::exception&) {
          readable = false;
        }
        payload += name + '\n' + (readable ? std::to_string(bytes.size()) : "-") + '\n' + bytes;
      }
      group->broadcast_bytes(payload);
      return names;
    }
    payload = group->broadcast_bytes(payload);
    names.clear();
    fs::create_directories(dir.records());
    size_t pos = 0;
    auto line = [&] {
      const size_t end = payload.find('\n', pos);
      if (end == std::string::npos) throw DistributedError("rank 0 sent a damaged chunk list");
      std::string text = payload.substr(pos, end - pos);
      pos = end + 1;
      return text;
    };
    while (pos < payload.size()) {
      const std::string name = line();
      const std::string size = line();
      if (name.empty() || name[0] == '.' || name.find('/') != std::string::npos) {
        throw DistributedError("rank 0 sent a chunk with a bad name: " + name.substr(0, 100));
      }
      names.push_back(name);
      if (size == "-") continue;
      const size_t n = size.find_first_not_of("0123456789") == std::string::npos && !size.empty()
                           ? std::stoull(size)
                           : std::string::npos;
      if (n > payload.size() - pos) throw DistributedError("rank 0 sent a damaged chunk list");
      const std::string path = (fs::path(dir.records()) / name).string();
      const std::string bytes = payload.substr(pos, n);
      pos += n;
      if (!fs::exists(path) || read_whole_file(path) != bytes) atomic_write_file(path, bytes);
    }
    return names;
  }

  uint64_t window_hash() const {
    uint64_t h = mix_seed(window.size(), state.games_seen());
    h = mix_seed(h, state.positions_seen());
    h = mix_seed(h, state.reanalysed_positions());
    return mix_seed(h, state.ingested_chunks_size());
  }
};

Trainer::Trainer(GamePtr game, const RunConfig& config, const RunDir& dir, DataParallel* group,
                 int micro_batches)
    : impl_(std::make_unique<Impl>(std::move(game), config, dir)) {
  Impl& m = *impl_;
  if (micro_batches < 1) throw std::invalid_argument("micro_batches must be at least 1");
  m.group = group;
  m.micro_batches = micro_batches;
  // Growth trains a second network on the step's batch; across shards its gradients and
  // batch-norm statistics would need their own all-reduce, which data-parallel training does not
  // do. Every rank refuses here, before it talks to the others.
  check_growth_shards(config, m.shards());
  set_torch_threads(config.trainer().threads());
  const std::string device = config.device();
  const bool follower = group && group->rank() > 0;
  if (group) group->check_same(m.config_hash(), "trainer config, network, seed or ruleset");
  if (follower) {
    // Every rank starts from rank 0's checkpoint: the same weights, optimiser and window.
    const std::string bytes = group->broadcast_bytes("");
    m.load_checkpoint(device, &bytes);
    m.make_window();
    m.share_chunks({});
    m.rebuild_window();
    spdlog::info("trainer rank {} starts at rank 0's step {} (window {} positions)", group->rank(),
                 m.state.step(), m.window.size());
  } else if (fs::exists(dir.checkpoint())) {
    m.load_checkpoint(device);
    m.make_window();
    m.cpu_base = m.state.cpu_seconds();
    m.rebuild_window();
    spdlog::info("trainer resumed at step {} ({} games, window {} positions, {:.2f} core-hours)",
                 m.state.step(), m.state.games_seen(), m.window.size(), m.cpu_base / 3600);
  } else {
    m.model = Model::load(dir.model(0), *m.game, device);
    m.make_window();
    // A warm start made by an earlier process (killed before the first checkpoint, or an
    // initial network copied in) still counts; one made in this process is already in its time.
    m.cpu_base = std::max(0.0, m.model->metadata().core_hours() * 3600 - process_cpu_seconds());
    m.make_optimizer();
    *m.state.mutable_model() = m.model->metadata();
    // 0 for a fresh or warm-started network; a run started from a trained model
    // (RunConfig.start_model) continues its step count, so schedules and model names go on.
    m.state.set_step(m.model->metadata().training_step());
    m.state.set_start_step(m.state.step());
    spdlog::info("trainer starts from {}", m.model->metadata().model_id());
  }
  m.model->impl().net->train();
  if (!m.model->impl().device.is_cpu()) m.precision = Precision::kFloat32;  // CPU autocast only
  spdlog::info("trainer: {} training passes", precision_name(m.precision));
  if (group) {
    if (!follower) {
      group->broadcast_bytes(m.checkpoint_bytes());
      const auto& window = m.state.ingested_chunks();
      m.share_chunks({window.begin(), window.end()});
    }
    group->check_same(state_hash(), "weights after loading rank 0's checkpoint");
    group->check_same(m.window_hash(), "window (do all ranks read the same records?)");
  }
}

Trainer::~Trainer() = default;

int Trainer::ingest_new_records() {
  Impl& m = *impl_;
  // Rank 0 decides which chunks to read and sends them; the other ranks read the same ones, in
  // the same order.
  std::vector<std::string> names;
  if (!m.group || m.group->rank() == 0) {
    for (const std::string& name : list_record_chunks(m.dir.records())) {
      if (!m.ingested.count(name)) names.push_back(name);
    }
  }
  if (m.group) names = m.share_chunks(names);
  int games = 0;
  for (const std::string& name : names) {
    if (m.ingested.count(name)) continue;
    const int64_t before = m.state.games_seen();
    m.ingest(name, true);
    // A chunk that cannot be read is remembered too, so that it is not retried forever.
    m.ingested.insert(name);
    m.state.add_ingested_chunks(name);
    games += static_cast<int>(m.state.games_seen() - before);
  }
  if (m.group && !names.empty()) {
    m.group->check_same(m.window_hash(), "window (do all ranks read the same records?)");
  }
  return games;
}

bool Trainer::ready() const {
  return impl_->window.size() >= static_cast<size_t>(impl_->cfg.trainer().min_positions()) &&
         impl_->window.size() >= static_cast<size_t>(impl_->shards());
}

int64_t Trainer::steps_allowed() const {
  const Impl& m = *impl_;
  if (!ready()) return 0;
  const auto& t = m.cfg.trainer();
  // Reanalysed positions count as new ones: their targets are new, and self-play spent on each
  // the search a new position costs, so the trainer's steps per simulation of self-play stay
  // what they are without reanalysis (an A/B at equal core-hours then splits the CPU alike).
  const int64_t positions = m.state.positions_seen() + m.state.reanalysed_positions();
  // Counted from the run's first step: a run started from a trained model (start_step > 0)
  // trains as soon as its window is ready, not once it has caught up with the model's steps.
  int64_t target =
      m.state.start_step() + static_cast<int64_t>(positions * double(t.samples_per_position()) /
                                                  (t.batch_size() * m.shards()));
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

Trainer::Impl::Batch Trainer::Impl::make_batch(int64_t step, int shard, int shards) {
  Impl& m = *this;
  const auto& t = m.cfg.trainer();
  const int batch = t.batch_size();
  const int size = m.model->input_size();
  const int actions = m.model->num_actions();
  // The batch of step n depends only on the seed, n and the window; shard k > 0 of a
  // data-parallel step has its own seed and draws from positions k, k + shards, k + 2 shards...
  const uint64_t seed = mix_seed(m.cfg.seed(), uint64_t(step));
  std::mt19937_64 rng(shard == 0 ? seed : mix_seed(seed, uint64_t(shard)));
  const int syms = t.no_augmentation() ? 1 : std::max(1, m.game->num_symmetries());

  auto input = torch::zeros({batch, size}, torch::kFloat32);
  auto target = torch::zeros({batch, actions}, torch::kFloat32);
  auto mask = torch::zeros({batch, actions}, torch::kFloat32);
  auto wdl = torch::zeros({batch, 3}, torch::kFloat32);
  auto has_policy = torch::zeros({batch}, torch::kFloat32);
  auto points = torch::zeros({batch}, torch::kFloat32);
  const auto& meta = m.model->metadata();
  const int cells = meta.input_height() * meta.input_width();
  const bool ownership_head = m.model->has_ownership_head();
  // Ownership targets and which samples have one ([batch, H * W] and [batch]; empty without
  // the head).
  auto ownership = torch::zeros({ownership_head ? batch : 0, cells}, torch::kFloat32);
  auto has_ownership = torch::zeros({ownership_head ? batch : 0}, torch::kFloat32);
  float* in = input.data_ptr<float>();
  float* tg = target.data_ptr<float>();
  float* mk = mask.data_ptr<float>();
  float* wd = wdl.data_ptr<float>();
  float* hp = has_policy.data_ptr<float>();
  float* pt = points.data_ptr<float>();
  std::vector<float> scratch(size);
  std::uniform_int_distribution<size_t> pick(0,
                                             (m.window.size() - shard + shards - 1) / shards - 1);
  for (int b = 0; b < batch; ++b) {
    const Sample& s = m.window[pick(rng) * shards + shard];
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
    pt[b] = s.points;
    if (ownership_head && !s.ownership.empty()) {
      float* own = ownership.data_ptr<float>() + size_t(b) * cells;
      std::copy(s.ownership.begin(), s.ownership.end(), own);
      if (sym > 0) m.game->apply_symmetry_plane(sym, own);  // as the input planes
      has_ownership.data_ptr<float>()[b] = 1;
    }
  }
  Batch out;
  out.size = batch;
  out.input = input.view({batch, meta.input_channels(), meta.input_height(), meta.input_width()});
  out.target = target;
  out.mask = mask;
  out.wdl = wdl;
  out.has_policy = has_policy;
  out.points = points;
  out.ownership = ownership;
  out.has_ownership = has_ownership;
  return out;
}

Trainer::Impl::Losses Trainer::Impl::losses(Model& model, const Batch& batch) {
  const auto& t = cfg.trainer();
  const auto dev = model.impl().device;
  auto& net = model.impl().net;
  net->train();
  NetOutput out = net->forward_for_training(batch.input.to(dev), precision);
  auto masked = out.policy.masked_fill(batch.mask.to(dev) == 0, -1e9f);
  auto hp_dev = batch.has_policy.to(dev);
  auto per_sample = -(batch.target.to(dev) * torch::log_softmax(masked, 1)).sum(1) * hp_dev;
  auto policy_loss = per_sample.sum() / hp_dev.sum().clamp_min(1.0f);
  auto value_loss = -(batch.wdl.to(dev) * torch::log_softmax(out.value, 1)).sum(1).mean();
  auto loss = policy_loss + t.value_loss_weight() * value_loss;
  // The points head (if any): Huber loss in points, robust to a game's points scale.
  torch::Tensor points_loss;
  if (out.points.defined()) {
    points_loss = torch::nn::functional::huber_loss(out.points, batch.points.to(dev));
    loss = loss + t.points_loss_weight() * points_loss;
  }
  // The ownership head (if any): the squared error of its tanh output, averaged over the grid's
  // cells and over the samples that have a target. Squared error (not a cross-entropy over
  // three classes): the head is one tanh plane whose best answer is the expected ownership, and
  // a cell's loss is bounded (at most 4), so a few surprising captures cannot swamp a step.
  torch::Tensor ownership_loss;
  if (out.ownership.defined() && batch.has_ownership.numel() > 0) {
    auto has = batch.has_ownership.to(dev);
    auto per_sample = (out.ownership.flatten(1) - batch.ownership.to(dev)).pow(2).mean(1) * has;
    ownership_loss = per_sample.sum() / has.sum().clamp_min(1.0f);
    loss = loss + t.ownership_loss_weight() * ownership_loss;
  }
  return {loss, policy_loss, value_loss, points_loss, ownership_loss};
}

double Trainer::Impl::growth_learning_rate(int64_t step, double lr) const {
  const auto& o = cfg.trainer().optimizer();
  const int64_t since = step - state.growth().start_step();
  if (o.warmup_steps() > 0 && since < o.warmup_steps()) {
    // The trainer's own warm-up is over by now (or applies to both): undo it, count from here.
    if (step < o.warmup_steps()) lr /= double(step + 1) / double(o.warmup_steps());
    lr *= double(since + 1) / double(o.warmup_steps());
  }
  return lr;
}

void Trainer::Impl::maybe_start_growth(int64_t step) {
  const int next = state.growth_takeover_steps_size();
  if (grown || next >= cfg.growth_size()) return;
  const GrowthStage& g = cfg.growth(next);
  const double hours = run_cpu_seconds() / 3600;
  if (g.has_at_step() ? step < g.at_step() : hours < g.at_core_hours()) return;
  // The stage's shape over the current network: the heads stay the run's.
  NetworkConfig network = model->metadata().network();
  network.MergeFrom(g.network());
  grown = Model::create(*game, network, cfg.device(),
                        mix_seed(cfg.seed(), 0x67726f77ULL + uint64_t(next)));
  grown->impl().net->train();
  grown_opt = new_optimizer(*grown);
  GrowthState& gs = *state.mutable_growth();
  gs.Clear();
  gs.set_stage(next);
  gs.set_start_step(step);
  *gs.mutable_network() = grown->metadata();
  spdlog::info(
      "growth stage {}: a {} network ({} parameters) learns from the window for {} steps beside "
      "the {} one ({} parameters), which self-play keeps playing; it takes over at step {} "
      "(step {}, {:.2f} core-hours)",
      next, network_shape(grown->metadata().network()), grown->parameter_count(), g.distill_steps(),
      network_shape(model->metadata().network()), model->parameter_count(),
      step + g.distill_steps(), step, hours);
}

GrowthTakeover Trainer::Impl::take_over() {
  const GrowthState& gs = state.growth();
  GrowthTakeover t;
  t.stage = gs.stage();
  t.start_step = gs.start_step();
  t.step = state.step();
  t.core_hours = run_cpu_seconds() / 3600;
  t.before = model->metadata().network();
  t.after = grown->metadata().network();
  t.parameters_before = model->parameter_count();
  t.parameters_after = grown->parameter_count();
  const double n = std::max(1, gs.summed_steps());
  t.steps_averaged = gs.summed_steps();
  t.old_policy_loss = gs.old_policy_loss() / n;
  t.old_value_loss = gs.old_value_loss() / n;
  t.old_points_loss = gs.old_points_loss() / n;
  t.old_ownership_loss = gs.old_ownership_loss() / n;
  t.new_policy_loss = gs.new_policy_loss() / n;
  t.new_value_loss = gs.new_value_loss() / n;
  t.new_points_loss = gs.new_points_loss() / n;
  t.new_ownership_loss = gs.new_ownership_loss() / n;
  // The grown network goes on from here as the trainer's: write_model() names the old network's
  // last model as its parent.
  grown->metadata().set_model_id(model->metadata().model_id());
  grown->metadata().set_parent_model(model->metadata().parent_model());
  grown->metadata().set_training_step(state.step());
  model = std::move(grown);
  opt = std::move(grown_opt);
  state.add_growth_takeover_steps(state.step());
  state.clear_growth();
  *state.mutable_model() = model->metadata();
  spdlog::info(
      "growth stage {}: the {} network takes over from the {} one at step {} ({:.2f} "
      "core-hours); last {} steps' losses, new vs old: policy {:.3f} vs {:.3f}, value {:.3f} vs "
      "{:.3f}",
      t.stage, network_shape(t.after), network_shape(t.before), t.step, t.core_hours,
      t.steps_averaged, t.new_policy_loss, t.old_policy_loss, t.new_value_loss, t.old_value_loss);
  return t;
}

TrainStepResult Trainer::train_step() {
  Impl& m = *impl_;
  if (m.window.size() < size_t(m.shards())) {
    throw std::logic_error("train_step with a window smaller than its shards");
  }
  const int64_t step = m.state.step();
  const double lr = learning_rate(step);
  for (auto& group : m.opt->param_groups()) group.options().set_lr(lr);
  m.opt->zero_grad();
  m.maybe_start_growth(step);
  TrainStepResult r;
  // The gradient of the mean of the shards' losses: this process's micro-batches accumulated,
  // then averaged over the ranks.
  double policy_loss = 0, value_loss = 0, points_loss = 0, ownership_loss = 0;
  bool has_points = false, has_ownership = false;
  for (int k = 0; k < m.micro_batches; ++k) {
    const Impl::Batch batch = m.make_batch(step, m.first_shard() + k, m.shards());
    if (m.grown) {
      // The growing network learns from the same batch with the same loss (one shard: growth
      // is refused with more).
      const double grown_lr = m.growth_learning_rate(step, lr);
      for (auto& group : m.grown_opt->param_groups()) group.options().set_lr(grown_lr);
      m.grown_opt->zero_grad();
      Impl::Losses g = m.losses(*m.grown, batch);
      g.loss.backward();
      m.grown_opt->step();
      r.distilling = true;
      r.new_policy_loss = g.policy.item<double>();
      r.new_value_loss = g.value.item<double>();
      if (g.points.defined()) r.new_points_loss = g.points.item<double>();
      if (g.ownership.defined()) r.new_ownership_loss = g.ownership.item<double>();
    }
    Impl::Losses l = m.losses(*m.model, batch);
    if (m.micro_batches > 1) l.loss = l.loss / double(m.micro_batches);
    l.loss.backward();
    policy_loss += l.policy.item<double>() / m.micro_batches;
    value_loss += l.value.item<double>() / m.micro_batches;
    if (l.points.defined()) {
      has_points = true;
      points_loss += l.points.item<double>() / m.micro_batches;
    }
    if (l.ownership.defined()) {
      has_ownership = true;
      ownership_loss += l.ownership.item<double>() / m.micro_batches;
    }
  }
  if (m.group) {
    // One all-reduce of the gradients, the batch-norm statistics (each rank's come from its own
    // shard; their mean keeps every rank's model the same) and the losses for the log.
    torch::NoGradGuard no_grad;
    auto& net = m.model->impl().net;
    std::vector<torch::Tensor> targets;
    for (auto& p : net->parameters()) {
      if (p.grad().defined()) targets.push_back(p.grad());
    }
    for (auto& b : net->buffers()) {
      if (b.is_floating_point()) targets.push_back(b);
    }
    auto losses =
        torch::tensor({policy_loss, value_loss, points_loss, ownership_loss}, torch::kFloat64);
    targets.push_back(losses);
    std::vector<torch::Tensor> flat_parts;
    for (auto& x : targets) flat_parts.push_back(x.reshape(-1).to(torch::kCPU, torch::kFloat32));
    auto flat = torch::cat(flat_parts).contiguous();
    m.group->average(flat);
    int64_t offset = 0;
    for (auto& x : targets) {
      x.copy_(flat.narrow(0, offset, x.numel()).view(x.sizes()));
      offset += x.numel();
    }
    policy_loss = losses[0].item<double>();
    value_loss = losses[1].item<double>();
    points_loss = losses[2].item<double>();
    ownership_loss = losses[3].item<double>();
  }
  m.opt->step();
  m.state.set_step(step + 1);
  r.step = step + 1;
  r.policy_loss = policy_loss;
  r.value_loss = value_loss;
  if (has_points) r.points_loss = points_loss;
  if (has_ownership) r.ownership_loss = ownership_loss;
  r.lr = lr;
  r.batch = m.cfg.trainer().batch_size() * m.shards();
  if (m.grown) {
    // Both networks' losses over the distillation's last steps (up to 100), for the take-over.
    GrowthState& gs = *m.state.mutable_growth();
    const int distill = m.cfg.growth(gs.stage()).distill_steps();
    const int64_t end = gs.start_step() + distill;
    if (r.step > end - std::min(distill, 100)) {
      gs.set_old_policy_loss(gs.old_policy_loss() + r.policy_loss);
      gs.set_old_value_loss(gs.old_value_loss() + r.value_loss);
      gs.set_old_points_loss(gs.old_points_loss() + r.points_loss);
      gs.set_old_ownership_loss(gs.old_ownership_loss() + r.ownership_loss);
      gs.set_new_policy_loss(gs.new_policy_loss() + r.new_policy_loss);
      gs.set_new_value_loss(gs.new_value_loss() + r.new_value_loss);
      gs.set_new_points_loss(gs.new_points_loss() + r.new_points_loss);
      gs.set_new_ownership_loss(gs.new_ownership_loss() + r.new_ownership_loss);
      gs.set_summed_steps(gs.summed_steps() + 1);
    }
    if (r.step >= end) r.takeover = m.take_over();
  }
  return r;
}

void Trainer::save_checkpoint() {
  Impl& m = *impl_;
  atomic_write_file(m.dir.checkpoint(), m.checkpoint_bytes());
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
  meta.set_core_hours(m.run_cpu_seconds() / 3600);
  meta.set_created(utc_now_iso());
  meta.set_created_unix_ms(unix_ms_now());
  const std::string path = m.dir.model(m.state.step());
  m.model->save(path);
  m.state.set_last_candidate(meta.model_id());
  return path;
}

int64_t Trainer::step() const { return impl_->state.step(); }
double Trainer::core_hours() const { return impl_->run_cpu_seconds() / 3600; }
int64_t Trainer::games_seen() const { return impl_->state.games_seen(); }
int64_t Trainer::positions_seen() const { return impl_->state.positions_seen(); }
int64_t Trainer::reanalysed_positions() const { return impl_->state.reanalysed_positions(); }
size_t Trainer::window_size() const { return impl_->window.size(); }
std::vector<std::string> Trainer::ingested_chunks() const {
  const auto& names = impl_->state.ingested_chunks();
  return {names.begin(), names.end()};
}
const ModelMetadata& Trainer::model_metadata() const { return impl_->model->metadata(); }

bool Trainer::distilling() const { return impl_->grown != nullptr; }
int Trainer::growth_stages_done() const { return impl_->state.growth_takeover_steps_size(); }

std::string Trainer::growth_status() const {
  const Impl& m = *impl_;
  if (m.grown) {
    const GrowthState& gs = m.state.growth();
    return fmt::format("growing {}->{} {}/{}", network_shape(m.model->metadata().network()),
                       network_shape(m.grown->metadata().network()),
                       m.state.step() - gs.start_step(), m.cfg.growth(gs.stage()).distill_steps());
  }
  const auto& steps = m.state.growth_takeover_steps();
  if (steps.empty()) return "";
  return fmt::format("net {} since step {}", network_shape(m.model->metadata().network()),
                     steps[steps.size() - 1]);
}

void check_growth_shards(const RunConfig& config, int shards) {
  if (config.growth_size() == 0 || shards <= 1) return;
  throw ConfigError("growth stages (growth { ... }, " + std::to_string(config.growth_size()) +
                    " in the config) are not supported by data-parallel training (" +
                    std::to_string(shards) +
                    " shards a step: --world-size or micro-batches); train with one process, or "
                    "remove the growth stages");
}

std::string network_shape(const NetworkConfig& network) {
  return std::to_string(network.blocks()) + "x" + std::to_string(network.channels()) +
         (network.policy_head() == "conv" ? " conv" : "");
}

uint64_t Trainer::state_hash() const {
  uint64_t h = uint64_t(impl_->state.step());
  auto& net = impl_->model->impl().net;
  for (const auto& list : {net->parameters(), net->buffers()}) {
    for (const auto& x : list) {
      const auto c = x.detach().to(torch::kCPU).contiguous();
      h = XXH64(c.data_ptr(), c.numel() * c.element_size(), h);
    }
  }
  return h;
}

}  // namespace pincer
