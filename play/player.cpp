#include "play/player.h"

#include <cctype>
#include <cmath>
#include <mutex>
#include <stdexcept>

#include "play/players.h"

namespace pincer {

namespace {

bool is_name(const std::string& text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') return false;
  }
  return true;
}

struct KindRegistry {
  std::mutex mutex;
  std::map<std::string, PlayerFactory> kinds;
  KindRegistry() {
    kinds["random"] = make_random_player;
    kinds["greedy"] = make_greedy_player;
    kinds["alphabeta"] = make_alphabeta_player;
    kinds["mcts"] = make_uct_player;
    kinds["human"] = make_human_player;
  }
};

KindRegistry& kind_registry() {
  static KindRegistry registry;
  return registry;
}

}  // namespace

PlayerSpec parse_player_spec(const std::string& text) {
  auto bad = [&](const std::string& why) {
    throw std::invalid_argument("bad player spec '" + text + "': " + why +
                                " (expected kind or kind:key=value,key=value)");
  };
  PlayerSpec spec;
  const size_t colon = text.find(':');
  spec.kind = text.substr(0, colon);
  if (spec.kind.empty()) bad("no player kind");
  if (!is_name(spec.kind)) bad("the kind '" + spec.kind + "' is not a name");
  if (colon == std::string::npos) return spec;
  const std::string rest = text.substr(colon + 1);
  if (rest.empty()) bad("nothing after ':'");
  size_t start = 0;
  while (start <= rest.size()) {
    size_t end = rest.find(',', start);
    if (end == std::string::npos) end = rest.size();
    const std::string item = rest.substr(start, end - start);
    const size_t eq = item.find('=');
    if (item.empty()) bad("an empty argument");
    if (eq == std::string::npos) bad("'" + item + "' is not key=value");
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    if (!is_name(key)) bad("'" + key + "' is not a key name");
    if (value.empty()) bad("no value for '" + key + "'");
    if (!spec.args.emplace(key, value).second) bad("'" + key + "' given twice");
    start = end + 1;
  }
  return spec;
}

std::string to_string(const PlayerSpec& spec) {
  std::string out = spec.kind;
  char sep = ':';
  for (const auto& [key, value] : spec.args) {
    out += sep + key + "=" + value;
    sep = ',';
  }
  return out;
}

std::vector<std::string> split_player_specs(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const std::string piece = text.substr(start, end - start);
    const size_t eq = piece.find('=');
    const bool continues =
        eq != std::string::npos && piece.substr(0, eq).find(':') == std::string::npos;
    if (continues && !out.empty())
      out.back() += "," + piece;
    else
      out.push_back(piece);
    start = end + 1;
  }
  return out;
}

bool SpecArgs::has(const std::string& key) {
  known_.insert(key);
  return spec_.args.count(key) > 0;
}

void SpecArgs::fail(const std::string& key, const std::string& why) const {
  throw std::invalid_argument("player '" + to_string(spec_) + "': " + key + " " + why);
}

int SpecArgs::get_int(const std::string& key, int fallback, int min, int max) {
  if (!has(key)) return fallback;
  const std::string& text = spec_.args.at(key);
  size_t used = 0;
  long value = 0;
  try {
    value = std::stol(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || used == 0) fail(key, "must be a whole number, not '" + text + "'");
  if (value < min || value > max) {
    fail(key, "must be in " + std::to_string(min) + ".." + std::to_string(max) + ", not " + text);
  }
  return static_cast<int>(value);
}

double SpecArgs::get_double(const std::string& key, double fallback, double min, double max) {
  if (!has(key)) return fallback;
  const std::string& text = spec_.args.at(key);
  size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || used == 0 || !std::isfinite(value)) {
    fail(key, "must be a number, not '" + text + "'");
  }
  if (value < min || value > max) {
    fail(key, "must be in " + std::to_string(min) + ".." + std::to_string(max) + ", not " + text);
  }
  return value;
}

std::string SpecArgs::get_string(const std::string& key, const std::string& fallback) {
  if (!has(key)) return fallback;
  return spec_.args.at(key);
}

void SpecArgs::finish() const {
  for (const auto& entry : spec_.args) {
    if (known_.count(entry.first)) continue;
    std::string accepted;
    for (const std::string& k : known_) accepted += (accepted.empty() ? "" : ", ") + k;
    throw std::invalid_argument("player '" + to_string(spec_) + "': unknown argument '" +
                                entry.first + "' (" + spec_.kind + " accepts " +
                                (accepted.empty() ? std::string("none") : accepted) + ")");
  }
}

void register_player_kind(const std::string& kind, PlayerFactory factory) {
  if (!is_name(kind)) throw std::invalid_argument("player kind '" + kind + "' is not a name");
  KindRegistry& r = kind_registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.kinds[kind] = std::move(factory);
}

std::vector<std::string> registered_player_kinds() {
  KindRegistry& r = kind_registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<std::string> out;
  for (const auto& entry : r.kinds) out.push_back(entry.first);
  return out;
}

PlayerFactory player_kind_factory(const std::string& kind) {
  KindRegistry& r = kind_registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.kinds.find(kind);
  return it == r.kinds.end() ? PlayerFactory() : it->second;
}

std::unique_ptr<Player> make_player(const GamePtr& game, const std::string& text, uint64_t seed) {
  if (!game) throw std::invalid_argument("make_player: no game");
  const PlayerSpec spec = parse_player_spec(text);
  PlayerFactory factory;
  {
    KindRegistry& r = kind_registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.kinds.find(spec.kind);
    if (it == r.kinds.end()) {
      std::string known;
      for (const auto& entry : r.kinds) known += (known.empty() ? "" : ", ") + entry.first;
      throw std::invalid_argument("unknown player kind '" + spec.kind + "' in '" + text +
                                  "' (known kinds: " + known + ")");
    }
    factory = it->second;
  }
  return factory(game, spec, seed);
}

}  // namespace pincer
