#ifndef SWIFTDARKNET_CTIFF_SHIM_H
#define SWIFTDARKNET_CTIFF_SHIM_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>

/*
 * TIFF decoding from memory through libtiff's RGBA interface, which is what OpenCV 4.x's
 * imread(IMREAD_COLOR) uses for every TIFF it reads into 8 bits. libtiff needs read, seek
 * and size callbacks, so the decode lives here. Messages go to the per-handle handlers of
 * TIFFOpenOptions (libtiff 4.5+): nothing is printed, the first error is kept.
 */

/* Status codes: the same numbers in every decoder shim (DarknetImage's DecoderStatus). */
enum {
    SD_TIFF_OK = 0,
    SD_TIFF_ERROR = 1,        /* damaged or truncated data; see message */
    SD_TIFF_TOO_LARGE = 2,    /* width x height over the caller's limits; nothing allocated */
    SD_TIFF_NO_MEMORY = 3,
    SD_TIFF_UNSUPPORTED = 4   /* well-formed, but not an image libtiff's RGBA interface reads */
};

typedef struct {
    unsigned int width;
    unsigned int height;
    unsigned int orientation; /* the Orientation tag (1 to 8; 1 when absent or invalid) */
    unsigned char *pixels;  /* width*height*3 bytes of 8-bit RGB, row-major, in stored order
                               (Orientation not applied); free with sd_tiff_free */
    char message[256];
} sd_tiff_result;

typedef struct {
    const unsigned char *data;
    uint64_t size;
    uint64_t position;
} sd_tiff_source;

static inline void sd_tiff_free(void *pointer) {
    free(pointer);
}

static inline tmsize_t sd_tiff_read(thandle_t handle, void *buffer, tmsize_t count) {
    sd_tiff_source *source = (sd_tiff_source *)handle;
    if (count < 0) return -1;
    uint64_t available = source->position < source->size ? source->size - source->position : 0;
    uint64_t n = (uint64_t)count < available ? (uint64_t)count : available;
    memcpy(buffer, source->data + source->position, (size_t)n);
    source->position += n;
    return (tmsize_t)n;
}

static inline tmsize_t sd_tiff_write(thandle_t handle, void *buffer, tmsize_t count) {
    (void)handle; (void)buffer; (void)count;
    return -1;
}

static inline toff_t sd_tiff_seek(thandle_t handle, toff_t offset, int whence) {
    sd_tiff_source *source = (sd_tiff_source *)handle;
    uint64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? source->position : source->size;
    if (offset > UINT64_MAX - base) return (toff_t)-1;
    source->position = base + offset;
    return source->position;
}

static inline int sd_tiff_close(thandle_t handle) {
    (void)handle;
    return 0;
}

static inline toff_t sd_tiff_size(thandle_t handle) {
    return ((sd_tiff_source *)handle)->size;
}

static inline int sd_tiff_map(thandle_t handle, void **base, toff_t *size) {
    (void)handle; (void)base; (void)size;
    return 0;
}

static inline void sd_tiff_unmap(thandle_t handle, void *base, toff_t size) {
    (void)handle; (void)base; (void)size;
}

static inline int sd_tiff_on_error(TIFF *tif, void *user_data, const char *module, const char *format, va_list args) {
    (void)tif;
    sd_tiff_result *result = (sd_tiff_result *)user_data;
    if (result->message[0] == 0) {
        char text[200];
        vsnprintf(text, sizeof text, format, args);
        snprintf(result->message, sizeof result->message, "%s%s%s", module ? module : "", module ? ": " : "", text);
    }
    return 1;
}

static inline int sd_tiff_on_warning(TIFF *tif, void *user_data, const char *module, const char *format, va_list args) {
    (void)tif; (void)user_data; (void)module; (void)format; (void)args;
    return 1;
}

