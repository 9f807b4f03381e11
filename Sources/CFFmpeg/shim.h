#ifndef SWIFTDARKNET_CFFMPEG_SHIM_H
#define SWIFTDARKNET_CFFMPEG_SHIM_H
#include <stdint.h>
#include <errno.h>
#include <libavformat/avformat.h>
/* libavdevice is opened at run time (DarknetVideo's CaptureDeviceLibrary): its version only. */
#include <libavdevice/version.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/imgutils.h>
#include <libavutil/display.h>
#include <math.h>
#include <libavutil/opt.h>
#include <libavutil/time.h>

/*
 * Helpers for what Swift cannot import from FFmpeg's headers: function-like macros
 * (AVERROR, AV_NOPTS_VALUE) and fixed-size arrays inside AVFrame, plus the interrupt
 * callback that bounds every blocking libavformat call with a deadline.
 */

static inline int sd_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int sd_averror_eof(void) { return AVERROR_EOF; }
static inline int sd_averror_exit(void) { return AVERROR_EXIT; }
static inline int64_t sd_nopts_value(void) { return AV_NOPTS_VALUE; }

static inline uint8_t *sd_frame_data(const AVFrame *frame, int plane) { return frame->data[plane]; }
static inline int sd_frame_linesize(const AVFrame *frame, int plane) { return frame->linesize[plane]; }

/* State read by the interrupt callback: a deadline on the av_gettime_relative() clock
 * (0: none) and a cancel flag another thread may set. `timed_out` records why it fired. */
typedef struct {
    volatile int64_t deadline_us;
    volatile int cancelled;
    volatile int timed_out;
} sd_interrupt_state;

static inline int sd_interrupt_callback(void *opaque) {
    sd_interrupt_state *state = (sd_interrupt_state *)opaque;
    if (state->cancelled) return 1;
    if (state->deadline_us != 0 && av_gettime_relative() > state->deadline_us) {
        state->timed_out = 1;
        return 1;
    }
    return 0;
}

static inline void sd_install_interrupt(AVFormatContext *context, sd_interrupt_state *state) {
    context->interrupt_callback.callback = sd_interrupt_callback;
    context->interrupt_callback.opaque = state;
}

/* `timed_out` stays set once the deadline passed: demuxers keep the error and report it
 * again on later reads without calling the callback. */
static inline void sd_set_deadline(sd_interrupt_state *state, double seconds) {
    state->deadline_us = seconds > 0 ? av_gettime_relative() + (int64_t)(seconds * 1e6) : 0;
}

/* The probe score at and below which libavformat itself warns "misdetection possible". */
static inline int sd_probe_score_retry(void) { return AVPROBE_SCORE_RETRY; }

/* A demuxer other than `detected` whose common extensions include the one of `name`, or NULL. */
static inline const AVInputFormat *sd_demuxer_for_extension(const char *name, const AVInputFormat *detected) {
    void *opaque = NULL;
    const AVInputFormat *format;
    while ((format = av_demuxer_iterate(&opaque)))
        if (format != detected && format->extensions && av_match_ext(name, format->extensions)) return format;
    return NULL;
}

/* The clockwise turn (0, 90, 180 or 270 degrees) that shows the stream's frames upright, from
 * its display matrix, as the ffmpeg command's autorotation computes it (`get_rotation`:
 * the matrix's counter-clockwise angle negated, rounded, brought into [0, 360)); 0 without a
 * matrix or for an angle that is not a multiple of 90 within a degree. */
static inline int sd_stream_rotation(const AVStream *stream) {
    const int32_t *matrix = NULL;
#if LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(60, 31, 102)
    const AVPacketSideData *side = av_packet_side_data_get(stream->codecpar->coded_side_data,
                                                           stream->codecpar->nb_coded_side_data,
                                                           AV_PKT_DATA_DISPLAYMATRIX);
    if (side && side->size >= 9 * sizeof(int32_t)) matrix = (const int32_t *)side->data;
#else
    size_t size = 0;
    const uint8_t *data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (data && size >= 9 * sizeof(int32_t)) matrix = (const int32_t *)data;
#endif
    if (!matrix) return 0;
    double theta = -round(av_display_rotation_get(matrix));
    if (isnan(theta)) return 0;
    theta -= 360 * floor(theta / 360 + 0.9 / 360);
    for (int turn = 90; turn < 360; turn += 90)
        if (fabs(theta - turn) < 1) return turn;
    return 0;
}

/* The major version of the libavdevice these headers describe (its soname's number). */
static inline int sd_avdevice_major(void) { return LIBAVDEVICE_VERSION_MAJOR; }

/* libavdevice's av_input_video_device_next and avdevice_register_all, as looked up at run time. */
typedef const AVInputFormat *(*sd_video_device_next_fn)(const AVInputFormat *);
typedef void (*sd_register_all_fn)(void);

/* Whether `format` is one of libavdevice's capture inputs (a camera, a screen, a filter graph),
 * whose frames arrive in real time; `next` is libavdevice's av_input_video_device_next. */
static inline int sd_is_capture_device(sd_video_device_next_fn next, const AVInputFormat *format) {
    const AVInputFormat *device = NULL;
    while ((device = next(device)))
        if (device == format) return 1;
    return 0;
}

/* Keeps libav* quiet: errors are reported through return codes and Swift errors. */
static inline void sd_quiet_logs(void) { av_log_set_level(AV_LOG_QUIET); }

#endif
