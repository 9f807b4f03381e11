#ifndef SWIFTDARKNET_CPNG_SHIM_H
#define SWIFTDARKNET_CPNG_SHIM_H
#include <png.h>
#endif
