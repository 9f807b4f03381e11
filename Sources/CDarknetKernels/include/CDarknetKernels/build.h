#ifndef SWIFTDARKNET_BUILD_H
#define SWIFTDARKNET_BUILD_H

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when these kernels were compiled with optimization (`__OPTIMIZE__`: -O1 and above), 0 at
 * -O0, which is how SwiftPM compiles a dependency's C in a debug build: a forward pass then
 * takes about 13 times as long. */
int swiftdarknet_kernels_optimized(void);

#ifdef __cplusplus
}
#endif
#endif
