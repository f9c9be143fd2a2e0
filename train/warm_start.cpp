#include "train/warm_start.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <mutex>
#include <random>
#include <stdexcept>
#include <thread>

#include "engine/clock.h"
#include "nn/network.h"
#include "play/alphabeta.h"
#include "play/match.h"
#include "play/players.h"
#include "store/records.h"
#include "train/alphabeta_labels.h"
#include "train/config.h"
#include "train/run_setup.h"

namespace pincer {
namespace {

// One game played and labelled by the alpha-beta search, as a record: every move (the random
// opening plies included) carries the search's best move as its policy target (smoothed over the
// other legal moves) and its score as a win probability in root_value.
struct LabelledGame {
  GameRecord record;
  int64_t depth_sum = 0;
};

LabelledGame play_labelled_game(const Game& game, const WarmStartConfig& c, uint64_t seed) {
  LabelledGame out;
  GameRecord& rec = out.record;
  Rng rng(seed);
  AlphaBetaOptions ao;
  ao.max_depth = c.search_depth();
  ao.hash_mb = 4;
  AlphaBeta search(game, ao);
  auto state = game.start_state(seed);
  if (game.random_start()) rec.set_start(state->to_text());
  rec.set_game(game.game_name());
  rec.set_ruleset_name(game.ruleset_name());
  rec.set_fingerprint(game.fingerprint());
  rec.set_model_id("alphabeta:depth=" + std::to_string(c.search_depth()));
  rec.set_seed(seed);
  const std::vector<Action> opening = random_opening(game, c.opening_plies(), seed, state.get());
  std::vector<Action> legal;
  int plies = 0;
  while (!state->outcome().over && plies < c.max_plies()) {
    state->legal_actions(legal);
    const SearchInfo info = search.search(*state);
    out.depth_sum += info.depth;
    MoveRecord& m = *rec.add_moves();
    label_with_alphabeta(legal, info, c.policy_smoothing(), c.value_scale(), m);
    const size_t ply = static_cast<size_t>(plies);
    Action played = info.best;
    if (ply < opening.size()) {
      played = opening[ply];
    } else if (legal.size() > 1 && rng.uniform() < c.random_move_probability()) {
      played = legal[rng.below(static_cast<uint32_t>(legal.size()))];
    }
    m.set_action(played);
    state->apply(played);
    ++plies;
  }
  const Outcome o = state->outcome();
  // A game cut at max_plies counts as a draw.
  rec.set_winner(o.over ? o.winner : -1);
  rec.set_reason(o.over ? o.reason : "max_plies");
  return out;
}

// A batch of samples as tensors (the trainer's layout), with a random symmetry each.
struct Batch {
  torch::Tensor input, target, mask, wdl;
  // Auxiliary targets: points [N]; ownership [N, H * W] and which samples have one [N] (the
  // ownership tensors are empty without an ownership head).
  torch::Tensor points, ownership, has_ownership;
};

Batch make_batch(const Game& game, const Model& model, const std::vector<const Sample*>& picked,
                 std::mt19937_64* rng) {
  const int n = static_cast<int>(picked.size());
  const int size = model.input_size();
  const int actions = model.num_actions();
  const int syms = rng ? std::max(1, game.num_symmetries()) : 1;
  Batch b;
  b.input = torch::zeros({n, size}, torch::kFloat32);
  b.target = torch::zeros({n, actions}, torch::kFloat32);
  b.mask = torch::zeros({n, actions}, torch::kFloat32);
  b.wdl = torch::zeros({n, 3}, torch::kFloat32);
  b.points = torch::zeros({n}, torch::kFloat32);
  const auto& meta = model.metadata();
  const int cells = meta.input_height() * meta.input_width();
  const bool ownership_head = model.has_ownership_head();
  b.ownership = torch::zeros({ownership_head ? n : 0, cells}, torch::kFloat32);
  b.has_ownership = torch::zeros({ownership_head ? n : 0}, torch::kFloat32);
  float* in = b.input.data_ptr<float>();
  float* tg = b.target.data_ptr<float>();
  float* mk = b.mask.data_ptr<float>();
  float* wd = b.wdl.data_ptr<float>();
  std::vector<float> scratch(size);
  for (int i = 0; i < n; ++i) {
    const Sample& s = *picked[i];
    float* planes = in + size_t(i) * size;
    float* pol = tg + size_t(i) * actions;
    float* msk = mk + size_t(i) * actions;
    s.state->encode(planes);
    for (size_t k = 0; k < s.policy_index.size(); ++k) {
      pol[s.policy_index[k]] = s.policy[k];
      msk[s.policy_index[k]] = 1;
    }
    const int sym = syms > 1 ? static_cast<int>((*rng)() % syms) : 0;
    if (sym > 0) {
      std::copy(planes, planes + size, scratch.begin());
      game.apply_symmetry(sym, planes, pol);
      game.apply_symmetry(sym, scratch.data(), msk);
    }
    for (int k = 0; k < 3; ++k) wd[i * 3 + k] = s.wdl[k];
    b.points.data_ptr<float>()[i] = s.points;
    if (ownership_head && !s.ownership.empty()) {
      float* own = b.ownership.data_ptr<float>() + size_t(i) * cells;
      std::copy(s.ownership.begin(), s.ownership.end(), own);
      if (sym > 0) game.apply_symmetry_plane(sym, own);  // as the input planes
      b.has_ownership.data_ptr<float>()[i] = 1;
    }
  }
  b.input = b.input.view({n, meta.input_channels(), meta.input_height(), meta.input_width()});
  return b;
}

}  // namespace

void add_warm_start_samples(const Game& game, const GameRecord& record, double result_weight,
                            std::vector<Sample>& out) {
  std::vector<Sample> added;
  replay_record(game, record, [&](const State& state, int i) {
    const MoveRecord& m = record.moves(i);
    Sample s;
    s.state = state.clone();
    for (int k = 0; k < m.policy_actions_size() && k < m.policy_size(); ++k) {
      s.policy_index.push_back(state.policy_index(m.policy_actions(k)));
      s.policy.push_back(m.policy(k));
    }
    s.wdl = value_target(record, state.to_move(), m.root_value(), 1 - result_weight);
    added.push_back(std::move(s));
  });
  for (Sample& s : added) out.push_back(std::move(s));
}

void set_warm_start_aux_targets(const Game& game, WarmStartData& data, int ownership_plies) {
  size_t from = 0;
  for (const GameRecord& record : data.records) {
    const size_t n = static_cast<size_t>(record.moves_size());
    if (n == 0) continue;
    if (from + n > data.samples.size()) {
      throw std::logic_error("warm start: fewer samples than the records' moves");
    }
    auto final_state = data.samples[from + n - 1].state->clone();
    final_state->apply(record.moves(record.moves_size() - 1).action());
    set_aux_targets(game, record, *final_state, ownership_plies, data.samples.data() + from, n);
    from += n;
  }
  if (from != data.samples.size()) {
    throw std::logic_error("warm start: more samples than the records' moves");
  }
}

AuxLossWeights aux_loss_weights(const TrainerConfig& trainer) {
  return {trainer.points_loss_weight(), trainer.ownership_loss_weight()};
}

WarmStartData generate_warm_start_data(const Game& game, const WarmStartConfig& c, uint64_t seed,
                                       const std::atomic<bool>* stop, int first_game,
                                       int total_games) {
  const double t0 = steady_seconds();
  std::vector<LabelledGame> per_game(c.games());
  std::vector<char> done(c.games(), 0);
  std::atomic<int> next{0};
  std::atomic<int> finished{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto worker = [&] {
    for (;;) {
      if (stop && stop->load()) return;
      const int g = next.fetch_add(1);
      if (g >= c.games()) return;
      try {
        per_game[g] = play_labelled_game(game, c, mix_seed(seed, first_game + g));
        done[g] = 1;
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
        return;
      }
      const int f = finished.fetch_add(1) + 1;
      if (f % 50 == 0) {
        spdlog::info("warm start: {}/{} games labelled", first_game + f,
                     std::max(total_games, first_game + c.games()));
      }
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < std::min(c.threads(), c.games()); ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  if (error) std::rethrow_exception(error);
  WarmStartData data;
  int64_t depth_sum = 0;
  for (int g = 0; g < c.games(); ++g) {
    if (!done[g]) continue;
    ++data.games;
    data.plies += per_game[g].record.moves_size();
    depth_sum += per_game[g].depth_sum;
    add_warm_start_samples(game, per_game[g].record, c.result_weight(), data.samples);
    data.records.push_back(std::move(per_game[g].record));
  }
  data.mean_depth = data.plies ? double(depth_sum) / double(data.plies) : 0;
  data.seconds = steady_seconds() - t0;
  return data;
}

namespace {

// Top-move agreement and value cross-entropy of the net on `holdout` (eval mode, no gradients);
// leaves the net in eval mode.
void evaluate_holdout(Model& model, const Game& game, const std::vector<const Sample*>& holdout,
                      PretrainStats& st) {
  auto& net = model.impl().net;
  const auto dev = model.impl().device;
  net->eval();
  torch::NoGradGuard no_grad;
  int agree = 0;
  double vloss = 0;
  for (size_t from = 0; from < holdout.size(); from += 256) {
    std::vector<const Sample*> part(holdout.begin() + from,
                                    holdout.begin() + std::min(holdout.size(), from + 256));
    Batch b = make_batch(game, model, part, nullptr);
    auto [logits, value] = net->forward(b.input.to(dev));
    auto masked = logits.masked_fill(b.mask.to(dev) == 0, -1e9f).cpu();
    auto best = masked.argmax(1);
    auto target_best = b.target.argmax(1);
    agree += (best == target_best).sum().item<int>();
    vloss += -(b.wdl * torch::log_softmax(value.cpu(), 1)).sum().item<double>();
  }
  st.holdout_positions = static_cast<int>(holdout.size());
  if (!holdout.empty()) {
    st.holdout_top1 = double(agree) / holdout.size();
    st.holdout_value_loss = vloss / holdout.size();
  }
}

}  // namespace

PretrainStats pretrain_model(Model& model, const Game& game, const WarmStartData& data,
                             const WarmStartConfig& c, uint64_t seed, Precision precision,
                             const std::atomic<bool>* stop, const PretrainProgress& progress,
                             const AuxLossWeights& aux) {
  const double t0 = steady_seconds();
  // Hold out every 20th position block by game: positions of one game are alike, so split by
  // sample index in runs of 64 (about a game) to keep the holdout honest.
  std::vector<const Sample*> train, holdout;
  for (size_t i = 0; i < data.samples.size(); ++i) {
    ((i / 64) % 20 == 19 ? holdout : train).push_back(&data.samples[i]);
  }
  if (train.empty()) throw std::invalid_argument("warm start: no positions to train on");
  auto& net = model.impl().net;
  const auto dev = model.impl().device;
  torch::optim::Adam opt(net->parameters(),
                         torch::optim::AdamOptions(c.learning_rate()).weight_decay(1e-4));
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + 17);
  std::uniform_int_distribution<size_t> pick(0, train.size() - 1);
  PretrainStats st;
  const int tail_from = c.steps() - std::max(1, c.steps() / 10);
  int tail_n = 0;
  net->train();
  std::vector<const Sample*> picked(c.batch_size());
  for (int step = 0; step < c.steps(); ++step) {
    if (stop && stop->load()) break;
    for (auto& p : picked) p = train[pick(rng)];
    Batch b = make_batch(game, model, picked, &rng);
    NetOutput out = net->forward_for_training(b.input.to(dev), precision);
    auto& logits = out.policy;
    auto& value = out.value;
    auto masked = logits.masked_fill(b.mask.to(dev) == 0, -1e9f);
    auto policy_loss = -(b.target.to(dev) * torch::log_softmax(masked, 1)).sum(1).mean();
    auto value_loss = -(b.wdl.to(dev) * torch::log_softmax(value, 1)).sum(1).mean();
    const double lr = c.learning_rate() * 0.5 * (1 + std::cos(M_PI * step / c.steps()));
    for (auto& group : opt.param_groups()) group.options().set_lr(lr);
    auto loss = policy_loss + value_loss;
    if (out.points.defined() && aux.points > 0) {
      loss = loss + aux.points * torch::nn::functional::huber_loss(out.points, b.points.to(dev));
    }
    if (out.ownership.defined() && aux.ownership > 0) {
      // As the trainer's: squared error per cell, over the samples with a target.
      auto has = b.has_ownership.to(dev);
      auto per_sample = (out.ownership.flatten(1) - b.ownership.to(dev)).pow(2).mean(1) * has;
      loss = loss + aux.ownership * (per_sample.sum() / has.sum().clamp_min(1.0f));
    }
    opt.zero_grad();
    loss.backward();
    opt.step();
    st.steps = step + 1;
    if (step >= tail_from) {
      st.policy_loss += policy_loss.item<double>();
      st.value_loss += value_loss.item<double>();
      ++tail_n;
    }
    if ((step + 1) % 250 == 0) {
      spdlog::info("warm start: step {}/{} loss p {:.3f} v {:.3f}", step + 1, c.steps(),
                   policy_loss.item<double>(), value_loss.item<double>());
    }
    if (progress.every > 0 && (step + 1) % progress.every == 0 && step + 1 < c.steps()) {
      PretrainStats now = st;
      evaluate_holdout(model, game, holdout, now);
      now.seconds = steady_seconds() - t0;
      spdlog::info("warm start: step {}: held out, top move {:.1f}%, value loss {:.3f}", step + 1,
                   100 * now.holdout_top1, now.holdout_value_loss);
      if (progress.on_progress) progress.on_progress(now);
      net->train();
    }
  }
  if (tail_n) st.policy_loss /= tail_n, st.value_loss /= tail_n;
  evaluate_holdout(model, game, holdout, st);
  st.seconds = steady_seconds() - t0;
  return st;
}

WarmStartData warm_start_data(const Game& game, const WarmStartConfig& c, uint64_t seed,
                              const std::atomic<bool>* stop) {
  std::vector<GameRecord> loaded;
  if (!c.records().empty()) {
    const auto names = list_record_chunks(c.records());
    if (names.empty()) throw RecordError("warm start: no record chunks in " + c.records());
    for (const std::string& name : names) {
      RecordChunk chunk = read_record_chunk(c.records() + "/" + name, game);
      for (GameRecord& r : *chunk.mutable_games()) loaded.push_back(std::move(r));
    }
    spdlog::info("warm start: {} labelled games read from {}", loaded.size(), c.records());
  }
  WarmStartData data;
  const int missing = c.games() - static_cast<int>(loaded.size());
  if (missing > 0) {
    WarmStartConfig rest = c;
    rest.set_games(missing);
    data = generate_warm_start_data(game, rest, seed, stop, static_cast<int>(loaded.size()));
  }
  std::vector<Sample> samples;
  for (const GameRecord& r : loaded) {
    add_warm_start_samples(game, r, c.result_weight(), samples);
    data.plies += r.moves_size();
  }
  for (Sample& s : data.samples) samples.push_back(std::move(s));
  data.samples = std::move(samples);
  data.games += static_cast<int>(loaded.size());
  data.records.insert(data.records.begin(), std::make_move_iterator(loaded.begin()),
                      std::make_move_iterator(loaded.end()));
  return data;
}

WarmStartData resumable_warm_start_data(const Game& game, const WarmStartConfig& c, uint64_t seed,
                                        const std::string& labels_dir,
                                        const std::atomic<bool>* stop) {
  if (!c.records().empty() || labels_dir.empty()) return warm_start_data(game, c, seed, stop);
  constexpr int kGamesPerRound = 250;
  std::filesystem::create_directories(labels_dir);
  // The games of an earlier, killed start, oldest chunk first: in the order they were played.
  WarmStartData data;
  for (const std::string& name : list_record_chunks(labels_dir)) {
    if (name.find("-warmstart-") == std::string::npos) continue;
    RecordChunk chunk = read_record_chunk(labels_dir + "/" + name, game);
    for (GameRecord& r : *chunk.mutable_games()) {
      add_warm_start_samples(game, r, c.result_weight(), data.samples);
      data.plies += r.moves_size();
      data.records.push_back(std::move(r));
    }
  }
  if (!data.records.empty()) {
    spdlog::info("warm start: resuming with the {} labelled games already in {}",
                 data.records.size(), labels_dir);
  }
  double depth_sum = 0;
  int64_t played_plies = 0;
  while (static_cast<int>(data.records.size()) < c.games()) {
    const int have = static_cast<int>(data.records.size());
    WarmStartConfig round = c;
    round.set_games(std::min(kGamesPerRound, c.games() - have));
    WarmStartData part = generate_warm_start_data(game, round, seed, stop, have, c.games());
    // A round cut short may miss games in its middle: it is played again from its start.
    if (part.games < round.games()) throw std::runtime_error("stopped during the warm start");
    write_record_chunk(labels_dir, game, part.records, "warmstart");
    data.seconds += part.seconds;
    data.plies += part.plies;
    depth_sum += part.mean_depth * double(part.plies);
    played_plies += part.plies;
    for (Sample& smp : part.samples) data.samples.push_back(std::move(smp));
    for (GameRecord& r : part.records) data.records.push_back(std::move(r));
  }
  data.games = static_cast<int>(data.records.size());
  data.mean_depth = played_plies ? depth_sum / double(played_plies) : 0;
  return data;
}

int write_warm_start_records(const std::string& dir, const Game& game,
                             const std::vector<GameRecord>& records) {
  for (const std::string& name : list_record_chunks(dir)) {
    if (name.find("-warmstart-") != std::string::npos) std::filesystem::remove(dir + "/" + name);
  }
  constexpr size_t kGamesPerChunk = 64;
  int chunks = 0;
  for (size_t from = 0; from < records.size(); from += kGamesPerChunk) {
    const auto to = records.begin() + std::min(records.size(), from + kGamesPerChunk);
    write_record_chunk(dir, game, std::vector<GameRecord>(records.begin() + from, to), "warmstart");
    ++chunks;
  }
  return chunks;
}

std::unique_ptr<Model> make_initial_model(const Game& game, const RunConfig& config,
                                          const std::atomic<bool>* stop,
                                          std::vector<GameRecord>* records,
                                          const std::string& labels_dir) {
  auto model = Model::create(game, new_run_network(game, config.network()), "cpu", config.seed());
  if (!config.warm_start().enabled()) return model;
  const WarmStartConfig c =
      complete_warm_start_config(config.warm_start(), config.trainer().batch_size());
  set_torch_threads(c.threads());
  spdlog::info("warm start: {} alpha-beta games at depth {} on {} threads", c.games(),
               c.search_depth(), c.threads());
  WarmStartData data = resumable_warm_start_data(game, c, config.seed(), labels_dir, stop);
  auto stopped = [stop] {
    if (stop && stop->load()) throw std::runtime_error("stopped during the warm start");
  };
  stopped();
  spdlog::info("warm start: {} games, {} positions in {:.0f} s (mean search depth {:.1f})",
               data.games, data.samples.size(), data.seconds, data.mean_depth);
  set_warm_start_aux_targets(game, data,
                             model->has_ownership_head() ? config.trainer().ownership_plies() : 0);
  const PretrainStats st = pretrain_model(*model, game, data, c, config.seed(),
                                          parse_precision(config.trainer().precision()), stop, {},
                                          aux_loss_weights(config.trainer()));
  stopped();
  spdlog::info(
      "warm start: {} steps in {:.0f} s, loss p {:.3f} v {:.3f}; held out {} positions: the "
      "net's top move is the search's in {:.1f}%, value loss {:.3f}",
      st.steps, st.seconds, st.policy_loss, st.value_loss, st.holdout_positions,
      100 * st.holdout_top1, st.holdout_value_loss);
  ModelMetadata& meta = model->metadata();
  meta.set_model_id(meta.model_id() + "-warm");
  if (records) *records = std::move(data.records);
  return model;
}

}  // namespace pincer
