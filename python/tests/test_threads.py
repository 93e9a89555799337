"""Python threads sharing one Context (the binding serializes its use) and Tensors outliving their Context
object: results stay exact and nothing crashes."""
import threading

import numpy as np

import vkindex


def test_threads_sharing_the_default_context_get_exact_results(ctx, rng):
    table = rng.standard_normal((256, 33)).astype(np.float32)
    failures = []

    def worker(seed):
        local = np.random.default_rng(seed)
        for _ in range(12):
            ids = local.integers(-256, 256, size=int(local.integers(0, 40)))
            rows = vkindex.gather(table, ids)
            tensor = vkindex.Tensor.from_numpy(table[:8])
            again = vkindex.gather(tensor, np.array([7, 0])).numpy()
            del tensor
            if rows.tobytes() != table[ids].tobytes() or again.tobytes() != table[[7, 0]].tobytes():
                failures.append(seed)

    threads = [threading.Thread(target=worker, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


def test_a_tensor_keeps_its_context_alive():
    values = np.arange(10, dtype=np.int32)
    context = vkindex.Context(validation=True)
    tensor = vkindex.Tensor.from_numpy(values, context=context)
    del context
    assert tensor.numpy().tobytes() == values.tobytes()
    rows = vkindex.gather(tensor, np.array([9, 1]))
    assert rows.context is tensor.context
    assert rows.numpy().tolist() == [9, 1]
    assert tensor.context.validation_message_count == 0
