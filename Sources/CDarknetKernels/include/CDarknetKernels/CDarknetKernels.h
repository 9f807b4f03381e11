#ifndef SWIFTDARKNET_CDARKNETKERNELS_H
#define SWIFTDARKNET_CDARKNETKERNELS_H
/*
 * The SIMD kernels the Swift compiler cannot produce on its own, one header per concern.
 *
 * Swift on Linux targets each architecture's baseline (x86-64: SSE2, no FMA) and offers no
 * per-function target attribute, so the hot loops are written in C with clang vector extensions
 * and compiled once per instruction-set target (generic/, x86/, arm/). Each target's kernels
 * are gathered in a table (kernel_sets.h); the Swift planner picks a table from the CPU's
 * features (cpu.h) and every call goes through it. Nothing here reads a global setting.
 */
#include "cpu.h"
#include "convolution.h"
#include "winograd.h"
#include "elementwise.h"
#include "integer.h"
#include "reduced.h"
#include "pixels.h"
#include "kernel_sets.h"
#include "worker_pool.h"
#include "memory.h"
#include "build.h"

#endif
