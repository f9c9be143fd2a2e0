#include "serve/analyzer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <mutex>
#include <numeric>

#include "mcts/cache.h"
#include "mcts/evaluators.h"
#include "mcts/search.h"
#include "play/alphabeta.h"
#include "play/player.h"
#include "play/time_manager.h"

namespace pincer::serve {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

double round4(double x) { return std::round(x * 10000.0) / 10000.0; }
double round2(double x) { return std::round(x * 100.0) / 100.0; }

// Lower confidence bound of the expected score (win + draw / 2): the mean minus 1.96 standard
// errors, taking each visit as one draw of the score.
double lower_bound(double win, double draw, double visits) {
  const double s = win + 0.5 * draw;
  if (visits <= 0) return 0;
  const double var = std::max(0.0, win + 0.25 * draw - s * s);
  return std::max(0.0, s - 1.96 * std::sqrt(var / visits));
}

// Short texts of a line of actions played from `state`.
Json line_text(const Game& game, const State& state, const std::vector<Action>& line) {
  Json out = Json::array();
  auto s = state.clone();
  std::vector<Action> legal;
  for (Action a : line) {
    if (s->outcome().over) break;
    s->legal_actions(legal);
    if (std::find(legal.begin(), legal.end(), a) == legal.end()) break;
    out.push_back(game.action_text(*s, a, true));
    s->apply(a);
  }
  return out;
}

// The points each side holds at the end of `line` played from `state` (as far as it goes).
std::array<double, 2> points_at_end(const State& state, const std::vector<Action>& line) {
  auto end = state.clone();
  for (Action a : line) {
    if (end->outcome().over) break;
    end->apply(a);
  }
  const std::array<int, 2> p = end->points();
  return {double(p[0]), double(p[1])};
}

// Alpha-beta search objects kept for the next turns (cleared first, so a turn's answer does not
// depend on the turns before): at most one per turn running at once, and no table allocation per
// turn for the allocator to keep.
class AlphaBetaPool {
 public:
  AlphaBetaPool(const Game& game, AlphaBetaOptions options) : game_(game), options_(options) {}

  // A cleared search object from the pool (or a new one), given back at the end of the turn.
  class Lease {
   public:
    explicit Lease(AlphaBetaPool& pool) : pool_(pool) {
      {
        std::lock_guard<std::mutex> lock(pool_.mutex_);
        if (!pool_.free_.empty()) {
          search_ = std::move(pool_.free_.back());
          pool_.free_.pop_back();
        }
      }
      if (search_)
        search_->clear();
      else
        search_ = std::make_unique<AlphaBeta>(pool_.game_, pool_.options_);
    }
    ~Lease() {
      search_->set_stop(nullptr);
      std::lock_guard<std::mutex> lock(pool_.mutex_);
      pool_.free_.push_back(std::move(search_));
    }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    AlphaBeta& operator*() const { return *search_; }

   private:
    AlphaBetaPool& pool_;
    std::unique_ptr<AlphaBeta> search_;
  };

 private:
  const Game& game_;
  AlphaBetaOptions options_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<AlphaBeta>> free_;
};

class MctsAnalyzer : public Analyzer {
 public:
  MctsAnalyzer(GamePtr game, std::shared_ptr<Evaluator> evaluator, MctsAnalyzerOptions options)
      : game_(std::move(game)), evaluator_(std::move(evaluator)), options_(std::move(options)) {
    if (options_.cache_entries > 0)
      cache_ = std::make_unique<mcts::EvalCache>(options_.cache_entries);
    if (counts_points_ && !options_.predicts_points && options_.points_fallback.depth > 0) {
      AlphaBetaOptions o;
      o.max_depth = options_.points_fallback.depth;
      o.hash_mb = options_.points_fallback.hash_mb;
      fallback_pool_ = std::make_unique<AlphaBetaPool>(*game_, o);
    }
  }
  const GamePtr& game() const override { return game_; }
  std::string description() const override { return options_.description; }
  void clear_cache() override {
    if (cache_) cache_->clear();
  }