/*
 * Decodes the first image of a TIFF in memory to 8-bit RGB with libtiff's RGBA interface
 * (stopping at the first error), rows in stored order, then drops alpha. So, as in OpenCV:
 * 16-bit colour samples become (v + 128) / 257 and 16-bit grey keeps its high byte, palettes
 * and YCbCr are converted by libtiff, and unassociated alpha is premultiplied before it is
 * dropped. The Orientation tag is returned, not applied (libtiff would only flip, not
 * transpose). Refuses images over max_dimension per side or max_pixels in area before
 * allocating pixels; libtiff's own allocations are capped at max_allocation bytes each.
 */
static inline int sd_tiff_decode(const unsigned char *data, size_t size,
                                 unsigned long long max_pixels, unsigned int max_dimension,
                                 long long max_allocation, sd_tiff_result *result) {
    memset(result, 0, sizeof *result);
    sd_tiff_source source = { data, size, 0 };
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (!options) return SD_TIFF_NO_MEMORY;
    TIFFOpenOptionsSetErrorHandlerExtR(options, sd_tiff_on_error, result);
    TIFFOpenOptionsSetWarningHandlerExtR(options, sd_tiff_on_warning, result);
    TIFFOpenOptionsSetMaxSingleMemAlloc(options, (tmsize_t)max_allocation);
    /* "m": no memory mapping (the data already is in memory); "r": read */
    TIFF *tif = TIFFClientOpenExt("TIFF", "rm", (thandle_t)&source, sd_tiff_read, sd_tiff_write,
                                  sd_tiff_seek, sd_tiff_close, sd_tiff_size, sd_tiff_map,
                                  sd_tiff_unmap, options);
    TIFFOpenOptionsFree(options);
    if (!tif) {
        if (result->message[0] == 0) snprintf(result->message, sizeof result->message, "libtiff could not open the data");
        return SD_TIFF_ERROR;
    }
    uint32_t width = 0, height = 0;
    if (!TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &width) || !TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &height)
        || width == 0 || height == 0) {
        if (result->message[0] == 0) snprintf(result->message, sizeof result->message, "no image size in the first directory");
        TIFFClose(tif);
        return SD_TIFF_ERROR;
    }
    result->width = width;
    result->height = height;
    if (width > max_dimension || height > max_dimension
        || (unsigned long long)width * height > max_pixels) {
        TIFFClose(tif);
        return SD_TIFF_TOO_LARGE;
    }
    char reason[1024] = { 0 };
    if (!TIFFRGBAImageOK(tif, reason)) {
        snprintf(result->message, sizeof result->message, "%s", reason);
        TIFFClose(tif);
        return SD_TIFF_UNSUPPORTED;
    }
    size_t area = (size_t)width * height;
    uint32_t *raster = (uint32_t *)malloc(area * sizeof(uint32_t));
    unsigned char *pixels = (unsigned char *)malloc(area * 3);
    if (!raster || !pixels) {
        free(raster);
        free(pixels);
        TIFFClose(tif);
        return SD_TIFF_NO_MEMORY;
    }
    TIFFRGBAImage image;
    int ok = TIFFRGBAImageBegin(&image, tif, 1, reason);
    if (ok) {
        result->orientation = image.orientation >= 1 && image.orientation <= 8 ? image.orientation : 1;
        image.orientation = ORIENTATION_TOPLEFT;  /* read as stored */
        image.req_orientation = ORIENTATION_TOPLEFT;
        ok = TIFFRGBAImageGet(&image, raster, width, height);
        TIFFRGBAImageEnd(&image);
    } else if (result->message[0] == 0) {
        snprintf(result->message, sizeof result->message, "%s", reason);
    }
    TIFFClose(tif);
    if (!ok) {
        free(raster);
        free(pixels);
        if (result->message[0] == 0) snprintf(result->message, sizeof result->message, "libtiff could not read the pixels");
        return SD_TIFF_ERROR;
    }
    for (size_t i = 0; i < area; i++) {
        pixels[3 * i] = (unsigned char)TIFFGetR(raster[i]);
        pixels[3 * i + 1] = (unsigned char)TIFFGetG(raster[i]);
        pixels[3 * i + 2] = (unsigned char)TIFFGetB(raster[i]);
    }
    free(raster);
    result->pixels = pixels;
    return SD_TIFF_OK;
}

#endif
