// Players and analysis from Python: pincer.Player (any player spec of docs/players.md, the
// network's `net:` included) and pincer.Analyzer (the analysis of `pincer analyze`, over a model
// or a classical player). A model needs the torch half of pincer, pincer-torch.so, loaded the way
// the executable loads it (cli/support/torch_plugin.h); the package's __init__ says where it is.
#include <dlfcn.h>
#include <google/protobuf/text_format.h>
#include <pybind11/stl.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <optional>

#include "engine/atomic_file.h"
#include "engine/model_paths.h"
#include "engine/ruleset.h"
#include "play/player.h"
#include "proto/model.pb.h"
#include "python/src/bindings.h"
#include "serve/backends.h"

namespace py = pybind11;
namespace fs = std::filesystem;

namespace pincer::python {
namespace {

// Where pincer-torch.so is: $PINCER_TORCH_LIBRARY, else where the package says
// (pincer/__init__.py: beside it once installed, else in the build that made it).
std::mutex torch_mutex;
std::string torch_library;
bool torch_loaded = false;

// Opens the network half of pincer once; as it loads it registers the `net` player kind and the
// model analyser. Its undefined symbols (engine, search, players) resolve to this module's, which
// the package imports with RTLD_GLOBAL.
void load_torch_for(const std::string& why) {
  std::lock_guard<std::mutex> lock(torch_mutex);
  if (torch_loaded) return;
  const char* env = std::getenv("PINCER_TORCH_LIBRARY");
  const std::string path = env && *env ? env : torch_library;
  if (path.empty() || !fs::exists(path)) {
    throw py::value_error(
        why + " needs the network half of pincer, pincer-torch.so, which " +
        (path.empty() ? std::string("this build lacks") : "is missing at " + path) +
        " (build pincer with LibTorch: -DPINCER_WITH_TORCH=ON)");
  }
  if (!::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
    const char* err = ::dlerror();
    throw py::value_error(why + " needs the network half of pincer, " + path +
                          ", which does not load: " + (err ? err : "unknown error"));
  }
  torch_loaded = true;
}

// The ruleset of a model file, from the metadata written beside it (X.meta.textproto for X.pt);
// the model itself is checked against it when it loads.
std::string model_rules(const std::string& model) {
  const std::string meta = model_meta_path(model);
  if (!fs::exists(meta)) {
    throw py::value_error("no " + meta + " beside the model to name its ruleset: give rules=");
  }
  ModelMetadata metadata;
  google::protobuf::TextFormat::Parser parser;
  parser.AllowUnknownField(true);
  if (!parser.ParseFromString(read_whole_file(meta), &metadata) ||
      metadata.ruleset_name().empty()) {
    throw py::value_error(meta + " names no ruleset: give rules=");
  }
  return metadata.ruleset_name();
}

std::string rules_name(const py::object& rules) {
  if (py::isinstance<PyGame>(rules)) return rules.cast<const PyGame&>().game->ruleset_name();
  if (!py::isinstance<py::str>(rules)) {
    throw py::type_error("rules: a ruleset name or file (str) or a pincer.Game");
  }
  return rules.cast<std::string>();
}

class PyPlayer {
 public:
  PyPlayer(const std::string& spec, const py::object& rules, uint64_t seed)
      : game_(game_from(rules)) {
    if (parse_player_spec(spec).kind == "net") load_torch_for("player \"" + spec + "\"");
    player_ = make_player(game_, spec, seed);
  }
  std::string spec() const { return player_->spec(); }
  std::string choose(const py::object& position, double time_left) {
    const auto state = state_from(*game_, position);
    if (state->outcome().over) throw GameError("the game is over: nothing to choose");
    Action a;
    {
      py::gil_scoped_release release;
      player_->set_time_left(time_left);
      a = player_->choose(*state);
    }
    return game_->action_text(*state, a, false);
  }
  void new_game() { player_->new_game(); }
  std::string info() const { return player_->last_info(); }

