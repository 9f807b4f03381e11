#include "CDarknetKernels/build.h"

int swiftdarknet_kernels_optimized(void) {
#ifdef __OPTIMIZE__
    return 1;
#else
    return 0;
#endif
}
