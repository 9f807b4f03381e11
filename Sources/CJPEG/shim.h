#ifndef SWIFTDARKNET_CJPEG_SHIM_H
#define SWIFTDARKNET_CJPEG_SHIM_H
#include <stdio.h>
#include <stddef.h>
#include <jpeglib.h>
#endif
