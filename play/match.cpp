#include "play/match.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <exception>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "engine/record.h"
#include "play/players.h"

namespace pincer {

PlayerMaker player_maker(const GamePtr& game, const std::string& spec) {
  make_player(game, spec, 0);  // throws for a bad spec
  return [game, spec](uint64_t seed) { return make_player(game, spec, seed); };
}

namespace {

bool can_win_at_once(const State& state) {
  std::vector<Action> actions;
  state.legal_actions(actions);
  for (Action a : actions) {
    auto child = state.clone();
    child->apply(a);
    const Outcome o = child->outcome();
    if (o.over && o.winner == state.to_move()) return true;
  }
  return false;
}

}  // namespace

std::vector<Action> random_opening(const Game& game, int plies, uint64_t seed, const State* start) {
  std::vector<Action> legal, line;
  for (int length = std::max(0, plies); length > 0; --length) {
    for (int attempt = 0; attempt < 100; ++attempt) {
      Rng rng(mix_seed(seed, attempt * 1000 + length));
      auto state = start ? start->clone() : game.initial_state();
      line.clear();
      bool ok = true;
      for (int i = 0; i < length && ok; ++i) {
        state->legal_actions(legal);
        if (legal.empty()) {
          ok = false;
          break;
        }
        const Action a = legal[rng.below(legal.size())];
        state->apply(a);
        line.push_back(a);
        ok = !state->outcome().over;
      }
      if (ok && !can_win_at_once(*state)) return line;
    }
  }
  return {};
}

PlayedGame play_game(const State& start, Player* players[2], int max_plies,
                     const MoveObserver& observer, const GameClock& clock) {
  PlayedGame g;
  auto state = start.clone();
  std::vector<Action> legal;
  for (int p = 0; p < 2; ++p) players[p]->new_game();
  g.time_left = {clock.seconds, clock.seconds};
  while (true) {
    g.outcome = state->outcome();
    if (g.outcome.over) break;
    if (static_cast<int>(g.actions.size()) >= max_plies) {
      g.outcome = Outcome{true, -1, "adjudicated"};
      g.adjudicated = true;
      break;
    }
    const int mover = state->to_move();
    // The clock that runs while `mover` thinks: the game's one clock, or the mover's own.
    double* left = clock.mode == ClockMode::kGame   ? &g.time_left[0]
                   : clock.mode == ClockMode::kSide ? &g.time_left[mover]
                                                    : nullptr;
    players[mover]->set_time_left(left ? *left : -1);
    const auto t0 = std::chrono::steady_clock::now();
    const Action a = players[mover]->choose(*state);
    const double thought =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    g.think_seconds[mover] += thought;
    ++g.moves[mover];
    if (left) {
      *left -= thought;
      if (*left <= 0) {  // the flag fell while the mover thought: its move does not count
        *left = 0;
        g.outcome = clock_outcome(clock, *state);
        g.on_time = true;
        break;
      }
    }
    state->legal_actions(legal);
    if (std::find(legal.begin(), legal.end(), a) == legal.end()) {
      throw std::runtime_error("player '" + players[mover]->spec() + "' chose an illegal action " +
                               std::to_string(a) + " in " + state->to_text());
    }
    if (observer) observer(*state, a, mover);
    state->apply(a);
    g.actions.push_back(a);
  }
  return g;
}

double MatchResult::seconds_per_move(bool a) const {
  double seconds = 0;
  int moves = 0;
  for (const MatchGame& g : games) {
    const int p = a ? g.a_player : 1 - g.a_player;
    seconds += g.think_seconds[p];
    moves += g.moves[p];
  }
  return moves > 0 ? seconds / moves : 0.0;
}

MatchResult run_match(const GamePtr& game, const std::string& spec_a, const PlayerMaker& a,
                      const std::string& spec_b, const PlayerMaker& b,
                      const MatchOptions& options) {
  if (!game) throw std::invalid_argument("run_match: no game");
  if (options.games < 1) throw std::invalid_argument("--games must be at least 1");
  if (options.threads < 1) throw std::invalid_argument("--threads must be at least 1");
  if (options.opening_plies < 0) throw std::invalid_argument("--openings must be 0 or more");
  if (options.max_plies < 1) throw std::invalid_argument("max plies must be at least 1");
  if (options.sprt) check_sprt(*options.sprt);
  if (!options.position.empty()) game->parse_start(options.position);  // throws for bad text

  const int total = options.games + (options.games & 1);
  const auto start = std::chrono::steady_clock::now();
  MatchResult result;
  result.spec_a = spec_a;
  result.spec_b = spec_b;

  std::vector<std::optional<MatchGame>> done(total);
  std::vector<std::vector<Action>> openings((total + 1) / 2);
  std::vector<std::string> starts(openings.size());  // text of each pair's start, "" fixed
  std::vector<bool> opening_ready(openings.size(), false);
  std::mutex mutex;
  std::atomic<int> next{0};
  std::atomic<bool> stop{false};
  std::exception_ptr error;
  int counted = 0;  // games [0, counted) are in result
  const int log_every = std::max(1, total / 10);

  // Folds finished games into the result in game order; stops at an SPRT decision.
  auto advance = [&] {
    while (counted < total && done[counted] && !stop) {
      const MatchGame& g = *done[counted];
      if (options.on_game) options.on_game(g);
      if (g.score_a == 1)
        ++result.wins;
      else if (g.score_a == 0)
        ++result.losses;
      else
        ++result.draws;
      result.score_as[g.a_player] += g.score_a;
      result.games_as[g.a_player] += 1;
      result.mean_plies += g.actions.size();
      result.games.push_back(g);
      ++counted;
      if (counted % log_every == 0 || counted == total) {
        spdlog::info("{} vs {}: {}/{} games, +{} ={} -{}", spec_a, spec_b, counted, total,
                     result.wins, result.draws, result.losses);
      }
      if (options.sprt && counted % 2 == 0) {
        const SprtStatus st = sprt_status(*options.sprt, result.wins, result.draws, result.losses);
        result.sprt = st;
        if (st.decision != SprtDecision::kContinue) {
          result.stopped_early = counted < total;
          stop = true;
        }
      }
    }
  };

  auto worker = [&] {
    while (!stop) {
      const int index = next++;
      if (index >= total) break;
      try {
        const int pair = index / 2;
        std::vector<Action> opening;
        std::string start_text;
        {
          std::lock_guard<std::mutex> lock(mutex);
          if (!opening_ready[pair]) {
            // Both games of a pair start alike: the given start, or one drawn for the pair.
            std::unique_ptr<State> pair_start =
                !options.position.empty()
                    ? game->parse_start(options.position)
                    : game->start_state(mix_seed(options.seed ^ 0x57a27ULL, pair));
            if (!options.position.empty() || game->random_start())
              starts[pair] = pair_start->to_text();
            openings[pair] = random_opening(*game, options.opening_plies,
                                            mix_seed(options.seed, pair), pair_start.get());
            opening_ready[pair] = true;
          }
          opening = openings[pair];
          start_text = starts[pair];
        }
        MatchGame g;
        g.index = index;
        g.a_player = index % 2;
        g.spec[g.a_player] = spec_a;
        g.spec[1 - g.a_player] = spec_b;
        g.seed = mix_seed(options.seed ^ 0x5eed5eed5eed5eedULL, index);
        g.start = start_text;
        auto state = game->parse_start(start_text);
        for (Action o : opening) state->apply(o);
        std::unique_ptr<Player> pa = a(mix_seed(g.seed, 1)), pb = b(mix_seed(g.seed, 2));
        Player* players[2];
        players[g.a_player] = pa.get();
        players[1 - g.a_player] = pb.get();
        const auto t0 = std::chrono::steady_clock::now();
        PlayedGame played = play_game(*state, players, options.max_plies, {}, options.clock);
        g.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        g.opening_plies = static_cast<int>(opening.size());
        g.actions = opening;
        g.actions.insert(g.actions.end(), played.actions.begin(), played.actions.end());
        g.outcome = played.outcome;
        g.adjudicated = played.adjudicated;
        g.on_time = played.on_time;
        for (int p = 0; p < 2; ++p) {
          g.think_seconds[p] = played.think_seconds[p];
          g.moves[p] = played.moves[p];
        }
        g.score_a = played.outcome.score_for(g.a_player);
        spdlog::debug("game {}: {} ({}) in {} plies", index + 1, g.score_a, g.outcome.reason,
                      g.actions.size());
        std::lock_guard<std::mutex> lock(mutex);
        done[index] = std::move(g);
        advance();
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex);
        if (!error) error = std::current_exception();
        stop = true;
      }
    }
  };

