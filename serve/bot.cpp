#include "serve/bot.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>

#include "play/levels.h"
#include "play/players.h"

namespace pincer::serve {
namespace {

std::atomic<uint64_t> next_query{0};

}  // namespace

BotMove choose_bot_move(AnalysisEngine& engine, const GameSession& session,
                        const GameSession::Turn& turn, const BotOptions& options, uint64_t seed) {
  const State& state = *turn.state;
  const Game& game = *session.analyzer()->game();
  std::vector<Action> legal;
  state.legal_actions(legal);
  if (legal.empty()) throw std::runtime_error("no legal move");
  BotMove out;
  const auto done = [&](Action a, const std::string& how) {
    out.action = a;
    out.text = game.action_text(state, a, false);
    out.how = how;
    return out;
  };
  if (legal.size() == 1) return done(legal[0], "only move");
  if (counts_points(game) && play_for_points(options.time_control, turn.time_left)) {
    return done(points_move(state), "points");
  }

  const LevelSetting level = level_setting(session.settings().level);
  double seconds = options.untimed_seconds;
  if (turn.time_left >= 0) {
    seconds = move_time(options.time_control, turn.time_left, sharpness(state));
  }
  if (seconds < 0.005) return done(legal[0], "no time");

  // The query: the position as text, so that the engine need not replay the game.
  Query q;
  q.id = "bot-" + session.id() + "-" + std::to_string(next_query++);
  q.rules = game.fingerprint();
  q.position = state.to_text();
  q.max_visits = level_visits(level, options.full_visits);
  q.max_time = seconds;
  q.include_pv = false;
  q.include_policy = true;
  q.early_stop = true;
  q.priority = kBotPriority;  // before any analysis (serve/engine.h)
  // Shared with the sink: the answer may come after this function has given up waiting.
  struct Answer {
    std::mutex mu;
    std::condition_variable cv;
    Json response;
    bool finished = false;
  };
  auto answer = std::make_shared<Answer>();
  const Sink sink = [answer](const Json& j) {
    if (j.value("isDuringSearch", false)) return;
    std::lock_guard<std::mutex> lock(answer->mu);
    answer->response = j;
    answer->finished = true;
    answer->cv.notify_all();
  };
  const auto t0 = std::chrono::steady_clock::now();
  if (!engine.submit(q, sink)) {
    std::lock_guard<std::mutex> lock(answer->mu);
    throw std::runtime_error(answer->response.value("error", std::string("bot query refused")));
  }
  Json final_response;
  {
    std::unique_lock<std::mutex> lock(answer->mu);
    const auto finished = [&] { return answer->finished; };
    if (!answer->cv.wait_for(lock, std::chrono::duration<double>(seconds + options.wait_slack_s),
                             finished)) {
      lock.unlock();
      engine.terminate(q.id);
      lock.lock();
      // A stopped search answers at once; past the slack again the move is a fallback.
      answer->cv.wait_for(lock, std::chrono::duration<double>(options.wait_slack_s), finished);
    }
    final_response = answer->finished ? answer->response : Json{{"error", "no answer in time"}};
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (final_response.contains("error") || !final_response.contains("moveInfos") ||
      final_response["moveInfos"].empty()) {
    // Terminated before it started or failed: the quickest legal move is still a move.
    return done(legal[0], "fallback");
  }
  const Json& infos = final_response["moveInfos"];
  std::vector<Candidate> candidates;
  std::vector<std::string> moves;
  for (const Json& m : infos) {
    Candidate c;
    c.visits = m.value("visits", 0.0);
    c.value = m.value("win", 0.0) + 0.5 * m.value("draw", 0.0);
    c.prior = m.value("prior", 0.0);
    candidates.push_back(c);
    moves.push_back(m["move"].get<std::string>());
  }
  // Alpha-beta "visits" are nodes, not a preference: pick by value there.
  if (final_response["rootInfo"].contains("scoreCp")) {
    for (Candidate& c : candidates) c.visits = 0;
  }
  // The moves the search never visited, from the policy: a level's random move may be any.
  if (final_response.contains("policy")) {
    const size_t searched = moves.size();
    for (const auto& [move, prior] : final_response["policy"].items()) {
      if (std::find(moves.begin(), moves.begin() + searched, move) != moves.begin() + searched)
        continue;
      candidates.push_back({0.0, 0.0, prior.get<double>()});
      moves.push_back(move);
    }
  }
  Rng rng(mix_seed(seed, state.hash()));
  const int pick = pick_candidate(level, candidates, rng.uniform(), rng.uniform());
  const Action a = game.parse_action(state, moves[pick]);
  out.analysis = final_response;
  return done(a, "search");
}

}  // namespace pincer::serve
