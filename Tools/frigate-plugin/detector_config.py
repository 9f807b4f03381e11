"""Stand-in for Frigate's frigate/detectors/detector_config.py: only what zmq_ipc.py uses."""
from enum import Enum

from pydantic import BaseModel, ConfigDict


class ModelTypeEnum(str, Enum):
    ssd = "ssd"
    yolox = "yolox"
    yologeneric = "yolo-generic"


class ModelConfig(BaseModel):
    path: str | None = None
    width: int = 416
    height: int = 416
    model_type: ModelTypeEnum = ModelTypeEnum.yologeneric


class BaseDetectorConfig(BaseModel):
    type: str = "cpu"
    model: ModelConfig | None = None
    model_config = ConfigDict(extra="allow", arbitrary_types_allowed=True, protected_namespaces=())
