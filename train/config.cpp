#include "train/config.h"

#include <google/protobuf/text_format.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "engine/atomic_file.h"
#include "engine/game.h"
#include "engine/text_format.h"
#include "nn/model.h"

namespace pincer {
namespace {

struct Checker;
void complete_search(SearchConfig& s, const Checker& c, const std::string& path,
                     const SearchConfig* fallback);

struct Checker {
  std::string origin;
  [[noreturn]] void fail(const std::string& field, const std::string& value,
                         const std::string& why) const {
    throw ConfigError(origin + ": " + field + " = " + value + ": " + why);
  }
  void range(const std::string& field, double v, double lo, double hi) const {
    if (!(v >= lo && v <= hi)) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "must be in [%g, %g]", lo, hi);
      char val[32];
      std::snprintf(val, sizeof val, "%g", v);
      fail(field, val, buf);
    }
  }
  // A precision field: unset is "auto"; anything but the three names is refused.
  void precision(const std::string& field, std::string& v, bool has) const {
    if (!has) v = "auto";
    if (!valid_precision(v)) {
      fail(field, "\"" + v + "\"", "expected \"auto\", \"float32\" or \"bfloat16\"");
    }
  }
};

}  // namespace

SearchConfig complete_search_config(SearchConfig s, const std::string& origin) {
  complete_search(s, Checker{origin}, "search", nullptr);
  return s;
}

