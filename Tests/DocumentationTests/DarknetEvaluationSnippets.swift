import DarknetEvaluation
import Darknet
import Foundation

// The Swift snippets of the article DarknetEvaluation.md, compiled (never run) with only its imports.

func darknetEvaluation1() throws {
    // begin Sources/DarknetEvaluation/DarknetEvaluation.docc/DarknetEvaluation.md 1, Sources/DarknetEvaluation/README.md 1
    let set = try ValidationSet(data: objDataURL)                    // valid=, difficult=, eval=, results=
    let detector = try Detector(data: objDataURL, cfg: cfgURL, weights: weightsURL, threads: 2)
    let evaluation = try DetectorEvaluation(detector: detector, set: set, cfg: cfgURL)   // letter_box= from the cfg
    let report = try evaluation.meanAveragePrecision(options: MeanAveragePrecisionOptions(points: 101))
    print(report.darknetText)                                        // AlexeyAB's lines
    let json = try JSONEncoder().encode(report)                      // MeanAveragePrecisionReport is Codable
    // end Sources/DarknetEvaluation/DarknetEvaluation.docc/DarknetEvaluation.md 1, Sources/DarknetEvaluation/README.md 1
    _ = json
}

func darknetEvaluation2() throws {
    // begin Sources/DarknetEvaluation/DarknetEvaluation.docc/DarknetEvaluation.md 2, Sources/DarknetEvaluation/README.md 2
    let validation = try ClassifierValidation(data: imagenetDataURL)  // valid=, labels=, classes=, top=
    let tally = try validation.run(classifier) { image, _, tally in print(image.listed, tally.darknetLine) }
    print(tally.top1, tally.topK)
    // end Sources/DarknetEvaluation/DarknetEvaluation.docc/DarknetEvaluation.md 2, Sources/DarknetEvaluation/README.md 2
}
