#ifndef SWIFTDARKNET_CJPEG_SHIM_H
#define SWIFTDARKNET_CJPEG_SHIM_H
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <jpeglib.h>
#include <jerror.h>

/*
 * libjpeg reports fatal errors through error_exit(), which by default calls exit(). The only
 * way to recover is setjmp/longjmp, which Swift cannot express, so the whole decode and
 * encode live here as static inline functions. They never print: warnings are counted, the
 * last message is kept for the caller.
 */

/* Status codes: the same numbers in every decoder shim (DarknetImage's DecoderStatus). */
enum {
    SD_JPEG_OK = 0,
    SD_JPEG_ERROR = 1,      /* libjpeg raised a fatal error; message holds its text */
    SD_JPEG_TOO_LARGE = 2,  /* header dimensions exceed the caller's limits; nothing allocated */
    SD_JPEG_NO_MEMORY = 3
};

typedef struct {
    int status;
    unsigned int width;        /* output size after jpeg_read_header */
    unsigned int height;
    int components;            /* 3 (RGB), 1 (grey output asked for) or 4 (CMYK as stored, Adobe-inverted if so) */
    int premature_end;         /* the data ended before the EOI marker */
    int missing_data;          /* an entropy-coded segment ran out of bits (JWRN_HIT_MARKER) */
    int multiple_scans;        /* progressive or multi-scan: a missing end may be missing scans */
    int warnings;              /* count of libjpeg warnings (corrupt data it recovered from) */
    unsigned char *pixels;     /* width*height*components bytes, row-major; free with sd_jpeg_free */
    unsigned char *encoded;    /* sd_jpeg_encode_rgb output; free with sd_jpeg_free */
    unsigned long encoded_size;
    char message[JMSG_LENGTH_MAX];
} sd_jpeg_result;

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    sd_jpeg_result *result;
} sd_jpeg_error_mgr;

static inline void sd_jpeg_error_exit(j_common_ptr cinfo) {
    sd_jpeg_error_mgr *err = (sd_jpeg_error_mgr *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, err->result->message);
    longjmp(err->jump, 1);
}

static inline void sd_jpeg_emit_message(j_common_ptr cinfo, int msg_level) {
    sd_jpeg_error_mgr *err = (sd_jpeg_error_mgr *)cinfo->err;
    if (msg_level < 0) {
        err->result->warnings += 1;
        if (cinfo->err->msg_code == JWRN_JPEG_EOF) err->result->premature_end = 1;
        if (cinfo->err->msg_code == JWRN_HIT_MARKER) err->result->missing_data = 1;
        (*cinfo->err->format_message)(cinfo, err->result->message);
        cinfo->err->num_warnings++;
    }
}

static inline void sd_jpeg_output_message(j_common_ptr cinfo) {
    (void)cinfo;
}

static inline void sd_jpeg_free(void *pointer) {
    free(pointer);
}

/*
 * Decodes a whole JPEG from memory the way OpenCV 4.x imread(IMREAD_COLOR) does with
 * libjpeg-turbo: default decompression parameters (JDCT_ISLOW, fancy upsampling), output
 * JCS_RGB for 1- and 3-component images (grey is replicated by libjpeg), JCS_CMYK for
 * 4-component ones; with grey set, JCS_GRAYSCALE for 1- and 3-component images (libjpeg's
 * own grey output, the luma component as decoded: what imread(IMREAD_GRAYSCALE) gives).
 * Refuses images whose header exceeds max_dimension per side or max_pixels in area before
 * allocating anything for pixels.
 */
/* Routes libjpeg's errors and messages to `err` (longjmp, counted warnings, kept text). */
static inline struct jpeg_error_mgr *sd_jpeg_install_error_manager(sd_jpeg_error_mgr *err, sd_jpeg_result *result) {
    struct jpeg_error_mgr *manager = jpeg_std_error(&err->pub);
    err->pub.error_exit = sd_jpeg_error_exit;
    err->pub.emit_message = sd_jpeg_emit_message;
    err->pub.output_message = sd_jpeg_output_message;
    err->result = result;
    return manager;
}

