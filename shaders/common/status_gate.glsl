// The status gate every writing kernel passes first: the check pass recorded a bad index in the
// operation's status slot, so nothing may be written (no half-written output, no host round trip).
// Expects a `status_words` binding and a push block `pc` with `status_slot`.
#ifndef VKINDEX_STATUS_GATE_GLSL
#define VKINDEX_STATUS_GATE_GLSL

bool badIndexFound() { return status_words[pc.status_slot * VKINDEX_STATUS_SLOT_WORDS] != VKINDEX_NO_ERROR; }

#endif