  Json analyze(const State& state, const TurnRequest& req) override {
    mcts::SearchConfig config;
    config.simulations = req.max_visits > 0 ? req.max_visits : options_.default_visits;
    config.c_puct = options_.c_puct;
    config.leaves_per_batch = options_.leaves_per_batch;
    config.quiescence_weight = options_.quiescence_weight;
    config.heuristic_prior = options_.heuristic_prior;
    config.capture_prior = options_.capture_prior;
    config.reuse_tree = false;
    config.seed = req.seed;
    const double max_time = req.max_time > 0 ? req.max_time : options_.default_time;
    const auto t0 = Clock::now();  // the fallback's time is the request's too
    const std::optional<std::array<double, 2>> fallback = fallback_points(state, req, max_time);
    mcts::Search search(game_, config, cache_.get());
    search.reset(state);
    mcts::LeafBatch batch;
    std::vector<Evaluation> out;
    double next_report = req.report_every;
    bool stopped = false;
    int idle_steps = 0;
    int steps = 0;  // collects that found only terminals and cache hits
    while (!search.done()) {
      if (search.collect(batch, config.leaves_per_batch) == 0) {
        if (++idle_steps > 100000) break;  // the tree cannot grow any more
        continue;
      }
      idle_steps = 0;
      try {
        evaluator_->evaluate(batch.requests(), out);
      } catch (...) {
        search.cancel(batch);
        throw;
      }
      search.deliver(batch, out);
      const double t = seconds_since(t0);
      if (!stopped && ((req.stop && req.stop->load()) || (max_time > 0 && t >= max_time))) {
        search.stop();
        stopped = true;
      }
      if (req.early_stop && !stopped && ++steps % 16 == 0) {
        const mcts::SearchResult snap = search.snapshot();
        uint32_t best = 0, second = 0;
        for (uint32_t v : snap.visits) {
          if (v > best)
            second = best, best = v;
          else if (v > second)
            second = v;
        }
        double left = config.simulations - static_cast<double>(snap.simulations);
        if (max_time > 0 && t > 0) left = std::min(left, snap.simulations / t * (max_time - t));
        if (best_is_settled(best, second, left)) {
          search.stop();
          stopped = true;
        }
      }
      if (req.report && req.report_every > 0 && t >= next_report && !search.done()) {
        next_report = t + req.report_every;
        req.report(describe(search, search.snapshot(), state, req, fallback));
      }
    }
    return describe(search, search.snapshot(), state, req, fallback);
  }

 private:
  // Each side's points at the end of a short alpha-beta line from `state` (PointsFallback), or
  // none: no fallback here, stopped, or no iteration finished within its time.
  std::optional<std::array<double, 2>> fallback_points(const State& state, const TurnRequest& req,
                                                       double max_time) {
    if (!fallback_pool_ || (req.stop && req.stop->load())) return std::nullopt;
    const PointsFallback& f = options_.points_fallback;
    double seconds = f.seconds;
    if (max_time > 0)
      seconds = seconds > 0 ? std::min(seconds, max_time * f.share) : max_time * f.share;
    const AlphaBetaPool::Lease lease(*fallback_pool_);
    AlphaBeta& search = *lease;
    search.set_seconds(seconds);
    search.set_stop(req.stop);
    const SearchInfo info = search.search(state);
    if (info.depth == 0) {  // no iteration finished (or a single legal move: no search at all)
      std::vector<Action> legal;
      state.legal_actions(legal);
      if (legal.size() > 1) return std::nullopt;
    }
    return points_at_end(state, info.pv);
  }