namespace {

void complete_search(SearchConfig& s, const Checker& c, const std::string& path,
                     const SearchConfig* fallback) {
  if (fallback) {
    // Unset fields take the fallback's values.
    SearchConfig merged = *fallback;
    merged.MergeFrom(s);
    s = merged;
  }
  if (!s.has_simulations()) s.set_simulations(100);
  if (!s.has_c_puct()) s.set_c_puct(1.5f);
  if (!s.has_fpu_reduction()) s.set_fpu_reduction(0.25f);
  if (!s.has_leaves_per_batch()) s.set_leaves_per_batch(4);
  if (!s.has_max_nodes()) s.set_max_nodes(1000000);
  c.range(path + ".simulations", s.simulations(), 1, 1e6);
  c.range(path + ".c_puct", s.c_puct(), 0.01, 100);
  c.range(path + ".fpu_reduction", s.fpu_reduction(), -10, 10);
  c.range(path + ".leaves_per_batch", s.leaves_per_batch(), 1, 256);
  c.range(path + ".cache_size", s.cache_size(), 0, 1e8);
  c.range(path + ".gumbel_actions", s.gumbel_actions(), 0, 4096);
  if (s.has_gumbel_c_scale()) c.range(path + ".gumbel_c_scale", s.gumbel_c_scale(), 1e-4, 1e4);
  c.range(path + ".max_nodes", s.max_nodes(), 1000, 2e9);
  if (s.has_tactics()) c.range(path + ".tactics", s.tactics(), 0, 2);
  if (s.has_quiescence_weight()) {
    c.range(path + ".quiescence_weight", s.quiescence_weight(), 0, 1);
  }
  if (s.has_quiescence_scale()) {
    c.range(path + ".quiescence_scale", s.quiescence_scale(), 1, 1e6);
  }
  if (s.has_quiescence_depth()) {
    c.range(path + ".quiescence_depth", s.quiescence_depth(), 0, 32);
  }
  if (s.has_quiescence_plies()) {
    c.range(path + ".quiescence_plies", s.quiescence_plies(), 0, 4);
  }
  if (s.has_capture_prior()) c.range(path + ".capture_prior", s.capture_prior(), 0, 1);
  if (s.has_heuristic_prior()) c.range(path + ".heuristic_prior", s.heuristic_prior(), 0, 1);
  if (s.has_heuristic_prior_scale()) {
    c.range(path + ".heuristic_prior_scale", s.heuristic_prior_scale(), 1, 1e6);
  }
  if (s.has_heuristic_prior_root_plies()) {
    c.range(path + ".heuristic_prior_root_plies", s.heuristic_prior_root_plies(), 0, 4);
  }
  if (s.has_minimax_weight()) c.range(path + ".minimax_weight", s.minimax_weight(), 0, 1);
  if (s.has_forced_playouts()) c.range(path + ".forced_playouts", s.forced_playouts(), 0, 100);
  if (s.has_policy_temperature()) {
    c.range(path + ".policy_temperature", s.policy_temperature(), 0.1, 10);
  }
  if (s.has_fpu_reduction_root()) {
    c.range(path + ".fpu_reduction_root", s.fpu_reduction_root(), -10, 10);
  }
}

// Growth stages (RunConfig.growth): each stage's network is completed from the one before it
// (fields left out keep their value), so the saved config names every stage's whole shape.
// Errors name the stage (growth[i], from 0) and its field.
void complete_growth(RunConfig& r, const Checker& c) {
  NetworkConfig before = r.network();
  for (int i = 0; i < r.growth_size(); ++i) {
    GrowthStage& g = *r.mutable_growth(i);
    const std::string name = "growth[" + std::to_string(i) + "]";
    const GrowthStage* prev = i > 0 ? &r.growth(i - 1) : nullptr;
    switch (g.trigger_case()) {
      case GrowthStage::kAtStep:
        c.range(name + ".at_step", g.at_step(), 1, 1e12);
        break;
      case GrowthStage::kAtCoreHours:
        c.range(name + ".at_core_hours", g.at_core_hours(), 1e-6, 1e9);
        break;
      default:
        c.fail(name, "{}", "needs a trigger: at_step or at_core_hours");
    }
    if (prev && prev->trigger_case() != g.trigger_case()) {
      c.fail(name, g.has_at_step() ? "at_step" : "at_core_hours",
             "every stage needs the same trigger as growth[0] (" +
                 std::string(r.growth(0).has_at_step() ? "at_step" : "at_core_hours") + ")");
    }
    if (!g.has_distill_steps()) c.fail(name + ".distill_steps", "unset", "is required (> 0)");
    c.range(name + ".distill_steps", g.distill_steps(), 1, 1e9);
    if (prev && g.has_at_step() && g.at_step() < prev->at_step() + prev->distill_steps()) {
      c.fail(name + ".at_step", std::to_string(g.at_step()),
             "must be at least growth[" + std::to_string(i - 1) + "].at_step + distill_steps = " +
                 std::to_string(prev->at_step() + prev->distill_steps()) +
                 " (stages come in order, each after the one before has taken over)");
    }
    if (prev && g.has_at_core_hours() && !(g.at_core_hours() > prev->at_core_hours())) {
      char v[32];
      std::snprintf(v, sizeof v, "%g", g.at_core_hours());
      c.fail(name + ".at_core_hours", v,
             "must be above growth[" + std::to_string(i - 1) +
                 "].at_core_hours (stages come in "
                 "order)");
    }
    const int64_t total = r.trainer().total_steps();
    if (g.has_at_step() && total > 0 && g.at_step() + g.distill_steps() > total) {
      c.fail(name + ".at_step", std::to_string(g.at_step()),
             "at_step + distill_steps = " + std::to_string(g.at_step() + g.distill_steps()) +
                 " is past trainer.total_steps = " + std::to_string(total) +
                 ": the new network would never take over");
    }
    if (!g.has_network()) c.fail(name + ".network", "unset", "is required (the new shape)");
    if (g.network().has_points_head() || g.network().has_ownership_head()) {
      c.fail(name + ".network", g.network().has_points_head() ? "points_head" : "ownership_head",
             "the auxiliary heads stay the run's (the window's targets are made for them); "
             "leave them out");
    }
    NetworkConfig after = before;
    after.MergeFrom(g.network());
    try {
      after = complete_network_config(after);
    } catch (const ModelError& e) {
      throw ConfigError(c.origin + ": " + name + "." + e.what());
    }
    auto same_shape = [](NetworkConfig a, NetworkConfig b) {
      if (!a.has_policy_head()) a.set_policy_head("dense");
      if (!b.has_policy_head()) b.set_policy_head("dense");
      return a.SerializeAsString() == b.SerializeAsString();
    };
    if (same_shape(after, before)) {
      c.fail(name + ".network",
             std::to_string(after.blocks()) + "x" + std::to_string(after.channels()),
             "is the network before it: a stage must change the shape");
    }
    *g.mutable_network() = after;
    before = after;
  }
}

}  // namespace