  const int threads = std::min(options.threads, total);
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  if (error) std::rethrow_exception(error);

  const int n = static_cast<int>(result.games.size());
  if (n > 0) result.mean_plies /= n;
  result.estimate = estimate_score(result.wins, result.draws, result.losses);
  if (options.sprt && !result.sprt) {
    result.sprt = sprt_status(*options.sprt, result.wins, result.draws, result.losses);
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

MatchResult run_match(const GamePtr& game, const std::string& spec_a, const std::string& spec_b,
                      const MatchOptions& options) {
  return run_match(game, spec_a, player_maker(game, spec_a), spec_b, player_maker(game, spec_b),
                   options);
}

std::string match_game_text(const Game& game, const MatchGame& g, const std::string& event) {
  Headers headers = {{"Event", event}, {"Round", std::to_string(g.index + 1)}};
  for (int p = 0; p < 2; ++p) {
    std::string side = game.side_name(p);
    if (!side.empty())
      side[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(side[0])));
    headers.emplace_back(side, g.spec[p]);
  }
  headers.emplace_back("OpeningPlies", std::to_string(g.opening_plies));
  headers.emplace_back("Seed", std::to_string(g.seed));
  if (g.adjudicated)
    headers.emplace_back("Adjudicated",
                         "draw after " + std::to_string(g.actions.size()) + " plies");
  return write_sgn(game, *game.parse_start(g.start), g.actions, headers);
}

}  // namespace pincer