static inline int sd_jpeg_decode(const unsigned char *data, unsigned long size,
                                 unsigned long long max_pixels, unsigned int max_dimension,
                                 int grey, sd_jpeg_result *result) {
    struct jpeg_decompress_struct cinfo;
    sd_jpeg_error_mgr err;
    unsigned char *volatile pixels = NULL;

    memset(result, 0, sizeof *result);
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = sd_jpeg_install_error_manager(&err, result);

    if (setjmp(err.jump)) {
        jpeg_destroy_decompress(&cinfo);
        free(pixels);
        result->pixels = NULL;
        result->status = SD_JPEG_ERROR;
        return result->status;
    }

    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, size);
    jpeg_read_header(&cinfo, TRUE);

    result->width = cinfo.image_width;
    result->height = cinfo.image_height;
    if (cinfo.image_width > max_dimension || cinfo.image_height > max_dimension ||
        (unsigned long long)cinfo.image_width * cinfo.image_height > max_pixels) {
        jpeg_destroy_decompress(&cinfo);
        result->status = SD_JPEG_TOO_LARGE;
        return result->status;
    }

    result->multiple_scans = jpeg_has_multiple_scans(&cinfo) ? 1 : 0;
    if (cinfo.num_components == 4) {
        cinfo.out_color_space = JCS_CMYK;
        cinfo.out_color_components = 4;
    } else if (grey) {
        cinfo.out_color_space = JCS_GRAYSCALE;
        cinfo.out_color_components = 1;
    } else {
        cinfo.out_color_space = JCS_RGB;
        cinfo.out_color_components = 3;
    }

    jpeg_start_decompress(&cinfo);
    result->width = cinfo.output_width;
    result->height = cinfo.output_height;
    result->components = cinfo.output_components;

    size_t stride = (size_t)cinfo.output_width * (size_t)cinfo.output_components;
    pixels = (unsigned char *)malloc(stride * cinfo.output_height);
    if (!pixels) {
        jpeg_destroy_decompress(&cinfo);
        result->status = SD_JPEG_NO_MEMORY;
        return result->status;
    }
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = pixels + stride * cinfo.output_scanline;
        if (jpeg_read_scanlines(&cinfo, &row, 1) != 1) {
            /* A memory source never suspends; treat it as damage rather than loop. */
            jpeg_destroy_decompress(&cinfo);
            free(pixels);
            result->premature_end = 1;
            result->status = SD_JPEG_ERROR;
            return result->status;
        }
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    result->pixels = pixels;
    result->status = SD_JPEG_OK;
    return result->status;
}

/*
 * Encodes interleaved 8-bit RGB (components 3) or grey (components 1) to a baseline JPEG in
 * memory with jpeg_set_defaults and the given quality (as OpenCV imwrite does).
 * On success result->encoded / encoded_size hold the file; free with sd_jpeg_free.
 */
static inline int sd_jpeg_encode(const unsigned char *pixels, unsigned int width, unsigned int height,
                                 int components, int quality, sd_jpeg_result *result) {
    struct jpeg_compress_struct cinfo;
    sd_jpeg_error_mgr err;
    unsigned char *out = NULL;
    unsigned long out_size = 0;

    memset(result, 0, sizeof *result);
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = sd_jpeg_install_error_manager(&err, result);

    if (setjmp(err.jump)) {
        /* The memory destination's current buffer is private to libjpeg at this point (it
         * may already have replaced `out`), so it is not freed here. Only allocation
         * failures can get here. */
        jpeg_destroy_compress(&cinfo);
        result->status = SD_JPEG_ERROR;
        return result->status;
    }

    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, &out, &out_size);
    cinfo.image_width = width;
    cinfo.image_height = height;
    cinfo.input_components = components;
    cinfo.in_color_space = components == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    jpeg_start_compress(&cinfo, TRUE);
    size_t stride = (size_t)width * (size_t)components;
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + stride * cinfo.next_scanline);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    result->encoded = out;
    result->encoded_size = out_size;
    result->status = SD_JPEG_OK;
    return result->status;
}

#endif
