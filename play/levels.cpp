#include "play/levels.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace pincer {
namespace {

// Level: visit fraction, temperature, policy noise, random moves. Levels 1-6 search one visit
// (the network's favourite move, the search's tactics included); 1-5 play a random move with a
// probability that falls from 1 to 0.15, so that their strength depends little on the model
// (level 1 is the random player). Levels 7-10 search an eighth, a quarter, half and all of the
// full search with a cooling pick. Chosen from rate-levels.py runs (docs/players.md): strength
// hardly grows from one visit up to about fifty, then grows steeply up to the full search.
constexpr LevelSetting kLevels[kMaxLevel] = {
    {1, 0, 0, 0, 1.0},        {2, 0, 0, 0, 0.85}, {3, 0, 0, 0, 0.6},       {4, 0, 0, 0, 0.35},
    {5, 0, 0, 0, 0.15},       {6, 0, 0, 0, 0},    {7, 1.0 / 8, 0.2, 0, 0}, {8, 1.0 / 4, 0.1, 0, 0},
    {9, 1.0 / 2, 0.05, 0, 0}, {10, 1.0, 0, 0, 0}};

// Index of the weight vector's draw at u in [0, 1).
int draw(const std::vector<double>& w, double u) {
  double total = 0;
  for (double x : w) total += x;
  if (!(total > 0)) return 0;
  double acc = 0;
  for (size_t i = 0; i < w.size(); ++i) {
    acc += w[i] / total;
    if (u < acc) return static_cast<int>(i);
  }
  return static_cast<int>(w.size()) - 1;
}

}  // namespace

LevelSetting level_setting(int level) {
  if (level < kMinLevel || level > kMaxLevel) {
    throw std::invalid_argument("level must be in 1..10, not " + std::to_string(level));
  }
  return kLevels[level - 1];
}

int level_visits(const LevelSetting& s, int full_visits) {
  return std::max(1, static_cast<int>(std::lround(full_visits * s.visit_fraction)));
}

int pick_candidate(const LevelSetting& s, const std::vector<Candidate>& c, double u1, double u2) {
  if (c.empty()) throw std::invalid_argument("pick_candidate: no candidates");
  if (u1 < s.random_move) {
    return std::min(static_cast<int>(c.size()) - 1, static_cast<int>(u2 * c.size()));
  }
  if (s.policy_noise > 0 && u1 < s.random_move + s.policy_noise) {
    std::vector<double> w;
    for (const Candidate& x : c) w.push_back(x.prior);
    return draw(w, u2);
  }
  if (s.temperature <= 0) return 0;
  std::vector<double> w(c.size(), 0.0);
  const bool by_visits = c[0].visits > 0;
  for (size_t i = 0; i < c.size(); ++i) {
    if (by_visits) {
      w[i] = c[i].visits > 0 ? std::pow(c[i].visits / c[0].visits, 1.0 / s.temperature) : 0.0;
    } else {
      w[i] = std::exp((c[i].value - c[0].value) / (0.1 * s.temperature));
    }
  }
  return draw(w, u2);
}

}  // namespace pincer