RunConfig complete_run_config(RunConfig r, const std::string& origin) {
  const Checker c{origin};
  if (r.rules().empty()) c.fail("rules", "\"\"", "a ruleset name or file is required");
  try {
    *r.mutable_network() = complete_network_config(r.network());
  } catch (const ModelError& e) {
    throw ConfigError(origin + ": " + e.what());
  }
  if (r.device().empty()) r.set_device("cpu");
  if (r.device() != "cpu" && r.device().rfind("cuda", 0) != 0) {
    c.fail("device", "\"" + r.device() + "\"", "expected cpu, cuda or cuda:N");
  }
  if (!r.has_seed()) r.set_seed(1);
  c.range("max_minutes", r.max_minutes(), 0, 1e7);

  auto& inf = *r.mutable_inference();
  if (!inf.has_max_batch()) inf.set_max_batch(64);
  if (!inf.has_max_wait_us()) inf.set_max_wait_us(2000);
  if (!inf.has_threads()) inf.set_threads(1);
  c.range("inference.max_batch", inf.max_batch(), 1, 65536);
  c.range("inference.max_wait_us", inf.max_wait_us(), 0, 1e7);
  c.range("inference.threads", inf.threads(), 1, 256);
  const bool inference_precision_set = inf.has_precision();  // before mutable_ sets it
  c.precision("inference.precision", *inf.mutable_precision(), inference_precision_set);

  auto& sp = *r.mutable_selfplay();
  complete_search(*sp.mutable_search(), c, "selfplay.search", nullptr);
  if (!sp.has_parallel_games()) sp.set_parallel_games(32);
  if (!sp.has_dirichlet_alpha()) sp.set_dirichlet_alpha(0.3f);
  if (!sp.has_dirichlet_epsilon()) sp.set_dirichlet_epsilon(0.25f);
  if (!sp.has_temperature()) sp.set_temperature(1.0f);
  if (!sp.has_temperature_moves()) sp.set_temperature_moves(30);
  if (!sp.has_full_search_probability()) sp.set_full_search_probability(1.0f);
  if (!sp.has_fast_simulations())
    sp.set_fast_simulations(std::max(1, sp.search().simulations() / 4));
  if (!sp.has_max_moves()) sp.set_max_moves(400);
  if (!sp.has_games_per_chunk()) sp.set_games_per_chunk(16);
  if (!sp.has_threads()) sp.set_threads(2);
  if (!sp.has_expert_games()) sp.set_expert_games(0);
  if (!sp.has_expert_depth()) sp.set_expert_depth(4);
  if (!sp.has_gumbel_noise_plies()) sp.set_gumbel_noise_plies(0);
  if (!sp.has_alphabeta_value_share()) sp.set_alphabeta_value_share(0);
  if (!sp.has_alphabeta_value_depth()) sp.set_alphabeta_value_depth(4);
  if (!sp.has_adjudicate_by_points()) sp.set_adjudicate_by_points(false);
  if (!sp.has_heuristic_anneal_steps()) sp.set_heuristic_anneal_steps(0);
  if (!sp.has_heuristic_floor()) sp.set_heuristic_floor(0);
  if (!sp.has_root_value()) sp.set_root_value("visits");
  c.range("selfplay.heuristic_anneal_steps", sp.heuristic_anneal_steps(), 0, 1e12);
  c.range("selfplay.heuristic_floor", sp.heuristic_floor(), 0, 1);
  if (sp.root_value() != "visits" && sp.root_value() != "improved") {
    c.fail("selfplay.root_value", "\"" + sp.root_value() + "\"",
           "expected \"visits\" or \"improved\"");
  }
  if (sp.root_value() == "improved" && sp.search().gumbel_actions() == 0) {
    c.fail("selfplay.root_value", "\"improved\"", "needs a Gumbel root (search.gumbel_actions)");
  }
  c.range("selfplay.threads", sp.threads(), 1, 1024);
  c.range("selfplay.parallel_games", sp.parallel_games(), 1, 4096);
  c.range("selfplay.dirichlet_alpha", sp.dirichlet_alpha(), 1e-4, 100);
  c.range("selfplay.dirichlet_epsilon", sp.dirichlet_epsilon(), 0, 1);
  c.range("selfplay.temperature", sp.temperature(), 0.01, 100);
  c.range("selfplay.temperature_moves", sp.temperature_moves(), 0, 100000);
  c.range("selfplay.full_search_probability", sp.full_search_probability(), 0.001, 1);
  c.range("selfplay.fast_simulations", sp.fast_simulations(), 1, sp.search().simulations());
  c.range("selfplay.max_moves", sp.max_moves(), 1, 1e6);
  c.range("selfplay.games_per_chunk", sp.games_per_chunk(), 1, 100000);
  c.range("selfplay.expert_games", sp.expert_games(), 0, 1);
  c.range("selfplay.expert_depth", sp.expert_depth(), 1, 32);
  c.range("selfplay.gumbel_noise_plies", sp.gumbel_noise_plies(), 0, 1e6);
  c.range("selfplay.alphabeta_value_share", sp.alphabeta_value_share(), 0, 1);
  c.range("selfplay.alphabeta_value_depth", sp.alphabeta_value_depth(), 1, 32);
  if (!sp.has_reanalyse_share()) sp.set_reanalyse_share(0);
  c.range("selfplay.reanalyse_share", sp.reanalyse_share(), 0, 1);

  auto& tr = *r.mutable_trainer();
  auto& opt = *tr.mutable_optimizer();
  if (opt.kind().empty()) opt.set_kind("sgd");
  if (opt.kind() != "sgd" && opt.kind() != "adam") {
    c.fail("trainer.optimizer.kind", "\"" + opt.kind() + "\"", "expected \"sgd\" or \"adam\"");
  }
  if (!opt.has_learning_rate()) opt.set_learning_rate(opt.kind() == "sgd" ? 0.02f : 0.001f);
  if (!opt.has_momentum()) opt.set_momentum(opt.kind() == "sgd" ? 0.9f : 0.0f);
  if (!opt.has_weight_decay()) opt.set_weight_decay(1e-4f);
  if (opt.schedule().empty()) opt.set_schedule("constant");
  if (opt.schedule() != "constant" && opt.schedule() != "step" && opt.schedule() != "cosine") {
    c.fail("trainer.optimizer.schedule", "\"" + opt.schedule() + "\"",
           "expected \"constant\", \"step\" or \"cosine\"");
  }
  if (!opt.has_decay()) opt.set_decay(0.1f);
  c.range("trainer.optimizer.learning_rate", opt.learning_rate(), 1e-8, 10);
  c.range("trainer.optimizer.momentum", opt.momentum(), 0, 0.999);
  c.range("trainer.optimizer.weight_decay", opt.weight_decay(), 0, 1);
  c.range("trainer.optimizer.decay", opt.decay(), 1e-6, 1);
  c.range("trainer.optimizer.warmup_steps", opt.warmup_steps(), 0, 1e9);
  for (int i = 1; i < opt.boundaries_size(); ++i) {
    if (opt.boundaries(i) <= opt.boundaries(i - 1)) {
      c.fail("trainer.optimizer.boundaries", std::to_string(opt.boundaries(i)),
             "boundaries must increase");
    }
  }
  if (opt.schedule() == "step" && opt.boundaries_size() == 0) {
    c.fail("trainer.optimizer.boundaries", "[]", "schedule \"step\" needs boundaries");
  }
  if (!tr.has_batch_size()) tr.set_batch_size(256);
  if (!tr.has_window_positions()) tr.set_window_positions(100000);
  if (!tr.has_min_positions()) tr.set_min_positions(2 * tr.batch_size());
  if (!tr.has_samples_per_position()) tr.set_samples_per_position(4);
  if (!tr.has_value_loss_weight()) tr.set_value_loss_weight(1);
  if (!tr.has_checkpoint_every()) tr.set_checkpoint_every(200);
  if (!tr.has_threads()) tr.set_threads(1);
  if (!tr.has_points_loss_weight()) tr.set_points_loss_weight(0.1f);
  c.range("trainer.points_loss_weight", tr.points_loss_weight(), 0, 100);
  if (!tr.has_root_value_weight()) tr.set_root_value_weight(0);
  if (!tr.has_ownership_loss_weight()) tr.set_ownership_loss_weight(0.5f);
  c.range("trainer.ownership_loss_weight", tr.ownership_loss_weight(), 0, 100);
  if (!tr.has_ownership_plies()) tr.set_ownership_plies(8);
  c.range("trainer.ownership_plies", tr.ownership_plies(), 1, 10000);
  c.range("trainer.batch_size", tr.batch_size(), 1, 65536);
  c.range("trainer.window_positions", tr.window_positions(), tr.batch_size(), 1e8);
  c.range("trainer.min_positions", tr.min_positions(), 1, tr.window_positions());
  c.range("trainer.samples_per_position", tr.samples_per_position(), 0.01, 1000);
  c.range("trainer.value_loss_weight", tr.value_loss_weight(), 0, 100);
  c.range("trainer.checkpoint_every", tr.checkpoint_every(), 1, 1e9);
  c.range("trainer.total_steps", tr.total_steps(), 0, 1e12);
  c.range("trainer.threads", tr.threads(), 1, 256);
  c.range("trainer.root_value_weight", tr.root_value_weight(), 0, 1);
  if (!tr.has_cut_game_result()) tr.set_cut_game_result("draw");
  if (tr.cut_game_result() != "draw" && tr.cut_game_result() != "root_value") {
    c.fail("trainer.cut_game_result", "\"" + tr.cut_game_result() + "\"",
           "expected \"draw\" or \"root_value\"");
  }
  // Reanalyse draws from the trainer's window unless told otherwise.
  if (!sp.has_reanalyse_positions()) sp.set_reanalyse_positions(tr.window_positions());
  c.range("selfplay.reanalyse_positions", sp.reanalyse_positions(), 1, 1e9);
  const bool trainer_precision_set = tr.has_precision();  // before mutable_ sets it
  c.precision("trainer.precision", *tr.mutable_precision(), trainer_precision_set);
  if (opt.schedule() == "cosine" && tr.total_steps() == 0) {
    c.fail("trainer.optimizer.schedule", "\"cosine\"", "needs trainer.total_steps");
  }

  complete_growth(r, c);

  auto& g = *r.mutable_gating();
  if (!g.has_games()) g.set_games(40);
  if (!g.has_threshold()) g.set_threshold(0.55f);
  if (!g.has_every_checkpoints()) g.set_every_checkpoints(1);
  if (!g.has_random_opening_plies()) g.set_random_opening_plies(2);
  if (!g.has_promotion()) g.set_promotion("score");
  if (g.promotion() != "score" && g.promotion() != "sprt" && g.promotion() != "always") {
    c.fail("gating.promotion", "\"" + g.promotion() + "\"",
           "expected \"score\", \"sprt\" or \"always\"");
  }
  if (g.promotion() == "sprt" && g.sprt_elo0() == 0 && g.sprt_elo1() == 0) {
    c.fail("gating.promotion", "\"sprt\"", "needs gating.sprt_elo0 and sprt_elo1");
  }
  if (!g.has_search()) g.mutable_search();
  complete_search(*g.mutable_search(), c, "gating.search", &sp.search());
  c.range("gating.games", g.games(), 1, 1e6);
  c.range("gating.threshold", g.threshold(), 0, 1);
  c.range("gating.every_checkpoints", g.every_checkpoints(), 1, 1e6);
  c.range("gating.random_opening_plies", g.random_opening_plies(), 0, 1000);
  c.range("gating.random_games", g.random_games(), 0, 1e6);
  if ((g.sprt_elo0() != 0 || g.sprt_elo1() != 0) && !(g.sprt_elo1() > g.sprt_elo0())) {
    c.fail("gating.sprt_elo1", std::to_string(g.sprt_elo1()), "must be above gating.sprt_elo0");
  }

  // Expert games label their moves with the warm start's policy_smoothing and value_scale, and
  // alpha-beta values use its value_scale.
  if (r.warm_start().enabled() || sp.expert_games() > 0 || sp.alphabeta_value_share() > 0) {
    try {
      *r.mutable_warm_start() = complete_warm_start_config(r.warm_start(), tr.batch_size());
    } catch (const std::invalid_argument& e) {
      throw ConfigError(origin + ": " + e.what());
    }
  }
  if (!r.anchor().ladder().empty()) {
    auto& a = *r.mutable_anchor();
    if (!a.has_games()) a.set_games(10);
    if (!a.has_opponents()) a.set_opponents(2);
    if (!a.has_random_opening_plies()) a.set_random_opening_plies(2);
    if (!a.has_in_loop()) a.set_in_loop(true);
    if (!a.has_search()) a.mutable_search();
    complete_search(*a.mutable_search(), c, "anchor.search", &g.search());
    c.range("anchor.games", a.games(), 1, 1e6);
    c.range("anchor.opponents", a.opponents(), 1, 1000);
    c.range("anchor.random_opening_plies", a.random_opening_plies(), 0, 1000);
  }
  return r;
}

