// The model registry (common/model_type.h): every type by its name, its family's facts, and
// the error that lists the names. The tables keyed by model type are checked at compile time.
#include <gtest/gtest.h>

#include <string>

#include "common/errors.h"
#include "common/model_type.h"

namespace argus {
namespace {

TEST(ModelTypeNames, EveryTypeOfTheRegistry) {
  ASSERT_EQ(kModelTypeCount, 8u);
  for (const ModelTraits& traits : kModelTraits) {
    EXPECT_EQ(parseModelType(traits.name), traits.type);
    EXPECT_EQ(modelTypeName(traits.type), traits.name);
    EXPECT_EQ(&modelTraits(traits.type), &traits);
    EXPECT_EQ(hasStratumBaseline(traits.type), isConditional(traits.type) || isSurvival(traits.type));
    EXPECT_EQ(traits.canRecede, traits.type != ModelType::LeastSquares) << traits.name;
  }
  EXPECT_TRUE(isSurvival(ModelType::Cox));
  EXPECT_TRUE(isSurvival(ModelType::FineGray));
  EXPECT_FALSE(isSurvival(ModelType::ConditionalLogistic));
  EXPECT_TRUE(requiresBinaryOutcome(ModelType::Cox));
  EXPECT_FALSE(requiresBinaryOutcome(ModelType::FineGray));  // 0, 1 or 2
  EXPECT_EQ(modelTypeName(static_cast<ModelType>(99)), "unknown");
  EXPECT_THROW(modelTraits(static_cast<ModelType>(99)), ArgusError);
  try {
    parseModelType("logistic");
    ADD_FAILURE() << "no error";
  } catch (const ArgusError& e) {
    EXPECT_NE(std::string(e.what()).find("expected one of ls, lr, pr, clr, cpr, sccs, cox, fgr"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace argus
