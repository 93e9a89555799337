// How a winner-table pass sets one table word (scatter_elements_claim.comp, scatter_nd_claim.comp):
// the word of the update or tuple at `position` ends up holding the highest position + 1 that
// claims it, whatever order the invocations run in. Expects a `winners` binding.
//   default: one atomicMax per update.
//   VKINDEX_CLEAR_CLAIMS: zero the word instead (the pass before the claims, where the table is
//     larger than the updates).
//   VKINDEX_CLAIM_STORE, then VKINDEX_CLAIM_FIXUP in a pass of its own over the same updates (for
//     devices whose atomic read-modify-writes are slow, Tuning::claim_by_store): the first
//     stores position + 1 where the word holds less, so afterwards the word holds its old value or one
//     of the claims above it; the second lets every update whose position + 1 is still above the word
//     raise it with atomicMax. Only updates that share a target and lost the store's race pay a
//     read-modify-write, and the table ends as the atomicMax pass leaves it. The loads and stores are
//     relaxed atomics (core SPIR-V, no memory-model feature), so that racing stores to one word are
//     defined: one of them wins. A fixup load that sees a stale, lower word only costs an atomicMax.
#ifndef VKINDEX_CLAIM_WORD_GLSL
#define VKINDEX_CLAIM_WORD_GLSL

// Relaxed atomic loads and stores (GL_KHR_memory_scope_semantics, which the including shader enables).
uint loadWord(uint word) {
  return atomicLoad(winners[word], gl_ScopeDevice, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
}
void storeWord(uint word, uint value) {
  atomicStore(winners[word], value, gl_ScopeDevice, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
}

void claimWord(uint word, uint position) {
  const uint claim = position + 1u;
#if defined(VKINDEX_CLEAR_CLAIMS)
  winners[word] = 0u;
#elif defined(VKINDEX_CLAIM_STORE)
  if (loadWord(word) < claim) storeWord(word, claim);
#elif defined(VKINDEX_CLAIM_FIXUP)
  if (loadWord(word) < claim) atomicMax(winners[word], claim);
#else
  atomicMax(winners[word], claim);
#endif
}

#endif
