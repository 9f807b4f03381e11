"""What AlexeyAB's darknet (built with OpenCV) loads for a network with channels=1:
load_image(file, 0, 0, 1) is cv::imread(file, IMREAD_GRAYSCALE). Prints, for Darknet's sample
JPEGs and for dog.jpg's pixels written as PNG and as binary PPM, the grey image's size and the
FNV-1a 64 hash of its bytes (row-major), the lines of grey-imread.txt that GreyscaleImageTests
compares PlanarImage(contentsOf:channels: 1) with.

    python Tools/greyscale/grey_imread.py Weights/darknet/data > Tools/greyscale/grey-imread.txt

(opencv-python-headless 4.14.0.94, the version Tools/make-alexeyab-fixtures.sh pins; run by hand,
not by the fixture scripts: the recorded lines are the reference.)
"""
import os
import sys
import tempfile

import cv2


def fnv(data: bytes) -> str:
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def line(name: str, path: str) -> str:
    grey = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
    return f"{name} {grey.shape[1]} {grey.shape[0]} {fnv(grey.tobytes())}"


data = sys.argv[1]
print(f"# cv2 {cv2.__version__}: name width height fnv1a64(imread(IMREAD_GRAYSCALE) bytes)")
for name in ["dog", "eagle", "giraffe", "horses", "kite", "person", "scream"]:
    print(line(f"{name}.jpg", os.path.join(data, f"{name}.jpg")))
colour = cv2.imread(os.path.join(data, "dog.jpg"), cv2.IMREAD_COLOR)
with tempfile.TemporaryDirectory() as folder:
    for extension in ["png", "ppm"]:
        path = os.path.join(folder, f"dog.{extension}")
        cv2.imwrite(path, colour)
        print(line(f"dog-pixels.{extension}", path))
