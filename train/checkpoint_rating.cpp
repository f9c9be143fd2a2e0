#include "train/checkpoint_rating.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <stdexcept>

#include "engine/atomic_file.h"
#include "engine/random.h"
#include "engine/registry.h"
#include "nn/model.h"
#include "play/match.h"
#include "train/config.h"
#include "train/run_setup.h"

namespace fs = std::filesystem;

namespace pincer {

std::vector<RatedOpponent> rated_opponents(const RatingOptions& o, const GamePtr& game) {
  if (o.opponents.empty()) throw std::runtime_error("rate: give at least one opponent");
  Ladder ladder;
  if (!o.ladder.empty()) ladder = load_ladder(o.ladder, game.get());
  std::vector<RatedOpponent> out;
  for (const std::string& text : o.opponents) {
    RatedOpponent r;
    const auto at = text.rfind('@');
    if (at != std::string::npos) {
      r.spec = text.substr(0, at);
      const std::string elo = text.substr(at + 1);
      size_t used = 0;
      try {
        r.elo = std::stod(elo, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != elo.size() || elo.empty() || !std::isfinite(r.elo)) {
        throw std::runtime_error("rate: opponent '" + text + "': '" + elo + "' is not an Elo");
      }
    } else {
      r.spec = text;
      const auto it = std::find_if(ladder.players().begin(), ladder.players().end(),
                                   [&](const LadderPlayer& p) { return p.player() == text; });
      if (it == ladder.players().end()) {
        throw std::runtime_error("rate: opponent '" + text + "' is not on the ladder" +
                                 (o.ladder.empty() ? "" : " " + o.ladder) + ": give its Elo as '" +
                                 text + "@ELO'");
      }
      r.elo = it->elo();
    }
    player_maker(game, r.spec);  // checks the spec now
    out.push_back(r);
  }
  return out;
}

std::vector<std::string> pick_checkpoints(const RunDir& dir, double every) {
  static const std::regex name_re("model-(\\d+)\\.pt");
  struct Found {
    int64_t step;
    double hours;
    std::string path;
  };
  std::vector<Found> found;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir.models(), ec)) {
    const std::string name = e.path().filename().string();
    std::smatch m;
    if (!std::regex_match(name, m, name_re)) continue;
    double hours = 0;
    try {
      hours = Model::read_metadata(e.path().string()).core_hours();
    } catch (const std::exception& ex) {
      spdlog::warn("rate: skipping {}: {}", name, ex.what());
      continue;
    }
    found.push_back({std::stoll(m[1]), hours, e.path().string()});
  }
  std::sort(found.begin(), found.end(),
            [](const Found& a, const Found& b) { return a.step < b.step; });
  std::vector<std::string> picked;
  double next = every;
  for (const Found& f : found) {
    if (f.step == 0) {
      picked.push_back(f.path);
      continue;
    }
    if (every <= 0 || f.hours + 1e-9 >= next) {
      picked.push_back(f.path);
      if (every > 0) next = (std::floor(f.hours / every + 1e-9) + 1) * every;
    }
  }
  return picked;
}

namespace {

std::string settings_key(const RatingOptions& o, const std::vector<RatedOpponent>& opponents) {
  std::string key = o.player + " | games " + std::to_string(o.games) + " | openings " +
                    std::to_string(o.opening_plies) + " | seed " + std::to_string(o.seed) +
                    " | max plies " + std::to_string(o.max_plies) + " | vs";
  for (const RatedOpponent& r : opponents) key += " " + r.spec;
  return key;
}

}  // namespace

CheckpointRating rate_checkpoint(const GamePtr& game, const std::string& model_path,
                                 const std::vector<RatedOpponent>& opponents,
                                 const RatingOptions& o) {
  const ModelMetadata meta = Model::read_metadata(model_path);
  CheckpointRating out;
  out.model = fs::path(model_path).filename().string();
  out.step = meta.training_step();
  out.core_hours = meta.core_hours();
  out.settings = settings_key(o, opponents);
  const std::string spec =
      o.player + (o.player.find(':') == std::string::npos ? ":" : ",") + "model=" + model_path;
  const PlayerMaker net = player_maker(game, spec);
  for (size_t k = 0; k < opponents.size(); ++k) {
    MatchOptions mo;
    mo.games = o.games;
    mo.threads = std::max(1, o.threads);
    mo.opening_plies = o.opening_plies;
    // The same openings for every checkpoint (and per opponent), so checkpoints differ by their
    // play alone.
    mo.seed = mix_seed(o.seed, k);
    mo.max_plies = o.max_plies;
    const MatchResult mr =
        run_match(game, spec, net, opponents[k].spec, player_maker(game, opponents[k].spec), mo);
    AnchorGames g;
    g.player = opponents[k].spec;
    g.opponent_elo = opponents[k].elo;
    g.games = mr.wins + mr.draws + mr.losses;
    g.score = mr.wins + 0.5 * mr.draws;
    out.opponents.push_back(g);
    spdlog::info("rate: {} ({:.2f} core-hours) vs {}: +{} ={} -{}", out.model, out.core_hours,
                 g.player, mr.wins, mr.draws, mr.losses);
  }
  out.rating = fit_anchored_elo(out.opponents);
  return out;
}

