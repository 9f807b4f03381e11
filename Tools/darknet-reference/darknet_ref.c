/*
 * darknet_ref: reference data from the original Darknet (libdarknet.so, pjreddie API).
 *
 *   darknet_ref randweights CFG OUT.weights SEED INPUT.bin
 *   darknet_ref forward     CFG WEIGHTS INPUT.bin OUTDIR LAYERS     (LAYERS: all | yolo | i,j,k)
 *   darknet_ref steps       CFG WEIGHTS TEXT OUTDIR LAYERS          (one step per character of TEXT)
 *   darknet_ref sequence    CFG WEIGHTS TEXT OUTDIR                 (time_steps characters, one forward)
 *   darknet_ref binsteps    CFG WEIGHTS OUTDIR LAYERS IN0.bin ...   (one step per input file)
 *   darknet_ref load        IMAGE OUT.bin                           (prints "W H C")
 *   darknet_ref letterbox   IMAGE W H OUT.bin
 *   darknet_ref detect      CFG WEIGHTS IMAGE THRESH HIER NMS [NAMES] [--names NAMES] [--yolo-test]
 *   darknet_ref flops       CFG                                     (JSON: per-conv and total BFLOPs)
 *
 * Tensors are raw float32 little-endian, CHW. Every error: message on stderr, exit 1.
 *
 * Build:
 *   cc -O2 -I/usr/lib/darknet/include darknet_ref.c -L/usr/lib/darknet \
 *      -Wl,-rpath,/usr/lib/darknet -ldarknet -lm -o darknet_ref
 */
#define _XOPEN_SOURCE 700
#include "darknet.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <fcntl.h>
#include <unistd.h>

/* ------------------------------------------------------------------ utilities */

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("darknet_ref: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static void check_little_endian(void)
{
    uint32_t probe = 1;
    unsigned char first;
    memcpy(&first, &probe, 1);
    if (first != 1) die("this tool writes raw host floats and requires a little-endian host");
}

/* Darknet exits with status 0 on a missing file (file_error), so check first. */
static void require_readable_file(const char *path, const char *what)
{
    struct stat st;
    if (stat(path, &st) != 0) die("cannot open %s '%s': %s", what, path, strerror(errno));
    if (!S_ISREG(st.st_mode)) die("%s '%s' is not a regular file", what, path);
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot open %s '%s': %s", what, path, strerror(errno));
    fclose(f);
}

static long parse_long(const char *s, const char *what)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end != '\0') die("invalid %s '%s' (expected an integer)", what, s);
    return v;
}

static double parse_double(const char *s, const char *what)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end != '\0' || !isfinite(v)) die("invalid %s '%s' (expected a number)", what, s);
    return v;
}

static float *read_floats(const char *path, size_t *count)
{
    require_readable_file(path, "input tensor");
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot open '%s': %s", path, strerror(errno));
    if (fseek(f, 0, SEEK_END) != 0) die("cannot seek '%s'", path);
    long size = ftell(f);
    if (size < 0) die("cannot size '%s'", path);
    rewind(f);
    if (size % 4 != 0) die("'%s' has %ld bytes, not a whole number of float32 values", path, size);
    size_t n = (size_t)size / 4;
    float *x = malloc(n ? n * sizeof(float) : 1);
    if (!x) die("out of memory reading '%s'", path);
    if (n && fread(x, sizeof(float), n, f) != n) die("short read on '%s'", path);
    fclose(f);
    *count = n;
    return x;
}

static void write_floats(const char *path, const float *x, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) die("cannot create '%s': %s", path, strerror(errno));
    if (n && fwrite(x, sizeof(float), n, f) != n) die("write failed on '%s'", path);
    if (fclose(f) != 0) die("write failed on '%s': %s", path, strerror(errno));
}

static void ensure_dir(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        if (!S_ISDIR(st.st_mode)) die("'%s' exists and is not a directory", path);
        return;
    }
    if (mkdir(path, 0777) != 0) die("cannot create directory '%s': %s", path, strerror(errno));
}

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (*p < 0x20) fprintf(out, "\\u%04x", *p);
            else fputc(*p, out);
        }
    }
    fputc('"', out);
}

/* cfg section name for each LAYER_TYPE (the spelling Darknet's cfg files use). */
static const char *layer_type_name(LAYER_TYPE t)
{
    switch (t) {
    case CONVOLUTIONAL: return "convolutional";
    case DECONVOLUTIONAL: return "deconvolutional";
    case CONNECTED: return "connected";
    case MAXPOOL: return "maxpool";
    case SOFTMAX: return "softmax";
    case DETECTION: return "detection";
    case DROPOUT: return "dropout";
    case CROP: return "crop";
    case ROUTE: return "route";
    case COST: return "cost";
    case NORMALIZATION: return "normalization";
    case AVGPOOL: return "avgpool";
    case LOCAL: return "local";
    case SHORTCUT: return "shortcut";
    case ACTIVE: return "activation";
    case RNN: return "rnn";
    case GRU: return "gru";
    case LSTM: return "lstm";
    case CRNN: return "crnn";
    case BATCHNORM: return "batchnorm";
    case NETWORK: return "net";
    case XNOR: return "xnor";
    case REGION: return "region";
    case YOLO: return "yolo";
    case ISEG: return "iseg";
    case REORG: return "reorg";
    case UPSAMPLE: return "upsample";
    case LOGXENT: return "logistic";
    case L2NORM: return "l2norm";
    case BLANK: return "blank";
    }
    return "unknown";
}

/* ------------------------------------------------------------------ network loading */

