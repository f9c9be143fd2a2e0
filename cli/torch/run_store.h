// Where `pincer selfplay | trainer | gate` work: a run directory that is either the store
// itself (--dir PATH or --store dir://PATH, as before) or a local working copy of a run in a
// remote store (--store redis://HOST:PORT/RUN), kept in step by a StoreMirror
// (store/store_mirror.h).
#pragma once

#include <memory>
#include <string>

#include "engine/game.h"
#include "proto/run_config.pb.h"
#include "store/run_dir.h"
#include "store/store.h"
#include "store/store_mirror.h"

namespace pincer::cli {

struct RunStoreOptions {
  std::string dir;     // --dir
  std::string store;   // --store
  std::string config;  // --config
  std::string cache;   // --cache: the local working copy of a remote store's run
  std::string role;    // names the default cache folder: trainer, gate, selfplay-<writer>
};

struct RunStore {
  std::unique_ptr<Store> store;         // bound to the game's fingerprint
  std::unique_ptr<StoreMirror> mirror;  // null when the run dir is the store
  std::unique_ptr<RunDir> dir;
  RunConfig config;
  GamePtr game;
};

// Opens the store, settles the config (--config, else the store's; a new remote run gets it),
// binds the store to the game's fingerprint and prepares the run dir (train/run_setup.h
// prepare_run_dir; a remote run's initial model is shared through the store).
RunStore open_run_store(const RunStoreOptions& options);

// "sp-a 3 s ago, sp-b 41 s ago": the workers a store hears from.
std::string describe_workers(Store& store);

}  // namespace pincer::cli