RunConfig parse_run_config(const std::string& text, const std::string& origin) {
  RunConfig r;
  TextFormatError errors;
  if (!parse_text_format(text, r, errors)) {
    // The parser's message names unknown fields but not the field of a bad value: quote the line.
    std::string line_text;
    if (errors.line >= 0) {
      size_t pos = 0;
      for (int l = 0; l < errors.line && pos != std::string::npos; ++l) {
        pos = text.find('\n', pos);
        if (pos != std::string::npos) ++pos;
      }
      if (pos != std::string::npos) {
        line_text = text.substr(pos, text.find('\n', pos) - pos);
        const auto first = line_text.find_first_not_of(" \t");
        line_text = first == std::string::npos ? "" : line_text.substr(first);
      }
    }
    throw ConfigError(origin + ": line " + std::to_string(errors.line + 1) + ":" +
                      std::to_string(errors.column + 1) + ": " +
                      (errors.message.empty() ? "cannot parse" : errors.message) +
                      (line_text.empty() ? "" : " in `" + line_text + "`"));
  }
  return complete_run_config(std::move(r), origin);
}

RunConfig load_run_config(const std::string& path) {
  std::string text;
  try {
    text = read_whole_file(path);
  } catch (const std::exception& e) {
    throw ConfigError(std::string("run config: ") + e.what());
  }
  return parse_run_config(text, path);
}

