"""deepstack-python (PyPI) against a swift-darknet server: DeepstackObject.detect() on each image.

    deepstack_client.py PORT [--custom MODEL] IMAGE...

Prints one JSON line per image: {"image": path, "predictions": [...]} as the library returns
them; a DeepstackException is printed as {"image": path, "error": "..."}.
"""
import json
import sys

from deepstack.core import DeepstackException, DeepstackObject


def main():
    port = int(sys.argv[1])
    arguments = sys.argv[2:]
    custom = ""
    if arguments[:1] == ["--custom"]:
        custom, arguments = arguments[1], arguments[2:]
    client = DeepstackObject(ip="127.0.0.1", port=port, min_confidence=0.4, custom_model=custom, timeout=60)
    for path in arguments:
        with open(path, "rb") as image:
            data = image.read()
        try:
            print(json.dumps({"image": path, "predictions": client.detect(data)}), flush=True)
        except DeepstackException as error:
            print(json.dumps({"image": path, "error": str(error)}), flush=True)


if __name__ == "__main__":
    main()
