#include "train/selfplay.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <thread>

#include "engine/clock.h"
#include "engine/random.h"
#include "engine/thread_name.h"
#include "mcts/cache.h"
#include "mcts/search.h"
#include "play/alphabeta.h"
#include "store/records.h"
#include "train/alphabeta_labels.h"
#include "train/config.h"
#include "train/reanalyse.h"
#include "train/search_config.h"

namespace fs = std::filesystem;

namespace pincer {

struct SelfPlay::Impl {
  GamePtr game;
  RunConfig cfg;
  RunDir dir;
  std::string writer;
  std::unique_ptr<InferenceService> service;
  std::unique_ptr<mcts::EvalCache> cache;
  std::unique_ptr<ReanalysePool> pool;  // selfplay.reanalyse_share > 0

  mutable std::mutex mu;
  std::string model_id;
  fs::file_time_type best_time{};
  std::vector<GameRecord> pending;
  SelfPlayStats totals;
  double run_started = 0;
  bool running = false;
  std::atomic<int64_t> started{0};
  int64_t model_step = 0;  // training steps of the model playing (heuristic annealing)
  bool write = true;
  // Reanalyse: simulations the reanalyses under way will still spend (one full search per
  // position left), so that slots starting together do not all reanalyse at once.
  int64_t reanalysis_planned = 0;
  std::atomic<int64_t> reanalyses_started{0};

  Impl(GamePtr g, const RunConfig& c, const RunDir& d, std::string w)
      : game(std::move(g)), cfg(c), dir(d), writer(std::move(w)) {}

  // A finished game's record, or a finished reanalysis's.
  void finish_game(GameRecord&& rec) {
    std::vector<GameRecord> chunk;
    {
      std::lock_guard<std::mutex> lock(mu);
      if (rec.has_reanalysis()) {
        totals.reanalysed_games += 1;
      } else {
        totals.games += 1;
        totals.positions += rec.moves_size();
      }
      if (!write) return;
      pending.push_back(std::move(rec));
      if (static_cast<int>(pending.size()) >= cfg.selfplay().games_per_chunk()) {
        chunk.swap(pending);
      }
    }
    if (!chunk.empty()) flush(chunk);
  }

  void flush(const std::vector<GameRecord>& games) {
    if (games.empty()) return;
    write_record_chunk(dir.records(), *game, games, writer);
    std::lock_guard<std::mutex> lock(mu);
    totals.chunks += 1;
  }

