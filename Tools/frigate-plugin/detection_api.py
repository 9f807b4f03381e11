"""Stand-in for Frigate's frigate/detectors/detection_api.py: the constructor zmq_ipc.py relies on."""
from abc import ABC, abstractmethod


class DetectionApi(ABC):
    @abstractmethod
    def __init__(self, detector_config):
        self.detector_config = detector_config
        self.thresh = 0.4
        self.height = detector_config.model.height
        self.width = detector_config.model.width

    @abstractmethod
    def detect_raw(self, tensor_input):
        pass