static network *parse_cfg_batch1(const char *cfg)
{
    require_readable_file(cfg, "cfg file");
    network *net = parse_network_cfg((char *)cfg);
    if (!net) die("Darknet could not parse '%s'", cfg);
    set_batch_network(net, 1);
    /* A stand-alone [batchnorm] layer's forward copies into l.x, which make_batchnorm_layer
     * never allocates in this CPU build (Darknet itself segfaults): give it one. */
    for (int i = 0; i < net->n; ++i) {
        layer *l = &net->layers[i];
        if (l->type == BATCHNORM && !l->x) {
            l->x = calloc((size_t)l->outputs * l->batch, sizeof(float));
            l->x_norm = calloc((size_t)l->outputs * l->batch, sizeof(float));
            if (!l->x || !l->x_norm) die("out of memory");
        }
    }
    /* parse_network_cfg sizes the shared workspace from each layer's workspace_size, which
     * make_crnn_layer leaves at 0: the im2col of its 3x3 sub-layers would run off the end of a
     * smaller workspace (or a NULL one: Darknet itself crashes). Give it one that fits. */
    size_t workspace = 0;
    int crnn = 0;
    for (int i = 0; i < net->n; ++i) {
        layer *l = &net->layers[i];
        if (l->workspace_size > workspace) workspace = l->workspace_size;
        if (l->type != CRNN) continue;
        crnn = 1;
        layer *subs[3] = {l->input_layer, l->self_layer, l->output_layer};
        for (int k = 0; k < 3; ++k) if (subs[k]->workspace_size > workspace) workspace = subs[k]->workspace_size;
    }
    if (crnn) {
        net->workspace = calloc(workspace / sizeof(float) + 1, sizeof(float));
        if (!net->workspace) die("out of memory");
    }
    return net;
}

/* Floats load_connected_weights reads for one [connected] (sub-)layer. */
static long long connected_floats(const layer *l)
{
    long long n = (long long)l->outputs + (long long)l->outputs * l->inputs;
    if (l->batch_normalize && !l->dontloadscales) n += 3LL * l->outputs;
    return n;
}

/* Floats load_convolutional_weights reads for one [convolutional] (sub-)layer. */
static long long conv_floats(const layer *l)
{
    return l->n + l->nweights + (l->batch_normalize && !l->dontloadscales ? 3LL * l->n : 0);
}

/* Number of float32 values Darknet's load_weights reads for one layer (in the order of
 * load_weights_upto), or -1 for a layer type whose size this tool does not model. */
static long long layer_weight_floats(const layer *l)
{
    if (l->dontload) return 0;
    switch (l->type) {
    case CONVOLUTIONAL:
    case DECONVOLUTIONAL:
        if (l->numload) return -1;
        return l->n + l->nweights + (l->batch_normalize && !l->dontloadscales ? 3LL * l->n : 0);
    case CONNECTED:
        return connected_floats(l);
    case BATCHNORM:
        return 3LL * l->c;
    case LOCAL:
        /* one bias per output value, then filters x (c * size * size) weights per location */
        return (long long)l->outputs + (long long)l->size * l->size * l->c * l->n * l->out_w * l->out_h;
    case RNN:
        return connected_floats(l->input_layer) + connected_floats(l->self_layer) +
               connected_floats(l->output_layer);
    case GRU:
        return connected_floats(l->wz) + connected_floats(l->wr) + connected_floats(l->wh) +
               connected_floats(l->uz) + connected_floats(l->ur) + connected_floats(l->uh);
    case LSTM:
        return connected_floats(l->wi) + connected_floats(l->wf) + connected_floats(l->wo) + connected_floats(l->wg) +
               connected_floats(l->ui) + connected_floats(l->uf) + connected_floats(l->uo) + connected_floats(l->ug);
    case CRNN:
        return conv_floats(l->input_layer) + conv_floats(l->self_layer) + conv_floats(l->output_layer);
    default:
        return 0;
    }
}

/* Number of float32 values Darknet's load_weights will read for this network,
 * or -1 when it contains a layer type whose size this tool does not model. */
static long long expected_weight_floats(const network *net)
{
    long long total = 0;
    for (int i = 0; i < net->n; ++i) {
        long long n = layer_weight_floats(&net->layers[i]);
        if (n < 0) return -1;
        total += n;
    }
    return total;
}

/* Header size of the weights file load_net read last (16 or 20 bytes), for the byte offsets
 * the layer dumps record. */
static long long loaded_weights_header = -1;

/* Darknet never checks the length of a .weights file (missing values load as zeros). */
static void check_weights_file(const network *net, const char *path)
{
    require_readable_file(path, "weights file");
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot open weights '%s'", path);
    int32_t hdr[3];
    if (fread(hdr, sizeof(int32_t), 3, f) != 3) die("weights file '%s' is too short for its header", path);
    fseek(f, 0, SEEK_END);
    long long size = ftell(f);
    fclose(f);
    long long header = 12 + (((hdr[0] * 10 + hdr[1]) >= 2 && hdr[0] < 1000 && hdr[1] < 1000) ? 8 : 4);
    loaded_weights_header = header;
    long long floats = expected_weight_floats(net);
    if (floats < 0) {
        fprintf(stderr, "darknet_ref: warning: cannot verify the size of '%s' for this network\n", path);
        return;
    }
    long long need = header + 4 * floats;
    if (size < need)
        die("weights file '%s' has %lld bytes but the cfg needs %lld (header %lld + %lld floats)",
            path, size, need, header, floats);
    if (size > need)
        fprintf(stderr, "darknet_ref: warning: '%s' has %lld trailing bytes that Darknet ignores\n",
                path, size - need);
}

static network *load_net(const char *cfg, const char *weights)
{
    network *net = parse_cfg_batch1(cfg);
    check_weights_file(net, weights);
    load_weights(net, (char *)weights);
    return net;
}

static float *read_network_input(const network *net, const char *path)
{
    size_t n = 0;
    float *x = read_floats(path, &n);
    if (n != (size_t)net->inputs)
        die("'%s' holds %zu floats but the network input is %d (c=%d h=%d w=%d)",
            path, n, net->inputs, net->c, net->h, net->w);
    return x;
}

/* Darknet's OpenCV loader, on a file it cannot decode, runs `echo PATH >> bad.list` through
 * system() (in the current directory, with PATH unquoted in a 256-byte buffer) and returns a
 * black 10x10 image. So hand it a short symlink inside a private temporary directory. */
