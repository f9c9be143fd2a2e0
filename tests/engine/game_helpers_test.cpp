// engine/game_helpers.h and engine/random.h: the shared square names, side names and random
// numbers the games build on.
#include "engine/game_helpers.h"

#include <gtest/gtest.h>

#include "engine/random.h"

namespace pincer {
namespace {

TEST(GameHelpers, SquareNamesRoundTrip) {
  EXPECT_EQ(grid_square_name(0, 0), "a1");
  EXPECT_EQ(grid_square_name(7, 7), "h8");
  EXPECT_EQ(grid_square_name(2, 10), "c11");
  for (int f = 0; f < 26; ++f) {
    for (int r = 0; r < 99; ++r) {
      int file = -1, rank = -1;
      ASSERT_TRUE(parse_grid_square(grid_square_name(f, r), file, rank));
      EXPECT_EQ(file, f);
      EXPECT_EQ(rank, r);
    }
  }
  int f = 0, r = 0;
  for (const char* bad : {"", "a", "a0", "a01", "A1", "1a", "a1x", "a-1", "aa1", "a12345"}) {
    EXPECT_FALSE(parse_grid_square(bad, f, r)) << bad;
  }
}

TEST(GameHelpers, SidesByNameOrInitial) {
  EXPECT_EQ(parse_side_name("ivory", "ivory", "burgundy"), 0);
  EXPECT_EQ(parse_side_name("b", "ivory", "burgundy"), 1);
  EXPECT_EQ(parse_side_name("burg", "ivory", "burgundy"), -1);
  EXPECT_EQ(parse_side_name("", "ivory", "burgundy"), -1);
}

TEST(Random, SplitMix64ReferenceValues) {
  // The reference sequence of splitmix64 from seed 0 (Vigna's splitmix64.c).
  uint64_t state = 0;
  EXPECT_EQ(splitmix64(state), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(splitmix64(state), 0x6e789e6aa1b965f4ULL);
  KeyStream keys(0);
  EXPECT_EQ(keys.next(), 0xe220a8397b1dcdafULL);
  // mix_seed(a, b) is output b + 1 of splitmix64 from state a.
  uint64_t t = 5;
  splitmix64(t);
  splitmix64(t);
  EXPECT_EQ(mix_seed(5, 2), splitmix64(t));
  EXPECT_NE(mix_seed(1, 2), mix_seed(2, 1));
  Rng a(42), b(42);
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(a.next(), b.next());
    EXPECT_LT(a.below(7), 7u);
    b.below(7);
  }
}

}  // namespace
}  // namespace pincer
