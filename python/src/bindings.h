// The pieces of the pincer Python module (python/CMakeLists.txt), one file each, and what they
// share: the game in progress that Python code holds (pincer.Game).
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/game.h"

namespace pincer::python {

// pincer.Game: a game under one ruleset, its start and the moves played since.
struct PyGame {
  GamePtr game;
  std::unique_ptr<State> start;
  std::unique_ptr<State> state;
  std::vector<Action> actions;

  PyGame(GamePtr g, std::unique_ptr<State> s);
  PyGame(const PyGame& other);  // a copy of the game that goes on independently
  PyGame(PyGame&&) = default;
  PyGame& operator=(PyGame&&) = default;
};

// A game from a ruleset name or file; Python's `rules` argument may also be a pincer.Game.
GamePtr game_from(const pybind11::object& rules);
// The state a Python argument names: a pincer.Game's current position, or a position text.
std::unique_ptr<State> state_from(const Game& game, const pybind11::object& position);

void bind_game(pybind11::module_& m);
void bind_records(pybind11::module_& m);
void bind_play(pybind11::module_& m);

}  // namespace pincer::python
