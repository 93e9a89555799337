// A process of its own for the pipeline cache tests: creates a validated Context that caches pipelines
// in DIRECTORY, runs a gather checked byte for byte against the CPU reference, and reports on stdout
// whether the cache file was loaded and the warning it gave ("loaded=0|1", "warning=..."). Exits 0 only
// when all of that worked and validation stayed silent. The tests start several at once (concurrent
// writers), and give each hostile cache path (a FIFO, a link to /dev/zero) to one with a time limit.
#include <cstdio>
#include <memory>

#include "core/context_impl.hpp"
#include "support/random_tensors.hpp"
#include "support/reference_ops.hpp"

namespace vkindex::test {
namespace {

int fail(const char* what, const Status& status) {
  std::fprintf(stderr, "FAILED: %s: %s\n", what, status.toString().c_str());
  return 1;
}

int runWorker(const char* directory) {
  ContextOptions options;
  options.validation = true;
  options.pipeline_cache_dir = directory;
  StatusOr<std::unique_ptr<Context>> created = Context::create(options);
  if (!created.ok()) return fail("Context::create", created.status());
  std::unique_ptr<Context> ctx = std::move(created).value();

  Rng rng(21);
  const HostTensor data = randomTensor(rng, DataType::kFloat32, {13, 6});
  const HostTensor indices = indexTensor(DataType::kInt64, {4}, {12, -13, 0, 5});
  const ReferenceResult expected = referenceGather(data, indices, 0);
  StatusOr<Tensor> data_tensor = toDevice(*ctx, data);
  if (!data_tensor.ok()) return fail("upload", data_tensor.status());
  StatusOr<Tensor> index_tensor = toDevice(*ctx, indices);
  if (!index_tensor.ok()) return fail("upload", index_tensor.status());
  StatusOr<Tensor> output = gather(*ctx, *data_tensor, *index_tensor, 0);
  if (!output.ok()) return fail("gather", output.status());
  StatusOr<HostTensor> actual = toHost(*output);
  if (!actual.ok()) return fail("download", actual.status());
  if (actual->shape != expected.output.shape || actual->bytes != expected.output.bytes) {
    std::fprintf(stderr, "FAILED: the gather's output differs from the reference\n");
    return 1;
  }
  if (ctx->validationMessageCount() != 0) {
    std::fprintf(stderr, "FAILED: validation: %s\n", ctx->firstValidationMessage().c_str());
    return 1;
  }
  std::printf("loaded=%d\nwarning=%s\n", ctx->pipelineCacheLoaded() ? 1 : 0,
              implOf(*ctx).pipeline_cache->loadWarning().c_str());
  std::fflush(stdout);
  return 0;  // the context's destruction saves the cache file
}

}  // namespace
}  // namespace vkindex::test

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIRECTORY\n", argv[0]);
    return 2;
  }
  return vkindex::test::runWorker(argv[1]);
}