  Json describe(const mcts::Search& search, const mcts::SearchResult& r, const State& state,
                const TurnRequest& req,
                const std::optional<std::array<double, 2>>& fallback) const {
    const int n = static_cast<int>(r.actions.size());
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      if (r.visits[a] != r.visits[b]) return r.visits[a] > r.visits[b];
      return r.prior[a] > r.prior[b];
    });
    Json infos = Json::array();
    int rank = 0;
    for (int i : order) {
      if (r.visits[i] == 0) continue;
      Json m;
      m["move"] = game_->action_text(state, r.actions[i], true);
      m["visits"] = r.visits[i];
      const auto& wdl = r.child_wdl[i];
      m.update(wdl_json(wdl[0], wdl[1], wdl[2]));
      m["prior"] = round4(r.prior[i]);
      m["lcb"] = round4(lower_bound(wdl[0], wdl[1], r.visits[i]));
      m["order"] = rank++;
      if (req.include_pv) {
        m["pv"] = line_text(*game_, state, search.principal_variation(r.actions[i], req.pv_length));
      }
      infos.push_back(std::move(m));
    }
    Json out;
    Json root;
    root["visits"] = r.root_visits;
    root.update(wdl_json(r.wdl[0], r.wdl[1], r.wdl[2]));
    if (counts_points_ && options_.predicts_points) {
      // The network's final points differences of the root and of each searched move's position,
      // for the side to move at the root, weighted like the root's value.
      std::vector<int> searched;
      for (int i : order)
        if (r.visits[i] > 0) searched.push_back(i);
      const std::vector<std::optional<double>> diffs = predicted_diffs(state, r, searched);
      if (diffs[0]) {
        double sum = *diffs[0], weight = 1;
        for (size_t k = 0; k < searched.size(); ++k) {
          if (!diffs[k + 1]) continue;
          const double v = r.visits[searched[k]];
          sum += v * *diffs[k + 1];
          weight += v;
          infos[k]["expectedPointsDiff"] = round2(*diffs[k + 1]);
        }
        root["expectedPointsDiff"] = round2(sum / weight);
        root["pointsSource"] = "model";
      }
    }
    if (fallback) add_expected_points(root, *game_, state, *fallback);
    out["rootInfo"] = std::move(root);
    out["moveInfos"] = std::move(infos);
    if (req.include_policy) {
      Json policy = Json::object();
      for (int i : order)
        policy[game_->action_text(state, r.actions[i], true)] = round4(r.prior[i]);
      out["policy"] = std::move(policy);
    }
    return out;
  }

  // The final points difference predicted for `state`'s side to move: [0] for `state` itself,
  // [k + 1] for the position after r.actions[searched[k]] (exact where that ends the game).
  // Evaluations come from the cache where it holds them, else from one evaluator call.
  std::vector<std::optional<double>> predicted_diffs(const State& state,
                                                     const mcts::SearchResult& r,
                                                     const std::vector<int>& searched) const {
    std::vector<std::optional<double>> diffs(searched.size() + 1);
    std::vector<std::unique_ptr<State>> states;
    states.push_back(state.clone());
    for (int i : searched) {
      states.push_back(state.clone());
      states.back()->apply(r.actions[i]);
    }
    const int me = state.to_move();
    std::vector<std::vector<Action>> legal(states.size());
    std::vector<EvalRequest> requests;
    std::vector<size_t> asked;
    Evaluation found;
    for (size_t k = 0; k < states.size(); ++k) {
      const State& s = *states[k];
      if (s.outcome().over) {
        const std::array<int, 2> p = s.points();
        diffs[k] = p[me] - p[me ^ 1];
        continue;
      }
      s.legal_actions(legal[k]);
      const double sign = s.to_move() == me ? 1 : -1;
      if (cache_ && cache_->lookup(s.eval_key(), legal[k].size(), found)) {
        if (found.points) diffs[k] = sign * *found.points;
        continue;
      }
      requests.push_back({&s, &legal[k]});
      asked.push_back(k);
    }
    if (!requests.empty()) {
      std::vector<Evaluation> evals;
      evaluator_->evaluate(requests, evals);
      for (size_t j = 0; j < asked.size(); ++j) {
        const State& s = *states[asked[j]];
        if (evals[j].points) diffs[asked[j]] = (s.to_move() == me ? 1 : -1) * *evals[j].points;
      }
    }
    return diffs;
  }

  GamePtr game_;
  std::shared_ptr<Evaluator> evaluator_;
  MctsAnalyzerOptions options_;
  bool counts_points_ = counts_points(*game_);
  std::unique_ptr<mcts::EvalCache> cache_;
  std::unique_ptr<AlphaBetaPool> fallback_pool_;  // set: the points fallback
};

