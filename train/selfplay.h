// Self-play generators: many games at once, so that the network always gets full batches on a
// CPU. `threads` threads each step their share of the games together (mcts::BatchStepper): one
// step collects leaves from every game of the thread and sends them to the inference service in
// one request. Finished games become records (store/records.h), written in chunks of
// games_per_chunk. The best model (models/best.pt) is reloaded when it changes. With
// selfplay.reanalyse_share a slot may re-search a stored game instead of playing a new one
// (train/reanalyse.h); its reanalysis record goes into the same chunks.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

#include "engine/game.h"
#include "nn/inference.h"
#include "proto/run_config.pb.h"
#include "store/run_dir.h"

namespace pincer {

struct SelfPlayStats {
  int64_t games = 0;
  int64_t positions = 0;    // moves played in finished games
  int64_t moves = 0;        // moves played, finished games or not
  int64_t simulations = 0;  // simulations of those moves
  int64_t chunks = 0;
  // Reanalyse (selfplay.reanalyse_share, train/reanalyse.h): games re-searched (records
  // written), positions re-searched, and their simulations (counted in `simulations` too).
  int64_t reanalysed_games = 0;
  int64_t reanalysed_positions = 0;
  int64_t reanalysis_simulations = 0;
  double seconds = 0;  // wall time in run()
  InferenceStats inference;
  double games_per_s() const { return seconds > 0 ? games / seconds : 0; }
  double simulations_per_s() const { return seconds > 0 ? simulations / seconds : 0; }
  // Share of the wall time in which the network was not running.
  double outside_network() const {
    return inference.wall_s > 0 ? 1.0 - inference.network_s / inference.wall_s : 0;
  }
};

class SelfPlay {
 public:
  // `writer` names this generator in chunk file names (letters, digits, '-').
  SelfPlay(GamePtr game, const RunConfig& config, const RunDir& dir, std::string writer);
  ~SelfPlay();

  // Plays until `stop` is set or `max_games` games finished (0: no limit); then writes the
  // finished games not yet in a chunk. With `write_records` false nothing is written (benchmarks).
  void run(const std::atomic<bool>& stop, int64_t max_games = 0, bool write_records = true);
  // Statistics since the generator was made; safe from other threads.
  SelfPlayStats stats() const;
  // The model id self-play currently uses.
  std::string model_id() const;
  // Checks models/best.pt and switches to it when it changed; true if it did.
  bool reload_best();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pincer
