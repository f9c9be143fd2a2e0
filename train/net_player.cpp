#include "train/net_player.h"

#include <chrono>
#include <map>
#include <mutex>

#include "play/levels.h"
#include "play/net_search_defaults.h"
#include "play/players.h"
#include "play/time_manager.h"
#include "train/config.h"
#include "train/search_config.h"

namespace pincer {
namespace {

class NetPlayer : public Player {
 public:
  NetPlayer(GamePtr game, std::shared_ptr<Evaluator> evaluator, NetPlayerOptions options)
      : game_(std::move(game)),
        evaluator_(std::move(evaluator)),
        options_(std::move(options)),
        search_(game_, options_.search),
        rng_(mix_seed(options_.search.seed, 0x1e7e1)) {}

  std::string spec() const override { return options_.spec; }
  void new_game() override { started_ = false; }
  void set_time_left(double seconds) override { time_left_ = seconds; }

  Action choose(const State& state) override {
    // Under a clock (play/time_manager.h): with little time left play for points; else search a
    // share of the time left (at most the spec's time), more in a sharp position, and stop once
    // the most visited move cannot be overtaken in the visits that time leaves.
    double limit = options_.time_s;
    const bool clocked = time_left_ >= 0;
    if (clocked) {
      const TimeControl tc;
      const double budget = move_time(tc, time_left_, sharpness(state));
      if ((counts_points_ && play_for_points(tc, time_left_)) || budget < tc.min_s) {
        started_ = false;  // the tree no longer follows the game
        return points_move(state);
      }
      limit = limit > 0 ? std::min(limit, budget) : budget;
    }
    sync_root(state);
    const auto t0 = std::chrono::steady_clock::now();
    mcts::LeafBatch batch;
    std::vector<Evaluation> out;
    const int leaves = std::max(1, options_.search.leaves_per_batch);
    int steps = 0;
    while (!search_.done()) {
      if (search_.collect(batch, leaves) > 0) {
        evaluator_->evaluate(batch.requests(), out);
        search_.deliver(batch, out);
      } else if (search_.done()) {
        break;
      } else {
        break;  // nothing to collect and nothing in flight: the tree cannot grow
      }
      const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (limit > 0 && t >= limit) break;
      if (clocked && ++steps % 16 == 0) {
        const mcts::SearchResult snap = search_.snapshot();
        double left = options_.search.simulations - static_cast<double>(snap.simulations);
        if (t > 0) left = std::min(left, snap.simulations / t * (limit - t));
        if (visits_settled(snap.visits, left)) break;
      }
    }
    mcts::SearchResult r = search_.result();
    if (options_.level < kMaxLevel) r.action = level_pick(r);
    last_ = r;
    search_.advance(r.action);
    return r.action;
  }

  std::string last_info() const override {
    char buf[128];
    std::snprintf(buf, sizeof buf, "sims=%d value=%.3f (w=%.2f d=%.2f l=%.2f)", last_.simulations,
                  last_.wdl[0] + 0.5 * last_.wdl[1], last_.wdl[0], last_.wdl[1], last_.wdl[2]);
    return buf;
  }

 private:
  // The move a lower level plays: candidates by visits, picked with the level's temperature
  // and policy noise (play/levels.h).
  Action level_pick(const mcts::SearchResult& r) {
    std::vector<int> order(r.actions.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return r.visits[a] != r.visits[b] ? r.visits[a] > r.visits[b] : r.prior[a] > r.prior[b];
    });
    std::vector<Candidate> candidates;
    for (int i : order) {
      const auto& w = r.child_wdl[i];
      candidates.push_back({static_cast<double>(r.visits[i]), w[0] + 0.5 * w[1], r.prior[i]});
    }
    const LevelSetting setting = level_setting(options_.level);
    const int pick = pick_candidate(setting, candidates, rng_.uniform(), rng_.uniform());
    return r.actions[order[pick]];
  }

  // Makes the search's root `state`, keeping the tree when `state` follows from the root by one
  // action (the opponent's reply to our last move).
  void sync_root(const State& state) {
    if (started_) {
      if (search_.root_state().equals(state)) return;
      std::vector<Action> legal;
      search_.root_state().legal_actions(legal);
      for (Action a : legal) {
        auto next = search_.root_state().clone();
        next->apply(a);
        if (next->equals(state)) {
          search_.advance(a);
          return;
        }
      }
    }
    search_.reset(state);
    started_ = true;
  }

  GamePtr game_;
  std::shared_ptr<Evaluator> evaluator_;
  NetPlayerOptions options_;
  mcts::Search search_;
  mcts::SearchResult last_;
  bool started_ = false;
  Rng rng_;
  bool counts_points_ = counts_points(*game_);
  double time_left_ = -1;
};

}  // namespace