  // Plays until `stop_flag` or `failed` (another thread's failure) is set.
  void play_thread(int thread, int games, const std::atomic<bool>& stop_flag,
                   const std::atomic<bool>& failed, int64_t max_games) {
    auto stopped = [&] { return stop_flag.load() || failed.load(); };
    struct Slot {
      std::unique_ptr<mcts::Search> search;
      std::unique_ptr<State> state;
      GameRecord rec;
      bool active = false;
      double heuristic = -1;              // the heuristic share its search was made with
      std::unique_ptr<AlphaBeta> expert;  // made for the slot's first expert game
      int expert_player = -1;             // -1: the network plays both sides
      // A reanalysis under way instead of a game (selfplay.reanalyse_share), searched by
      // re_search (self-play's search, every position a full search).
      std::unique_ptr<GameReanalysis> re;
      std::unique_ptr<mcts::Search> re_search;
      double re_heuristic = -1;
      int64_t re_planned = 0;  // its share of reanalysis_planned
    };
    const auto& sp = cfg.selfplay();
    const bool improved_root_value = sp.root_value() == "improved";
    const WarmStartConfig labels = complete_warm_start_config(cfg.warm_start(), 1);
    // selfplay.alphabeta_value_share: which searched positions alpha-beta also scores.
    Rng value_draws(mix_seed(mix_seed(cfg.seed(), std::hash<std::string>{}(writer)),
                             0x616276616c00ULL + thread));  // "abval"
    std::unique_ptr<AlphaBeta> valuer;
    if (sp.alphabeta_value_share() > 0) {
      AlphaBetaOptions ao;
      ao.max_depth = sp.alphabeta_value_depth();
      ao.hash_mb = 4;
      valuer = std::make_unique<AlphaBeta>(*game, ao);
    }
    // selfplay.reanalyse_share: which stored games this thread's slots re-search.
    const uint64_t writer_seed = mix_seed(cfg.seed(), std::hash<std::string>{}(writer));
    Rng reanalyse_draws(mix_seed(writer_seed, 0x7265616e616cULL + thread));  // "reanal"
    std::vector<Slot> slots(games);
    // A reanalysis in slot `s` when reanalyses are behind their share of the simulations (those
    // spent and those planned) and a game is left to reanalyse with the current model.
    auto start_reanalysis = [&](Slot& s) -> bool {
      std::string model;
      double share;
      {
        std::lock_guard<std::mutex> lock(mu);
        const double planned = static_cast<double>(reanalysis_planned);
        if (static_cast<double>(totals.reanalysis_simulations) + planned >=
            sp.reanalyse_share() * (static_cast<double>(totals.simulations) + planned)) {
          return false;
        }
        model = model_id;
        share = heuristic_share(sp, model_step);
      }
      const auto pick = pool->pick(reanalyse_draws, model);
      if (!pick) return false;
      try {
        s.re = std::make_unique<GameReanalysis>(*game, pool->read(*pick), pick->chunk, pick->index,
                                                model);
      } catch (const std::exception& e) {  // a chunk gone or damaged, a game that does not replay
        spdlog::warn("reanalyse skips game {} of {}: {}", pick->index + 1, pick->chunk, e.what());
        return false;
      }
      const uint64_t seed =
          mix_seed(mix_seed(writer_seed, 0x7265616e616cULL), reanalyses_started.fetch_add(1));
      if (!s.re_search || share != s.re_heuristic) {
        mcts::SearchConfig sc = selfplay_search_config(sp, seed);
        sc.full_search_probability = 1.0f;  // every position re-searched is a policy target
        scale_heuristic(sc, share);
        s.re_search = std::make_unique<mcts::Search>(game, sc, cache.get());
        s.re_heuristic = share;
      }
      s.re_search->seed(seed);
      s.re_search->reset(s.re->state());
      s.re_planned = static_cast<int64_t>(s.re->moves()) * sp.search().simulations();
      {
        std::lock_guard<std::mutex> lock(mu);
        reanalysis_planned += s.re_planned;
      }
      s.expert_player = -1;
      s.active = true;
      return true;
    };
    auto start = [&](Slot& s) {
      s.re.reset();
      if (pool && !stopped() && !(max_games > 0 && started.load() >= max_games) &&
          start_reanalysis(s)) {
        return;
      }
      const int64_t n = started.fetch_add(1);
      if (stopped() || (max_games > 0 && n >= max_games)) {
        s.active = false;
        return;
      }
      const uint64_t seed = mix_seed(mix_seed(cfg.seed(), std::hash<std::string>{}(writer)), n);
      // A search per slot, made again when the heuristic's annealed share has changed.
      double share;
      {
        std::lock_guard<std::mutex> lock(mu);
        share = heuristic_share(sp, model_step);
      }
      if (!s.search || share != s.heuristic) {
        mcts::SearchConfig sc = selfplay_search_config(sp, seed);
        scale_heuristic(sc, share);
        s.search = std::make_unique<mcts::Search>(game, sc, cache.get());
        s.heuristic = share;
      }
      s.search->seed(seed);
      // A fresh start per game from its seed (the fixed start for most games).
      s.state = game->start_state(seed);
      s.search->reset(*s.state);
      s.rec.Clear();
      if (game->random_start()) s.rec.set_start(s.state->to_text());
      s.rec.set_game(game->game_name());
      s.rec.set_ruleset_name(game->ruleset_name());
      s.rec.set_fingerprint(game->fingerprint());
      {
        std::lock_guard<std::mutex> lock(mu);
        s.rec.set_model_id(model_id);
      }
      s.rec.set_seed(seed);
      s.expert_player = -1;
      if (sp.expert_games() > 0) {
        Rng rng(mix_seed(seed, 0x6578706572ULL));  // "exper"
        if (rng.uniform() < sp.expert_games()) {
          s.expert_player = static_cast<int>(rng.below(2));
          s.rec.set_expert_player(s.expert_player);
          if (!s.expert) {
            AlphaBetaOptions ao;
            ao.max_depth = sp.expert_depth();
            ao.hash_mb = 4;
            s.expert = std::make_unique<AlphaBeta>(*game, ao);
          }
          s.expert->clear();
        }
      }
      s.active = true;
    };
    // `action`, recorded in s.rec, is played: the game ends (its record is kept and the slot
    // starts the next) or the search follows it.
    auto play = [&](Slot& s, Action action) {
      {
        std::lock_guard<std::mutex> lock(mu);
        totals.moves += 1;
      }
      s.state->apply(action);
      const Outcome o = s.state->outcome();
      const bool too_long = s.rec.moves_size() >= sp.max_moves();
      if (o.over || too_long) {
        const std::array<int, 2> points = s.state->points();
        int winner = o.over ? o.winner : -1;
        // selfplay.adjudicate_by_points: a cut game goes to the side ahead on points.
        if (!o.over && sp.adjudicate_by_points() && points[0] != points[1]) {
          winner = points[0] > points[1] ? 0 : 1;
        }
        s.rec.set_winner(winner);
        s.rec.set_reason(o.over ? o.reason : "max_moves");
        for (int pts : points) s.rec.add_final_points(pts);
        s.rec.set_finished_unix_ms(unix_ms_now());
        finish_game(std::move(s.rec));
        start(s);
      } else {
        s.search->advance(action);
      }
    };
    // An expert game's expert moves while it is to move, labelled by its search.
    std::vector<Action> legal;
    auto expert_moves = [&](Slot& s) {
      while (s.active && s.expert_player >= 0 && s.state->to_move() == s.expert_player &&
             !stopped()) {
        s.state->legal_actions(legal);
        const SearchInfo info = s.expert->search(*s.state);
        MoveRecord* m = s.rec.add_moves();
        label_with_alphabeta(legal, info, labels.policy_smoothing(), labels.value_scale(), *m);
        m->set_action(info.best);
        play(s, info.best);
      }
    };
    // A reanalysis's search of its position is done: recorded, and the search follows the
    // game's move, or the record is kept and the slot starts its next job.
    auto reanalyse_step = [&](Slot& s) {
      const mcts::SearchResult r = s.re_search->result();
      const Action action = s.re->action();
      s.re->record(r, improved_root_value);
      const int64_t spent = std::min<int64_t>(s.re_planned, sp.search().simulations());
      s.re_planned -= spent;
      const bool done = s.re->done();
      {
        std::lock_guard<std::mutex> lock(mu);
        totals.simulations += r.simulations;
        totals.reanalysis_simulations += r.simulations;
        totals.reanalysed_positions += 1;
        reanalysis_planned -= spent + (done ? s.re_planned : 0);
      }
      if (!done) {
        s.re_search->advance(action);
        return;
      }
      s.re_planned = 0;
      GameRecord rec = s.re->take();
      s.re.reset();
      finish_game(std::move(rec));
      start(s);
    };
    for (Slot& s : slots) start(s);
    mcts::BatchStepper stepper(*service);
    std::vector<mcts::Search*> active;
    double next_reload = steady_seconds() + 2.0;
    while (!stopped()) {
      active.clear();
      for (Slot& s : slots) {
        expert_moves(s);
        if (!s.active) continue;
        if (s.re) {
          active.push_back(s.re_search.get());
        } else if (s.state->to_move() != s.expert_player) {
          active.push_back(s.search.get());
        }
      }
      if (active.empty()) break;
      stepper.step(active, sp.search().leaves_per_batch());
      for (Slot& s : slots) {
        if (s.active && s.re) {
          if (s.re_search->done()) reanalyse_step(s);
          continue;
        }
        if (!s.active || s.state->to_move() == s.expert_player || !s.search->done()) continue;
        const mcts::SearchResult r = s.search->result();
        MoveRecord* m = s.rec.add_moves();
        m->set_action(r.action);
        record_search(r, improved_root_value, *m);
        if (valuer && value_draws.uniform() < sp.alphabeta_value_share()) {
          const SearchInfo info = valuer->search(*s.state);
          m->set_alphabeta_value(
              static_cast<float>(score_win_probability(info.score, labels.value_scale())));
        }
        {
          std::lock_guard<std::mutex> lock(mu);
          totals.simulations += r.simulations;
        }
        play(s, r.action);
      }
      if (thread == 0 && steady_seconds() >= next_reload) {
        next_reload = steady_seconds() + 2.0;
        try {
          reload();
        } catch (const std::exception& e) {
          spdlog::warn("self-play keeps its model: {}", e.what());
        }
      }
    }
  }