static image load_color_checked(const char *path)
{
    require_readable_file(path, "image");
    char *abs = realpath(path, NULL);
    if (!abs) die("cannot resolve image path '%s': %s", path, strerror(errno));
    const char *tmp_root = getenv("TMPDIR");
    char tmpl[4096];
    snprintf(tmpl, sizeof tmpl, "%s/darknet_ref.XXXXXX", tmp_root && *tmp_root ? tmp_root : "/tmp");
    if (!mkdtemp(tmpl)) die("cannot create a temporary directory: %s", strerror(errno));
    int cwd = open(".", O_RDONLY | O_DIRECTORY);
    if (cwd < 0) die("cannot open the current directory: %s", strerror(errno));
    if (chdir(tmpl) != 0) die("cannot enter '%s': %s", tmpl, strerror(errno));
    if (symlink(abs, "image") != 0) die("cannot create a symlink in '%s': %s", tmpl, strerror(errno));
    image im = load_image_color("image", 0, 0);
    unlink("image");
    unlink("bad.list");
    if (fchdir(cwd) != 0) die("cannot return to the working directory: %s", strerror(errno));
    close(cwd);
    rmdir(tmpl);
    free(abs);
    if (!im.data || im.w <= 0 || im.h <= 0) die("Darknet could not load image '%s'", path);
    if (im.w == 10 && im.h == 10) {
        int all_zero = 1;
        for (int k = 0; k < im.w * im.h * im.c; ++k) if (im.data[k] != 0) { all_zero = 0; break; }
        if (all_zero) die("Darknet could not decode image '%s' (got its 10x10 black fallback)", path);
    }
    return im;
}

/* ------------------------------------------------------------------ PRNG (splitmix64) */

static uint64_t rng_state;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* uniform in [lo, hi) with 24 random bits */
static float rng_uniform(float lo, float hi)
{
    double u = (double)(rng_next() >> 40) / 16777216.0;
    return (float)(lo + (hi - lo) * u);
}

/* ------------------------------------------------------------------ randweights */

static void channel_stats(const float *x, int spatial, int c, double *mean, double *var)
{
    const float *p = x + (size_t)c * spatial;
    double s = 0, ss = 0;
    for (int k = 0; k < spatial; ++k) s += p[k];
    double m = s / spatial;
    for (int k = 0; k < spatial; ++k) { double d = p[k] - m; ss += d * d; }
    *mean = m;
    *var = ss / spatial;
}

static void global_stats(const float *x, size_t n, double *mean, double *var)
{
    double s = 0, ss = 0;
    for (size_t k = 0; k < n; ++k) s += x[k];
    double m = s / n;
    for (size_t k = 0; k < n; ++k) { double d = x[k] - m; ss += d * d; }
    *mean = m;
    *var = ss / n;
}

#define BN_VARIANCE_FLOOR 1e-4
#define TARGET_STD 1.5

/* Shared calibration for convolutional (filters x spatial) and connected (outputs x 1) layers.
 * weights_per_filter: contiguous weights belonging to each output channel.
 *
 * Batch-normalized layers get their rolling mean/variance from this very input, so every
 * channel leaves the normalization with std = scale. BN biases are positive (0.3..0.7) so most
 * leaky units sit in their linear part, and a layer that ends a residual branch (its output
 * feeds a [shortcut]) gets scales x0.3 and biases near 0: both keep a random network from
 * amplifying tiny input differences (float rounding) by orders of magnitude, while the
 * output still changes completely from one image to another. */
static void calibrate_weighted_layer(layer *lp, network st, int filters, int spatial,
                                     int weights_per_filter, float weight_bound, int residual_branch,
                                     int feeds_global_pool)
{
    layer l = *lp;
    for (int k = 0; k < l.nweights; ++k) l.weights[k] = rng_uniform(-1, 1) * weight_bound;
    for (int f = 0; f < filters; ++f) {
        /* Before a global [avgpool] each channel's spatial mean is all that survives: spread
         * the biases so a classifier's softmax is far from uniform. */
        if (feeds_global_pool) l.biases[f] = rng_uniform(-2.0f, 2.0f);
        else if (l.batch_normalize && !residual_branch) l.biases[f] = rng_uniform(0.3f, 0.7f);
        else l.biases[f] = rng_uniform(-0.1f, 0.1f);
    }

    if (l.batch_normalize) {
        for (int f = 0; f < filters; ++f) {
            l.scales[f] = rng_uniform(0.5f, 1.5f) * (residual_branch ? 0.3f : 1.0f);
            l.rolling_mean[f] = 0;
            l.rolling_variance[f] = 1;
        }
        l.forward(l, st); /* l.x receives the convolution before normalization */
        if (!l.x) die("layer %d: batch-normalized layer without l.x buffer", st.index);
        if (spatial >= 2) {
            for (int f = 0; f < filters; ++f) {
                double m, v;
                channel_stats(l.x, spatial, f, &m, &v);
                l.rolling_mean[f] = (float)m;
                l.rolling_variance[f] = (float)(v + BN_VARIANCE_FLOOR);
            }
        } else {
            double m, v;
            global_stats(l.x, (size_t)filters * spatial, &m, &v);
            for (int f = 0; f < filters; ++f) {
                l.rolling_mean[f] = (float)m;
                l.rolling_variance[f] = (float)(v + BN_VARIANCE_FLOOR);
            }
        }
    } else {
        /* Measure the linear response without bias, then per filter scale to TARGET_STD
         * and centre it with the bias (plus a little noise). */
        layer probe = l;
        probe.activation = LINEAR;
        float *saved_bias = malloc(sizeof(float) * filters);
        if (!saved_bias) die("out of memory");
        memcpy(saved_bias, l.biases, sizeof(float) * filters);
        memset(l.biases, 0, sizeof(float) * filters);
        probe.forward(probe, st);
        double gm = 0, gv = 0;
        global_stats(l.output, (size_t)filters * spatial, &gm, &gv);
        for (int f = 0; f < filters; ++f) {
            double m = gm, v = gv;
            if (spatial >= 2) channel_stats(l.output, spatial, f, &m, &v);
            double sd = sqrt(v);
            if (!(sd > 1e-8)) { sd = sqrt(gv); m = gm; }
            double g = sd > 1e-8 ? TARGET_STD / sd : 1.0;
            float *w = l.weights + (size_t)f * weights_per_filter;
            for (int k = 0; k < weights_per_filter; ++k) w[k] = (float)(w[k] * g);
            l.biases[f] = (float)(-g * m + saved_bias[f]);
        }
        free(saved_bias);
    }
    l.forward(l, st);
}

