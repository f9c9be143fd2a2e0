// pincer.Game: the rules of any registered game through the engine's Game interface
// (engine/game.h), with the network's input planes and policy indices as numpy arrays.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <optional>

#include "engine/record.h"
#include "engine/registry.h"
#include "engine/ruleset.h"
#include "python/src/bindings.h"

namespace py = pybind11;

namespace pincer::python {

PyGame::PyGame(GamePtr g, std::unique_ptr<State> s)
    : game(std::move(g)), start(s->clone()), state(std::move(s)) {}

PyGame::PyGame(const PyGame& other)
    : game(other.game),
      start(other.start->clone()),
      state(other.state->clone()),
      actions(other.actions) {}

GamePtr game_from(const py::object& rules) {
  if (py::isinstance<PyGame>(rules)) return rules.cast<const PyGame&>().game;
  if (!py::isinstance<py::str>(rules)) {
    throw py::type_error("rules: a ruleset name or file (str) or a pincer.Game");
  }
  return load_game(rules.cast<std::string>());
}

std::unique_ptr<State> state_from(const Game& game, const py::object& position) {
  if (py::isinstance<PyGame>(position)) {
    const PyGame& g = position.cast<const PyGame&>();
    if (g.game->fingerprint() != game.fingerprint()) {
      throw GameError("a position of " + g.game->ruleset_name() + " given for " +
                      game.ruleset_name());
    }
    return g.state->clone();
  }
  if (!py::isinstance<py::str>(position)) {
    throw py::type_error("position: a pincer.Game or a position text (str)");
  }
  return game.parse_start(position.cast<std::string>());
}

namespace {

std::vector<Action> legal_of(const State& state) {
  std::vector<Action> legal;
  state.legal_actions(legal);
  return legal;
}

Action action_of(const PyGame& g, const py::object& move) {
  if (py::isinstance<py::str>(move))
    return g.game->parse_action(*g.state, move.cast<std::string>());
  if (!py::isinstance<py::int_>(move))
    throw py::type_error("move: a move text (str) or an action id (int)");
  const long long a = move.cast<long long>();
  for (Action l : legal_of(*g.state)) {
    if (l == a) return l;
  }
  throw GameError("action " + std::to_string(a) + " is not legal in " + g.state->to_text());
}

// The start for a new Game: a position text or setup string, else the fixed start (a
// random-start game draws one from `seed`).
std::unique_ptr<State> start_of(const Game& game, const std::optional<std::string>& position,
                                uint64_t seed) {
  if (position) return game.parse_start(*position);
  return game.start_state(seed);
}

py::array_t<int32_t> int_array(const std::vector<int>& v) {
  py::array_t<int32_t> out(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), out.mutable_data());
  return out;
}

}  // namespace