 private:
  GamePtr game_;
  std::unique_ptr<Player> player_;
};

class PyAnalyzer {
 public:
  PyAnalyzer(const std::optional<std::string>& model, const py::object& rules, int sims,
             const std::optional<std::string>& player, const std::string& device, uint64_t seed) {
    if (sims < 1) throw py::value_error("sims: 1 or more");
    if (model.has_value() == player.has_value()) {
      throw py::value_error("give a model file or a classical player spec (player=), one of them");
    }
    serve::BackendOptions o;
    o.default_visits = sims;
    o.model.device = device;
    o.seed = seed;
    if (model) {
      o.rules = {rules.is_none() ? model_rules(*model) : rules_name(rules)};
      o.models = {*model};
      load_torch_for("pincer.Analyzer(model=\"" + *model + "\")");
    } else {
      if (rules.is_none()) throw py::value_error("a classical analyser needs rules=");
      o.rules = {rules_name(rules)};
      o.player = *player;
    }
    auto analyzers = serve::make_analyzers(o);
    analyzer_ = analyzers.at(0);
  }
  const GamePtr& game() const { return analyzer_->game(); }
  std::string description() const { return analyzer_->description(); }
  py::object analyse(const py::object& position, int visits, double time, int pv_length,
                     bool policy, uint64_t seed) {
    const auto state = state_from(*analyzer_->game(), position);
    if (state->outcome().over) throw GameError("the game is over: nothing to analyse");
    if (visits < 0 || time < 0 || pv_length < 0)
      throw py::value_error("visits, time, pv_length: 0 or more");
    serve::TurnRequest req;
    req.max_visits = visits;
    req.max_time = time;
    req.include_policy = policy;
    req.include_pv = pv_length > 0;
    req.pv_length = pv_length;
    req.seed = seed;
    std::string text;
    {
      py::gil_scoped_release release;
      text = analyzer_->analyze(*state, req)
                 .dump(-1, ' ', false, serve::Json::error_handler_t::replace);
    }
    return py::module_::import("json").attr("loads")(text);
  }

 private:
  std::shared_ptr<serve::Analyzer> analyzer_;
};

}  // namespace

void bind_play(py::module_& m) {
  m.def(
      "_set_torch_library",
      [](const std::string& path) {
        std::lock_guard<std::mutex> lock(torch_mutex);
        torch_library = path;
      },
      "Where pincer-torch.so is (pincer/__init__.py says; $PINCER_TORCH_LIBRARY overrides)");
  py::class_<PyPlayer>(m, "Player", R"(A player of docs/players.md that chooses moves.

Player(spec, rules="seize-reference", seed=1): spec like "alphabeta:depth=4",
"alphabeta:time=0.1", "greedy", "mcts:sims=400" or "net:model=models/seize-reference.pt,sims=200".)")
      .def(py::init<const std::string&, const py::object&, uint64_t>(), py::arg("spec"),
           py::arg("rules") = py::str("seize-reference"), py::arg("seed") = 1)
      .def_property_readonly("spec", &PyPlayer::spec)
      .def("choose", &PyPlayer::choose, py::arg("position"), py::arg("time_left") = -1.0,
           "The move (long text) chosen in a pincer.Game's current position or a position text; "
           "time_left: seconds on the mover's clock (-1: no clock)")
      .def("new_game", &PyPlayer::new_game, "A new game starts: forget the search tree")
      .def("info", &PyPlayer::info, "One line about the last choice (depth, score, nodes)");

  py::class_<PyAnalyzer>(m, "Analyzer", R"(The analysis of `pincer analyze` (docs/analysis.md).

Analyzer(model=None, rules=None, sims=200, player=None, device="cpu", seed=1): a model file
(its ruleset read from the X.meta.textproto beside it unless rules= names it) searched by MCTS
with the network, or a classical player spec (player="alphabeta:depth=4" or "mcts:sims=N") with
rules=.)")
      .def(py::init<const std::optional<std::string>&, const py::object&, int,
                    const std::optional<std::string>&, const std::string&, uint64_t>(),
           py::arg("model") = py::none(), py::arg("rules") = py::none(), py::arg("sims") = 200,
           py::arg("player") = py::none(), py::arg("device") = "cpu", py::arg("seed") = 1)
      .def_property_readonly("ruleset_name",
                             [](const PyAnalyzer& a) { return a.game()->ruleset_name(); })
      .def_property_readonly("description", &PyAnalyzer::description)
      .def("analyse", &PyAnalyzer::analyse, py::arg("position"), py::arg("visits") = 0,
           py::arg("time") = 0.0, py::arg("pv_length") = 16, py::arg("policy") = false,
           py::arg("seed") = 1,
           R"(Analyses a pincer.Game's current position (or a position text): a dict with rootInfo
(visits, win, draw, loss, ...) and moveInfos (move, visits, win, draw, loss, prior, pv, ...; the most
visited first), as `pincer analyze` answers. visits 0: sims; time > 0: stop after that many
seconds.)");
}

}  // namespace pincer::python