  bool reload() {
    std::error_code ec;
    const auto t = fs::last_write_time(dir.best(), ec);
    if (ec) return false;
    {
      std::lock_guard<std::mutex> lock(mu);
      if (service && t == best_time) return false;
    }
    const ModelMetadata meta = Model::read_metadata(dir.best());
    {
      std::lock_guard<std::mutex> lock(mu);
      if (service && meta.model_id() == model_id) {
        best_time = t;
        return false;
      }
    }
    std::shared_ptr<Model> model = Model::load(dir.best(), *game, cfg.device());
    {
      std::lock_guard<std::mutex> lock(mu);
      model_id = meta.model_id();
      model_step = meta.training_step();
      best_time = t;
    }
    if (!service) {
      InferenceOptions o;
      o.max_batch = cfg.inference().max_batch();
      o.max_wait_us = cfg.inference().max_wait_us();
      o.threads = cfg.inference().threads();
      o.precision = parse_precision(cfg.inference().precision());
      service = std::make_unique<InferenceService>(model, o);
    } else {
      service->set_model(model);
      if (cache) cache->clear();
      spdlog::info("self-play switches to {}", meta.model_id());
    }
    return true;
  }
};

SelfPlay::SelfPlay(GamePtr game, const RunConfig& config, const RunDir& dir, std::string writer)
    : impl_(std::make_unique<Impl>(std::move(game), config, dir, std::move(writer))) {
  if (config.selfplay().search().cache_size() > 0) {
    impl_->cache = std::make_unique<mcts::EvalCache>(config.selfplay().search().cache_size());
  }
  if (config.selfplay().reanalyse_share() > 0) {
    impl_->pool = std::make_unique<ReanalysePool>(impl_->game, dir.records(),
                                                  config.selfplay().reanalyse_positions());
  }
  impl_->reload();
  if (!impl_->service) throw std::runtime_error("no model at " + dir.best());
}

SelfPlay::~SelfPlay() = default;

bool SelfPlay::reload_best() { return impl_->reload(); }

std::string SelfPlay::model_id() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->model_id;
}

