import Darknet
import Foundation
import TestSupport
import XCTest

/// Files of the evaluation tests beyond `TestPaths`: the labelled set
/// Tools/make-evaluation-fixtures.sh builds (with the Python that runs the references), and
/// edited forms of YOLOv3-tiny's cfg.
enum EvaluationFixtures {
    /// Tools/make-evaluation-fixtures.sh's output.
    static let set = TestPaths.fixtures.appendingPathComponent("evaluation")
    static let referenceScript = TestPaths.packageRoot.appendingPathComponent("Tools/evaluation/reference_map.py")

    /// YOLOv3-tiny's cfg with `edit` applied to its text, written into `folder`.
    static func editedTinyCfg(in folder: URL, name: String, _ edit: (String) -> String) throws -> URL {
        try writeText(edit(try String(contentsOf: TestPaths.require(TestPaths.tinyCfg), encoding: .utf8)), to: name, in: folder)
    }

    /// The AlexeyAB-dialect form of YOLOv3-tiny the comparisons use: every `[yolo]` with
    /// `nms_kind=greedynms` and `beta_nms=0.6` (as YOLOv4's cfgs have them), so the network is
    /// AlexeyAB's (its batch-norm epsilon) and suppresses by DIoU.
    static func alexeyABTinyCfg(in folder: URL) throws -> URL {
        try editedTinyCfg(in: folder, name: "yolov3-tiny-ab.cfg") {
            $0.replacingOccurrences(of: "[yolo]\n", with: "[yolo]\nnms_kind=greedynms\nbeta_nms=0.6\n")
        }
    }
}