std::unique_ptr<Player> make_net_player(GamePtr game, std::shared_ptr<Evaluator> evaluator,
                                        NetPlayerOptions options) {
  return std::make_unique<NetPlayer>(std::move(game), std::move(evaluator), std::move(options));
}

std::shared_ptr<InferenceService> shared_inference_service(const GamePtr& game,
                                                           const std::string& model_path,
                                                           const std::string& device) {
  static std::mutex mu;
  static std::map<std::string, std::weak_ptr<InferenceService>> services;
  const std::string key = game->fingerprint() + "|" + device + "|" + model_path;
  std::lock_guard<std::mutex> lock(mu);
  if (auto s = services[key].lock()) return s;
  std::shared_ptr<Model> model = Model::load(model_path, *game, device);
  InferenceOptions o;
  o.max_batch = 64;
  o.max_wait_us = 300;
  auto s = std::make_shared<InferenceService>(model, o);
  services[key] = s;
  return s;
}

void register_net_player_kind() {
  register_player_kind("net", [](const GamePtr& game, const PlayerSpec& spec, uint64_t seed) {
    SpecArgs args(spec);
    const std::string model = args.get_string("model", "");
    NetPlayerOptions o;
    // The run config's search settings and their defaults (train/config.cpp), except 200
    // simulations (a player's default strength) and the leaves, leaf capture search, heuristic
    // and capture priors and c_puct of play/net_search_defaults.h.
    SearchConfig search;
    search.set_simulations(args.get_int("sims", 200, 1, 10000000));
    o.time_s = args.get_double("time", 0, 0, 1e6);
    search.set_c_puct(static_cast<float>(args.get_double("cpuct", kNetPlayCPuct, 0.01, 100)));
    if (args.has("fpu")) {
      search.set_fpu_reduction(static_cast<float>(args.get_double("fpu", 0.25, -10, 10)));
    }
    if (args.has("fpuroot")) {
      search.set_fpu_reduction_root(static_cast<float>(args.get_double("fpuroot", 0, -10, 10)));
    }
    if (args.has("pst")) {
      search.set_policy_temperature(static_cast<float>(args.get_double("pst", 1, 0.1, 10)));
    }
    search.set_leaves_per_batch(args.get_int("leaves", kNetPlayLeavesPerBatch, 1, 256));
    if (args.has("gumbel")) search.set_gumbel_actions(args.get_int("gumbel", 0, 0, 65536));
    if (args.has("solver")) search.set_solver(args.get_int("solver", 1, 0, 1) != 0);
    if (args.has("tactics")) search.set_tactics(args.get_int("tactics", 1, 0, 2));
    search.set_quiescence_weight(
        static_cast<float>(args.get_double("qweight", kNetPlayQuiescenceWeight, 0, 1)));
    if (args.has("qscale")) {
      search.set_quiescence_scale(static_cast<float>(args.get_double("qscale", 250, 1, 1e6)));
    }
    if (args.has("qdepth")) search.set_quiescence_depth(args.get_int("qdepth", 8, 0, 32));
    if (args.has("qplies")) search.set_quiescence_plies(args.get_int("qplies", 0, 0, 4));
    if (args.has("mmweight")) {
      search.set_minimax_weight(static_cast<float>(args.get_double("mmweight", 0, 0, 1)));
    }
    search.set_capture_prior(
        static_cast<float>(args.get_double("cprior", kNetPlayCapturePrior, 0, 1)));
    search.set_heuristic_prior(
        static_cast<float>(args.get_double("hprior", kNetPlayHeuristicPrior, 0, 1)));
    if (args.has("hscale")) {
      search.set_heuristic_prior_scale(static_cast<float>(args.get_double("hscale", 100, 1, 1e6)));
    }
    if (args.has("hroot")) search.set_heuristic_prior_root_plies(args.get_int("hroot", 0, 0, 4));
    const std::string device = args.get_string("device", "cpu");
    o.level = args.get_int("level", kMaxLevel, kMinLevel, kMaxLevel);
    args.finish();
    if (model.empty()) {
      throw std::invalid_argument("player \"" + to_string(spec) + "\": model=PATH is required");
    }
    o.spec = to_string(spec);
    try {
      o.search = play_search_config(complete_search_config(search, "player " + o.spec), seed);
    } catch (const ConfigError& e) {
      throw std::invalid_argument(e.what());
    }
    o.search.simulations = level_visits(level_setting(o.level), o.search.simulations);
    std::shared_ptr<InferenceService> service;
    try {
      service = shared_inference_service(game, model, device);
    } catch (const std::exception& e) {
      throw std::invalid_argument("player \"" + o.spec + "\": " + e.what());
    }
    return make_net_player(game, service, o);
  });
}

}  // namespace pincer