void SelfPlay::run(const std::atomic<bool>& stop, int64_t max_games, bool write_records) {
  Impl& m = *impl_;
  const auto& sp = m.cfg.selfplay();
  const int threads = std::max(1, std::min(sp.threads(), sp.parallel_games()));
  m.write = write_records;
  m.started = 0;
  m.reanalysis_planned = 0;
  m.service->set_expected_callers(threads);
  m.service->reset_stats();
  {
    std::lock_guard<std::mutex> lock(m.mu);
    m.run_started = steady_seconds();
    m.running = true;
  }
  std::vector<std::thread> pool;
  std::atomic<int> alive{threads};
  // The first failure stops every thread: the run ends with it instead of playing on.
  std::exception_ptr error;
  std::mutex error_mu;
  std::atomic<bool> failed{false};
  for (int t = 0; t < threads; ++t) {
    const int games = sp.parallel_games() / threads + (t < sp.parallel_games() % threads ? 1 : 0);
    pool.emplace_back([&, t, games] {
      set_thread_name("selfplay-" + std::to_string(t));
      try {
        m.play_thread(t, games, stop, failed, max_games);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mu);
        if (!error) error = std::current_exception();
        failed = true;
      }
      // One caller fewer: the service must not wait for it.
      m.service->set_expected_callers(std::max(1, --alive));
    });
  }
  for (std::thread& t : pool) t.join();
  std::vector<GameRecord> rest;
  {
    std::lock_guard<std::mutex> lock(m.mu);
    rest.swap(m.pending);
    m.totals.seconds += steady_seconds() - m.run_started;
    m.running = false;
  }
  if (m.write) m.flush(rest);
  if (error) std::rethrow_exception(error);
}

SelfPlayStats SelfPlay::stats() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  SelfPlayStats s = impl_->totals;
  if (impl_->running) s.seconds += steady_seconds() - impl_->run_started;
  s.inference = impl_->service->stats();
  return s;
}

}  // namespace pincer
