#ifndef SWIFTDARKNET_CPNG_SHIM_H
#define SWIFTDARKNET_CPNG_SHIM_H
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <png.h>

/*
 * libpng reports fatal errors by longjmp to png_jmpbuf(), which Swift cannot set up, so the
 * decode lives here as a static inline function. It never prints: warnings are ignored, the
 * error text is kept for the caller.
 */

/* Status codes: the same numbers in every decoder shim (DarknetImage's DecoderStatus). */
enum {
    SD_PNG_OK = 0,
    SD_PNG_ERROR = 1,      /* libpng raised an error (damaged or truncated data); see message */
    SD_PNG_TOO_LARGE = 2,  /* IHDR dimensions exceed the caller's limits; nothing allocated */
    SD_PNG_NO_MEMORY = 3
};

typedef struct {
    int status;
    unsigned int width;
    unsigned int height;
    int bit_depth;          /* as stored in IHDR */
    int color_type;         /* as stored in IHDR */
    unsigned char *pixels;  /* width*height*3 bytes of 8-bit RGB, row-major; free with sd_png_free */
    unsigned char *encoded; /* sd_png_encode output; free with sd_png_free */
    size_t encoded_size;
    char message[256];
} sd_png_result;

typedef struct {
    const unsigned char *data;
    size_t size;
    size_t position;
    sd_png_result *result;
} sd_png_reader;

static inline void sd_png_free(void *pointer) {
    free(pointer);
}

static inline void sd_png_error(png_structp png, png_const_charp message) {
    sd_png_reader *reader = (sd_png_reader *)png_get_error_ptr(png);
    if (reader && message) {
        strncpy(reader->result->message, message, sizeof reader->result->message - 1);
        reader->result->message[sizeof reader->result->message - 1] = 0;
    }
    png_longjmp(png, 1);
}

static inline void sd_png_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static inline void sd_png_read(png_structp png, png_bytep out, size_t count) {
    sd_png_reader *reader = (sd_png_reader *)png_get_io_ptr(png);
    if (count > reader->size - reader->position) {
        png_error(png, "unexpected end of data");
    }
    memcpy(out, reader->data + reader->position, count);
    reader->position += count;
}

/*
 * Decodes a PNG from memory to 8-bit RGB the way OpenCV 4.x imread(IMREAD_COLOR) does with
 * libpng: 16-bit samples keep their high byte (png_set_strip_16), alpha and tRNS are dropped
 * without compositing (png_set_strip_alpha), palettes expand to RGB, 1/2/4-bit grey is scaled
 * to 8 bits, grey is replicated to RGB, interlacing is undone. No gamma handling.
 * Refuses images whose IHDR exceeds max_dimension per side or max_pixels in area before
 * allocating anything for pixels.
 */
static inline int sd_png_decode(const unsigned char *data, size_t size,
                                unsigned long long max_pixels, unsigned int max_dimension,
                                sd_png_result *result) {
    sd_png_reader reader;
    png_structp png = NULL;
    png_infop info = NULL;
    unsigned char *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;

    memset(result, 0, sizeof *result);
    reader.data = data;
    reader.size = size;
    reader.position = 0;
    reader.result = result;

    png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader, sd_png_error, sd_png_warning);
    if (!png) {
        result->status = SD_PNG_NO_MEMORY;
        return result->status;
    }
    info = png_create_info_struct(png);
    if (!info) {
        png_destroy_read_struct(&png, NULL, NULL);
        result->status = SD_PNG_NO_MEMORY;
        return result->status;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free(rows);
        free(pixels);
        result->pixels = NULL;
        result->status = SD_PNG_ERROR;
        return result->status;
    }

    png_set_read_fn(png, &reader, sd_png_read);
    png_read_info(png, info);

    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0;
    png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, NULL, NULL, NULL);
    result->width = width;
    result->height = height;
    result->bit_depth = bit_depth;
    result->color_type = color_type;
    if (width > max_dimension || height > max_dimension ||
        (unsigned long long)width * height > max_pixels) {
        png_destroy_read_struct(&png, &info, NULL);
        result->status = SD_PNG_TOO_LARGE;
        return result->status;
    }

    if (bit_depth == 16) png_set_strip_16(png);
    png_set_strip_alpha(png);
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if ((color_type & PNG_COLOR_MASK_COLOR) == 0 && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if ((color_type & PNG_COLOR_MASK_COLOR) == 0) png_set_gray_to_rgb(png);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);

    size_t stride = (size_t)width * 3;
    if (png_get_rowbytes(png, info) != stride) {
        png_error(png, "unexpected row layout after transformations");
    }
    pixels = (unsigned char *)malloc(stride * height);
    rows = (png_bytep *)malloc(sizeof(png_bytep) * height);
    if (!pixels || !rows) {
        png_error(png, "out of memory");
    }
    for (png_uint_32 y = 0; y < height; y++) rows[y] = pixels + stride * y;
    png_read_image(png, rows);
    png_read_end(png, NULL);

    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    result->pixels = pixels;
    result->status = SD_PNG_OK;
    return result->status;
}

/*
 * Encodes interleaved 8-bit RGB (components 3) or grey (components 1) to PNG in memory with
 * libpng's simplified API. On success result->encoded / encoded_size hold the file.
 */
static inline int sd_png_encode(const unsigned char *pixels, unsigned int width, unsigned int height,
                                int components, sd_png_result *result) {
    png_image image;
    memset(result, 0, sizeof *result);
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = width;
    image.height = height;
    image.format = components == 1 ? PNG_FORMAT_GRAY : PNG_FORMAT_RGB;

    png_alloc_size_t size = 0;
    if (!png_image_write_to_memory(&image, NULL, &size, 0, pixels, 0, NULL)) {
        strncpy(result->message, image.message, sizeof result->message - 1);
        png_image_free(&image);
        result->status = SD_PNG_ERROR;
        return result->status;
    }
    unsigned char *buffer = (unsigned char *)malloc(size ? size : 1);
    if (!buffer) {
        result->status = SD_PNG_NO_MEMORY;
        return result->status;
    }
    if (!png_image_write_to_memory(&image, buffer, &size, 0, pixels, 0, NULL)) {
        strncpy(result->message, image.message, sizeof result->message - 1);
        png_image_free(&image);
        free(buffer);
        result->status = SD_PNG_ERROR;
        return result->status;
    }
    result->encoded = buffer;
    result->encoded_size = size;
    result->status = SD_PNG_OK;
    return result->status;
}

#endif
