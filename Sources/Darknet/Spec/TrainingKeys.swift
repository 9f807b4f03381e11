/// Keys Darknet (and its AlexeyAB fork) read only while training. They are accepted and
/// ignored at inference; any key outside these tables and the typed specs is reported as a
/// `CfgDiagnostic`.
enum TrainingKeys {
    /// Keys any layer may carry.
    static let anyLayer: Set<String> = [
        "stopbackward", "stop_backward", "dontload", "dontloadscales", "learning_rate", "train",
        "train_only_bn", "dont_update", "burnin_update", "onlyforward", "impact", "burnin",
    ]

    static let net: Set<String> = [
        "batch", "subdivisions", "momentum", "decay", "angle", "saturation", "exposure", "hue",
        "learning_rate", "learning_rate_min", "burn_in", "max_batches", "policy", "steps", "scales",
        "step", "gamma", "power", "time_steps", "notruth", "random", "max_crop", "min_crop", "aspect",
        "center", "adam", "B1", "B2", "eps", "mixup", "cutmix", "mosaic", "mosaic_bound", "letter_box",
        "flip", "blur", "gaussian_noise", "track", "augment_speed", "sequential_subdivisions",
        "try_fix_nan", "label_smooth_eps", "resize_step", "attention", "adversarial_lr", "contrastive",
        "contrastive_jit_flip", "contrastive_color", "unsupervised", "max_chart_loss", "loss_scale",
        "dynamic_minibatch", "optimized_memory", "workspace_size_limit_MB", "ema_alpha", "seq_scales",
        "sgdr_cycle", "sgdr_mult", "clip", "rate", "burn_in_fixed", "show_receptive_field", "equidistant_point",
    ]

    static let yolo: Set<String> = [
        "jitter", "ignore_thresh", "truth_thresh", "random", "max", "counters_per_class",
        "label_smooth_eps", "iou_normalizer", "cls_normalizer", "obj_normalizer", "iou_loss",
        "iou_thresh_kind", "resize", "focal_loss", "objectness_smooth", "max_delta", "uc_normalizer",
        "delta_normalizer", "iou_thresh", "map", "rescore", "bias_match", "show_details",
    ]

    static let convolutional: Set<String> = ["share_index"]
    static let maxpool: Set<String> = []
    static let route: Set<String> = []
    static let upsample: Set<String> = []
    static let shortcut: Set<String> = ["weights_normalization"]
}