/* [local]: every output location has its own filters, stored location-major
 * (weights[(location * n + filter) * c*size*size + k]), and every output value its own bias
 * (biases[filter * locations + location]). Uniform weights, then per filter a gain and bias so
 * that the linear response over the locations has std TARGET_STD around a small offset. */
static void calibrate_local_layer(layer *lp, network st)
{
    layer l = *lp;
    int locations = l.out_h * l.out_w;
    int per_filter = l.c * l.size * l.size;
    float bound = (float)sqrt(3.0 / per_filter);
    size_t nweights = (size_t)per_filter * l.n * locations;
    for (size_t k = 0; k < nweights; ++k) l.weights[k] = rng_uniform(-1, 1) * bound;
    memset(l.biases, 0, sizeof(float) * l.outputs);
    layer probe = l;
    probe.activation = LINEAR;
    probe.forward(probe, st);
    double gm = 0, gv = 0;
    global_stats(l.output, (size_t)l.outputs, &gm, &gv);
    for (int f = 0; f < l.n; ++f) {
        double m = gm, v = gv;
        if (locations >= 2) channel_stats(l.output, locations, f, &m, &v);
        double sd = sqrt(v);
        if (!(sd > 1e-8)) { sd = sqrt(gv); m = gm; }
        double g = sd > 1e-8 ? TARGET_STD / sd : 1.0;
        for (int j = 0; j < locations; ++j) {
            float *w = l.weights + ((size_t)j * l.n + f) * per_filter;
            for (int k = 0; k < per_filter; ++k) w[k] = (float)(w[k] * g);
            l.biases[(size_t)f * locations + j] = (float)(-g * m + rng_uniform(-0.1f, 0.1f));
        }
    }
    l.forward(l, st);
}

/* A [connected] sub-layer of a recurrent layer, calibrated on `input` (outputs x 1). */
static void calibrate_sublayer(layer *sub, network st, float *input, int damped)
{
    st.input = input;
    calibrate_weighted_layer(sub, st, sub->outputs, 1, sub->inputs, (float)sqrt(3.0 / sub->inputs), damped, 0);
}

/* A [convolutional] sub-layer of [crnn], calibrated on `input`. */
static void calibrate_conv_sublayer(layer *sub, network st, float *input, int damped)
{
    st.input = input;
    int groups = sub->groups > 0 ? sub->groups : 1;
    int fan_in = sub->c / groups * sub->size * sub->size;
    calibrate_weighted_layer(sub, st, sub->n, sub->out_h * sub->out_w, sub->nweights / sub->n,
                             (float)sqrt(3.0 / fan_in), damped, 0);
}

/* How a sub-layer of a recurrent layer is calibrated on `input`. */
typedef void (*sublayer_calibration)(layer *sub, network st, float *input, int damped);

/* A layer of three sub-layers loaded input, self, output, with a state of n values ([rnn] of
 * [connected] ones, [crnn] of [convolutional] ones, each calibrated by `calibrate`): the input
 * layer on the real input; the self layer on a stand-in state (the input layer's response)
 * with damped batch-norm scales, so the state stays bounded over many steps; the output layer
 * on the state of the first step. The layer's state is zero again afterwards. */
static void calibrate_three_sublayers(layer *lp, network st, size_t n, sublayer_calibration calibrate)
{
    float *proxy = malloc(sizeof(float) * n);
    if (!proxy) die("out of memory");
    calibrate(lp->input_layer, st, st.input, 0);
    memcpy(proxy, lp->input_layer->output, sizeof(float) * n);
    calibrate(lp->self_layer, st, proxy, 1);
    memset(lp->state, 0, sizeof(float) * n);
    lp->forward(*lp, st); /* the state of step 0: input response + self response to zeros */
    memcpy(proxy, lp->state, sizeof(float) * n);
    calibrate(lp->output_layer, st, proxy, 0);
    memset(lp->state, 0, sizeof(float) * n);
    lp->forward(*lp, st);
    memset(lp->state, 0, sizeof(float) * n);
    free(proxy);
}

/* [rnn]: three [connected] sub-layers (see calibrate_three_sublayers). */
static void calibrate_rnn_layer(layer *lp, network st)
{
    calibrate_three_sublayers(lp, st, (size_t)lp->outputs * lp->batch, calibrate_sublayer);
}

/* [crnn]: three [convolutional] sub-layers, as [rnn]; the state has `hidden` values. */
static void calibrate_crnn_layer(layer *lp, network st)
{
    calibrate_three_sublayers(lp, st, (size_t)lp->hidden * lp->batch, calibrate_conv_sublayer);
}

/* The linear [connected] sub-layers of a gated layer whose state has n values: the `inputs`
 * ones in input_side on the real input, then the `states` ones in state_side on a stand-in
 * state uniform in [lo, hi) (with damped batch-norm scales if `damped`). */
static void calibrate_gated_sublayers(network st, size_t n, float lo, float hi, layer **input_side, int inputs,
                                      layer **state_side, int states, int damped)
{
    float *proxy = malloc(sizeof(float) * n);
    if (!proxy) die("out of memory");
    for (size_t k = 0; k < n; ++k) proxy[k] = rng_uniform(lo, hi);
    for (int i = 0; i < inputs; ++i) calibrate_sublayer(input_side[i], st, st.input, 0);
    for (int i = 0; i < states; ++i) calibrate_sublayer(state_side[i], st, proxy, damped);
    free(proxy);
}

