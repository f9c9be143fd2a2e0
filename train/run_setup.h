// Starting a run on a run directory (store/run_dir.h): its first model, its config.
#pragma once

#include <atomic>
#include <string>

#include "engine/game.h"
#include "proto/run_config.pb.h"
#include "store/run_dir.h"

namespace pincer {

// The network of a new run's first model: `network` with the auxiliary heads it leaves unset
// chosen for the game: a points head where the game counts points (a piece kind of its board
// layout is worth some), an ownership head where its states provide State::ownership. A field
// set either way stays as set. (A resumed run keeps its model's heads: prepare_run_dir.)
NetworkConfig new_run_network(const Game& game, NetworkConfig network);

// Creates the folders and, for a new run, the initial network (models/model-000000.pt, also
// models/best.pt). Checks that an existing best model fits the game. Returns the run's game.
// With a warm start (train/warm_start.h) the initial network is trained first; setting `stop`
// abandons that (std::runtime_error, nothing written).
GamePtr prepare_run_dir(const RunDir& dir, const RunConfig& config,
                        const std::atomic<bool>* stop = nullptr);
// The config for commands that run on an existing run dir: `config_path` when given, else the
// run dir's config.textproto. Throws ConfigError when neither exists.
RunConfig run_dir_config(const RunDir& dir, const std::string& config_path);
// Writes config.textproto for the run (atomically).
void save_run_config(const RunDir& dir, const RunConfig& config);

}  // namespace pincer
