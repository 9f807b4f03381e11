#ifndef SWIFTDARKNET_CHEIF_SHIM_H
#define SWIFTDARKNET_CHEIF_SHIM_H
/* libheif's C API (HEIC and AVIF stills): plain calls and result structs, no callbacks, so
 * Swift calls it directly. */
#include <libheif/heif.h>
#endif