/* [gru] (six linear [connected] sub-layers): the input-side ones (uz, ur, uh) on the real
 * input, the state-side ones (wz, wr, wh) on a stand-in state uniform in [0, 1) (a GRU's
 * state is a running mix of logistic outputs). */
static void calibrate_gru_layer(layer *lp, network st)
{
    size_t n = (size_t)lp->outputs * lp->batch;
    layer *input_side[] = {lp->uz, lp->ur, lp->uh}, *state_side[] = {lp->wz, lp->wr, lp->wh};
    calibrate_gated_sublayers(st, n, 0, 1, input_side, 3, state_side, 3, 0);
    memset(lp->state, 0, sizeof(float) * n);
    lp->forward(*lp, st);
    memset(lp->state, 0, sizeof(float) * n);
}

/* [lstm] (eight linear [connected] sub-layers): the input-side ones (uf, ui, ug, uo) on the
 * real input, the ones on the previous output (wf, wi, wg, wo) on a stand-in output uniform in
 * (-1, 1) (h = o * tanh(c)), damped so the cell stays bounded. Cell and output are zero again
 * afterwards. */
static void calibrate_lstm_layer(layer *lp, network st)
{
    size_t n = (size_t)lp->outputs * lp->batch;
    layer *input_side[] = {lp->uf, lp->ui, lp->ug, lp->uo}, *state_side[] = {lp->wf, lp->wi, lp->wg, lp->wo};
    calibrate_gated_sublayers(st, n, -1, 1, input_side, 4, state_side, 4, 1);
    memset(lp->c_cpu, 0, sizeof(float) * n);
    memset(lp->h_cpu, 0, sizeof(float) * n);
    lp->forward(*lp, st);
    memset(lp->c_cpu, 0, sizeof(float) * n);
    memset(lp->h_cpu, 0, sizeof(float) * n);
}

static void cmd_randweights(int argc, char **argv)
{
    if (argc != 6) die("usage: randweights CFG OUT.weights SEED INPUT.bin");
    const char *cfg = argv[2], *out = argv[3];
    long seed = parse_long(argv[4], "SEED");
    network *net = parse_cfg_batch1(cfg);
    float *input = read_network_input(net, argv[5]);

    rng_state = (uint64_t)seed * 0xD1B54A32D192ED03ULL + 0x8CB92BA72F3D8DD7ULL;
    srand((unsigned)seed); /* Darknet's own initialisers for layer types not handled below */

    network st = *net;
    st.train = 0;
    st.delta = 0;
    st.truth = 0;
    st.input = input;
    for (int i = 0; i < net->n; ++i) {
        layer *lp = &net->layers[i];
        int residual_branch = i + 1 < net->n && net->layers[i + 1].type == SHORTCUT;
        int feeds_global_pool = i + 1 < net->n && net->layers[i + 1].type == AVGPOOL;
        st.index = i;
        if (lp->type == CONVOLUTIONAL) {
            int groups = lp->groups > 0 ? lp->groups : 1;
            int fan_in = lp->c / groups * lp->size * lp->size;
            calibrate_weighted_layer(lp, st, lp->n, lp->out_h * lp->out_w,
                                     lp->nweights / lp->n, (float)sqrt(3.0 / fan_in), residual_branch,
                                     feeds_global_pool);
        } else if (lp->type == CONNECTED) {
            calibrate_weighted_layer(lp, st, lp->outputs, 1, lp->inputs,
                                     (float)sqrt(3.0 / lp->inputs), residual_branch, feeds_global_pool);
        } else if (lp->type == BATCHNORM) {
            /* rolling statistics of this very input, so the output has std = scale per channel */
            int spatial = lp->out_h * lp->out_w;
            for (int f = 0; f < lp->out_c; ++f) {
                double m, v;
                channel_stats(st.input, spatial, f, &m, &v);
                lp->scales[f] = rng_uniform(0.5f, 1.5f);
                lp->rolling_mean[f] = (float)m;
                lp->rolling_variance[f] = (float)(v + BN_VARIANCE_FLOOR);
            }
            lp->forward(*lp, st);
        } else if (lp->type == LOCAL) {
            calibrate_local_layer(lp, st);
        } else if (lp->type == RNN) {
            calibrate_rnn_layer(lp, st);
        } else if (lp->type == GRU) {
            calibrate_gru_layer(lp, st);
        } else if (lp->type == LSTM) {
            calibrate_lstm_layer(lp, st);
        } else if (lp->type == CRNN) {
            calibrate_crnn_layer(lp, st);
        } else {
            if (lp->type == DECONVOLUTIONAL)
                fprintf(stderr, "darknet_ref: warning: layer %d (%s) keeps Darknet's own initialisation\n",
                        i, layer_type_name(lp->type));
            lp->forward(*lp, st);
        }
        st.input = lp->output;
        if (lp->truth) st.truth = lp->output;
    }
    /* save_weights reports an unwritable path through Darknet's file_error (exit status 0):
     * check the path first and the size of what it wrote afterwards. */
    FILE *probe = fopen(out, "wb");
    if (!probe) die("cannot create '%s': %s", out, strerror(errno));
    fclose(probe);
    save_weights(net, (char *)out);
    struct stat sb;
    long long floats = expected_weight_floats(net);
    if (stat(out, &sb) != 0) die("weights file '%s' was not written", out);
    if (floats >= 0 && (long long)sb.st_size != 20 + 4 * floats)
        die("weights file '%s' has %lld bytes, expected %lld", out, (long long)sb.st_size, 20 + 4 * floats);
    free(input);
    free_network(net);
}

/* ------------------------------------------------------------------ forward */