void bind_game(py::module_& m) {
  py::class_<PyGame>(m, "Game",
                     R"(A game of one ruleset in progress: its start and the moves played.

Game(rules="seize-reference", position=None, seed=0): rules is a shipped ruleset name or a
ruleset file; position a position text or (random-start games) a setup string; without one a
random-start game draws its start from seed.)")
      .def(py::init([](const std::string& rules, const std::optional<std::string>& position,
                       uint64_t seed) {
             GamePtr game = load_game(rules);
             auto start = start_of(*game, position, seed);
             return PyGame(std::move(game), std::move(start));
           }),
           py::arg("rules") = "seize-reference", py::arg("position") = py::none(),
           py::arg("seed") = 0)
      .def_property_readonly("game_name", [](const PyGame& g) { return g.game->game_name(); })
      .def_property_readonly("ruleset_name", [](const PyGame& g) { return g.game->ruleset_name(); })
      .def_property_readonly(
          "fingerprint", [](const PyGame& g) { return g.game->fingerprint(); },
          "16 hex digits naming the rules exactly (records and models carry it)")
      .def_property_readonly(
          "num_actions", [](const PyGame& g) { return g.game->num_actions(); },
          "Size of the policy output: policy indices lie in [0, num_actions)")
      .def_property_readonly(
          "input_shape",
          [](const PyGame& g) {
            const InputShape s = g.game->input_shape();
            return py::make_tuple(s.channels, s.height, s.width);
          },
          "(channels, height, width) of planes()")
      .def_property_readonly("random_start", [](const PyGame& g) { return g.game->random_start(); })
      .def("side_name",
           [](const PyGame& g, int player) {
             if (player != 0 && player != 1) throw py::value_error("player: 0 or 1");
             return g.game->side_name(player);
           })
      .def(
          "start_position", [](const PyGame& g) { return g.start->to_text(); },
          "Position text of the start")
      .def(
          "position", [](const PyGame& g) { return g.state->to_text(); },
          "Position text of the current position (Game(rules, position=...) reads it back)")
      .def(
          "set_position",
          [](PyGame& g, const std::string& text) {
            auto s = g.game->parse_start(text);
            g.start = s->clone();
            g.state = std::move(s);
            g.actions.clear();
          },
          py::arg("text"), "Starts over from a position text (or setup string)")
      .def(
          "to_move", [](const PyGame& g) { return g.state->to_move(); },
          "The player to move, 0 or 1 (the same player may move twice in a row)")
      .def(
          "legal_actions", [](const PyGame& g) { return int_array(legal_of(*g.state)); },
          "Action ids of the legal moves (int32 array); empty when the game is over")
      .def(
          "legal_moves",
          [](const PyGame& g, bool short_form) {
            std::vector<std::string> out;
            for (Action a : legal_of(*g.state)) {
              out.push_back(g.game->action_text(*g.state, a, short_form));
            }
            return out;
          },
          py::arg("short") = false, "Texts of the legal moves, in legal_actions() order")
      .def(
          "policy_indices",
          [](const PyGame& g) {
            std::vector<int> idx;
            for (Action a : legal_of(*g.state)) idx.push_back(g.state->policy_index(a));
            return int_array(idx);
          },
          "The network's policy index of each legal move, in legal_actions() order (int32)")
      .def(
          "planes",
          [](const PyGame& g) {
            const InputShape s = g.game->input_shape();
            py::array_t<float> out({s.channels, s.height, s.width});
            g.state->encode(out.mutable_data());
            return out;
          },
          "The network's input for the player to move: float32 (channels, height, width)")
      .def(
          "play",
          [](PyGame& g, const py::object& move) {
            if (g.state->outcome().over) throw GameError("the game is over");
            const Action a = action_of(g, move);
            g.state->apply(a);
            g.actions.push_back(a);
            return a;
          },
          py::arg("move"), "Plays a move (any accepted text, or an action id); returns its id")
      .def(
          "move_text",
          [](const PyGame& g, Action action, bool short_form) {
            for (Action l : legal_of(*g.state)) {
              if (l == action) return g.game->action_text(*g.state, action, short_form);
            }
            throw GameError("action " + std::to_string(action) + " is not legal here");
          },
          py::arg("action"), py::arg("short") = false)
      .def(
          "parse_move",
          [](const PyGame& g, const std::string& text) {
            return g.game->parse_action(*g.state, text);
          },
          py::arg("text"), "The action id of a move text; GameError if illegal or ambiguous")
      .def("is_over", [](const PyGame& g) { return g.state->outcome().over; })
      .def(
          "result", [](const PyGame& g) -> std::string { return result_text(*g.game, *g.state); },
          "'*' while the game goes on, else the winner's side name or 'draw'")
      .def(
          "outcome",
          [](const PyGame& g) {
            const Outcome o = g.state->outcome();
            return py::make_tuple(o.over, o.winner, std::string(o.reason));
          },
          "(over, winner 0/1 or -1 for a draw, reason)")
      .def(
          "points",
          [](const PyGame& g) {
            const auto p = g.state->points();
            return py::make_tuple(p[0], p[1]);
          },
          "Each player's points as the ruleset counts them, player 0 first")
      .def(
          "captured", [](const PyGame& g) { return g.state->last_captured(); },
          "Squares whose pieces the last move captured")
      .def(
          "actions", [](const PyGame& g) { return int_array(g.actions); },
          "Action ids played since the start")
      .def("diagram", [](const PyGame& g) { return g.state->to_diagram(); })
      .def(
          "perft",
          [](const PyGame& g, int depth) {
            if (depth < 0 || depth > 30) throw py::value_error("depth: 0..30");
            py::gil_scoped_release release;
            return g.game->perft(*g.state, depth);
          },
          py::arg("depth"), "Leaf count of the game tree from here, by the C++ engine")
      .def(
          "sgn",
          [](const PyGame& g, const std::vector<std::pair<std::string, std::string>>& headers) {
            return write_sgn(*g.game, *g.start, g.actions, headers);
          },
          py::arg("headers") = std::vector<std::pair<std::string, std::string>>{},
          "The game as an SGN record (pincer's game record format)")
      .def("copy", [](const PyGame& g) { return PyGame(g); })
      .def("__copy__", [](const PyGame& g) { return PyGame(g); })
      .def("__deepcopy__", [](const PyGame& g, const py::dict&) { return PyGame(g); })
      .def("__str__", [](const PyGame& g) { return g.state->to_diagram(); })
      .def("__repr__", [](const PyGame& g) {
        return "pincer.Game(\"" + g.game->ruleset_name() + "\", position=\"" + g.state->to_text() +
               "\")";
      });

  m.def("rulesets", &shipped_ruleset_names, "Names of the shipped rulesets");
  m.def(
      "load_sgn",
      [](const std::string& text) {
        std::vector<PyGame> out;
        for (const SgnRecord& r : parse_sgn(text)) {
          ReplayedGame rg = replay_record(r);
          PyGame g(rg.game, std::move(rg.start));
          g.state = std::move(rg.final);
          g.actions = std::move(rg.actions);
          out.push_back(std::move(g));
        }
        return out;
      },
      py::arg("text"), "The games of SGN text (read a file's text first), replayed");
}

}  // namespace pincer::python
