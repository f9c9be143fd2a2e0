#include "serve/session.h"

#include "engine/record.h"
#include "serve/board.h"

namespace pincer::serve {

GameSession::GameSession(std::string id, std::shared_ptr<Analyzer> analyzer,
                         std::unique_ptr<State> start, SessionSettings settings)
    : id_(std::move(id)),
      analyzer_(std::move(analyzer)),
      start_(std::move(start)),
      state_(start_->clone()),
      settings_(std::move(settings)) {
  remaining_[0] = remaining_[1] = settings_.clock_seconds;
  tick_ = last_used_ = Clock::now();
}

GameSession::Clock::time_point GameSession::last_used() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return last_used_;
}

bool GameSession::over_locked() const { return ended_ || state_->outcome().over; }

void GameSession::tick_locked() {
  const auto now = Clock::now();
  last_used_ = now;
  const double dt = std::chrono::duration<double>(now - tick_).count();
  tick_ = now;
  if (settings_.clock == ClockMode::kNone || over_locked()) return;
  double& left = remaining_[settings_.clock == ClockMode::kGame ? 0 : state_->to_move()];
  left -= dt;
  if (left > 0) return;
  left = 0;
  ended_ = true;
  const Outcome o = clock_outcome(GameClock{settings_.clock, settings_.clock_seconds}, *state_);
  winner_ = o.winner;
  reason_ = o.reason;
}

Json GameSession::describe() {
  std::lock_guard<std::mutex> lock(mutex_);
  tick_locked();
  const Game& game = *analyzer_->game();
  Json out;
  out["id"] = id_;
  out["rules"] = game.ruleset_name();
  out["sides"] = {game.side_name(0), game.side_name(1)};
  out["bot"] = settings_.bot_plays;
  out["level"] = settings_.level;
  out["start"] = start_->to_text();
  out["position"] = state_->to_text();
  out["moves"] = moves_;
  out["toMove"] = game.side_name(state_->to_move());
  const std::array<int, 2> points = state_->points();
  out["points"] = {points[0], points[1]};
  out["view"] = view_json(*state_);
  Json legal = Json::array();
  if (!over_locked()) {
    std::vector<Action> actions;
    state_->legal_actions(actions);
    for (Action a : actions) {
      Json m = cells_json(state_->action_cells(a));
      m["move"] = game.action_text(*state_, a, false);
      m["short"] = game.action_text(*state_, a, true);
      legal.push_back(std::move(m));
    }
  }
  out["legal"] = std::move(legal);
  const Outcome o = state_->outcome();
  if (ended_) {
    out["result"] = {{"winner", winner_ < 0 ? std::string("draw") : game.side_name(winner_)},
                     {"reason", reason_}};
  } else if (o.over) {
    out["result"] = {{"winner", o.winner < 0 ? std::string("draw") : game.side_name(o.winner)},
                     {"reason", o.reason}};
  } else {
    out["result"] = nullptr;
  }
  Json clock{{"mode", settings_.clock == ClockMode::kNone   ? "none"
                      : settings_.clock == ClockMode::kGame ? "game"
                                                            : "side"}};
  if (settings_.clock == ClockMode::kGame) clock["remaining"] = remaining_[0];
  if (settings_.clock == ClockMode::kSide) clock["remaining"] = {remaining_[0], remaining_[1]};
  clock["total"] = settings_.clock_seconds;
  out["clock"] = clock;
  return out;
}

void GameSession::play(const std::string& text) {
  std::lock_guard<std::mutex> lock(mutex_);
  tick_locked();
  if (over_locked()) throw GameOver("move", "the game is over");
  Action a;
  try {
    a = analyzer_->game()->parse_action(*state_, text);
  } catch (const GameError& e) {
    throw QueryError("move", e.what());
  }
  const Game& game = *analyzer_->game();
  Json m = cells_json(state_->action_cells(a));
  m["move"] = game.action_text(*state_, a, true);
  m["long"] = game.action_text(*state_, a, false);
  m["side"] = game.side_name(state_->to_move());
  state_->apply(a);
  m["captured"] = state_->last_captured();
  const std::array<int, 2> points = state_->points();
  m["points"] = {points[0], points[1]};
  moves_.push_back(std::move(m));
  actions_.push_back(a);
}

bool GameSession::play_at(int ply, Action action) {
  std::string text;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (static_cast<int>(actions_.size()) != ply || over_locked()) return false;
    text = analyzer_->game()->action_text(*state_, action, false);
  }
  try {
    play(text);
  } catch (const QueryError&) {
    return false;
  }
  return true;
}

void GameSession::resign(int player) {
  std::lock_guard<std::mutex> lock(mutex_);
  tick_locked();
  if (over_locked()) throw GameOver("", "the game is over");
  if (player < 0) player = state_->to_move();
  ended_ = true;
  winner_ = 1 - player;
  reason_ = "resignation";
}

std::optional<GameSession::Turn> GameSession::turn() {
  std::lock_guard<std::mutex> lock(mutex_);
  tick_locked();
  if (over_locked()) return std::nullopt;
  Turn t;
  t.state = state_->clone();
  t.ply = static_cast<int>(actions_.size());
  t.bot_to_move = settings_.bot_plays[state_->to_move()];
  if (settings_.clock == ClockMode::kGame) t.time_left = remaining_[0];
  if (settings_.clock == ClockMode::kSide) t.time_left = remaining_[state_->to_move()];
  return t;
}

std::string GameSession::record() {
  std::lock_guard<std::mutex> lock(mutex_);
  const Game& game = *analyzer_->game();
  Headers headers = {{"Event", "pincer serve"}, {"Site", "pincer serve"}};
  if (ended_) headers.push_back({"Ending", reason_});
  return write_sgn(game, *start_, actions_, headers);
}

}  // namespace pincer::serve
