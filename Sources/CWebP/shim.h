#ifndef SWIFTDARKNET_CWEBP_SHIM_H
#define SWIFTDARKNET_CWEBP_SHIM_H
/* libwebp's simple decoding API: WebPGetFeatures, then WebPDecodeRGBInto (no callbacks, no
 * global state), so Swift calls it directly. */
#include <webp/decode.h>
#endif