// Alpha-beta has no visits: the root is searched once for its best line, then every root move
// is searched on its own (its child position one ply shallower) for a score of its own. One
// search object (one transposition table of `hash` MB) serves all of a request's searches, so
// a turn's memory is bounded and the moves' searches reuse what the root's found; `stop` ends
// whichever search runs and skips the rest. Search objects come from a pool (AlphaBetaPool).
class AlphaBetaAnalyzer : public Analyzer {
 public:
  AlphaBetaAnalyzer(GamePtr game, AlphaBetaOptions options, std::string spec)
      : game_(std::move(game)),
        options_(options),
        spec_(std::move(spec)),
        pool_(*game_, options_) {}
  const GamePtr& game() const override { return game_; }
  std::string description() const override { return spec_; }

  Json analyze(const State& state, const TurnRequest& req) override {
    AlphaBetaOptions root_options = options_;
    if (req.max_time > 0) {
      // Half the time for the root's own search, half for the moves one by one; a depth limit
      // of the spec still holds.
      root_options.seconds = root_options.seconds > 0
                                 ? std::min(root_options.seconds, req.max_time / 2)
                                 : req.max_time / 2;
    }
    const AlphaBetaPool::Lease lease(pool_);
    AlphaBeta& search = *lease;
    search.set_max_depth(root_options.max_depth);
    search.set_seconds(root_options.seconds);
    search.set_stop(req.stop);
    const SearchInfo info = search.search(state);
    std::vector<Action> legal;
    state.legal_actions(legal);
    const int child_depth = std::max(1, info.depth - 1);
    const double per_move =
        root_options.seconds > 0 ? root_options.seconds / std::max<size_t>(1, legal.size()) : 0;
    struct Scored {
      Action action;
      int score;
      uint64_t nodes;
      std::vector<Action> pv;
    };
    std::vector<Scored> scored;
    for (Action a : legal) {
      Scored s{a, 0, 1, {a}};
      if (req.stop && req.stop->load() && a != info.best) continue;
      auto child = state.clone();
      child->apply(a);
      const Outcome o = child->outcome();
      if (a == info.best) {
        s.score = info.score;
        s.pv = info.pv.empty() ? std::vector<Action>{a} : info.pv;
        s.nodes = info.nodes;
      } else if (o.over) {
        s.score = o.is_draw()
                      ? 0
                      : (o.winner == state.to_move() ? AlphaBeta::kWin - 1 : -AlphaBeta::kWin + 1);
      } else {
        search.set_max_depth(child_depth);
        search.set_seconds(per_move);
        const SearchInfo ci = search.search(*child);
        const bool same = child->to_move() == state.to_move();
        s.score = same ? ci.score : -ci.score;
        s.nodes = ci.nodes;
        s.pv.insert(s.pv.end(), ci.pv.begin(), ci.pv.end());
      }
      scored.push_back(std::move(s));
    }
    std::stable_sort(scored.begin(), scored.end(), [&](const Scored& x, const Scored& y) {
      if (x.action == info.best || y.action == info.best) return x.action == info.best;
      return x.score > y.score;
    });
    Json infos = Json::array();
    uint64_t total = 0;
    int rank = 0;
    for (const Scored& s : scored) {
      const double w = score_to_win(s.score);
      Json m;
      m["move"] = game_->action_text(state, s.action, true);
      m["visits"] = s.nodes;
      m.update(wdl_json(w, 0, 1 - w));
      m["prior"] = round4(1.0 / legal.size());
      m["lcb"] = round4(w);
      m["order"] = rank++;
      m["scoreCp"] = s.score;
      if (req.include_pv) m["pv"] = line_text(*game_, state, s.pv);
      infos.push_back(std::move(m));
      total += s.nodes;
    }
    Json root;
    root["visits"] = total;
    const double w = score_to_win(info.score);
    root.update(wdl_json(w, 0, 1 - w));
    root["depth"] = info.depth;
    root["scoreCp"] = info.score;
    // The points at the end of the best line: what the search expects the game to hold.
    if (counts_points_) add_expected_points(root, *game_, state, points_at_end(state, info.pv));
    Json out;
    out["rootInfo"] = std::move(root);
    out["moveInfos"] = std::move(infos);
    if (req.include_policy) {
      Json policy = Json::object();
      for (Action a : legal)
        policy[game_->action_text(state, a, true)] = round4(1.0 / legal.size());
      out["policy"] = std::move(policy);
    }
    return out;
  }

