"""vkindex: the ONNX indexing operators as Vulkan compute shaders, on numpy arrays (docs/python.md).

    import numpy as np, vkindex
    rows = vkindex.gather(np.arange(12.0).reshape(4, 3), [3, 0])
"""

from ._vkindex import DeviceInfo, __version__, devices
from ._errors import (DeviceError, Error, InternalError, InvalidArgumentError, OutOfRangeError,
                      ResourceExhaustedError, UnsupportedError)
from ._operators import (DTYPES, Context, Tensor, default_context, gather, gather_block_quantized, gather_elements,
                         gather_nd, scatter_elements, scatter_nd, set_default_context, tensor_scatter)

__all__ = ["Context", "DTYPES", "DeviceError", "DeviceInfo", "Error", "InternalError", "InvalidArgumentError",
           "OutOfRangeError", "ResourceExhaustedError", "Tensor", "UnsupportedError", "__version__",
           "default_context", "devices", "gather", "gather_block_quantized", "gather_elements", "gather_nd",
           "scatter_elements", "scatter_nd", "set_default_context", "tensor_scatter"]