static int *select_layers(const network *net, const char *spec, int *count)
{
    int *sel = calloc(net->n > 0 ? net->n : 1, sizeof(int));
    if (!sel) die("out of memory");
    if (strcmp(spec, "all") == 0) {
        for (int i = 0; i < net->n; ++i) sel[i] = 1;
    } else if (strcmp(spec, "yolo") == 0) {
        for (int i = 0; i < net->n; ++i) sel[i] = net->layers[i].type == YOLO || net->layers[i].type == REGION;
    } else {
        char *copy = strdup(spec);
        if (!copy) die("out of memory");
        char *save = NULL;
        for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            long i = parse_long(tok, "layer index");
            if (i < 0 || i >= net->n) die("layer index %ld out of range (network has %d layers)", i, net->n);
            sel[i] = 1;
        }
        free(copy);
    }
    int c = 0;
    for (int i = 0; i < net->n; ++i) c += sel[i];
    if (c == 0) die("LAYERS '%s' selects no layer", spec);
    *count = c;
    return sel;
}

/* Writes OUTDIR/layers.json and OUTDIR/layerNNN.bin (l.output, l.outputs floats) for every
 * selected layer. Besides the shape, each entry records `outputs` and where the layer's
 * parameters sit in the weights file load_net read (`weights_offset` in bytes, `weights_floats`;
 * -1 when this tool does not model the layer's size). */
static void dump_layers(const network *net, const int *sel, const char *outdir)
{
    ensure_dir(outdir);
    size_t plen = strlen(outdir) + 32;
    char *path = malloc(plen);
    if (!path) die("out of memory");
    snprintf(path, plen, "%s/layers.json", outdir);
    FILE *js = fopen(path, "w");
    if (!js) die("cannot create '%s': %s", path, strerror(errno));
    fputs("{\"layers\": [", js);
    int first = 1;
    long long offset = loaded_weights_header;
    for (int i = 0; i < net->n; ++i) {
        layer l = net->layers[i];
        long long floats = layer_weight_floats(&l);
        long long here = offset;
        if (floats < 0 || offset < 0) offset = -1;
        else offset += 4 * floats;
        if (!sel[i]) continue;
        char name[32];
        snprintf(name, sizeof name, "layer%03d.bin", i);
        snprintf(path, plen, "%s/%s", outdir, name);
        if (!l.output) die("layer %d (%s) has no output buffer", i, layer_type_name(l.type));
        write_floats(path, l.output, (size_t)l.outputs);
        fprintf(js, "%s\n  {\"index\": %d, \"type\": \"%s\", \"file\": \"%s\", \"out_c\": %d, \"out_h\": %d, \"out_w\": %d, "
                "\"outputs\": %d, \"weights_offset\": %lld, \"weights_floats\": %lld}",
                first ? "" : ",", i, layer_type_name(l.type), name, l.out_c, l.out_h, l.out_w,
                l.outputs, floats < 0 ? -1 : here, floats);
        first = 0;
    }
    fputs("\n]}\n", js);
    if (fclose(js) != 0) die("write failed on layers.json");
    free(path);
}

static void cmd_forward(int argc, char **argv)
{
    if (argc != 7) die("usage: forward CFG WEIGHTS INPUT.bin OUTDIR LAYERS   (LAYERS: all | yolo | i,j,k)");
    network *net = load_net(argv[2], argv[3]);
    float *input = read_network_input(net, argv[4]);
    int count = 0;
    int *sel = select_layers(net, argv[6], &count);
    network_predict(net, input);
    dump_layers(net, sel, argv[5]);
    free(sel);
    free(input);
    free_network(net);
}

/* One network_predict per character of TEXT, as `darknet rnn generate` feeds its seed: the
 * input is all zeros except 1 at the character's byte value; the network (and the state of
 * its recurrent layers) is kept from one step to the next. Step k's layers go to
 * OUTDIR/stepKK/ (layers.json + layerNNN.bin as for forward, plus input.bin). */
static void cmd_steps(int argc, char **argv)
{
    if (argc != 7) die("usage: steps CFG WEIGHTS TEXT OUTDIR LAYERS   (LAYERS: all | i,j,k)");
    const char *text = argv[4], *outdir = argv[5];
    size_t len = strlen(text);
    if (len == 0 || len > 100) die("TEXT must have 1 to 100 characters");
    network *net = load_net(argv[2], argv[3]);
    int count = 0;
    int *sel = select_layers(net, argv[6], &count);
    float *input = calloc((size_t)net->inputs, sizeof(float));
    if (!input) die("out of memory");
    ensure_dir(outdir);
    size_t plen = strlen(outdir) + 32;
    char *dir = malloc(plen), *path = malloc(plen + 16);
    if (!dir || !path) die("out of memory");
    for (size_t k = 0; k < len; ++k) {
        int c = (unsigned char)text[k];
        if (c >= net->inputs) die("character %d of TEXT (byte %d) is outside the %d inputs", (int)k, c, net->inputs);
        input[c] = 1;
        network_predict(net, input);
        snprintf(dir, plen, "%s/step%02d", outdir, (int)k);
        dump_layers(net, sel, dir);
        snprintf(path, plen + 16, "%s/input.bin", dir);
        write_floats(path, input, (size_t)net->inputs);
        input[c] = 0;
    }
    free(dir);
    free(path);
    free(input);
    free(sel);
    free_network(net);
}

/* As steps, but step k's input is the file INk.bin (any network input, e.g. an image for
 * [crnn]): one network_predict each, the state carried. */
