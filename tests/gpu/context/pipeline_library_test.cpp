// The pipeline library (src/kernels/pipeline_library): one pipeline per module and declared
// specialization values, however many slots the planner filled.
#include "kernels/pipeline_library.hpp"
#include "core/context_impl.hpp"
#include "support/gpu_test.hpp"

namespace vkindex::test {
namespace {

using kernels::Pipeline;
using kernels::ShaderId;
using kernels::SpecValues;

class PipelineLibraryTest : public GpuTest {};

TEST_F(PipelineLibraryTest, ConstantsTheModuleDoesNotDeclareDoNotMakeANewPipeline) {
  kernels::PipelineLibrary& library = *implOf(context()).pipelines;
  const uint32_t workgroup = tuningOf(context()).workgroup_size;
  // bucket_count declares only its workgroup size: a scatter of another index width, element size or
  // reduction reuses it.
  VKINDEX_ASSERT_OK_AND_ASSIGN(const Pipeline* first, library.get(ShaderId::kBucketCount, {workgroup, 1, 1, 1, 6, 0}));
  const size_t created = library.size();
  VKINDEX_ASSERT_OK_AND_ASSIGN(const Pipeline* second, library.get(ShaderId::kBucketCount, {workgroup, 2, 8, 4, 9, 1}));
  EXPECT_EQ(second, first);
  EXPECT_EQ(library.size(), created);
  // A declared constant still tells pipelines apart: gather_rows reads int32 and int64 indices (id 1)
  // differently, and ignores the unit width in id 2 (its module is the width).
  const SpecValues int32_rows = {workgroup, 1, 16, 4, 1, 1};
  VKINDEX_ASSERT_OK_AND_ASSIGN(const Pipeline* narrow, library.get(ShaderId::kGatherRows, int32_rows));
  VKINDEX_ASSERT_OK_AND_ASSIGN(const Pipeline* same, library.get(ShaderId::kGatherRows, {workgroup, 1, 4, 4, 1, 1}));
  VKINDEX_ASSERT_OK_AND_ASSIGN(const Pipeline* wide, library.get(ShaderId::kGatherRows, {workgroup, 2, 16, 4, 1, 1}));
  EXPECT_EQ(same, narrow);
  EXPECT_NE(wide, narrow);
  EXPECT_NE(wide->pipeline, narrow->pipeline);
  EXPECT_EQ(context().validationMessageCount(), 0u) << context().firstValidationMessage();
}

}  // namespace
}  // namespace vkindex::test
