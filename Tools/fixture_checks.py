"""Helpers for the sanity checks at the end of the fixture parts (make-fixtures-zoo.sh,
make-fixtures-debian.sh, make-fixtures-debian-lstm-crnn.sh), which run their checks as
`PYTHONPATH=Tools python3 - ...` heredocs."""
import array
import sys


def load(path):
    """The float32 values of a fixture's .bin file."""
    a = array.array("f")
    with open(path, "rb") as f:
        a.frombytes(f.read())
    return a


def finish(problems):
    """Prints the problems found and exits 1, or says the checks passed."""
    if problems:
        print("\nPROBLEMS:"); [print("  " + p) for p in problems]; sys.exit(1)
    print("\nsanity checks passed")