static void cmd_binsteps(int argc, char **argv)
{
    if (argc < 7) die("usage: binsteps CFG WEIGHTS OUTDIR LAYERS IN0.bin [IN1.bin ...]");
    const char *outdir = argv[4];
    if (argc - 6 > 100) die("at most 100 steps");
    network *net = load_net(argv[2], argv[3]);
    int count = 0;
    int *sel = select_layers(net, argv[5], &count);
    ensure_dir(outdir);
    size_t plen = strlen(outdir) + 32;
    char *dir = malloc(plen), *path = malloc(plen + 16);
    if (!dir || !path) die("out of memory");
    for (int k = 0; k + 6 < argc; ++k) {
        float *input = read_network_input(net, argv[k + 6]);
        network_predict(net, input);
        snprintf(dir, plen, "%s/step%02d", outdir, k);
        dump_layers(net, sel, dir);
        snprintf(path, plen + 16, "%s/input.bin", dir);
        write_floats(path, input, (size_t)net->inputs);
        free(input);
    }
    free(dir);
    free(path);
    free(sel);
    free_network(net);
}

/* A recurrent cfg run as it trains: parsed without set_batch_network, so a forward covers
 * time_steps steps (net->batch = batch / subdivisions * time_steps inputs, one after the
 * other) and every recurrent layer carries its state through them within the one call. TEXT
 * (one character per step, one-hot as for steps) must have time_steps characters. Writes
 * OUTDIR/layerNNN.bin with each layer's outputs for all net->batch inputs, step after step. */
static void cmd_sequence(int argc, char **argv)
{
    if (argc != 6) die("usage: sequence CFG WEIGHTS TEXT OUTDIR");
    const char *cfg = argv[2], *weights = argv[3], *text = argv[4], *outdir = argv[5];
    require_readable_file(cfg, "cfg file");
    network *net = parse_network_cfg((char *)cfg);
    if (!net) die("Darknet could not parse '%s'", cfg);
    check_weights_file(net, weights);
    load_weights(net, (char *)weights);
    size_t len = strlen(text);
    if ((int)len != net->batch)
        die("TEXT has %zu characters but one forward of '%s' takes %d inputs (batch x time_steps)", len, cfg, net->batch);
    float *input = calloc((size_t)net->inputs * net->batch, sizeof(float));
    if (!input) die("out of memory");
    for (size_t k = 0; k < len; ++k) {
        int c = (unsigned char)text[k];
        if (c >= net->inputs) die("character %d of TEXT is outside the %d inputs", (int)k, net->inputs);
        input[k * net->inputs + c] = 1;
    }
    network_predict(net, input);
    ensure_dir(outdir);
    size_t plen = strlen(outdir) + 32;
    char *path = malloc(plen);
    if (!path) die("out of memory");
    for (int i = 0; i < net->n; ++i) {
        layer l = net->layers[i];
        if (l.type == COST) continue;
        snprintf(path, plen, "%s/layer%03d.bin", outdir, i);
        write_floats(path, l.output, (size_t)l.outputs * net->batch);
    }
    free(path);
    free(input);
    free_network(net);
}

/* ------------------------------------------------------------------ load / letterbox */

static void cmd_load(int argc, char **argv)
{
    if (argc != 4) die("usage: load IMAGE OUT.bin");
    image im = load_color_checked(argv[2]);
    write_floats(argv[3], im.data, (size_t)im.w * im.h * im.c);
    printf("%d %d %d\n", im.w, im.h, im.c);
    free_image(im);
}

/* IMAGE fitted to W x H by FIT (letterbox_image, or center_crop_image: `darknet classifier
 * valid`'s input), written to OUT.bin. */
static void write_fitted(int argc, char **argv, const char *name, image (*fit)(image, int, int))
{
    if (argc != 6) die("usage: %s IMAGE W H OUT.bin", name);
    long w = parse_long(argv[3], "W"), h = parse_long(argv[4], "H");
    if (w <= 0 || h <= 0 || w > 65536 || h > 65536) die("W and H must be positive");
    image im = load_color_checked(argv[2]);
    image fitted = fit(im, (int)w, (int)h);
    write_floats(argv[5], fitted.data, (size_t)fitted.w * fitted.h * fitted.c);
    free_image(fitted);
    free_image(im);
}

/* ------------------------------------------------------------------ detect */

static char **read_names(const char *path, int *count)
{
    require_readable_file(path, "names file");
    FILE *f = fopen(path, "r");
    if (!f) die("cannot open names '%s'", path);
    int cap = 64, n = 0;
    char **names = malloc(sizeof(char *) * cap);
    char *line = NULL;
    size_t lcap = 0;
    ssize_t len;
    while (names && (len = getline(&line, &lcap, f)) >= 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = '\0';
        if (n == cap) { cap *= 2; names = realloc(names, sizeof(char *) * cap); if (!names) break; }
        names[n++] = strdup(line);
    }
    if (!names) die("out of memory");
    free(line);
    fclose(f);
    *count = n;
    return names;
}