std::string run_config_text(const RunConfig& config) {
  std::string out;
  google::protobuf::TextFormat::PrintToString(config, &out);
  return out;
}

namespace {

void check_warm_start_range(const char* field, double v, double lo, double hi) {
  if (!(v >= lo && v <= hi)) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "warm_start.%s = %g: must be in [%g, %g]", field, v, lo, hi);
    throw std::invalid_argument(buf);
  }
}

}  // namespace

WarmStartConfig complete_warm_start_config(WarmStartConfig c, int trainer_batch) {
  if (!c.has_games()) c.set_games(300);
  if (!c.has_opening_plies()) c.set_opening_plies(6);
  if (!c.has_search_depth()) c.set_search_depth(2);
  if (!c.has_random_move_probability()) c.set_random_move_probability(0.15f);
  if (!c.has_value_scale()) c.set_value_scale(250);
  if (!c.has_result_weight()) c.set_result_weight(0.3f);
  if (!c.has_policy_smoothing()) c.set_policy_smoothing(0.1f);
  if (!c.has_steps()) c.set_steps(1500);
  if (!c.has_batch_size()) c.set_batch_size(trainer_batch > 0 ? trainer_batch : 256);
  if (!c.has_learning_rate()) c.set_learning_rate(0.002f);
  if (!c.has_threads()) c.set_threads(2);
  if (!c.has_max_plies()) c.set_max_plies(200);
  check_warm_start_range("games", c.games(), 1, 1e7);
  check_warm_start_range("opening_plies", c.opening_plies(), 0, 1000);
  check_warm_start_range("search_depth", c.search_depth(), 1, 32);
  check_warm_start_range("random_move_probability", c.random_move_probability(), 0, 1);
  check_warm_start_range("value_scale", c.value_scale(), 1, 1e6);
  check_warm_start_range("result_weight", c.result_weight(), 0, 1);
  check_warm_start_range("policy_smoothing", c.policy_smoothing(), 0, 0.99);
  check_warm_start_range("steps", c.steps(), 1, 1e8);
  check_warm_start_range("batch_size", c.batch_size(), 1, 65536);
  check_warm_start_range("learning_rate", c.learning_rate(), 1e-7, 10);
  check_warm_start_range("threads", c.threads(), 1, 256);
  check_warm_start_range("max_plies", c.max_plies(), 1, 1e6);
  return c;
}

}  // namespace pincer
