#include "train/anchor.h"

#include <google/protobuf/text_format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "engine/atomic_file.h"
#include "nn/inference.h"
#include "nn/model.h"
#include "play/match.h"
#include "play/players.h"
#include "train/net_player.h"
#include "train/search_config.h"

namespace pincer {

int nearest_ladder_player(const Ladder& ladder, double estimate,
                          const std::vector<std::string>& played, bool time_limited) {
  int best = -1;
  double dist = 0;
  for (int i = 0; i < ladder.players_size(); ++i) {
    const LadderPlayer& p = ladder.players(i);
    if (std::find(played.begin(), played.end(), p.player()) != played.end()) continue;
    if (!time_limited && is_time_limited(p.player())) continue;
    const double d = std::fabs(p.elo() - estimate);
    if (best < 0 || d < dist) best = i, dist = d;
  }
  return best;
}

AnchorReport rate_model(const GamePtr& game, const RunConfig& cfg, const Ladder& ladder,
                        const std::string& model_path, double estimate, uint64_t seed) {
  const AnchorConfig& a = cfg.anchor();
  std::shared_ptr<Model> model = Model::load(model_path, *game, cfg.device());
  InferenceOptions io;
  io.max_batch = cfg.inference().max_batch();
  io.max_wait_us = cfg.inference().max_wait_us();
  io.threads = cfg.inference().threads();
  io.precision = parse_precision(cfg.inference().precision());
  auto service = std::make_shared<InferenceService>(model, io);
  const std::string spec = "net:sims=" + std::to_string(a.search().simulations());
  PlayerMaker net = [&game, &a, service, spec](uint64_t s) {
    NetPlayerOptions p;
    p.search = play_search_config(a.search(), s);
    p.spec = spec;
    return make_net_player(game, service, p);
  };
  AnchorReport report;
  std::vector<std::string> played;
  for (int k = 0; k < a.opponents(); ++k) {
    const int i = nearest_ladder_player(ladder, estimate, played, a.time_limited_opponents());
    if (i < 0) break;
    const LadderPlayer& opp = ladder.players(i);
    played.push_back(opp.player());
    MatchOptions mo;
    mo.games = a.games();
    // Games at once: enough for the network's batches, few enough that time-limited opponents
    // keep most of a core.
    mo.threads = std::min(a.games(), 4);
    mo.opening_plies = a.random_opening_plies();
    mo.seed = mix_seed(seed, k);
    mo.max_plies = cfg.selfplay().max_moves();
    const MatchResult mr =
        run_match(game, spec, net, opp.player(), player_maker(game, opp.player()), mo);
    AnchorGames g;
    g.player = opp.player();
    g.opponent_elo = opp.elo();
    g.opponent_sd = ladder_sd(opp);
    g.games = mr.wins + mr.draws + mr.losses;
    g.score = mr.wins + 0.5 * mr.draws;
    report.opponents.push_back(g);
    report.rating = fit_anchored_elo(report.opponents);
    estimate = report.rating.elo;
    spdlog::info("anchor: {} vs {} ({:+.0f}): +{} ={} -{}; estimate {:+.0f} [{:+.0f}, {:+.0f}]",
                 std::filesystem::path(model_path).filename().string(), opp.player(), opp.elo(),
                 mr.wins, mr.draws, mr.losses, report.rating.elo, report.rating.low,
                 report.rating.high);
  }
  return report;
}

AnchorRater::AnchorRater(GamePtr game, const RunConfig& config, const std::string& metrics_csv)
    : game_(std::move(game)), cfg_(config) {
  const std::string& path = cfg_.anchor().ladder();
  if (path.empty()) return;
  // Only named (in_loop false, for `pincer rate`): one not found from this working directory
  // only costs rate its default; a ladder of other rules is refused now, not hours later.
  if (!cfg_.anchor().in_loop() && !std::filesystem::exists(path)) {
    spdlog::warn("anchor.ladder {} not found from here: `pincer rate` will need --ladder", path);
    return;
  }
  ladder_ = load_ladder(path, game_.get());
  enabled_ = cfg_.anchor().in_loop();
  if (!enabled_) return;
  // Start from the weakest player above the anchor: a fresh network is weak.
  estimate_ = 1e9;
  for (const LadderPlayer& p : ladder_.players()) {
    if (p.elo() > 0) estimate_ = std::min(estimate_, p.elo());
  }
  if (estimate_ == 1e9) estimate_ = 0;
  std::ifstream in(metrics_csv);
  std::string line;
  int col = -1;
  bool header = true;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
    if (header) {
      header = false;
      for (size_t i = 0; i < f.size(); ++i) {
        if (f[i] == "anchor_elo") col = static_cast<int>(i);
      }
      continue;
    }
    if (col < 0 || f.size() <= size_t(col) || f.size() < 2 || f[1] != "anchor") continue;
    try {
      estimate_ = std::stod(f[col]);
      first_ = false;
    } catch (const std::exception&) {
    }
  }
}

std::string AnchorRater::rate(const std::string& model_path, uint64_t seed) {
  const AnchorReport r = rate_model(game_, cfg_, ladder_, model_path, estimate_, seed);
  first_ = false;
  if (r.opponents.empty()) return ",,,,";
  estimate_ = r.rating.elo;
  char buf[160];
  std::snprintf(buf, sizeof buf, "%.1f,%.1f,%.1f,%d,", r.rating.elo, r.rating.low, r.rating.high,
                r.rating.games);
  std::string out = buf;
  for (size_t i = 0; i < r.opponents.size(); ++i) {
    const AnchorGames& g = r.opponents[i];
    std::string name = g.player;
    std::replace(name.begin(), name.end(), ',', '+');  // a CSV field
    std::snprintf(buf, sizeof buf, "%s%s:%g/%d", i ? ";" : "", name.c_str(), g.score, g.games);
    out += buf;
  }
  return out;
}

}  // namespace pincer
