"""ONNX Runtime's own int8 for the peer comparison (development-time, not the library).

The float ONNX graph of darknet_model.build_onnx, quantized with
onnxruntime.quantization.quantize_static: QDQ format, int8 weights per output channel
(symmetric), uint8 activations per tensor (asymmetric) from MinMax calibration on a folder of
images letterboxed as Darknet letterboxes them (darknet_model.letterbox). ONNX Runtime then
fuses each DequantizeLinear -> Conv -> QuantizeLinear into its integer convolution (VNNI on
this CPU). Calibrate on images that are not the evaluation images: calibration_images.py makes
such a folder and refuses Darknet's sample images.
"""
import os
import sys

from darknet_model import letterbox

EXTENSIONS = (".jpg", ".jpeg", ".png")
DARKNET_SAMPLES = {"dog", "eagle", "giraffe", "horses", "kite", "person", "scream"}


def calibration_paths(directory):
    paths = [os.path.join(directory, name) for name in sorted(os.listdir(directory))
             if os.path.splitext(name)[1].lower() in EXTENSIONS]
    if not paths:
        sys.exit(f"{directory}: no .jpg/.png calibration images")
    for path in paths:
        if os.path.splitext(os.path.basename(path))[0].lower() in DARKNET_SAMPLES:
            sys.exit(f"{path}: one of Darknet's sample images (the evaluation set); calibrate on other images")
    return paths


def quantize(float_onnx, out_onnx, calibration_dir, size):
    """Writes the int8 QDQ graph of `float_onnx` to `out_onnx`; returns the calibration image count."""
    import cv2
    from onnxruntime.quantization import (CalibrationDataReader, CalibrationMethod, QuantFormat, QuantType,
                                          quantize_static)
    from onnxruntime.quantization.shape_inference import quant_pre_process
    import onnx

    paths = calibration_paths(calibration_dir)
    input_name = onnx.load(float_onnx, load_external_data=False).graph.input[0].name

    class Reader(CalibrationDataReader):
        def __init__(self):
            self.remaining = list(paths)

        def get_next(self):
            while self.remaining:
                image = cv2.imread(self.remaining.pop(0), cv2.IMREAD_COLOR)
                if image is not None:
                    return {input_name: letterbox(image, size)}
            return None

    prepared = out_onnx + ".pre.onnx"
    # Shape inference and ORT's graph clean-up first, as ORT's documentation recommends.
    quant_pre_process(float_onnx, prepared, skip_symbolic_shape=True)
    quantize_static(prepared, out_onnx, Reader(), quant_format=QuantFormat.QDQ, per_channel=True,
                    activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                    calibrate_method=CalibrationMethod.MinMax)
    os.remove(prepared)
    return len(paths)
