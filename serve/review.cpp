#include "serve/review.h"

#include <spdlog/spdlog.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <sstream>

namespace pincer::serve {
namespace {

std::atomic<uint64_t> next_review{0};

double round4(double x) { return std::round(x * 10000.0) / 10000.0; }
double round1(double x) { return std::round(x * 10.0) / 10.0; }

// lichess's accuracy of one move from its drop in percent of expected score.
double move_accuracy(double drop) {
  if (drop <= 0) return 100;
  const double a = 103.1668 * std::exp(-0.04354 * drop * 100) - 3.1669;
  return std::max(0.0, std::min(100.0, a));
}

// The expected score of `player` at turn `state` from its analysis: the exact result when the
// game is over, else the analysis's win + draw / 2 (for the side to move); NaN when unknown.
double value_for(const State& state, const Json& analysis, int player) {
  const Outcome o = state.outcome();
  if (o.over) return o.score_for(player);
  if (!analysis.is_object() || !analysis.contains("rootInfo") ||
      !analysis["rootInfo"].contains("win")) {
    return NAN;
  }
  const Json& root = analysis["rootInfo"];
  const double v = root.value("win", 0.0) + 0.5 * root.value("draw", 0.0);
  return state.to_move() == player ? v : 1 - v;
}

const char* mark_of(double drop, const ReviewOptions& o) {
  if (drop >= o.blunder) return "blunder";
  if (drop >= o.mistake) return "mistake";
  if (drop >= o.inaccuracy) return "inaccuracy";
  return nullptr;
}

}  // namespace

Json review_from_analyses(const Game& game, const State& start, const std::vector<Action>& actions,
                          const std::vector<Json>& analyses, const ReviewOptions& options) {
  struct SideSum {
    int judged = 0, inaccuracies = 0, mistakes = 0, blunders = 0;
    double accuracy = 0, drop = 0;
  };
  SideSum sums[2];
  std::unique_ptr<State> state = start.clone();
  const auto analysis_at = [&](size_t t) { return t < analyses.size() ? analyses[t] : Json(); };
  Json graph = Json::array();
  // Each turn's expected final points (rootInfo.expectedPoints, or expectedPointsDiff for the
  // side to move), where the analyser gives them (docs/analysis.md).
  Json points = Json::array();
  bool any_points = false;
  Json moves = Json::array();
  std::vector<Action> legal;
  for (size_t t = 0; t <= actions.size(); ++t) {
    const Json a = analysis_at(t);
    const double v0 = value_for(*state, a, 0);
    graph.push_back(std::isnan(v0) ? Json() : Json(round4(v0)));
    Json p;
    if (a.is_object() && a.contains("rootInfo")) {
      for (const char* key : {"expectedPoints", "expectedPointsDiff", "pointsSource"}) {
        if (a["rootInfo"].contains(key)) p[key] = a["rootInfo"][key];
      }
    }
    any_points |= !p.is_null();
    points.push_back(p);
    if (t == actions.size()) break;
    const Action action = actions[t];
    const int mover = state->to_move();
    state->legal_actions(legal);
    Json m{{"ply", t + 1},
           {"side", game.side_name(mover)},
           {"move", game.action_text(*state, action, true)}};
    const bool forced = legal.size() == 1;
    std::string best;
    if (a.is_object() && a.contains("moveInfos") && !a["moveInfos"].empty()) {
      const Json& top = a["moveInfos"][0];
      best = top.value("move", std::string());
      m["best"] = best;
      m["bestValue"] = round4(top.value("win", 0.0) + 0.5 * top.value("draw", 0.0));
      if (top.contains("pv")) {
        Json line = Json::array();
        for (const Json& x : top["pv"]) {
          if (line.size() >= 6) break;
          line.push_back(x);
        }
        m["bestLine"] = line;
      }
    }
    const double before = value_for(*state, a, mover);
    state->apply(action);
    const double after = value_for(*state, analysis_at(t + 1), mover);
    if (std::isnan(before) || std::isnan(after)) {
      m["judged"] = false;
      moves.push_back(std::move(m));
      continue;
    }
    m["before"] = round4(before);
    m["after"] = round4(after);
    const bool is_best = !best.empty() && best == m["move"].get<std::string>();
    double drop = std::max(0.0, before - after);
    if (forced) m["forced"] = true;
    if (is_best) m["isBest"] = true;
    if (forced || is_best) drop = 0;
    m["drop"] = round4(drop);
    SideSum& s = sums[mover];
    if (!forced) {
      ++s.judged;
      s.accuracy += move_accuracy(drop);
      s.drop += drop;
    }
    if (const char* mark = mark_of(drop, options)) {
      m["mark"] = mark;
      const std::string k = mark;
      (k == "blunder" ? s.blunders : k == "mistake" ? s.mistakes : s.inaccuracies) += 1;
    }
    moves.push_back(std::move(m));
  }
  Json sides = Json::object();
  for (int p = 0; p < 2; ++p) {
    const SideSum& s = sums[p];
    Json j{{"moves", s.judged},
           {"inaccuracies", s.inaccuracies},
           {"mistakes", s.mistakes},
           {"blunders", s.blunders}};
    j["accuracy"] = s.judged ? Json(round1(s.accuracy / s.judged)) : Json();
    j["averageDrop"] = s.judged ? Json(round4(s.drop / s.judged)) : Json();
    sides[game.side_name(p)] = j;
  }
  const Outcome o = state->outcome();
  Json out{{"rules", game.ruleset_name()},
           {"fingerprint", game.fingerprint()},
           {"thresholds",
            {{"inaccuracy", options.inaccuracy},
             {"mistake", options.mistake},
             {"blunder", options.blunder}}},
           {"budget", {{"maxVisits", options.visits}, {"maxTime", options.seconds}}}};
  out["result"] =
      o.over ? Json{{"winner", o.winner < 0 ? std::string("draw") : game.side_name(o.winner)},
                    {"reason", o.reason}}
             : Json();
  out["sides"] = sides;
  out["moves"] = moves;
  out["graph"] = graph;
  if (any_points) out["expectedPoints"] = points;
  return out;
}

Json review_game(AnalysisEngine& engine, const ReviewGame& g, const ReviewOptions& options,
                 double wait_seconds) {
  const std::shared_ptr<Analyzer> analyzer = engine.analyzer_for(g.rules);
  const Game& game = *analyzer->game();
  std::unique_ptr<State> start = game.initial_state();
  if (!g.position.empty()) {
    try {
      start = game.parse_start(g.position);
    } catch (const std::exception& e) {
      throw QueryError("position", e.what());
    }
  }
  std::unique_ptr<State> state = start->clone();
  std::vector<Action> actions;
  Query q;
  for (size_t i = 0; i < g.moves.size(); ++i) {
    try {
      if (state->outcome().over) throw GameError("the game is already over");
      const Action a = game.parse_action(*state, g.moves[i]);
      q.moves.push_back(game.action_text(*state, a, false));
      actions.push_back(a);
      state->apply(a);
    } catch (const GameError& e) {
      throw QueryError("moves",
                       "move " + std::to_string(i + 1) + " (" + g.moves[i] + "): " + e.what());
    }
  }
  q.id = "review-" + std::to_string(next_review++);
  q.rules = game.fingerprint();
  q.position = start->to_text();
  for (size_t t = 0; t <= actions.size(); ++t) q.analyze_turns.push_back(static_cast<int>(t));
  q.max_visits = options.visits;
  q.max_time = options.seconds;
  q.priority = options.priority;

  struct Collected {
    std::mutex mu;
    std::condition_variable cv;
    std::vector<Json> finals;
    size_t answered = 0;
    std::string error;
  };
  // Shared with the sink: a turn may answer after this call has given up waiting.
  auto got = std::make_shared<Collected>();
  got->finals.resize(actions.size() + 1);
  const size_t turns = actions.size() + 1;
  const Sink sink = [got](const Json& j) {
    if (j.value("isDuringSearch", false)) return;
    std::lock_guard<std::mutex> lock(got->mu);
    if (j.contains("error") && !j.contains("turnNumber")) {
      got->error = j["error"].get<std::string>();
      got->answered = got->finals.size();  // the whole query failed
    } else {
      const int t = j.value("turnNumber", -1);
      if (t >= 0 && static_cast<size_t>(t) < got->finals.size()) got->finals[t] = j;
      ++got->answered;
    }
    got->cv.notify_all();
  };
  if (!engine.submit(q, sink)) {
    std::lock_guard<std::mutex> lock(got->mu);
    throw std::runtime_error(got->error.empty() ? "the review's analysis was refused" : got->error);
  }
  std::unique_lock<std::mutex> lock(got->mu);
  const auto all = [&] { return got->answered >= turns; };
  if (!got->cv.wait_for(lock, std::chrono::duration<double>(wait_seconds), all)) {
    lock.unlock();
    spdlog::warn("review {}: not done after {} s, stopping it", q.id.dump(), wait_seconds);
    engine.terminate(q.id);
    lock.lock();
    got->cv.wait(lock, all);  // terminated turns answer at once
  }
  std::vector<Json> finals = got->finals;
  lock.unlock();
  Json out = review_from_analyses(game, *start, actions, finals, options);
  out["analyzer"] = analyzer->description();
  out["position"] = start->to_text();
  return out;
}

std::string annotated_sgn(const Game& game, const State& start, const std::vector<Action>& actions,
                          const Json& review, const Headers& headers) {
  Headers h = headers;
  const Json& budget = review.value("budget", Json::object());
  h.emplace_back("Annotator", "pincer review, " + review.value("analyzer", std::string("?")) +
                                  ", " + std::to_string(budget.value("maxVisits", 0)) +
                                  " visits a turn");
  const std::string plain = write_sgn(game, start, actions, h);
  // The headers as write_sgn writes them; the moves again, with comments.
  const size_t body = plain.find("\n\n");
  std::ostringstream out;
  out << plain.substr(0, body == std::string::npos ? plain.size() : body + 2);
  const Json& t = review["thresholds"];
  std::ostringstream summary;
  summary << "{Review: drops in the mover's expected score of " << t.value("inaccuracy", 0.0)
          << " / " << t.value("mistake", 0.0) << " / " << t.value("blunder", 0.0)
          << " mark an inaccuracy / mistake / blunder.";
  for (const auto& [side, s] : review["sides"].items()) {
    summary << " " << side << ": accuracy "
            << (s["accuracy"].is_null() ? std::string("-") : s["accuracy"].dump()) << ", "
            << s.value("inaccuracies", 0) << " inaccuracies, " << s.value("mistakes", 0)
            << " mistakes, " << s.value("blunders", 0) << " blunders.";
  }
  summary << "}";
  std::vector<std::string> tokens = {summary.str()};
  const Json& moves = review["moves"];
  std::unique_ptr<State> state = start.clone();
  for (size_t i = 0; i < actions.size(); ++i) {
    tokens.push_back((i % 2 == 0 ? std::to_string(i / 2 + 1) + ". " : "") +
                     game.action_text(*state, actions[i], true));
    state->apply(actions[i]);
    if (i >= moves.size() || !moves[i].contains("mark")) continue;
    const Json& m = moves[i];
    std::ostringstream c;
    c << "{" << m["mark"].get<std::string>() << ": " << m["before"].dump() << " -> "
      << m["after"].dump();
    if (m.contains("best")) {
      c << "; best " << m["best"].get<std::string>() << " (" << m["bestValue"].dump() << ")";
    }
    c << "}";
    tokens.push_back(c.str());
    // A comment breaks the move pairs: the next move of the second side is numbered "N...".
    if (i % 2 == 0 && i + 1 < actions.size()) tokens.push_back(std::to_string(i / 2 + 1) + "...");
  }
  // 80 columns a line, as write_sgn; a long comment goes on a line of its own.
  std::string line;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string& token = tokens[i];
    if (!line.empty() && line.size() + 1 + token.size() > 80) {
      out << line << "\n";
      line.clear();
    }
    // "N..." glues to the move after it.
    const bool glue = !line.empty() && line.back() == '.' && line.size() >= 3 &&
                      line.compare(line.size() - 3, 3, "...") == 0;
    line += (line.empty() || glue ? "" : " ") + token;
  }
  if (!line.empty()) out << line << "\n";
  return out.str();
}

}  // namespace pincer::serve