std::string ratings_path(const RunDir& dir) { return dir.path("ratings.json"); }

std::vector<CheckpointRating> read_ratings(const std::string& path) {
  std::vector<CheckpointRating> out;
  if (!fs::exists(path)) return out;
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_whole_file(path));
    if (!j.is_array()) throw std::runtime_error("not a JSON array");
    for (const auto& e : j) {
      CheckpointRating r;
      r.model = e.at("model").get<std::string>();
      r.step = e.at("step").get<int64_t>();
      r.core_hours = e.at("core_hours").get<double>();
      r.rating.elo = e.at("elo").get<double>();
      r.rating.low = e.at("low").get<double>();
      r.rating.high = e.at("high").get<double>();
      r.rating.games = e.at("games").get<int>();
      r.settings = e.at("settings").get<std::string>();
      for (const auto& g : e.at("opponents")) {
        AnchorGames a;
        a.player = g.at("player").get<std::string>();
        a.opponent_elo = g.at("elo").get<double>();
        a.games = g.at("games").get<int>();
        a.score = g.at("score").get<double>();
        r.opponents.push_back(a);
      }
      out.push_back(std::move(r));
    }
  } catch (const std::exception& e) {
    throw std::runtime_error("ratings file " + path + " is damaged: " + e.what());
  }
  return out;
}

void write_ratings(const std::string& path, const std::vector<CheckpointRating>& ratings) {
  nlohmann::json j = nlohmann::json::array();
  for (const CheckpointRating& r : ratings) {
    nlohmann::json opponents = nlohmann::json::array();
    for (const AnchorGames& g : r.opponents) {
      opponents.push_back(
          {{"player", g.player}, {"elo", g.opponent_elo}, {"games", g.games}, {"score", g.score}});
    }
    j.push_back({{"model", r.model},
                 {"step", r.step},
                 {"core_hours", r.core_hours},
                 {"elo", r.rating.elo},
                 {"low", r.rating.low},
                 {"high", r.rating.high},
                 {"games", r.rating.games},
                 {"settings", r.settings},
                 {"opponents", opponents}});
  }
  atomic_write_file(path, j.dump(1) + "\n");
}

std::vector<CheckpointRating> rate_run(const RunDir& dir, const RatingOptions& options) {
  RatingOptions o = options;
  const RunConfig cfg = run_dir_config(dir, "");
  const GamePtr game = load_game(cfg.rules());
  if (o.ladder.empty()) o.ladder = cfg.anchor().ladder();
  const std::vector<RatedOpponent> opponents = rated_opponents(o, game);
  const std::string key = settings_key(o, opponents);
  const std::string path = ratings_path(dir);
  std::vector<CheckpointRating> all = read_ratings(path);
  const std::vector<std::string> models =
      o.models.empty() ? pick_checkpoints(dir, o.every_core_hours) : o.models;
  if (models.empty()) throw std::runtime_error("rate: no checkpoints in " + dir.models());
  for (const std::string& m : models) {
    const std::string name = fs::path(m).filename().string();
    const bool done = std::any_of(all.begin(), all.end(), [&](const CheckpointRating& r) {
      return r.model == name && r.settings == key;
    });
    if (done) continue;
    all.push_back(rate_checkpoint(game, m, opponents, o));
    const CheckpointRating& r = all.back();
    spdlog::info(
        "rate: {} (step {}, {:.2f} core-hours): Elo {:+.0f} [{:+.0f}, {:+.0f}] over {} games",
        r.model, r.step, r.core_hours, r.rating.elo, r.rating.low, r.rating.high, r.rating.games);
    std::stable_sort(
        all.begin(), all.end(), [](const CheckpointRating& a, const CheckpointRating& b) {
          return a.core_hours < b.core_hours || (a.core_hours == b.core_hours && a.step < b.step);
        });
    write_ratings(path, all);
  }
  std::vector<CheckpointRating> out;
  for (const CheckpointRating& r : all) {
    if (r.settings == key) out.push_back(r);
  }
  return out;
}

}  // namespace pincer
