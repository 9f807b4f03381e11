/// `[route]`: concatenates earlier outputs along channels.
public struct RouteSpec: Sendable, Equatable {
    /// Absolute indices of the source layers (relative ones already resolved).
    public var layers: [Int]
    /// Each source is cut into this many equal channel slices (`groups`, default 1) ...
    public var groups: Int = 1
    /// ... and slice `groupID` of each is taken (`group_id`, default 0).
    public var groupID: Int = 0
}

extension RouteSpec: WeightlessLayer {
    static let sectionNames = ["route"]

    static func read(_ r: inout SectionReader, index: Int) throws(CfgError) -> RouteSpec {
        r.ignore(TrainingKeys.route)
        let layers = try r.sources("layers", at: index)
        let groups = try r.int("groups", default: 1, minimum: 1)
        let groupID = try r.int("group_id", default: 0, minimum: 0)
        guard groupID < groups else {
            throw r.error("group_id", .invalidValue(value: String(groupID), expected: "a slice index in 0..<groups (\(groups))"))
        }
        r.ignore(["stream", "wait_stream"])  // GPU scheduling
        return RouteSpec(layers: layers, groups: groups, groupID: groupID)
    }

    var needsAlexeyAB: Bool { groups != 1 }

    func plan(_ context: LayerPlanningContext) throws(PlanError) -> LayerPlanning {
        let first = context.outputShape(of: layers[0])
        var channels = 0
        for source in layers {
            let shape = context.outputShape(of: source)
            guard shape.height == first.height, shape.width == first.width else {
                throw context.fail(.routeSizeMismatch(first: first, other: shape, otherLayer: source))
            }
            // AlexeyAB slices each source's values in `groups` equal runs: whole channels only.
            guard shape.channels % groups == 0 else {
                throw context.fail(.channelsNotDivisibleByGroups(channels: shape.channels, groups: groups))
            }
            channels += shape.channels / groups
        }
        return LayerPlanning(output: TensorShape(channels: channels, height: first.height, width: first.width), sources: layers)
    }

    func summary(_ layer: LayerPlan) -> String {
        "route  " + layers.map(String.init).joined(separator: " ")
    }

    /// For each source in order, slice `groupID` of its `groups` equal channel runs (the whole
    /// output when `groups` is 1), concatenated.
    func run(_ layer: LayerPlan, in pass: ForwardPass) {
        let output = pass.output(of: layer)
        let counts = layers.lazy.map { pass.plan.layers[$0].outputShape.count / groups }
        // Threads split the concatenated output; a piece copies its part of each slice it meets.
        pass.split(counts.reduce(0, +), minimumPiece: 1 << 16) { span, _ in
            var start = 0
            for (source, count) in zip(layers, counts) {
                let overlap = span.clamped(to: start..<(start + count))
                if !overlap.isEmpty {
                    (output + overlap.lowerBound).update(
                        from: pass.buffer(of: source) + groupID * count + (overlap.lowerBound - start),
                        count: overlap.count)
                }
                start += count
            }
        }
    }
}
