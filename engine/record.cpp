#include "engine/record.h"

#include <cctype>
#include <sstream>

#include "engine/registry.h"

namespace pincer {

namespace {

std::string quote(const std::string& value) {
  std::string out = "\"";
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    out += (c == '\n' || c == '\r') ? ' ' : c;
  }
  return out + "\"";
}

bool is_move_number(const std::string& token, size_t& prefix) {
  size_t i = 0;
  while (i < token.size() && std::isdigit(static_cast<unsigned char>(token[i]))) ++i;
  if (i == 0 || i >= token.size() || token[i] != '.') return false;
  while (i < token.size() && token[i] == '.') ++i;
  prefix = i;
  return true;
}

bool is_result_token(const std::string& token) {
  return token == "*" || token == "1-0" || token == "0-1" || token == "1/2-1/2";
}

std::string capitalized(std::string s) {
  if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

}  // namespace

std::string SgnRecord::header(const std::string& key) const {
  for (const auto& [k, v] : headers)
    if (k == key) return v;
  return "";
}

std::vector<SgnRecord> parse_sgn(const std::string& text) {
  std::vector<SgnRecord> records;
  SgnRecord current;
  bool in_moves = false, any = false, in_comment = false;
  std::istringstream in(text);
  std::string line;
  int line_no = 0;
  auto finish = [&] {
    if (any) records.push_back(std::move(current));
    current = SgnRecord{};
    in_moves = any = false;
  };
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos) continue;
    if (!in_comment && line[start] == '[') {
      if (in_moves) finish();
      if (!any) current.first_line = line_no;
      any = true;
      const size_t space = line.find_first_of(" \t", start);
      const size_t open = line.find('"', start);
      const size_t close = line.rfind(']');
      if (space == std::string::npos || open == std::string::npos || close == std::string::npos ||
          close < open || open < space)
        throw GameError("line " + std::to_string(line_no) +
                        ": a header must look like [Key \"value\"]");
      const std::string key = line.substr(start + 1, space - start - 1);
      std::string value;
      size_t i = open + 1;
      bool closed = false;
      for (; i < close; ++i) {
        if (line[i] == '\\' && i + 1 < close)
          value += line[++i];
        else if (line[i] == '"') {
          closed = true;
          break;
        } else
          value += line[i];
      }
      if (!closed || key.empty())
        throw GameError("line " + std::to_string(line_no) +
                        ": a header must look like [Key \"value\"]");
      current.headers.emplace_back(key, value);
      continue;
    }
    if (line[start] == ';' && !in_comment) continue;  // line comment
    any = in_moves = true;
    std::string token;
    auto flush = [&] {
      if (token.empty()) return;
      size_t prefix = 0;
      std::string t = token;
      token.clear();
      if (is_move_number(t, prefix)) t = t.substr(prefix);
      if (t.empty() || is_result_token(t)) return;
      current.moves.push_back(t);
    };
    for (size_t i = start; i < line.size(); ++i) {
      const char c = line[i];
      if (in_comment) {
        if (c == '}') in_comment = false;
      } else if (c == '{') {
        flush();
        in_comment = true;
      } else if (c == ';') {
        break;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        flush();
      } else {
        token += c;
      }
    }
    flush();
  }
  if (in_comment)
    throw GameError("line " + std::to_string(line_no) + ": a { comment is never closed");
  finish();
  return records;
}

std::string result_text(const Game& game, const State& final_state) {
  const Outcome o = final_state.outcome();
  if (!o.over) return "*";
  return o.winner < 0 ? "draw" : game.side_name(o.winner);
}