static void cmd_detect(int argc, char **argv)
{
    const char *names_path = NULL;
    const char *pos[8];
    int npos = 0;
    int yolo_test = 0;
    for (int i = 2; i < argc; ++i) {
        if (strcmp(argv[i], "--yolo-test") == 0) {
            yolo_test = 1;
        } else if (strcmp(argv[i], "--names") == 0) {
            if (i + 1 >= argc) die("--names needs a file");
            names_path = argv[++i];
        } else {
            if (npos >= 7) die("too many arguments for detect");
            pos[npos++] = argv[i];
        }
    }
    if (npos == 7) {
        if (names_path) die("names file given twice");
        names_path = pos[6];
    } else if (npos != 6) {
        die("usage: detect CFG WEIGHTS IMAGE THRESH HIER_THRESH NMS [NAMES] [--names NAMES] [--yolo-test]");
    }
    const char *cfg = pos[0], *weights = pos[1], *imgpath = pos[2];
    float thresh = (float)parse_double(pos[3], "THRESH");
    float hier = (float)parse_double(pos[4], "HIER_THRESH");
    float nms = (float)parse_double(pos[5], "NMS");

    int nnames = 0;
    char **names = names_path ? read_names(names_path, &nnames) : NULL;

    /* as test_detector: load_network, batch 1, then the image; with --yolo-test as YOLOv1's
     * test_yolo (and test_coco): the image stretched by resize_image, boxes asked for a 1 x 1
     * image (relative), no hierarchy threshold, not relative to the letterbox */
    network *net = load_net(cfg, weights);
    srand(2222222);
    image im = load_color_checked(imgpath);
    image sized = yolo_test ? resize_image(im, net->w, net->h) : letterbox_image(im, net->w, net->h);
    layer last = net->layers[net->n - 1];
    network_predict(net, sized.data);
    int nboxes = 0;
    detection *dets = yolo_test ? get_network_boxes(net, 1, 1, thresh, 0, 0, 0, &nboxes)
                                : get_network_boxes(net, im.w, im.h, thresh, hier, 0, 1, &nboxes);
    if (nms > 0) do_nms_sort(dets, nboxes, last.classes, nms);

    FILE *out = stdout;
    fputs("{\"image\": ", out);
    json_string(out, imgpath);
    fprintf(out, ", \"width\": %d, \"height\": %d, \"detections\": [", im.w, im.h);
    int first = 1;
    for (int i = 0; i < nboxes; ++i) {
        box b = dets[i].bbox;
        /* same arithmetic as draw_detections: double math, truncation to int, clamping */
        int left = (b.x - b.w / 2.) * im.w;
        int right = (b.x + b.w / 2.) * im.w;
        int top = (b.y - b.h / 2.) * im.h;
        int bot = (b.y + b.h / 2.) * im.h;
        if (left < 0) left = 0;
        if (right > im.w - 1) right = im.w - 1;
        if (top < 0) top = 0;
        if (bot > im.h - 1) bot = im.h - 1;
        for (int j = 0; j < last.classes; ++j) {
            if (!(dets[i].prob[j] > thresh)) continue;
            char num[16];
            const char *label = names && j < nnames ? names[j] : (snprintf(num, sizeof num, "%d", j), num);
            fprintf(out, "%s{\"class\": %d, \"label\": ", first ? "" : ", ", j);
            json_string(out, label);
            fprintf(out, ", \"prob\": %.6f, \"x\": %d, \"y\": %d, \"w\": %d, \"h\": %d}",
                    dets[i].prob[j], left, top, right - left, bot - top);
            first = 0;
        }
    }
    fputs("]}\n", out);
    if (fflush(out) != 0) die("write to stdout failed");

    free_detections(dets, nboxes);
    free_image(sized);
    free_image(im);
    free_network(net);
    if (names) { for (int k = 0; k < nnames; ++k) free(names[k]); free(names); }
}

/* ------------------------------------------------------------------ flops */

/* The BFLOPs Darknet's parser prints for each convolutional layer (the only layers it
 * counts), from the layers it built: 2 * n * size * size * c / groups * out_h * out_w / 1e9,
 * evaluated in Darknet's order; and their sum. */
static void cmd_flops(int argc, char **argv)
{
    if (argc != 3) die("usage: flops CFG");
    network *net = parse_cfg_batch1(argv[2]);
    double total = 0;
    printf("{\"layers\": %d, \"conv\": [", net->n);
    int first = 1;
    for (int i = 0; i < net->n; ++i) {
        layer l = net->layers[i];
        if (l.type != CONVOLUTIONAL) continue;
        double bflops = (2.0 * l.n * l.size * l.size * l.c / l.groups * l.out_h * l.out_w) / 1000000000.;
        total += bflops;
        printf("%s[%d, %.9f]", first ? "" : ", ", i, bflops);
        first = 0;
    }
    printf("], \"total\": %.9f}\n", total);
    if (fflush(stdout) != 0) die("write to stdout failed");
    free_network(net);
}

/* ------------------------------------------------------------------ main */

static void usage(void)
{
    fputs("usage:\n"
          "  darknet_ref randweights CFG OUT.weights SEED INPUT.bin\n"
          "  darknet_ref forward CFG WEIGHTS INPUT.bin OUTDIR LAYERS   (all | yolo | i,j,k)\n"
          "  darknet_ref steps CFG WEIGHTS TEXT OUTDIR LAYERS         (one-hot characters, state carried)\n"
          "  darknet_ref sequence CFG WEIGHTS TEXT OUTDIR              (all time_steps in one forward)\n"
          "  darknet_ref binsteps CFG WEIGHTS OUTDIR LAYERS IN0.bin ... (one input file per step, state carried)\n"
          "  darknet_ref load IMAGE OUT.bin\n"
          "  darknet_ref letterbox IMAGE W H OUT.bin\n"
          "  darknet_ref centrecrop IMAGE W H OUT.bin                 (classifier valid's input)\n"
          "  darknet_ref detect CFG WEIGHTS IMAGE THRESH HIER_THRESH NMS [NAMES] [--names NAMES] [--yolo-test]\n"
          "  darknet_ref flops CFG\n",
          stderr);
    exit(1);
}

int main(int argc, char **argv)
{
    check_little_endian();
    if (argc < 2) usage();
    const char *cmd = argv[1];
    if (strcmp(cmd, "randweights") == 0) cmd_randweights(argc, argv);
    else if (strcmp(cmd, "forward") == 0) cmd_forward(argc, argv);
    else if (strcmp(cmd, "steps") == 0) cmd_steps(argc, argv);
    else if (strcmp(cmd, "sequence") == 0) cmd_sequence(argc, argv);
    else if (strcmp(cmd, "load") == 0) cmd_load(argc, argv);
    else if (strcmp(cmd, "letterbox") == 0) write_fitted(argc, argv, cmd, letterbox_image);
    else if (strcmp(cmd, "centrecrop") == 0) write_fitted(argc, argv, cmd, center_crop_image);
    else if (strcmp(cmd, "detect") == 0) cmd_detect(argc, argv);
    else if (strcmp(cmd, "flops") == 0) cmd_flops(argc, argv);
    else if (strcmp(cmd, "binsteps") == 0) cmd_binsteps(argc, argv);
    else { fprintf(stderr, "darknet_ref: error: unknown command '%s'\n", cmd); usage(); }
    return 0;
}
