#include "train/gate.h"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <regex>
#include <set>

#include "engine/atomic_file.h"
#include "nn/model.h"
#include "play/elo.h"
#include "play/match.h"
#include "train/net_player.h"
#include "train/search_config.h"

namespace fs = std::filesystem;

namespace pincer {

Gatekeeper::Gatekeeper(GamePtr game, const RunConfig& config, const RunDir& dir)
    : game_(std::move(game)), cfg_(config), dir_(dir) {}

std::string Gatekeeper::next_candidate() const {
  const GateLog log = read_gate_log(dir_);
  std::set<std::string> gated;
  for (const GateResult& g : log.gates()) gated.insert(g.candidate());
  int64_t best_step = 0;
  try {
    best_step = Model::read_metadata(dir_.best()).training_step();
  } catch (const std::exception&) {
  }
  const int64_t every =
      int64_t(cfg_.trainer().checkpoint_every()) * cfg_.gating().every_checkpoints();
  static const std::regex name_re("model-(\\d+)\\.pt");
  std::string best_name;
  int64_t best_found = -1;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir_.models(), ec)) {
    const std::string name = e.path().filename().string();
    std::smatch m;
    if (!std::regex_match(name, m, name_re)) continue;
    const int64_t step = std::stoll(m[1]);
    if (step <= best_step || gated.count(name) || step % every != 0) continue;
    if (step > best_found) {
      best_found = step;
      best_name = name;
    }
  }
  return best_name.empty() ? "" : (fs::path(dir_.models()) / best_name).string();
}

GateResult Gatekeeper::gate(const std::string& candidate_path) {
  const auto& g = cfg_.gating();
  if (g.promotion() == "always") return promote_unplayed(candidate_path);
  // Private copies of both models: best.pt may be replaced while the gate runs.
  std::shared_ptr<Model> cand_model = Model::load(candidate_path, *game_, cfg_.device());
  std::shared_ptr<Model> best_model = Model::load(dir_.best(), *game_, cfg_.device());
  const int threads = std::max(1, std::min(g.games(), cfg_.selfplay().parallel_games()));
  InferenceOptions o;
  o.max_batch = cfg_.inference().max_batch();
  o.max_wait_us = cfg_.inference().max_wait_us();
  o.threads = cfg_.inference().threads();
  o.precision = parse_precision(cfg_.inference().precision());
  auto cand = std::make_shared<InferenceService>(cand_model, o);
  auto best = std::make_shared<InferenceService>(best_model, o);
  const std::string cand_spec = "net:model=" + fs::path(candidate_path).filename().string();
  const std::string best_spec = "net:model=best.pt(" + best_model->metadata().model_id() + ")";
  auto maker = [&](std::shared_ptr<InferenceService> service, std::string spec) -> PlayerMaker {
    return [this, service, spec](uint64_t seed) {
      NetPlayerOptions p;
      p.search = play_search_config(cfg_.gating().search(), seed);
      p.spec = spec;
      return make_net_player(game_, service, p);
    };
  };
  MatchOptions mo;
  mo.games = g.games();
  mo.threads = threads;
  mo.opening_plies = g.random_opening_plies();
  mo.seed = cfg_.seed() ^ std::hash<std::string>{}(candidate_path);
  mo.max_plies = cfg_.selfplay().max_moves();
  if (g.sprt_elo0() != 0 || g.sprt_elo1() != 0) {
    SprtConfig s;
    s.elo0 = g.sprt_elo0();
    s.elo1 = g.sprt_elo1();
    mo.sprt = s;
  }
  const MatchResult mr =
      run_match(game_, cand_spec, maker(cand, cand_spec), best_spec, maker(best, best_spec), mo);

  GateResult r;
  r.set_candidate(fs::path(candidate_path).filename().string());
  r.set_candidate_id(cand_model->metadata().model_id());
  r.set_best_id(best_model->metadata().model_id());
  r.set_candidate_step(cand_model->metadata().training_step());
  const int games = mr.wins + mr.draws + mr.losses;
  r.set_games(games);
  r.set_wins(mr.wins);
  r.set_draws(mr.draws);
  r.set_losses(mr.losses);
  r.set_score(games ? (mr.wins + 0.5f * mr.draws) / games : 0.5f);
  r.set_elo(static_cast<float>(elo_from_score(r.score())));
  r.set_stopped_by("games");
  if (mr.sprt && mr.stopped_early) r.set_stopped_by("sprt");
  const bool promote =
      gate_promotes(g, r.score(), mr.sprt ? mr.sprt->decision : SprtDecision::kContinue);
  r.set_promoted(promote);
  r.set_vs_random(-1);
  if (g.random_games() > 0) {
    MatchOptions ro = mo;
    ro.games = g.random_games();
    ro.sprt.reset();
    const MatchResult vr = run_match(game_, cand_spec, maker(cand, cand_spec), "random",
                                     player_maker(game_, "random"), ro);
    const int n = vr.wins + vr.draws + vr.losses;
    r.set_vs_random(n ? (vr.wins + 0.5f * vr.draws) / n : 0);
    r.set_vs_random_games(n);
  }
  record(candidate_path, r);
  spdlog::info("gate {}: +{} ={} -{} score {:.3f} (elo {:+.0f}) {}", r.candidate(), r.wins(),
               r.draws(), r.losses(), r.score(), r.elo(), promote ? "promoted" : "kept the best");
  return r;
}

GateResult Gatekeeper::promote_unplayed(const std::string& candidate_path) {
  const ModelMetadata cand = Model::read_metadata(candidate_path);
  GateResult r;
  r.set_candidate(fs::path(candidate_path).filename().string());
  r.set_candidate_id(cand.model_id());
  try {
    r.set_best_id(Model::read_metadata(dir_.best()).model_id());
  } catch (const std::exception&) {
  }
  r.set_candidate_step(cand.training_step());
  r.set_score(0.5f);
  r.set_promoted(true);
  r.set_stopped_by("always");
  r.set_vs_random(-1);
  record(candidate_path, r);
  spdlog::info("gate {}: promoted unplayed (gating.promotion \"always\")", r.candidate());
  return r;
}

void Gatekeeper::record(const std::string& candidate_path, GateResult& r) {
  GateLog log = read_gate_log(dir_);
  const float prev_elo = log.gates_size() ? log.gates(log.gates_size() - 1).best_elo() : 0.0f;
  r.set_best_elo(r.promoted() ? prev_elo + r.elo() : prev_elo);
  r.set_finished_unix_ms(unix_ms_now());
  if (r.promoted()) {
    atomic_copy_file(candidate_path, dir_.best());
    atomic_copy_file(Model::metadata_path(candidate_path), Model::metadata_path(dir_.best()));
  }
  *log.add_gates() = r;
  write_gate_log(dir_, log);
}

bool gate_promotes(const GatingConfig& g, double score, SprtDecision sprt) {
  if (g.promotion() == "always") return true;
  if (g.promotion() == "sprt") return sprt == SprtDecision::kAcceptH1;
  if (sprt == SprtDecision::kAcceptH1) return true;
  if (sprt == SprtDecision::kAcceptH0) return false;
  return score >= g.threshold();
}

}  // namespace pincer