 private:
  GamePtr game_;
  AlphaBetaOptions options_;
  std::string spec_;
  bool counts_points_ = counts_points(*game_);
  AlphaBetaPool pool_;
};

}  // namespace

double score_to_win(int score) {
  if (AlphaBeta::is_win(score)) return score > 0 ? 1.0 : 0.0;
  return 1.0 / (1.0 + std::exp(-score / 400.0));
}

void add_expected_points(Json& root_info, const Game& game, const State& state,
                         const std::array<double, 2>& expected) {
  root_info["expectedPoints"] =
      Json{{game.side_name(0), round2(expected[0])}, {game.side_name(1), round2(expected[1])}};
  const int me = state.to_move();
  root_info["expectedPointsDiff"] = round2(expected[me] - expected[me ^ 1]);
  root_info["pointsSource"] = "alphabeta";
}

Json wdl_json(double win, double draw, double loss) {
  Json out;
  out["win"] = round4(win);
  out["draw"] = round4(draw);
  out["loss"] = round4(loss);
  return out;
}

std::unique_ptr<Analyzer> make_mcts_analyzer(GamePtr game, std::shared_ptr<Evaluator> evaluator,
                                             MctsAnalyzerOptions options) {
  return std::make_unique<MctsAnalyzer>(std::move(game), std::move(evaluator), std::move(options));
}

std::unique_ptr<Analyzer> make_player_analyzer(GamePtr game, const std::string& text,
                                               uint64_t seed) {
  const PlayerSpec spec = parse_player_spec(text);
  SpecArgs args(spec);
  if (spec.kind == "alphabeta") {
    AlphaBetaOptions o;
    o.max_depth = args.get_int("depth", 0, 1, AlphaBeta::kMaxPly / 2);
    o.seconds = args.get_double("time", 0, 0.001, 86400);
    o.hash_mb = args.get_int("hash", 16, 1, 4096);
    o.max_qdepth = args.get_int("qdepth", 16, 0, 32);
    o.selective = args.get_int("selective", 1, 0, 1) == 1;
    args.finish();
    if (o.max_depth == 0 && o.seconds == 0) o.seconds = 1.0;
    return std::make_unique<AlphaBetaAnalyzer>(std::move(game), o, to_string(spec));
  }
  if (spec.kind == "mcts") {
    MctsAnalyzerOptions o;
    o.default_visits = args.get_int("sims", 400, 1, kMaxVisitsLimit);
    o.c_puct = static_cast<float>(args.get_double("c", 1.5, 0.01, 100));
    const int rollout = args.get_int("rollout", 200, 1, 100000);
    const int rollouts = args.get_int("rollouts", 1, 1, 1000);
    o.default_time = args.get_double("time", 0, 0, 86400);
    args.finish();
    o.leaves_per_batch = 1;
    o.quiescence_weight = mcts::SearchConfig{}.quiescence_weight;  // rollouts: the search's own
    o.heuristic_prior = mcts::SearchConfig{}.heuristic_prior;
    o.capture_prior = mcts::SearchConfig{}.capture_prior;
    o.cache_entries = 0;
    o.description = to_string(spec);
    auto evaluator = std::make_shared<mcts::RolloutEvaluator>(rollouts, rollout, seed);
    return make_mcts_analyzer(std::move(game), std::move(evaluator), std::move(o));
  }
  throw std::invalid_argument("analysis needs an \"alphabeta:\" or \"mcts:\" player, not \"" +
                              text + "\" (or a model with --model)");
}

}  // namespace pincer::serve
