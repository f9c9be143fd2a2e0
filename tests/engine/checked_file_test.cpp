// engine/checked_file: the header around model files and trainer checkpoints. Every cut, every
// flipped bit and every byte added is refused with a reason; the other kind of file is named;
// a bare torch archive (written before checked files) passes whole, marked legacy.
#include "engine/checked_file.h"

#include <gtest/gtest.h>

#include <string>

namespace pincer {
namespace {

std::string payload() {
  std::string p;
  for (int i = 0; i < 200; ++i) p.push_back(static_cast<char>(i * 37 + 11));
  return p;
}

TEST(CheckedFile, RoundTripGivesThePayloadBack) {
  const std::string p = payload();
  const std::string file = wrap_checked(p, CheckedKind::model);
  EXPECT_EQ(file.size(), kCheckedHeaderSize + p.size());
  const Unwrapped u = unwrap_checked(file, CheckedKind::model);
  ASSERT_TRUE(u.ok) << u.error;
  EXPECT_FALSE(u.legacy);
  EXPECT_EQ(u.payload, p);
  const Unwrapped empty = unwrap_checked(wrap_checked("", CheckedKind::trainer_checkpoint),
                                         CheckedKind::trainer_checkpoint);
  ASSERT_TRUE(empty.ok) << empty.error;
  EXPECT_TRUE(empty.payload.empty());
}

TEST(CheckedFile, EveryCutIsRefused) {
  const std::string file = wrap_checked(payload(), CheckedKind::model);
  for (size_t n = 0; n < file.size(); ++n) {
    const Unwrapped u = unwrap_checked(file.substr(0, n), CheckedKind::model);
    EXPECT_FALSE(u.ok) << "cut at " << n;
    EXPECT_NE(u.error.find("cut short"), std::string::npos) << n << ": " << u.error;
  }
}

TEST(CheckedFile, EveryFlippedBitIsRefused) {
  const std::string file = wrap_checked(payload(), CheckedKind::trainer_checkpoint);
  for (size_t i = 0; i < file.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string bad = file;
      bad[i] = static_cast<char>(bad[i] ^ (1 << bit));
      const Unwrapped u = unwrap_checked(bad, CheckedKind::trainer_checkpoint);
      EXPECT_FALSE(u.ok) << "byte " << i << " bit " << bit;
      EXPECT_FALSE(u.error.empty());
      if (i >= kCheckedHeaderSize) {
        EXPECT_EQ(u.error, "is damaged (checksum mismatch)");
      }
    }
  }
}

TEST(CheckedFile, BytesAfterTheEndAreRefused) {
  const Unwrapped u =
      unwrap_checked(wrap_checked(payload(), CheckedKind::model) + "x", CheckedKind::model);
  EXPECT_FALSE(u.ok);
  EXPECT_NE(u.error.find("has bytes after its end"), std::string::npos) << u.error;
}

TEST(CheckedFile, TheOtherKindIsNamed) {
  const Unwrapped u =
      unwrap_checked(wrap_checked(payload(), CheckedKind::trainer_checkpoint), CheckedKind::model);
  EXPECT_FALSE(u.ok);
  EXPECT_EQ(u.error, "is a trainer checkpoint, not a model file");
}

TEST(CheckedFile, ForeignBytesAreNotAPincerFile) {
  const Unwrapped u = unwrap_checked("not a model at all", CheckedKind::model);
  EXPECT_FALSE(u.ok);
  EXPECT_EQ(u.error, "is not a pincer model file (no pincer header)");
}

TEST(CheckedFile, ABareTorchArchivePassesWholeAsLegacy) {
  const std::string zip = std::string("PK\3\4", 4) + payload();
  const Unwrapped u = unwrap_checked(zip, CheckedKind::model);
  ASSERT_TRUE(u.ok);
  EXPECT_TRUE(u.legacy);
  EXPECT_EQ(u.payload, zip);
}

}  // namespace
}  // namespace pincer