ReplayedGame replay_record(const SgnRecord& record) {
  const std::string ruleset = record.header("Ruleset");
  if (ruleset.empty()) throw GameError("the record has no Ruleset header");
  ReplayedGame out;
  out.game = load_game(ruleset);
  const std::string fingerprint = record.header("Fingerprint");
  if (fingerprint.empty())
    throw GameError("the record has no Fingerprint header; ruleset '" + ruleset +
                    "' has fingerprint " + out.game->fingerprint());
  if (fingerprint != out.game->fingerprint())
    throw GameError("the record's Fingerprint " + fingerprint + " differs from ruleset '" +
                    ruleset + "', whose fingerprint is " + out.game->fingerprint() +
                    ": it was played under other rules and is refused");
  const std::string position = record.header("Position");
  // No Position header: the fixed start (an error for a random-start game, which always has one).
  out.start = out.game->parse_start(position);
  out.final = out.start->clone();
  for (size_t i = 0; i < record.moves.size(); ++i) {
    const std::string where = "move " + std::to_string(i / 2 + 1) + (i % 2 ? "... " : ". ") +
                              record.moves[i] + " (ply " + std::to_string(i + 1) + ")";
    if (out.final->outcome().over) throw GameError(where + ": the game was already over");
    try {
      const Action a = out.game->parse_action(*out.final, record.moves[i]);
      out.final->apply(a);
      out.actions.push_back(a);
    } catch (const GameError& e) {
      throw GameError(where + ": " + e.what());
    }
  }
  const std::string result = record.header("Result");
  if (!result.empty() && result != "*") {
    const std::string actual = result_text(*out.game, *out.final);
    if (actual != result)
      throw GameError("the record's Result is '" + result + "' but its moves give '" + actual +
                      "'");
    const std::string termination = record.header("Termination");
    const Outcome o = out.final->outcome();
    if (!termination.empty() && termination != o.reason)
      throw GameError("the record's Termination is '" + termination + "' but its moves end by '" +
                      o.reason + "'");
  }
  return out;
}

std::string write_sgn(const Game& game, const State& start, const std::vector<Action>& actions,
                      const Headers& headers) {
  std::unique_ptr<State> state = start.clone();
  std::vector<std::string> moves;
  for (Action a : actions) {
    moves.push_back(game.action_text(*state, a, true));
    state->apply(a);
  }
  const std::string side0 = capitalized(game.side_name(0)), side1 = capitalized(game.side_name(1));
  std::ostringstream out;
  for (const std::string key : {"Event", "Site", "Date", "Round"}) {
    for (const auto& [k, v] : headers)
      if (k == key) out << "[" << k << " " << quote(v) << "]\n";
  }
  for (const std::string& key : {side0, side1}) {
    for (const auto& [k, v] : headers)
      if (k == key) out << "[" << k << " " << quote(v) << "]\n";
  }
  out << "[Ruleset " << quote(game.ruleset_name()) << "]\n";
  out << "[Fingerprint " << quote(game.fingerprint()) << "]\n";
  const std::unique_ptr<State> initial = game.initial_state();
  if (game.random_start() || !start.equals(*initial))
    out << "[Position " << quote(start.to_text()) << "]\n";
  out << "[Result " << quote(result_text(game, *state)) << "]\n";
  const Outcome o = state->outcome();
  if (o.over) out << "[Termination " << quote(o.reason) << "]\n";
  for (const auto& [k, v] : headers) {
    const bool standard = k == "Event" || k == "Site" || k == "Date" || k == "Round" ||
                          k == side0 || k == side1 || k == "Ruleset" || k == "Fingerprint" ||
                          k == "Position" || k == "Result" || k == "Termination";
    if (!standard) out << "[" << k << " " << quote(v) << "]\n";
  }
  out << "\n";
  std::string line;
  for (size_t i = 0; i < moves.size(); ++i) {
    std::string token = (i % 2 == 0 ? std::to_string(i / 2 + 1) + ". " : "") + moves[i];
    if (!line.empty() && line.size() + 1 + token.size() > 80) {
      out << line << "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + token;
  }
  if (!line.empty()) out << line << "\n";
  return out.str();
}

}  // namespace pincer
