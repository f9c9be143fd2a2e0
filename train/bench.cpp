#include "train/bench.h"

#include <chrono>
#include <ctime>
#include <random>

namespace pincer {

std::vector<float> random_encoded_positions(const Game& game, int count, uint64_t seed) {
  const int size = game.input_shape().size();
  std::vector<float> out(size_t(count) * size);
  std::mt19937_64 rng(seed);
  std::vector<Action> legal;
  auto state = game.initial_state();
  for (int i = 0; i < count; ++i) {
    state->legal_actions(legal);
    if (legal.empty() || rng() % 64 == 0) {
      state = game.initial_state();
      state->legal_actions(legal);
    }
    state->apply(legal[rng() % legal.size()]);
    if (state->outcome().over) state = game.initial_state();
    state->encode(out.data() + size_t(i) * size);
  }
  return out;
}

namespace {
double process_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}
}  // namespace

RawThroughput measure_raw_throughput(Model& model, const std::vector<float>& positions, int batch,
                                     double seconds) {
  const int size = model.input_size();
  const int have = static_cast<int>(positions.size() / size);
  std::vector<float> input(size_t(batch) * size);
  for (int i = 0; i < batch; ++i) {
    std::copy(positions.begin() + size_t(i % have) * size,
              positions.begin() + size_t(i % have + 1) * size, input.begin() + size_t(i) * size);
  }
  std::vector<float> logits(size_t(batch) * model.num_actions()), wdl(size_t(batch) * 3);
  for (int i = 0; i < 2; ++i) model.infer(input.data(), batch, logits.data(), wdl.data());
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = process_cpu_s();
  int64_t runs = 0;
  double elapsed = 0;
  do {
    model.infer(input.data(), batch, logits.data(), wdl.data());
    ++runs;
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  } while (elapsed < seconds);
  RawThroughput r;
  r.batch = batch;
  r.evals_per_s = runs * batch / elapsed;
  r.ms_per_batch = elapsed * 1000 / runs;
  const double cpu = process_cpu_s() - cpu0;
  r.evals_per_cpu_s = cpu > 0 ? runs * batch / cpu : 0;
  return r;
}

}  // namespace pincer
