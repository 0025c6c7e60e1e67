// efronEventTerms (models/survival_functors.h), rewritten with one division per event summed in
// eight fixed lanes, against its definition (MODELS.md, Efron): with m tied events of total
// weight d, f_k = k/m and D_k = den - f_k F,
//   A = d/m sum 1/D_k, B = d/m sum f_k/D_k, Q0..Q2 = d/m sum f_k^{0,1,2}/D_k^2,
// summed here in long double in the definition's own order. Counts that are not multiples of
// any vector width, and F close to den, where the last D_k is a small difference.
#include <gtest/gtest.h>

#include <cmath>

#include "models/survival_functors.h"

namespace argus {
namespace {

EventSlotTerms definition(double events, int m, double den, double tiedRisk) {
  long double a = 0, b = 0, q0 = 0, q1 = 0, q2 = 0;
  for (int k = 0; k < m; ++k) {
    const long double f = static_cast<long double>(k) / m;
    const long double inv = 1.0L / (den - f * tiedRisk);
    a += inv;
    b += f * inv;
    q0 += inv * inv;
    q1 += f * inv * inv;
    q2 += f * f * inv * inv;
  }
  const long double w = static_cast<long double>(events) / m;
  EventSlotTerms t;
  t.a = static_cast<double>(w * a);
  t.b = static_cast<double>(w * b);
  t.q0 = static_cast<double>(w * q0);
  t.q1 = static_cast<double>(w * q1);
  t.q2 = static_cast<double>(w * q2);
  return t;
}

void expectClose(double got, double want, double rel, const char* what, int m, double share) {
  EXPECT_NEAR(got, want, rel * std::fabs(want)) << what << " m " << m << " F/den " << share;
}

TEST(EfronEventTerms, MatchTheDefinitionForManyTiesAndAnyShareOfTheRiskSet) {
  for (const int m : {2, 3, 5, 7, 8, 9, 17, 64, 101, 1000, 4097}) {
    // F / den: small, half, and nearly all of the risk set (only the events left at risk).
    for (const double share : {1e-6, 0.3, 0.5, 0.999, 1.0}) {
      const double den = 123.456;
      const double tiedRisk = share * den;
      const double events = 0.75 * m;  // weighted events
      const EventSlotTerms got = efronEventTerms(events, m, den, tiedRisk);
      const EventSlotTerms want = definition(events, m, den, tiedRisk);
      // The last D_k = den - (m-1)/m F loses digits to cancellation as F nears den, in
      // either order of evaluation: the bound grows with 1/(1 - (m-1)/m share).
      const double lost = 1.0 / (1.0 - (m - 1.0) / m * share);
      const double rel = 1e-13 * lost;
      expectClose(got.a, want.a, rel, "A", m, share);
      expectClose(got.b, want.b, rel, "B", m, share);
      expectClose(got.q0, want.q0, rel, "Q0", m, share);
      expectClose(got.q1, want.q1, rel, "Q1", m, share);
      expectClose(got.q2, want.q2, rel, "Q2", m, share);
    }
  }
}

TEST(EfronEventTerms, OneEventIsBreslowAndNoWeightIsNothing) {
  const EventSlotTerms one = efronEventTerms(2.5, 1.0, 10.0, 4.0);
  const EventSlotTerms breslow = breslowEventTerms(2.5, 10.0);
  EXPECT_EQ(one.a, breslow.a);
  EXPECT_EQ(one.q0, breslow.q0);
  EXPECT_EQ(one.b, 0.0);
  EXPECT_EQ(one.q1, 0.0);
  EXPECT_EQ(one.q2, 0.0);
  const EventSlotTerms none = efronEventTerms(0.0, 3.0, 10.0, 4.0);
  EXPECT_EQ(none.a, 0.0);
  EXPECT_EQ(none.q0, 0.0);
  EXPECT_EQ(none.q2, 0.0);
}

}  // namespace
}  // namespace argus
