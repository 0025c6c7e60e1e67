// logGammaPlusOne (models/glm_functors.h), the re-entrant log(y!) of the Poisson
// log-likelihood, against std::lgamma.
#include <gtest/gtest.h>

#include <cmath>

#include "models/glm_functors.h"

namespace argus {
namespace {

TEST(LogGammaPlusOne, MatchesStdLgamma) {
  EXPECT_EQ(logGammaPlusOne(0.0), 0.0);
  EXPECT_EQ(logGammaPlusOne(1.0), 0.0);
  double y = 0.0;
  for (int i = 0; i < 4000; ++i) {
    const double expected = std::lgamma(y + 1.0);
    EXPECT_NEAR(logGammaPlusOne(y), expected, 1e-13 * std::fmax(1.0, std::fabs(expected))) << y;
    y = y < 40.0 ? y + 0.25 : y * 1.01;  // fractions near 0, then up to ~1e17
  }
}

}  // namespace
}  // namespace argus
