#include "train/search_config.h"

#include <algorithm>
#include <cmath>

namespace pincer {

mcts::SearchConfig play_search_config(const SearchConfig& s, uint64_t seed) {
  mcts::SearchConfig c;
  c.simulations = s.simulations();
  c.c_puct = s.c_puct();
  c.fpu_reduction = s.fpu_reduction();
  c.leaves_per_batch = s.leaves_per_batch();
  c.reuse_tree = !s.no_tree_reuse();
  c.max_nodes = static_cast<uint32_t>(s.max_nodes());
  c.gumbel_actions = s.gumbel_actions();
  if (s.has_gumbel_c_scale()) c.gumbel_c_scale = s.gumbel_c_scale();
  c.gumbel_raw_policy_target = s.gumbel_raw_policy_target();
  c.gumbel_rescale_q = s.gumbel_rescale_q();
  if (s.has_solver()) c.solver = s.solver();
  if (s.has_tactics()) c.tactics = s.tactics();
  if (s.has_quiescence_weight()) c.quiescence_weight = s.quiescence_weight();
  if (s.has_quiescence_scale()) c.quiescence_scale = s.quiescence_scale();
  if (s.has_quiescence_depth()) c.quiescence_depth = s.quiescence_depth();
  if (s.has_quiescence_plies()) c.quiescence_plies = s.quiescence_plies();
  if (s.has_capture_prior()) c.capture_prior = s.capture_prior();
  if (s.has_minimax_weight()) c.minimax_weight = s.minimax_weight();
  if (s.has_forced_playouts()) c.forced_playouts = s.forced_playouts();  // self-play only
  if (s.has_policy_temperature()) c.policy_temperature = s.policy_temperature();
  if (s.has_fpu_reduction_root()) c.fpu_reduction_root = s.fpu_reduction_root();
  if (s.has_heuristic_prior()) c.heuristic_prior = s.heuristic_prior();
  if (s.has_heuristic_prior_scale()) c.heuristic_prior_scale = s.heuristic_prior_scale();
  if (s.has_heuristic_prior_root_plies()) {
    c.heuristic_prior_root_plies = s.heuristic_prior_root_plies();
  }
  c.self_play = false;
  c.seed = seed;
  c.fast_simulations = std::max(1, std::min(c.fast_simulations, c.simulations));
  return c;
}

mcts::SearchConfig selfplay_search_config(const SelfPlayConfig& sp, uint64_t seed) {
  mcts::SearchConfig c = play_search_config(sp.search(), seed);
  c.self_play = true;
  c.dirichlet_alpha = sp.dirichlet_alpha();
  c.dirichlet_epsilon = sp.dirichlet_epsilon();
  c.full_search_probability = sp.full_search_probability();
  c.fast_simulations = sp.fast_simulations();
  c.temperature.initial = sp.temperature();
  c.temperature.final = 0.0f;
  c.temperature.moves = sp.temperature_moves();
  c.gumbel_noise_moves = sp.gumbel_noise_plies();
  return c;
}

double heuristic_share(const SelfPlayConfig& sp, int64_t model_step) {
  if (sp.heuristic_anneal_steps() <= 0) return 1.0;
  const double left = 1.0 - static_cast<double>(model_step) / sp.heuristic_anneal_steps();
  return std::max<double>(sp.heuristic_floor(),
                          std::round(std::clamp(left, 0.0, 1.0) * 20.0) / 20.0);
}

void scale_heuristic(mcts::SearchConfig& c, double share) {
  const float f = static_cast<float>(share);
  c.quiescence_weight *= f;
  c.capture_prior *= f;
  c.heuristic_prior *= f;
}

}  // namespace pincer
